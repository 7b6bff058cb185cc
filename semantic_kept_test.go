package memory_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// The semantic mode keeps its index beside the store like every mode:
// the next process opens it without reading every fact, and reads a
// user's vectors from the store at the user's first lookup, asking the
// model for none of them again. Facts written since, by this process or
// the one before, are found by meaning.
func TestSemanticIndexIsKept(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Embed = conceptEmbed
	s, reopen := semanticStoreAt(t, srv)
	target := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My hobby is florp."}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "bob", Text: "I keep a zint at home."}))
	if l := must[memory.Lookup](t)(s.Candidates(ctx, "", "Lately I practise quab.", 12)); len(l.Candidates) == 0 || l.Candidates[0].Fact.ID != target.ID {
		t.Fatalf("lookup before reopening: %+v", l)
	}
	later := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "bob", Text: "A vexo sits on my desk."}))

	s = reopen()
	if _, err := os.Stat(filepath.Join(s.Path()+".index", "kept")); err != nil {
		t.Fatalf("no kept index beside the semantic store: %v", err)
	}
	before := srv.Calls()
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "Lately I practise quab.", 12))
	if l.Fallback != "" || len(l.Candidates) == 0 || l.Candidates[0].Fact.ID != target.ID || l.Candidates[0].Similarity < 0.9 {
		t.Fatalf("lookup after reopening: %+v", l)
	}
	// One call: the query's embedding; the facts' are read from the store.
	if n := srv.Calls() - before; n != 1 {
		t.Errorf("the lookup after reopening made %d model calls, want 1 (the query)", n)
	}
	got := must[memory.Lookup](t)(s.Candidates(ctx, "bob", "Where is my zint?", 12))
	if !slices.ContainsFunc(got.Candidates, func(c memory.Candidate) bool { return c.Fact.ID == later.ID && c.Similarity > 0.9 }) {
		t.Errorf("bob's fact written before the reopen is not found by meaning: %+v", got.Candidates)
	}
	now := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "bob", Text: "Another zint arrived."}))
	got = must[memory.Lookup](t)(s.Candidates(ctx, "bob", "my vexo", 12))
	if !slices.ContainsFunc(got.Candidates, func(c memory.Candidate) bool { return c.Fact.ID == now.ID && c.Similarity > 0.9 }) {
		t.Errorf("a fact written after bob's vectors were read is not found by meaning: %+v", got.Candidates)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
