package memory_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// A hard delete takes its fact's claims with it: an entity named only by
// the deleted fact (here, only in its claims, not its text) leaves no byte
// in the store's files (every bucket, free pages), the index folder or its
// terms, and no edge, neighbour or timeline; an entity another fact also
// names stays with that fact alone as support.
func TestDeleteRemovesItsClaimsAndEntities(t *testing.T) {
	c := newClock("2026-01-10")
	s, path := open(t, c, nil)
	const only, shared = "Quxbridge-ENTITY", "Lisbon"
	for i := range 100 {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "filler fact number " + string(rune('a'+i%26))}))
	}
	keep := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My flat is in the old town.",
		Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: shared, Kind: "city"}}}))
	doomed := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I joined a new company.",
		Claims: []memory.Claim{{Relation: memory.RelWorksAt, Object: only, Kind: "company"},
			{Relation: memory.RelLivesIn, Object: shared, Kind: "city"}}}))
	must[memory.Lookup](t)(s.Candidates(ctx, "", "a new company in the old town", 5)) // the index is built
	must[memory.Fact](t)(s.Invalidate(ctx, "", doomed.ID, memory.Change{}))           // churn: old copies in free pages
	must[memory.Fact](t)(s.Restore(ctx, "", doomed.ID, memory.Change{}))
	dir := filepath.Dir(path)
	if !dirContains(t, dir, only) {
		t.Fatal("test is void: the entity was never in the file")
	}
	if n := len(must[[]memory.Edge](t)(s.Neighbours(ctx, "", only, time.Time{}, time.Time{}))); n != 1 {
		t.Fatalf("test is void: %d edges of %s before the delete", n, only)
	}
	must[[]uint64](t)(s.Delete(ctx, "", doomed.ID, nil))
	if dirContains(t, dir, only) {
		t.Errorf("%q is still in the store's files", only)
	}
	for what, fn := range map[string]func() ([]memory.Edge, error){
		"Neighbours":     func() ([]memory.Edge, error) { return s.Neighbours(ctx, "", only, time.Time{}, time.Time{}) },
		"EntityTimeline": func() ([]memory.Edge, error) { return s.EntityTimeline(ctx, "", only) },
		"Edges":          func() ([]memory.Edge, error) { return s.Edges(ctx, "", &memory.EdgeQuery{Object: only, All: true}) },
	} {
		if es := must[[]memory.Edge](t)(fn()); len(es) != 0 {
			t.Errorf("%s of %s after the delete: %q", what, only, edgeLines(es))
		}
	}
	es := must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{Object: shared, All: true}))
	if len(es) != 1 || len(es[0].Support) != 1 || es[0].Support[0] != keep.ID {
		t.Errorf("edges of %s after the delete: %q, want the kept fact alone", shared, edgeLines(es))
	}
	checkClean(t, s)
	s.Close()
	if got := holding(indexTerms(t, path), []string{strings.ToLower(only), "quxbridge"}); len(got) != 0 {
		t.Errorf("index terms after the delete: %v", got)
	}
}

// Pinned facts' edges are never changed by automation: Remember's decider
// may answer update, but a pinned target is not superseded, so its edge
// stays current beside the new claim (the conflict to judge), and
// Invalidate by automation is refused.
func TestPinnedEdgesUnchangedByAutomation(t *testing.T) {
	c := newClock("2026-01-10")
	dec := &funcDecider{name: "custom", fn: alwaysUpdate1}
	s, _ := open(t, c, &memory.Options{Decider: dec})
	lisbon := []memory.Claim{{Relation: memory.RelLivesIn, Object: "Lisbon", Kind: "city"}}
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lisbon.", Claims: lisbon, Pinned: true}))
	before := edgeLines(must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{All: true})))
	c.set("2026-02-10")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Porto now.", Origin: memory.OriginAuto}))
	if out.Decision.Conflict == 0 {
		t.Fatalf("decision %+v: want a conflict with the pinned fact", out.Decision)
	}
	if _, err := s.Invalidate(ctx, "", a.ID, memory.Change{Origin: memory.OriginAuto}); err == nil {
		t.Fatal("automation retracted a pinned fact")
	}
	got := edgeLines(must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{Object: "Lisbon", All: true})))
	if len(before) != 1 || len(got) != 1 || got[0] != before[0] {
		t.Errorf("the pinned fact's edge: before %q, after %q", before, got)
	}
	// Both are current: two values of a single-valued relation, for the
	// user to judge.
	if es := must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{Relation: memory.RelLivesIn})); len(es) != 2 {
		t.Errorf("current lives_in edges: %q", edgeLines(es))
	}
}
