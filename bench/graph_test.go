package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// The graph rows time a graph, not an empty one: imported, the graph
// store's facts carry claims at least in the share of the templates, and
// the user has works_at edges for the Edges row to return.
func TestGraphStoreHasClaims(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const n = 500
	var b strings.Builder
	writeImport(&b, newClaimCorpus(sqliteTexts(), 7).next, n, n)
	path := filepath.Join(t.TempDir(), "g.db")
	if _, err := timeImport(ctx, path, strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	s, err := memory.Open(path, 0, &memory.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	facts, err := s.List(ctx, "user-0", nil)
	if err != nil {
		t.Fatal(err)
	}
	with := 0
	for _, f := range facts {
		if len(f.Claims) > 0 {
			with++
		}
	}
	// Every fact of a template states its claim; the corpus's may too.
	if len(facts) != n || with < n*claimShare/10 {
		t.Errorf("%d of %d facts carry claims, want at least %d in 10", with, len(facts), claimShare)
	}
	jobs, err := s.Edges(ctx, "user-0", &memory.EdgeQuery{Relation: "works_at"})
	if err != nil || len(jobs) == 0 {
		t.Errorf("works_at edges: %v, %v; want some", jobs, err)
	}
}
