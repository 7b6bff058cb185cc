package memory

import (
	"context"
	"reflect"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// A Delete scrubs its user's logs only: another user's decision that
// names the same id names a fact of that user's (ids are each user's), and
// is left as it was.
func TestDeleteLeavesAnotherUsersDecisionOfTheSameID(t *testing.T) {
	ctx := context.Background()
	s, alice, bob := twoUsers(t)
	d := bob.Decision
	d.Candidates = append(d.Candidates, alice.Fact.ID) // bob's own fact of that id
	if err := s.update(ctx, "bob", func(tx *kv.Tx) error { return putDecision(tx, &d) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delete(ctx, "alice", alice.Fact.ID, nil); err != nil {
		t.Fatal(err)
	}
	var got Decision
	if err := s.view(ctx, "bob", func(tx *kv.Tx) (err error) { got, err = getDecision(tx, "bob", d.ID); return err }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Candidates, d.Candidates) || got.Reason != d.Reason {
		t.Errorf("bob's decision after alice's delete: %+v, want %+v", got, d)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}
