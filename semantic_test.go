package memory_test

import (
	"hash/fnv"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// conceptEmbed is the fake model's notion of meaning: made-up words that
// share no letters, stem or lexicon topic but mean the same thing land on
// the same axis; every other word gets a small axis of its own.
func conceptEmbed(text string) []float32 {
	v := make([]float32, 16)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, ".,!?")
		switch w {
		case "florp", "quab":
			v[0] += 4
		case "zint", "vexo":
			v[1] += 4
		default:
			h := fnv.New32a()
			h.Write([]byte(w))
			v[2+h.Sum32()%14] += 0.3
		}
	}
	return v
}

func semanticStore(t *testing.T, srv *ollamatest.Server) *memory.Store {
	t.Helper()
	s, _ := semanticStoreAt(t, srv)
	return s
}

// semanticStoreAt is semanticStore, with a function that closes the store
// and opens it again, as the next process would.
func semanticStoreAt(t *testing.T, srv *ollamatest.Server) (*memory.Store, func() *memory.Store) {
	t.Helper()
	e, err := memory.OllamaEmbedder("fake-embed", &memory.OllamaOptions{Host: srv.URL, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	opts := &memory.Options{NoSync: true, Lookup: memory.LookupSemantic, Embedder: e}
	s, err := memory.Open(filepath.Join(dir, "m.db"), 0, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, func() *memory.Store {
		t.Helper()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s, err := memory.Open(filepath.Join(dir, "m.db"), 0, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}

func TestSemanticLookupFindsMeaning(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Embed = conceptEmbed
	s := semanticStore(t, srv)
	target := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My hobby is florp."}))
	other := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I keep a zint at home."}))
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "Lately I practise quab.", 12))
	if l.Fallback != "" || len(l.Candidates) == 0 || l.Candidates[0].Fact.ID != target.ID {
		t.Fatalf("lookup %+v", l)
	}
	if c := l.Candidates[0]; c.Similarity < 0.9 || len(c.Terms) != 0 {
		t.Errorf("evidence %+v: want a high similarity and no shared words", c)
	}
	if i := slices.IndexFunc(l.Candidates, func(c memory.Candidate) bool { return c.Fact.ID == other.ID }); i == 0 {
		t.Errorf("the unrelated fact ranked first: %+v", l.Candidates)
	}
}

// Without Ollama the lookup still answers from words, and says so.
func TestSemanticFallsBackToWords(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Embed = conceptEmbed
	s, reopen := semanticStoreAt(t, srv)
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I drink green tea."}))
	for _, fault := range []ollamatest.Fault{ollamatest.Error500, ollamatest.Garbage, ollamatest.Hang} {
		srv.SetFault(fault)
		l := must[memory.Lookup](t)(s.Candidates(ctx, "", "green tea every day", 12))
		if l.Fallback == "" || len(l.Candidates) != 1 || l.Candidates[0].Fact.ID != f.ID {
			t.Errorf("fault %d: %+v", fault, l)
		}
	}
	// Facts added while the model is down are still stored, without a
	// vector, and embedded when the index is next built.
	srv.SetFault(ollamatest.Error500)
	late := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My hobby is florp."}))
	srv.SetFault(ollamatest.OK)
	must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
	s = reopen() // the next process's first lookup builds the index
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "quab", 12))
	if l.Fallback != "" || len(l.Candidates) != 1 || l.Candidates[0].Fact.ID != late.ID || l.Candidates[0].Similarity < 0.9 {
		t.Errorf("after recovery: %+v", l)
	}
}

// An Ollama embedder where nothing listens: the lookup falls back to words
// and says so.
func TestSemanticWithoutOllama(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	e := must[memory.Embedder](t)(memory.OllamaEmbedder("", &memory.OllamaOptions{Host: closed}))
	s, _ := open(t, nil, &memory.Options{NoSync: true, Lookup: memory.LookupSemantic, Embedder: e})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I drink green tea."}))
	got := must[memory.Lookup](t)(s.Candidates(ctx, "", "green tea", 12))
	if !strings.Contains(got.Fallback, "semantic lookup failed") || !strings.Contains(got.Fallback, closed) || len(got.Candidates) != 1 {
		t.Errorf("%+v", got)
	}
}
