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
