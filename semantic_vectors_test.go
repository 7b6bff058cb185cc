package memory_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// switchEmbedder embeds with conceptEmbed (16 values) until bad is set,
// then answers bad's vector for every text.
type switchEmbedder struct {
	mu  sync.Mutex
	bad []float32
	on  bool
}

func (e *switchEmbedder) set(on bool, v []float32) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.on, e.bad = on, v
}

func (e *switchEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if e.on {
			out[i] = append([]float32(nil), e.bad...)
		} else {
			out[i] = conceptEmbed(t)
		}
	}
	return out, nil
}

// A vector that is empty, holds NaN or Inf, is longer than the bound, or
// has another dimension than the store's vectors is refused like an
// unreachable embedder: the lookup answers from words and says why, and a
// fact is stored without a vector, to be embedded when the index is next
// built.
func TestSemanticRefusesBadVectors(t *testing.T) {
	nan := conceptEmbed("florp")
	nan[3] = float32(math.NaN())
	inf := conceptEmbed("florp")
	inf[0] = float32(math.Inf(1))
	for _, tc := range []struct {
		name string
		v    []float32
		says string
	}{
		{"empty", []float32{}, "empty"},
		{"NaN", nan, "NaN"},
		{"Inf", inf, "Inf"},
		{"too long", make([]float32, 20000), "16384"},
		{"another dimension", make([]float32, 8), "dimension"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &switchEmbedder{}
			opts := &memory.Options{Lookup: memory.LookupSemantic, Embedder: e, NoSync: true}
			s, path := open(t, nil, opts)
			tea := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I drink green tea."}))
			e.set(true, tc.v)
			l := must[memory.Lookup](t)(s.Candidates(ctx, "", "green tea every day", 12))
			if !strings.Contains(l.Fallback, "semantic lookup failed") || !strings.Contains(l.Fallback, tc.says) || len(l.Candidates) != 1 {
				t.Errorf("lookup with a bad vector: fallback %q, %d candidates", l.Fallback, len(l.Candidates))
			}
			late := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My hobby is florp."}))
			e.set(false, nil)
			must[[]uint64](t)(s.Delete(ctx, "", tea.ID, nil))
			// A semantic index lives as long as its process: the next
			// one's first lookup builds it again, and embeds what it can.
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = must[*memory.Store](t)(memory.Open(path, 0, opts))
			t.Cleanup(func() { s.Close() })
			l = must[memory.Lookup](t)(s.Candidates(ctx, "", "quab", 12))
			if l.Fallback != "" || len(l.Candidates) != 1 || l.Candidates[0].Fact.ID != late.ID || l.Candidates[0].Similarity < 0.9 {
				t.Errorf("the fact added with a bad vector was not embedded again: %+v", l)
			}
			checkClean(t, s)
		})
	}
}

// The store's dimension is that of the vectors it holds, also for the
// next process: an embedder of another dimension, opened on it later, is
// refused and said so, rather than compared with vectors it cannot match.
func TestSemanticDimensionOutlivesTheProcess(t *testing.T) {
	e := &switchEmbedder{}
	s, path := open(t, nil, &memory.Options{Lookup: memory.LookupSemantic, Embedder: e})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My hobby is florp."}))
	s.Close()
	other := &switchEmbedder{}
	other.set(true, make([]float32, 8))
	s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true, Lookup: memory.LookupSemantic, Embedder: other}))
	defer s.Close()
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "florp", 12))
	if !strings.Contains(l.Fallback, "8 values, but the store's have 16") || len(l.Candidates) != 1 {
		t.Errorf("%+v", l)
	}
}
