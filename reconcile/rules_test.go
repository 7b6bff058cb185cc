package reconcile

import (
	"context"
	"testing"

	"github.com/palimpsest-mem/memory/internal/term"
)

// TestRulesEvidenceTerms checks that the rules read the kind of each shared
// term: a synonym set is no evidence (it may name the marker's meaning),
// nor is a term from the marker's own words, and the reason shows the
// others as people see them.
func TestRulesEvidenceTerms(t *testing.T) {
	in := Input{Text: "My mum moved her piano lessons to Saturday.", Candidates: []Candidate{{
		N: 1, Text: "Mother was a pianist; she moves lessons on Fridays.", Score: 4,
		Terms: []term.Term{{Text: "move"}, {Text: "mother", Kind: term.Synonym}, {Text: "pian", Kind: term.Root}, {Text: "lesson"}},
	}}}
	d, err := Rules{}.Decide(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	want := `change marker "moved"; candidate 1 matches on words pian…, lesson`
	if d.Action != Update || d.Target != 1 || d.Reason != want {
		t.Errorf("got %s %d %q, want update 1 %q", d.Action, d.Target, d.Reason, want)
	}
	// With only a synonym set and the marker's word in common, nothing
	// points at the candidate.
	in.Candidates[0].Terms = in.Candidates[0].Terms[:2]
	if d, err := (Rules{}).Decide(context.Background(), in); err != nil || d.Action != Add || d.Target != 0 {
		t.Errorf("got %+v, %v; want an add", d, err)
	}
}
