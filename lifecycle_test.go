package memory_test

import (
	"errors"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Supersede names the user as every operation on a fact by id does: a
// Note without a user is that user's, one of another user is refused and
// changes nothing.
func TestSupersedeTakesTheUser(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "bob", Text: "I work at A."}))
	b := must[memory.Fact](t)(s.Supersede(ctx, "bob", a.ID, memory.Note{Text: "I work at B."}))
	if b.User != "bob" || b.Supersedes != a.ID {
		t.Fatalf("superseded by %+v", b)
	}
	before := snapshot(t, s)
	if _, err := s.Supersede(ctx, "bob", b.ID, memory.Note{User: "alice", Text: "I work at C."}); !errors.Is(err, memory.ErrInvalidUser) {
		t.Errorf("a note of another user: %v", err)
	}
	if _, err := s.Supersede(ctx, "alice", b.ID, memory.Note{Text: "I work at C."}); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("another user's fact: %v", err)
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused Supersede wrote:\n%s\nwas:\n%s", after, before)
	}
	must[memory.Fact](t)(s.Supersede(ctx, "bob", b.ID, memory.Note{User: "bob", Text: "I work at C."}))
	checkClean(t, s)
}

func TestRememberBudget(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, AutoBudget: 2, Lookup: memory.LookupKeywords4})
	auto := func(text string) memory.Note { return memory.Note{Text: text, Origin: memory.OriginAuto} }
	must[memory.Outcome](t)(s.Remember(ctx, auto("I live in Lyon.")))
	must[memory.Outcome](t)(s.Remember(ctx, auto("I play the violin.")))
	before := snapshot(t, s)
	ndec := len(must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)))
	if _, err := s.Remember(ctx, auto("I have a dog named Rex.")); !errors.Is(err, memory.ErrBudgetExceeded) {
		t.Errorf("add past the budget: %v", err)
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused add wrote:\n%s\nwas:\n%s", after, before)
	}
	// A correction adds one and retracts a user-stated fact: still over.
	u := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	before = snapshot(t, s)
	if _, err := s.Remember(ctx, auto("Sorry, I was wrong: my sister lives in Milan, not Rome.")); !errors.Is(err, memory.ErrBudgetExceeded) {
		t.Errorf("invalidate of a user fact past the budget: %v", err)
	}
	if _, err := s.Remember(ctx, auto("My sister no longer lives in Rome, she moved to Turin.")); !errors.Is(err, memory.ErrBudgetExceeded) {
		t.Errorf("update of a user fact past the budget: %v", err)
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused Remember wrote:\n%s\nwas:\n%s", after, before)
	}
	if n := len(must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))); n != ndec {
		t.Errorf("%d decisions after refusals, want %d", n, ndec)
	}
	if g := getFact(t, s, "", u.ID); g.State() != memory.Current {
		t.Errorf("user fact %+v", g)
	}
	// Replacing an automatic fact is within the budget; the user is never capped.
	out := must[memory.Outcome](t)(s.Remember(ctx, auto("I moved to Paris, I no longer live in Lyon.")))
	if out.Decision.Action != memory.ActionUpdate {
		t.Errorf("update of an automatic fact: %+v", out.Decision)
	}
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I have a dog named Rex."}))
	checkClean(t, s)
}
