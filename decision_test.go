package memory_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory"
)

func TestUndo(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
	if out.Decision.Action != memory.ActionUpdate {
		t.Fatalf("setup: %+v", out.Decision)
	}
	if _, err := s.Undo(ctx, "bob", out.Decision.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("undo of another user's decision: %v", err)
	}
	if _, err := s.Undo(ctx, "", 999); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("undo of a missing decision: %v", err)
	}
	c.set("2026-03-01")
	u := must[memory.Decision](t)(s.Undo(ctx, "", out.Decision.ID))
	if u.UndoneAt == nil || !u.UndoneAt.Equal(date("2026-03-01")) {
		t.Errorf("undone decision %+v", u)
	}
	if g := getFact(t, s, "", old.ID); g.State() != memory.Current || g.SupersededBy != 0 {
		t.Errorf("old fact after undo %+v", g)
	}
	if g := getFact(t, s, "", out.Fact.ID); g.State() != memory.Retracted || !g.ValidUntil.Equal(date("2026-03-01")) {
		t.Errorf("added fact after undo %+v", g)
	}
	if l := lastDecision(t, s, ""); l.UndoneAt == nil || !l.UndoneAt.Equal(date("2026-03-01")) {
		t.Errorf("logged %+v", l)
	}
	wantAt(t, s, "", "", "", old.ID)
	wantAt(t, s, "", "2026-02-15", "2026-02-15", out.Fact.ID) // what was believed in between
	checkClean(t, s)

	before := snapshot(t, s)
	c.set("2026-04-01")
	if _, err := s.Undo(ctx, "", out.Decision.ID); !errors.Is(err, memory.ErrAlreadyUndone) {
		t.Errorf("second undo: %v", err)
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused undo changed the store:\n%s\nwas:\n%s", after, before)
	}
}

func TestUndoStale(t *testing.T) {
	for _, how := range []string{"added fact retracted", "added fact superseded", "target restored"} {
		t.Run(how, func(t *testing.T) {
			c := newClock("2026-01-01")
			s, _ := open(t, c, nil)
			old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
			c.set("2026-02-01")
			out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
			if out.Decision.Action != memory.ActionUpdate {
				t.Fatalf("setup: %+v", out.Decision)
			}
			c.set("2026-03-01")
			switch how {
			case "added fact retracted":
				must[memory.Fact](t)(s.Invalidate(ctx, "", out.Fact.ID, memory.Change{}))
			case "added fact superseded":
				must[memory.Fact](t)(s.Supersede(ctx, "", out.Fact.ID, memory.Note{Text: "I live in Berlin."}))
			case "target restored":
				must[memory.Fact](t)(s.Restore(ctx, "", old.ID, memory.Change{}))
			}
			before := snapshot(t, s)
			c.set("2026-04-01")
			if _, err := s.Undo(ctx, "", out.Decision.ID); !errors.Is(err, memory.ErrUndoStale) {
				t.Errorf("undo after the facts changed: %v", err)
			}
			if after := snapshot(t, s); after != before {
				t.Errorf("a refused undo changed the store:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}

func TestUndoInvalidateAndNoop(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Lookup: memory.LookupStems})
	cat := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Sorry, I was wrong: my sister lives in Milan."}))
	if out.Decision.Action != memory.ActionInvalidate {
		t.Fatalf("setup: %+v", out.Decision)
	}
	noop := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Sorry, I was wrong: my sister lives in Milan."}))
	if noop.Decision.Action != memory.ActionNoop {
		t.Fatalf("setup: %+v", noop.Decision)
	}
	c.set("2026-03-01")
	before := allFacts(t, s, "")
	must[memory.Decision](t)(s.Undo(ctx, "", noop.Decision.ID))
	if after := allFacts(t, s, ""); !slices.Equal(ids(after), ids(before)) || after[1].State() != memory.Current {
		t.Errorf("undo of a noop changed facts")
	}
	must[memory.Decision](t)(s.Undo(ctx, "", out.Decision.ID))
	if g := getFact(t, s, "", cat.ID); g.State() != memory.Current {
		t.Errorf("retracted target not restored: %+v", g)
	}
	if g := getFact(t, s, "", out.Fact.ID); g.State() != memory.Retracted {
		t.Errorf("added fact not retracted: %+v", g)
	}
	checkClean(t, s)
}

// Undo of an invalidate refuses when the target was restored and changed
// again since.
func TestUndoInvalidateStale(t *testing.T) {
	c := newClock("2026-01-01")
	inv := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		return memory.Verdict{Action: memory.ActionInvalidate, Target: 1, Decider: "custom"}, nil
	}}
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: inv, Lookup: memory.LookupStems})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister lives in Milan."}))
	c.set("2026-03-01")
	must[memory.Fact](t)(s.Restore(ctx, "", a.ID, memory.Change{}))
	must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "My sister lives in Turin."}))
	before := snapshot(t, s)
	if _, err := s.Undo(ctx, "", out.Decision.ID); !errors.Is(err, memory.ErrUndoStale) {
		t.Errorf("undo after the target changed again: %v", err)
	}
	if snapshot(t, s) != before {
		t.Error("a refused undo changed the store")
	}
}

// Undo knows the decision's own retraction by its reference, not by its
// words: a user's later retraction whose reason reads "decision N" is not
// decision N's, so the target's state is no longer the decision's.
func TestUndoInvalidateStaleWhenAReasonReadsLikeTheDecision(t *testing.T) {
	c := newClock("2026-01-01")
	inv := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		return memory.Verdict{Action: memory.ActionInvalidate, Target: 1, Decider: "custom"}, nil
	}}
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: inv, Lookup: memory.LookupStems})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister lives in Milan."}))
	c.set("2026-03-01")
	must[memory.Fact](t)(s.Restore(ctx, "", a.ID, memory.Change{}))
	words := fmt.Sprintf("decision %d", out.Decision.ID)
	must[memory.Fact](t)(s.Invalidate(ctx, "", a.ID, memory.Change{Reason: words}))
	before := snapshot(t, s)
	if _, err := s.Undo(ctx, "", out.Decision.ID); !errors.Is(err, memory.ErrUndoStale) {
		t.Errorf("undo after the user retracted the target again: %v", err)
	}
	if snapshot(t, s) != before {
		t.Error("a refused undo changed the store")
	}
}

// The steps Remember and Undo take name their decision in History.
func TestDecisionStepsNameTheirDecision(t *testing.T) {
	c := newClock("2026-01-01")
	verdict := memory.Verdict{Action: memory.ActionInvalidate, Target: 1, Decider: "custom"}
	d := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		if len(in.Candidates) == 0 {
			return memory.Verdict{Action: memory.ActionAdd, Decider: "custom"}, nil
		}
		return verdict, nil
	}}
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: d, Lookup: memory.LookupStems})
	a := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister lives in Rome."}))
	c.set("2026-02-01")
	inv := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister lives in Milan."}))
	c.set("2026-03-01")
	must[memory.Decision](t)(s.Undo(ctx, "", inv.Decision.ID))
	c.set("2026-04-01")
	verdict.Action = memory.ActionUpdate
	upd := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister lives in Turin now."}))
	if inv.Decision.Action != memory.ActionInvalidate || upd.Decision.Action != memory.ActionUpdate || upd.Decision.Target != a.Fact.ID {
		t.Fatalf("setup: %+v, %+v", inv.Decision, upd.Decision)
	}
	type ref struct {
		kind             memory.EventKind
		decision, undoes uint64
		cause            string
	}
	steps := func(id uint64) []ref {
		var out []ref
		for _, e := range must[[]memory.Event](t)(s.Events(ctx, "", id)) {
			out = append(out, ref{e.Kind, e.Decision, e.Undoes, e.Cause})
		}
		return out
	}
	n, u := inv.Decision.ID, fmt.Sprintf("undo of decision %d", inv.Decision.ID)
	want := []ref{{memory.EventRecorded, 0, 0, ""}, {memory.EventRetracted, n, 0, fmt.Sprintf("decision %d", n)},
		{memory.EventRestored, 0, n, u}, {memory.EventSuperseded, upd.Decision.ID, 0, ""}}
	if got := steps(a.Fact.ID); !slices.Equal(got, want) {
		t.Errorf("steps of the target\n got %v\nwant %v", got, want)
	}
	want = []ref{{memory.EventRecorded, 0, 0, ""}, {memory.EventRetracted, 0, n, u}}
	if got := steps(inv.Fact.ID); !slices.Equal(got, want) {
		t.Errorf("steps of the fact the undone decision added\n got %v\nwant %v", got, want)
	}
}

// The spec: a decision that would touch a pinned fact adds the new fact and
// records a conflict linking the two.
func TestRememberPinnedTargetMakesConflict(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
	old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon.", Pinned: true}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."}))
	d := out.Decision
	if g := getFact(t, s, "", old.ID); g.State() != memory.Current {
		t.Fatalf("pinned fact changed: %+v", g)
	}
	if out.Fact.ID == 0 || d.Action != memory.ActionAdd || d.Proposed != memory.ActionUpdate || d.Target != old.ID || d.Conflict == 0 {
		t.Errorf("a custom decider's update of a pinned fact gave decision %+v, want an add with a conflict", d)
	}
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 1 || cs[0].New != out.Fact.ID || cs[0].Existing != old.ID {
		t.Errorf("conflicts %+v", cs)
	}
	checkClean(t, s)
}

func TestResolveConflict(t *testing.T) {
	for _, keep := range []memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth} {
		t.Run(string(keep), func(t *testing.T) {
			c := newClock("2026-01-01")
			s, existing, out := conflictStore(t, c)
			cid := out.Decision.Conflict
			if _, err := s.ResolveConflict(ctx, "bob", cid, keep); !errors.Is(err, memory.ErrNotFound) {
				t.Errorf("resolve of another user's conflict: %v", err)
			}
			c.set("2026-03-01")
			r := must[memory.Conflict](t)(s.ResolveConflict(ctx, "", cid, keep))
			if r.ResolvedAt == nil || !r.ResolvedAt.Equal(date("2026-03-01")) || r.Resolution != keep {
				t.Errorf("resolved %+v", r)
			}
			e, n := getFact(t, s, "", existing.ID), getFact(t, s, "", out.Fact.ID)
			switch keep {
			case memory.KeepNew:
				if e.State() != memory.Superseded || e.SupersededBy != n.ID || n.Supersedes != e.ID || n.State() != memory.Current {
					t.Errorf("keep new: existing %+v new %+v", e, n)
				}
				wantAt(t, s, "", "", "", n.ID)
			case memory.KeepExisting:
				if e.State() != memory.Current || n.State() != memory.Retracted {
					t.Errorf("keep existing: existing %+v new %+v", e, n)
				}
				wantAt(t, s, "", "", "", e.ID)
			case memory.KeepBoth:
				if e.State() != memory.Current || n.State() != memory.Current {
					t.Errorf("keep both: existing %+v new %+v", e, n)
				}
				wantAt(t, s, "", "", "", e.ID, n.ID)
			}
			if cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil)); len(cs) != 0 {
				t.Errorf("unresolved after resolve: %+v", cs)
			}
			if cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", &memory.ConflictOptions{All: true})); len(cs) != 1 || cs[0].ResolvedAt == nil {
				t.Errorf("all conflicts: %+v", cs)
			}
			checkClean(t, s)
			before := snapshot(t, s)
			for _, again := range []memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth} {
				if _, err := s.ResolveConflict(ctx, "", cid, again); !errors.Is(err, memory.ErrResolved) {
					t.Errorf("resolve twice (%s): %v", again, err)
				}
			}
			if after := snapshot(t, s); after != before {
				t.Errorf("a refused resolve changed the store")
			}
		})
	}
	t.Run("unknown choice", func(t *testing.T) {
		s, _, out := conflictStore(t, newClock("2026-01-01"))
		before := snapshot(t, s)
		if _, err := s.ResolveConflict(ctx, "", out.Decision.Conflict, "neither"); err == nil {
			t.Error("an unknown choice was accepted")
		}
		if _, err := s.ResolveConflict(ctx, "", 999, memory.KeepBoth); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("missing conflict: %v", err)
		}
		if snapshot(t, s) != before {
			t.Error("a refused resolve changed the store")
		}
	})
}

// Keeping the new fact of a conflict whose new fact the user has since
// retracted must not retire the existing one too: the user would lose both.
func TestResolveConflictKeepNewOfRetractedFact(t *testing.T) {
	c := newClock("2026-01-01")
	s, existing, out := conflictStore(t, c)
	c.set("2026-03-01")
	must[memory.Fact](t)(s.Invalidate(ctx, "", out.Fact.ID, memory.Change{Reason: "not true after all"}))
	c.set("2026-04-01")
	_, err := s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepNew)
	if g := getFact(t, s, "", existing.ID); g.State() != memory.Current {
		t.Errorf("keep new of a retracted new fact (err %v) retired the existing fact too: %+v; current facts %v",
			err, g, ids(must[[]memory.Fact](t)(s.List(ctx, "", nil))))
	}
	checkClean(t, s)
}
