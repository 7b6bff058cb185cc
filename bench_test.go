package memory_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// benchStore holds n facts of one user, a tenth of them superseded.
func benchStore(b *testing.B, n int, mode memory.LookupMode) *memory.Store {
	b.Helper()
	c := newClock("2026-01-01")
	s, err := memory.Open(filepath.Join(b.TempDir(), "m.db"), 0, &memory.Options{NoSync: true, Clock: c.Now, Lookup: mode})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	topics := []string{"work", "piano", "coffee", "flat", "cat", "bank", "train", "doctor"}
	for i := range n {
		f, err := s.Add(ctx, memory.Note{Text: fmt.Sprintf("Fact %d about my %s and the %s.", i, topics[i%8], topics[(i/8)%8])})
		if err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 {
			c.set("2026-02-01")
			if _, err := s.Supersede(ctx, "", f.ID, memory.Note{Text: fmt.Sprintf("Fact %d, revised, about my %s.", i, topics[i%8])}); err != nil {
				b.Fatal(err)
			}
		}
	}
	return s
}

func BenchmarkAt(b *testing.B) {
	s := benchStore(b, 1000, memory.LookupKeywords4)
	july := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.At(ctx, "", july, time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrompt(b *testing.B) {
	s := benchStore(b, 1000, memory.LookupKeywords4)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Prompt(ctx, "", nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkList(b *testing.B) {
	s := benchStore(b, 1000, memory.LookupKeywords4)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.List(ctx, "", nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCandidates(b *testing.B) {
	for _, mode := range []memory.LookupMode{memory.LookupKeywords4, memory.LookupStems, memory.LookupTopics} {
		b.Run(string(mode), func(b *testing.B) {
			s := benchStore(b, 1000, mode)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Candidates(ctx, "", "These days I play the piano at work.", 12); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
