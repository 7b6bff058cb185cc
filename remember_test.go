package memory_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

func TestRememberRulesUpdate(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
	d := out.Decision
	if d.Action != memory.ActionUpdate || d.Proposed != memory.ActionUpdate || d.Target != old.ID || d.Added == 0 ||
		d.Added != out.Fact.ID || d.Decider != "rules" || d.Fallback != "" || d.Reason == "" {
		t.Fatalf("decision %+v", d)
	}
	if !slices.Contains(d.Candidates, old.ID) {
		t.Errorf("candidates %v lack the old fact %d", d.Candidates, old.ID)
	}
	if out.Fact.Supersedes != old.ID || out.Fact.State() != memory.Current {
		t.Errorf("new fact %+v", out.Fact)
	}
	o := getFact(t, s, "", old.ID)
	if o.State() != memory.Superseded || o.SupersededBy != out.Fact.ID || !o.ValidUntil.Equal(date("2026-02-01")) {
		t.Errorf("old fact %+v", o)
	}
	logged := must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))
	if len(logged) != 1 || logged[0].ID != d.ID || logged[0].Action != memory.ActionUpdate || logged[0].Target != old.ID ||
		logged[0].Added != out.Fact.ID || !logged[0].At.Equal(date("2026-02-01")) || logged[0].Text != out.Fact.Text {
		t.Errorf("decision log %+v", logged)
	}
	wantAt(t, s, "", "", "", out.Fact.ID)
	checkClean(t, s)
}

func TestRememberRulesCorrectionRestatementAdd(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Lookup: memory.LookupStems})
	sister := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	city := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")

	// A correction retracts the old fact and adds the new one.
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Sorry, I was wrong: my sister lives in Milan."}))
	d := out.Decision
	if d.Action != memory.ActionInvalidate || d.Target != sister.ID || d.Added != out.Fact.ID || d.Decider != "rules" || d.Fallback != "" {
		t.Fatalf("correction decision %+v", d)
	}
	if g := getFact(t, s, "", sister.ID); g.State() != memory.Retracted || g.SupersededBy != 0 || !g.ValidUntil.Equal(date("2026-02-01")) {
		t.Errorf("corrected fact %+v", g)
	}
	if out.Fact.State() != memory.Current || out.Fact.Supersedes != 0 {
		t.Errorf("correcting fact %+v", out.Fact)
	}

	// A restatement stores nothing; the outcome's fact is the one restated.
	before := len(allFacts(t, s, ""))
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Lyon."}))
	d = out.Decision
	if d.Action != memory.ActionNoop || d.Target != city.ID || d.Added != 0 || d.Fallback != "" || out.Fact.ID != city.ID {
		t.Errorf("restatement: decision %+v fact %+v", d, out.Fact)
	}
	if n := len(allFacts(t, s, "")); n != before {
		t.Errorf("a noop stored something: %d facts, was %d", n, before)
	}

	// Unrelated: added beside the others.
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin."}))
	if d := out.Decision; d.Action != memory.ActionAdd || d.Target != 0 || d.Added != out.Fact.ID || out.Fact.ID == 0 || d.Fallback != "" {
		t.Errorf("unrelated: %+v", d)
	}
	// Related words but no marker: still an add.
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister also lives in Lyon, near the river."}))
	if d := out.Decision; d.Action != memory.ActionAdd || d.Target != 0 || !slices.Contains(d.Candidates, city.ID) {
		t.Errorf("related, no marker: %+v", d)
	}
	if g := getFact(t, s, "", city.ID); g.State() != memory.Current {
		t.Errorf("an add touched fact %d: %+v", city.ID, g)
	}
	if n := len(must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))); n != 4 {
		t.Errorf("%d decisions logged, want 4", n)
	}
	checkClean(t, s)
}

// The brief's example of a correction: only the number changes. The
// restatement check must not swallow it: it is an invalidate, and the
// new fact is stored.
func TestRememberRulesCorrectionOfANumber(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Lookup: memory.LookupStems})
	cat := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My cat is 4."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Sorry, I was wrong: my cat is 5."}))
	d := out.Decision
	if d.Action != memory.ActionInvalidate || d.Target != cat.ID || d.Added == 0 || d.Added != out.Fact.ID {
		t.Errorf("correction of a number: decision %+v", d)
	}
	if g := getFact(t, s, "", cat.ID); g.State() != memory.Retracted {
		t.Errorf("the wrong fact is still %v", g.State())
	}
	if cur := must[[]memory.Fact](t)(s.List(ctx, "", nil)); len(cur) != 1 || cur[0].Text != "Sorry, I was wrong: my cat is 5." {
		t.Errorf("current facts %+v", cur)
	}
	checkClean(t, s)
}

// The rules decider must not retire the next-best candidate when the best
// one is pinned: that is collateral damage to a true fact. The spec: the
// new fact is added and a conflict links it to the pinned fact.
func TestRememberRulesPinnedBestCandidate(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	pinned := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon.", Pinned: true}))
	other := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Lyon has wonderful food markets."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
	if g := getFact(t, s, "", pinned.ID); g.State() != memory.Current {
		t.Errorf("pinned fact changed: %+v", g)
	}
	if g := getFact(t, s, "", other.ID); g.State() != memory.Current {
		t.Errorf("the rules decider retired an unrelated fact %q because the best candidate was pinned: decision %+v",
			other.Text, out.Decision)
	}
	if out.Fact.ID == 0 || out.Fact.State() != memory.Current {
		t.Errorf("the new fact was not stored: %+v", out)
	}
	if out.Decision.Conflict == 0 {
		t.Errorf("no conflict links the new fact with the pinned one: %+v", out.Decision)
	}
	checkClean(t, s)
}

// Two Remember calls aimed at the same old fact, both decided before
// either applies: exactly one supersedes it, the other is judged again.
func TestRememberConcurrentSameTarget(t *testing.T) {
	for round := range 5 {
		t.Run(strconv.Itoa(round), func(t *testing.T) {
			var calls atomic.Int32
			both := make(chan struct{})
			var once sync.Once
			dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
				if n := calls.Add(1); n <= 2 {
					if n == 2 {
						once.Do(func() { close(both) })
					}
					select {
					case <-both:
					case <-time.After(10 * time.Second):
						return memory.Verdict{}, errors.New("barrier timed out")
					}
				}
				return alwaysUpdate1(ctx, in)
			}}
			c := newClock("2026-01-01")
			s, _ := open(t, c, &memory.Options{NoSync: true, Decider: dec})
			old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
			c.set("2026-02-01")
			texts := []string{"I live in Paris now.", "I live in Berlin now."}
			outs := make([]memory.Outcome, 2)
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					outs[i], errs[i] = s.Remember(ctx, memory.Note{Text: texts[i]})
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			var first, second memory.Outcome
			switch {
			case outs[0].Decision.Target == old.ID && outs[1].Decision.Target != old.ID:
				first, second = outs[0], outs[1]
			case outs[1].Decision.Target == old.ID && outs[0].Decision.Target != old.ID:
				first, second = outs[1], outs[0]
			default:
				t.Fatalf("not exactly one decision on the old fact: %+v / %+v", outs[0].Decision, outs[1].Decision)
			}
			if first.Decision.Action != memory.ActionUpdate || first.Decision.Fallback != "" {
				t.Errorf("first %+v", first.Decision)
			}
			g := getFact(t, s, "", old.ID)
			if g.State() != memory.Superseded || g.SupersededBy != first.Fact.ID {
				t.Errorf("old fact %+v, first added %d", g, first.Fact.ID)
			}
			sd := second.Decision
			switch {
			case sd.Action == memory.ActionUpdate && sd.Target == first.Fact.ID:
				if f := getFact(t, s, "", first.Fact.ID); f.SupersededBy != second.Fact.ID {
					t.Errorf("first's fact %+v", f)
				}
			case sd.Action == memory.ActionAdd && sd.Conflict != 0:
			default:
				t.Errorf("second decision %+v: want an update of fact %d or an add with a conflict", sd, first.Fact.ID)
			}
			if second.Fact.ID == 0 || second.Fact.State() != memory.Current {
				t.Errorf("second fact %+v", second.Fact)
			}
			if n := calls.Load(); n != 3 {
				t.Errorf("%d decisions made, want 3 (one judged again)", n)
			}
			succ := 0
			for _, f := range allFacts(t, s, "") {
				if f.Supersedes == old.ID {
					succ++
				}
			}
			if succ != 1 {
				t.Errorf("old fact has %d successors", succ)
			}
			wantAt(t, s, "", "", "", second.Fact.ID)
			successorsOK(t, s, "")
			checkClean(t, s)
		})
	}
}

// A target that moves again after the second judgement: the fact is
// added, and the decision says why; a conflict with a fact no longer
// current would be moot at once, so none is recorded.
func TestRememberTargetMovesTwiceAdds(t *testing.T) {
	c := newClock("2026-01-01")
	var s *memory.Store
	var calls atomic.Int32
	dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
		calls.Add(1)
		// Someone retracts the candidate about to be targeted, meanwhile.
		for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", nil)) {
			if len(in.Candidates) > 0 && f.Text == in.Candidates[0].Text {
				must[memory.Fact](t)(s.Invalidate(ctx, "", f.ID, memory.Change{Reason: "by hand"}))
			}
		}
		return alwaysUpdate1(ctx, in)
	}}
	s, _ = open(t, c, &memory.Options{NoSync: true, Decider: dec})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	b := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in a flat."}))
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."}))
	d := out.Decision
	if calls.Load() != 2 {
		t.Errorf("%d decisions, want 2", calls.Load())
	}
	if d.Action != memory.ActionAdd || d.Proposed != memory.ActionUpdate || d.Conflict != 0 || out.Fact.ID == 0 ||
		(d.Target != a.ID && d.Target != b.ID) || !strings.Contains(d.Reason, "changed meanwhile: added") {
		t.Fatalf("decision %+v", d)
	}
	for _, k := range must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil)) {
		if k.Existing == d.Target {
			t.Errorf("an open conflict with the retracted target: %+v", k)
		}
	}
	checkClean(t, s)
}

// A noop judged against a fact that changed before it was applied must not
// drop the new fact: the target is re-checked like any other.
func TestRememberNoopRechecksTarget(t *testing.T) {
	for _, how := range []string{"retracted", "deleted"} {
		t.Run(how, func(t *testing.T) {
			c := newClock("2026-01-01")
			var s *memory.Store
			var calls atomic.Int32
			dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
				if len(in.Candidates) == 0 {
					return memory.Verdict{Action: memory.ActionAdd, Decider: "custom"}, nil
				}
				if calls.Add(1) == 1 {
					for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", nil)) {
						if how == "retracted" {
							must[memory.Fact](t)(s.Invalidate(ctx, "", f.ID, memory.Change{}))
						} else {
							must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
						}
					}
				}
				return memory.Verdict{Action: memory.ActionNoop, Target: 1, Decider: "custom"}, nil
			}}
			s, _ = open(t, c, &memory.Options{NoSync: true, Decider: dec})
			must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
			out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Lyon!"}))
			if cur := must[[]memory.Fact](t)(s.List(ctx, "", nil)); len(cur) != 1 || cur[0].Text != "I live in Lyon!" {
				t.Errorf("after a noop on a fact that was %s meanwhile, current facts are %v (decision %+v, outcome fact %+v)",
					how, cur, out.Decision, out.Fact)
			}
			checkClean(t, s)
			// The log names no missing fact: export and import still agree.
			dst, _ := open(t, c, nil)
			if _, err := dst.Import(ctx, strings.NewReader(snapshot(t, s)), nil); err != nil {
				t.Errorf("import of the export: %v", err)
			}
		})
	}
}

// A decider's event time outside the years 1900 to 2199 is an invalid answer, not a
// silently wrapped date.
func TestDeciderEventTimeOutOfRange(t *testing.T) {
	far := &funcDecider{name: "custom", fn: func(context.Context, memory.DecideInput) (memory.Verdict, error) {
		return memory.Verdict{Action: memory.ActionAdd, EventFrom: time.Date(2500, 1, 1, 0, 0, 0, 0, time.UTC), Decider: "custom"}, nil
	}}
	s, _ := open(t, newClock("2026-01-01"), &memory.Options{NoSync: true, Decider: far})
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I started a pottery class."}))
	if out.Decision.Fallback == "" || !out.Fact.EventFrom.IsZero() {
		t.Errorf("decision %+v, fact %+v", out.Decision, out.Fact)
	}
}

// Whatever a decider says, the log keeps it bounded, so every export
// imports again.
func TestHugeDeciderTextIsBounded(t *testing.T) {
	huge := &funcDecider{name: "custom", fn: func(context.Context, memory.DecideInput) (memory.Verdict, error) {
		return memory.Verdict{Action: memory.ActionAdd, Reason: strings.Repeat("я", 3<<20), Raw: strings.Repeat("x", 5<<20), Decider: "custom"}, nil
	}}
	s, _ := open(t, newClock("2026-01-01"), &memory.Options{NoSync: true, Decider: huge})
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I like tea."}))
	if len(out.Decision.Raw) > memory.MaxDecisionText || len(out.Decision.Reason) > memory.MaxDecisionText || !strings.HasPrefix(out.Decision.Reason, "я") {
		t.Errorf("raw %d bytes, reason %d bytes", len(out.Decision.Raw), len(out.Decision.Reason))
	}
	dst, _ := open(t, nil, nil)
	if _, err := dst.Import(ctx, strings.NewReader(snapshot(t, s)), nil); err != nil {
		t.Fatal(err)
	}
}

// Other words about a different thing are no restatement: the sister's
// city shares "live" and a topic with the user's own, and the two facts
// claim lives_in of other subjects and objects (Candidate.ClaimsDiffer,
// AboutOther), so the new fact is stored beside it, with no question.
// The user's own move differs in claims too, but is about the user.
func TestRememberRulesOtherClaimsAreNoRestatement(t *testing.T) {
	s, _ := open(t, newClock("2026-01-10"), nil)
	lyon := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Lyon."})).Fact
	look := must[memory.Lookup](t)(s.Candidates(ctx, "", "My sister Clara lives in Kazan.", 12))
	if len(look.Candidates) == 0 || look.Candidates[0].Fact.ID != lyon.ID || !look.Candidates[0].ClaimsDiffer || !look.Candidates[0].AboutOther {
		t.Fatalf("candidates of the sister's city: %+v, want Lyon with ClaimsDiffer and AboutOther", look.Candidates)
	}
	if move := must[memory.Lookup](t)(s.Candidates(ctx, "", "I live in Paris.", 12)); len(move.Candidates) == 0 ||
		!move.Candidates[0].ClaimsDiffer || move.Candidates[0].AboutOther {
		t.Errorf("the user's move: %+v, want ClaimsDiffer, not AboutOther", move.Candidates)
	}
	if same := must[memory.Lookup](t)(s.Candidates(ctx, "", "I live in Lyon, France.", 12)); len(same.Candidates) == 0 || same.Candidates[0].ClaimsDiffer {
		t.Errorf("the same claim told again: %+v, want no ClaimsDiffer", same.Candidates)
	}
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister Clara lives in Kazan."}))
	if out.Decision.Action != memory.ActionAdd || out.Decision.Conflict != 0 || out.Fact.ID == lyon.ID {
		t.Errorf("the sister's city was decided %s of fact %d (%s), want it stored", out.Decision.Action, out.Decision.Target, out.Decision.Reason)
	}
}

// A fact about a person named in another fact is about the same person,
// however each names them: "Clara moved to Omsk" concerns "My sister Clara
// lives in Kazan", and is no restatement of it.
func TestRememberRulesANamedPersonIsNoOther(t *testing.T) {
	for _, tc := range []struct{ old, new string }{
		{"My sister Clara lives in Kazan.", "Clara moved to Omsk."},
		{"My sister Clara lives in Kazan.", "Correction: Clara lives in Omsk."},
		{"Clara lives in Kazan.", "My sister Clara lives in Omsk now."},
	} {
		s, _ := open(t, newClock("2026-01-10"), nil)
		old := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: tc.old})).Fact
		look := must[memory.Lookup](t)(s.Candidates(ctx, "", tc.new, 12))
		if len(look.Candidates) == 0 || look.Candidates[0].Fact.ID != old.ID || look.Candidates[0].AboutOther || !look.Candidates[0].ClaimsDiffer {
			t.Errorf("%q after %q: candidates %+v, want the old fact, ClaimsDiffer, not AboutOther", tc.new, tc.old, look.Candidates)
			continue
		}
		d := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: tc.new})).Decision
		if d.Target != old.ID && d.Conflict == 0 {
			t.Errorf("%q after %q: %s, target %d, no conflict (%s); want it to act on or ask about the old fact", tc.new, tc.old, d.Action, d.Target, d.Reason)
		}
	}
}
