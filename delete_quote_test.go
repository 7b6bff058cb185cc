package memory_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// The delete of a fact a decision only showed as a candidate removes from
// the decision what may quote it, and keeps what cannot: a reason holding
// no word or number of the deleted fact beyond the decision's own text.
// Before, any such delete replaced the reason with "[reason removed with a
// deleted fact it may quote]", though nothing it quoted was gone.
func TestDeleteOfACandidateKeepsWhatQuotesNothingOfIt(t *testing.T) {
	const (
		code    = "My locker combination is 4417."
		removed = "[reason removed with a deleted fact it may quote]"
	)
	for _, tc := range []struct {
		name, reason, raw string
		keepReason        bool
	}{
		{name: "a reason by number", reason: "no marker: added beside candidate 1", keepReason: true},
		{name: "a reason with the decision's own words", reason: "both speak of the locker, a gym bag in it", keepReason: true},
		{name: "the candidate's text", reason: "compared with: " + code},
		{name: "a word of it only", reason: "a combination is another matter"},
		{name: "a stem of it only", reason: "words combin"},
		{name: "a number of it only", reason: "the number 4417 is not about a bag"},
		{name: "the model's answer quotes it, the reason does not", reason: "no marker: added", raw: `{"reason": "unlike 4417"}`, keepReason: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := newClock("2026-01-01")
			dec := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
				return memory.Verdict{Action: memory.ActionAdd, Decider: "custom", Reason: tc.reason, Raw: tc.raw}, nil
			}}
			s := must[*memory.Store](t)(memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now, Decider: dec}))
			t.Cleanup(func() { s.Close() })
			secret := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: code}))
			must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My locker is on the second floor."}))
			c.set("2026-02-01")
			out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I keep my gym bag in the locker."}))
			if !slices.Contains(out.Decision.Candidates, secret.ID) || out.Decision.Reason != tc.reason {
				t.Fatalf("setup: the decision did not see the code: %+v", out.Decision)
			}
			c.set("2026-03-01")
			must[[]uint64](t)(s.Delete(ctx, "", secret.ID, nil))
			d := lastDecision(t, s, "")
			if slices.Contains(d.Candidates, secret.ID) {
				t.Errorf("the decision still names the deleted fact: %v", d.Candidates)
			}
			want := removed
			if tc.keepReason {
				want = tc.reason
			}
			if d.Reason != want {
				t.Errorf("reason %q, want %q", d.Reason, want)
			}
			if d.Raw != "" {
				t.Errorf("the model's answer %q outlived the delete of what it quotes", d.Raw)
			}
			if d.Text != out.Decision.Text {
				t.Errorf("text %q, want the decision's own %q", d.Text, out.Decision.Text)
			}
			if dirContains(t, dir, "4417") {
				t.Error("the deleted code is still in the store's directory")
			}
			checkClean(t, s)
		})
	}
}

// A decision unsure which of two facts the new one replaces keeps its
// reason when one of them is deleted, and no longer names the conflict
// that went with it: Check finds the log whole.
func TestDeleteOfAConflictCandidateKeepsTheDecisionWhole(t *testing.T) {
	s, _, piano, out := unsureStore(t)
	must[[]uint64](t)(s.Delete(ctx, "", piano.ID, nil))
	d := lastDecision(t, s, "")
	if d.Reason != "unsure which" || d.Conflict != out.Decision.Conflict || len(d.AlsoConflicts) != 0 || slices.Contains(d.Candidates, piano.ID) {
		t.Errorf("decision after the delete of the piano: %+v", d)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}
