package index

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// benchDocs are n facts of users users, with words enough to share.
func benchDocs(n, users int) []Doc {
	subjects := []string{"coffee", "tea", "the piano", "my sister", "the bank", "Lisbon", "running", "the garden"}
	verbs := []string{"like", "play", "visit", "work at", "drink", "remember", "moved to", "water"}
	docs := make([]Doc, n)
	for i := range docs {
		docs[i] = Doc{ID: uint64(i + 1), User: fmt.Sprintf("user%d", i%users),
			Text: fmt.Sprintf("I %s %s every %d days, fact %d.", verbs[i%len(verbs)], subjects[(i/len(verbs))%len(subjects)], i%7+1, i)}
	}
	return docs
}

func benchIndex(b *testing.B, mode Mode, docs []Doc) *Index {
	b.Helper()
	an, err := NewAnalyzer(mode)
	if err != nil {
		b.Fatal(err)
	}
	ix, err := New(an, filepath.Join(b.TempDir(), "ix"))
	if err != nil {
		b.Fatal(err)
	}
	const batch = 1000
	at := 0
	if err := ix.Bulk(func() ([]Doc, error) {
		d := docs[at:min(at+batch, len(docs))]
		at += len(d)
		return d, nil
	}); err != nil {
		b.Fatal(err)
	}
	return ix
}

// BenchmarkBuild is a build of 20,000 facts of 100 users, as a first
// lookup makes it.
func BenchmarkBuild(b *testing.B) {
	docs := benchDocs(20000, 100)
	for b.Loop() {
		ix := benchIndex(b, Stems, docs)
		b.StopTimer()
		ix.Close()
		b.StartTimer()
	}
}

// BenchmarkSearch is one user's lookup among 20,000 facts of 100 users.
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	for _, mode := range []Mode{Stems, Topics} {
		b.Run(string(mode), func(b *testing.B) {
			ix := benchIndex(b, mode, benchDocs(20000, 100))
			defer ix.Close()
			q := ix.Analyzer().Analyze("These days I play the piano at work and drink tea.")
			b.ReportAllocs()
			for b.Loop() {
				hits, err := ix.Search(ctx, "user7", q, 12)
				if err != nil || len(hits) == 0 {
					b.Fatal(hits, err)
				}
			}
		})
	}
}
