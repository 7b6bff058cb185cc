package memory

import (
	"context"
	"errors"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// A Delete scrubs its user's logs only: another user's decision that names
// the deleted fact is damage (links never cross users), refused with
// ErrCorrupt rather than rewritten by the delete or left quoting the fact.
func TestDeleteRefusesAnotherUsersDecisionNamingTheFact(t *testing.T) {
	ctx := context.Background()
	s, alice, bob := twoUsers(t)
	d := bob.Decision
	d.Candidates = append(d.Candidates, alice.Fact.ID)
	if err := s.db.Update(func(tx *kv.Tx) error { return putDecision(tx, &d) }); err != nil {
		t.Fatal(err)
	}
	before := snapshotOf(t, s)
	if _, err := s.Delete(ctx, "alice", alice.Fact.ID, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Delete with bob's decision naming alice's fact: %v, want ErrCorrupt", err)
	}
	if after := snapshotOf(t, s); after != before {
		t.Error("the refused Delete changed the store")
	}
}
