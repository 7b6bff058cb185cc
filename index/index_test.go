package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func newIndex(t *testing.T, mode Mode) *Index {
	t.Helper()
	an, err := NewAnalyzer(mode)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := New(an, filepath.Join(t.TempDir(), "ix"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestSearchIsPerUser(t *testing.T) {
	ix := newIndex(t, Stems)
	if err := ix.Put(
		Doc{ID: 1, User: "alice", Text: "I work at Northwind Bank"},
		Doc{ID: 2, User: "bob", Text: "I work at Northwind Bank"},
		Doc{ID: 3, User: "alice bob", Text: "work work work"},
		Doc{ID: 4, User: "", Text: "I work at a bakery"},
	); err != nil {
		t.Fatal(err)
	}
	q := ix.Analyzer().Analyze("my work at the bank")
	for user, want := range map[string]uint64{"alice": 1, "bob": 2, "alice bob": 3, "": 4} {
		hits, err := ix.Search(context.Background(), user, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || hits[0].ID != want {
			t.Errorf("user %q: hits %+v, want only %d", user, hits, want)
		}
	}
}

func TestDeleteAndClose(t *testing.T) {
	ix := newIndex(t, Keywords4)
	ctx := context.Background()
	if err := ix.Put(Doc{ID: 1, Text: "coffee every morning"}, Doc{ID: 2, Text: "coffee at night"}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Delete(DocKey{ID: 1}, DocKey{ID: 99}); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.Search(ctx, "", ix.Analyzer().Analyze("coffee"), 10)
	if err != nil || len(hits) != 1 || hits[0].ID != 2 {
		t.Errorf("after delete: %+v, %v", hits, err)
	}
	// A second Put of an id replaces the document.
	if err := ix.Put(Doc{ID: 2, Text: "tea at night"}); err != nil {
		t.Fatal(err)
	}
	if hits, _ := ix.Search(ctx, "", ix.Analyzer().Analyze("coffee"), 10); len(hits) != 0 {
		t.Errorf("replaced doc still matches: %+v", hits)
	}
	dir := ix.Dir()
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("index directory left behind: %v", err)
	}
	if _, err := ix.Search(ctx, "", ix.Analyzer().Analyze("night"), 10); err != ErrClosed {
		t.Errorf("search after close: %v", err)
	}
}

// Bulk indexes every batch its producer hands out, from several goroutines,
// and stops at the producer's first error, returning it.
func TestBulkTakesBatchesUntilDoneOrFailed(t *testing.T) {
	batches := func(n int, fail error) func() ([]Doc, error) {
		next := uint64(1)
		return func() ([]Doc, error) {
			if next > uint64(n) {
				return nil, nil
			}
			if fail != nil && next > uint64(n/2) {
				return nil, fail
			}
			var docs []Doc
			for range 10 {
				docs = append(docs, Doc{ID: next, User: "u", Text: fmt.Sprintf("fact %d about the garden", next)})
				next++
			}
			return docs, nil
		}
	}
	ix := newIndex(t, Keywords4)
	if err := ix.Bulk(batches(200, nil)); err != nil {
		t.Fatal(err)
	}
	if n, err := ix.Count(); err != nil || n != 200 {
		t.Errorf("indexed %d docs (%v), want 200", n, err)
	}
	boom := errors.New("store unreadable")
	if err := newIndex(t, Keywords4).Bulk(batches(200, boom)); !errors.Is(err, boom) {
		t.Errorf("a failing producer: %v", err)
	}
}

// TestSearchWordsWeighsTagsByWord checks that a word in many topic frames
// ("night") outweighs a word in few ("film") by less in SearchWords than
// in Search, which weighs every tag alike.
func TestSearchWordsWeighsTagsByWord(t *testing.T) {
	ix := newIndex(t, Topics)
	if err := ix.Put(
		Doc{ID: 1, Text: "Our street is noisy at night."},
		Doc{ID: 2, Text: "I watch a film most weekends."},
	); err != nil {
		t.Fatal(err)
	}
	text := "a film at night"
	ctx := context.Background()
	lead := func(hits []Hit, err error) float64 {
		t.Helper()
		if err != nil || len(hits) != 2 || hits[1].Score == 0 {
			t.Fatalf("hits %+v, %v; want both", hits, err)
		}
		s := map[uint64]float64{hits[0].ID: hits[0].Score, hits[1].ID: hits[1].Score}
		return s[1] / s[2]
	}
	all := lead(ix.Search(ctx, "", ix.Analyzer().Analyze(text), 10))
	byWord := lead(ix.SearchWords(ctx, "", ix.Analyzer().Words(text), 10))
	if byWord > 0.9*all {
		t.Errorf("night over film: %.2f by word, %.2f by tag; want the first a tenth less at least", byWord, all)
	}
}

// TestWordsAreAnalyzeByWord checks that the word-by-word terms of a text
// are, together, its terms.
func TestWordsAreAnalyzeByWord(t *testing.T) {
	for _, mode := range Modes {
		an, err := NewAnalyzer(mode)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{"My mum gave me piano lessons every e-mail", "Я переехала в Москву, трейд-ин", "", "42"} {
			var u Terms
			for _, w := range an.Words(text) {
				u.Words, u.Roots, u.Topics = append(u.Words, w.Words...), append(u.Roots, w.Roots...), append(u.Topics, w.Topics...)
			}
			u.Words, u.Roots, u.Topics = dedupe(u.Words), dedupe(u.Roots), dedupe(u.Topics)
			if got := an.Analyze(text); fmt.Sprint(got) != fmt.Sprint(u) {
				t.Errorf("%s %q: Analyze %+v, words together %+v", mode, text, got, u)
			}
		}
	}
}
