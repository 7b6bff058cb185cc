package memory_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Told in December without a time "I work at Acme", then "I moved to
// Globex back in June": Acme's start is unknown and it was true until June.
func TestSupersedeBySuccessorThatStartsEarlier(t *testing.T) {
	check := func(t *testing.T, c *clock, s *memory.Store, a, b memory.Fact) {
		t.Helper()
		wantAt(t, s, "", "2026-05-01", "", a.ID)
		wantAt(t, s, "", "2026-07-01", "", b.ID)
		wantAt(t, s, "", "2026-05-01", "2026-12-05") // before the supersede nothing was known of May
		g := getFact(t, s, "", a.ID)
		if !g.EventStart.IsZero() || !g.EventEnd.Equal(date("2026-06-01")) || !g.EventFrom.IsZero() || !g.EventUntil.IsZero() {
			t.Errorf("Acme's interval: start %v end %v (stored from %v until %v), want unknown to 2026-06-01",
				g.EventStart, g.EventEnd, g.EventFrom, g.EventUntil)
		}
		for _, f := range append(must[[]memory.Fact](t)(s.At(ctx, "", date("2026-05-01"), date("2026-12-20"))),
			must[[]memory.Fact](t)(s.History(ctx, "", b.ID))...) {
			if f.ID == a.ID && !f.EventEnd.Equal(date("2026-06-01")) {
				t.Errorf("Acme from At or History: end %v", f.EventEnd)
			}
		}
		if nb := getFact(t, s, "", b.ID); !nb.EventStart.Equal(date("2026-06-01")) || !nb.EventEnd.IsZero() {
			t.Errorf("Globex's interval: %v to %v", nb.EventStart, nb.EventEnd)
		}
		if err := s.Check(ctx); err != nil {
			t.Fatal(err)
		}
		dst, _ := open(t, c, nil)
		if _, err := dst.Import(ctx, strings.NewReader(snapshot(t, s)), nil); err != nil {
			t.Fatal(err)
		}
		wantAt(t, dst, "", "2026-05-01", "", a.ID)
	}
	t.Run("Supersede", func(t *testing.T) {
		c := newClock("2026-12-01")
		s, _ := open(t, c, nil)
		a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Acme."}))
		c.set("2026-12-10")
		b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I moved to Globex back in June.", EventFrom: date("2026-06-01")}))
		check(t, c, s, a, b)
	})
	t.Run("Remember", func(t *testing.T) {
		c := newClock("2026-12-01")
		s, _ := open(t, c, nil)
		a := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I work at Acme."})).Fact
		c.set("2026-12-10")
		out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved from Acme to Globex back in June."}))
		if out.Decision.Action != memory.ActionUpdate || out.Decision.Target != a.ID || out.Decision.Fallback != "" {
			t.Fatalf("decision %+v, want an update of fact %d", out.Decision, a.ID)
		}
		check(t, c, s, a, out.Fact)
	})
}

// An old fact with an explicit start after its successor's start would end
// before it begins: every supersede refuses it, changing nothing.
func TestSupersedeRefusesEndBeforeExplicitStart(t *testing.T) {
	c := newClock("2026-12-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Acme.", EventFrom: date("2026-09-01")}))
	c.set("2026-12-10")
	before := snapshot(t, s)
	if _, err := s.Supersede(ctx, "", a.ID, memory.Note{Text: "I work at Globex.", EventFrom: date("2026-06-01")}); !errors.Is(err, memory.ErrInvalidInterval) {
		t.Errorf("Supersede: %v, want ErrInvalidInterval", err)
	}
	if snapshot(t, s) != before {
		t.Error("a refused supersede changed the store")
	}
	// The same start is no contradiction: a correction of the plan.
	same := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I start yoga.", EventFrom: date("2027-01-04")}))
	must[memory.Fact](t)(s.Supersede(ctx, "", same.ID, memory.Note{Text: "I start pilates.", EventFrom: date("2027-01-04")}))

	// Remember's update falls back, and says so.
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I work at Globex.", EventFrom: date("2026-06-01")}))
	d := out.Decision
	if d.Proposed != memory.ActionUpdate || d.Action != memory.ActionAdd || !strings.Contains(d.Fallback, "invalid") && !strings.Contains(d.Fallback, "before") {
		t.Errorf("decision %+v, want an update fallen back to add", d)
	}
	if g := getFact(t, s, "", a.ID); g.State() != memory.Current {
		t.Errorf("Acme is %v", g.State())
	}
	// With the error policy, Remember refuses it and stores nothing.
	c2 := newClock("2026-12-01")
	strict, _ := open(t, c2, &memory.Options{NoSync: true, Fallback: memory.FallbackError, Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
	must[memory.Fact](t)(strict.Add(ctx, memory.Note{Text: "I work at Acme.", EventFrom: date("2026-09-01")}))
	if _, err := strict.Remember(ctx, memory.Note{Text: "I work at Globex.", EventFrom: date("2026-06-01")}); !errors.Is(err, memory.ErrDecider) {
		t.Errorf("Remember with the error policy: %v, want ErrDecider", err)
	}
	if n := len(must[[]memory.Fact](t)(strict.List(ctx, "", &memory.ListOptions{All: true}))); n != 1 {
		t.Errorf("%d facts after a refused Remember", n)
	}
}

// ResolveConflict's keep-new is a supersede too: refused when the existing
// fact's explicit start is after the new fact's, the conflict left open.
func TestResolveConflictRefusesEndBeforeExplicitStart(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon.", Pinned: true, EventFrom: date("2026-03-01")}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."}))
	if out.Decision.Conflict == 0 {
		t.Fatalf("decision %+v, want a conflict", out.Decision)
	}
	before := snapshot(t, s)
	if _, err := s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepNew); !errors.Is(err, memory.ErrInvalidInterval) {
		t.Errorf("keep new: %v, want ErrInvalidInterval", err)
	}
	if snapshot(t, s) != before {
		t.Error("a refused resolve changed the store")
	}
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepBoth))
}

// The rules decider's update, with both starts from the words, falls back
// the same way.
func TestRememberRulesUpdateBeforeExplicitStartFallsBack(t *testing.T) {
	c := newClock("2026-12-01")
	s, _ := open(t, c, nil)
	a := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Since September I work at Acme."})).Fact
	if !a.EventFrom.Equal(date("2026-09-01")) {
		t.Fatalf("Acme from %v", a.EventFrom)
	}
	c.set("2026-12-10")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved from Acme to Globex back in June."}))
	d := out.Decision
	if d.Proposed != memory.ActionUpdate || d.Action != memory.ActionAdd || d.Target != a.ID || !strings.Contains(d.Fallback, "before its own start") {
		t.Errorf("decision %+v, want the rules' update fallen back to add", d)
	}
	if g := getFact(t, s, "", a.ID); g.State() != memory.Current {
		t.Errorf("Acme is %v", g.State())
	}
	checkClean(t, s)
}
