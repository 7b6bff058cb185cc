package memory

import (
	"context"
	"errors"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// twoUsers is a store where alice remembered a fact and bob two (with a
// decision each): ids are each user's, so bob's second fact and decision
// have ids alice has none of.
func twoUsers(t *testing.T) (s *Store, alice, bob Outcome) {
	t.Helper()
	ctx := context.Background()
	s = openStore(t)
	var err error
	if alice, err = s.Remember(ctx, Note{User: "alice", Text: "Alice works at company A."}); err != nil {
		t.Fatal(err)
	}
	if _, err = s.Remember(ctx, Note{User: "bob", Text: "I keep two cats."}); err != nil {
		t.Fatal(err)
	}
	if bob, err = s.Remember(ctx, Note{User: "bob", Text: "Bob lives in Lyon."}); err != nil {
		t.Fatal(err)
	}
	if bob.Fact.ID == alice.Fact.ID || bob.Decision.ID == alice.Decision.ID {
		t.Fatalf("test is void: bob's ids %d, %d are alice's", bob.Fact.ID, bob.Decision.ID)
	}
	return s, alice, bob
}

// A write for one user that changes another user's data, by any path a
// transaction has to it, fails as a whole and leaves the store as it was.
// A path by id alone cannot even reach it: ids are each user's, and bob's
// ids name nothing of alice's (ErrNotFound).
func TestUpdateRefusesAnotherUsersData(t *testing.T) {
	ctx := context.Background()
	byID := map[string]bool{"rewrite bob's record": true, "take bob's id under alice's name": true,
		"append to bob's log": true, "delete bob's fact": true, "delete bob's decision": true}
	for name, write := range map[string]func(s *Store, tx *kv.Tx, alice, bob Outcome) error{
		"rewrite bob's record": func(s *Store, tx *kv.Tx, _, bob Outcome) error {
			r, err := tx.Get(bob.Fact.ID)
			if err != nil {
				return err
			}
			r.Text = "Bob lives in Paris."
			return tx.Put(&r)
		},
		"take bob's id under alice's name": func(s *Store, tx *kv.Tx, _, bob Outcome) error {
			r, err := tx.Get(bob.Fact.ID)
			if err != nil {
				return err
			}
			r.User = "alice"
			return tx.Put(&r)
		},
		"append to bob's log": func(s *Store, tx *kv.Tx, _, bob Outcome) error {
			return tx.Append(bob.Fact.ID, &kv.Event{Kind: kv.Pinned, At: s.now()})
		},
		"delete bob's fact": func(s *Store, tx *kv.Tx, _, bob Outcome) error {
			return tx.Delete(bob.Fact.ID)
		},
		"rewrite bob's decision": func(s *Store, tx *kv.Tx, _, bob Outcome) error {
			d := bob.Decision
			d.Reason = "rewritten by alice's write"
			return putDecision(tx, &d)
		},
		"delete bob's decision": func(s *Store, tx *kv.Tx, _, bob Outcome) error {
			if _, err := getDecision(tx, "alice", bob.Decision.ID); err != nil {
				return err
			}
			return tx.DeleteBlob(kv.BucketDecisions, bob.Decision.ID)
		},
		"write bob's record": func(s *Store, tx *kv.Tx, _, bob Outcome) error {
			return tx.Put(&kv.Record{ID: bob.Fact.ID, User: "bob", Text: "Bob lives in Paris.", RecordedAt: s.now()})
		},
		"give alice's decision to bob": func(s *Store, tx *kv.Tx, alice, _ Outcome) error {
			d := alice.Decision
			d.User = "bob"
			return putDecision(tx, &d)
		},
		"store an embedding of bob's fact": func(s *Store, tx *kv.Tx, _, bob Outcome) error {
			return tx.PutVector(bob.Fact.ID, []float32{1, 0})
		},
		"touch bob's data": func(s *Store, tx *kv.Tx, _, _ Outcome) error {
			tx.TouchUser("bob")
			return nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			s, alice, bob := twoUsers(t)
			before := snapshotOf(t, s)
			ran := 0
			err := s.update(ctx, "alice", func(tx *kv.Tx) error {
				ran++
				// alice's own write first: it is refused with the rest.
				if err := tx.Append(alice.Fact.ID, &kv.Event{Kind: kv.Pinned, At: s.now()}); err != nil {
					return err
				}
				return write(s, tx, alice, bob)
			})
			switch {
			case byID[name] && !errors.Is(err, ErrNotFound):
				t.Fatalf("update for alice naming bob's data by id: %v, want ErrNotFound", err)
			case !byID[name] && (!errors.Is(err, errCrossUser) || !errors.Is(err, kv.ErrOtherUser)):
				t.Fatalf("update for alice that changed bob's data: %v, want errCrossUser and kv.ErrOtherUser", err)
			}
			if ran == 0 {
				t.Fatal("the write never ran")
			}
			if after := snapshotOf(t, s); after != before {
				t.Errorf("the refused write changed the store:\n%s\nwant\n%s", after, before)
			}
			// The refusal is the write's, not the store's: alice writes on.
			if _, err := s.Pin(ctx, "alice", alice.Fact.ID); err != nil {
				t.Errorf("alice's next write: %v", err)
			}
		})
	}
}

// Writes of two users that share one transaction (the group commit) are
// each checked on their own changes: bob's write of a record of alice's,
// whose fact alice's write already touched in the transaction, is refused
// all the same.
func TestWriteScopeInSharedTransaction(t *testing.T) {
	s, alice, _ := twoUsers(t)
	before := snapshotOf(t, s)
	rollback := errors.New("rolled back by the test")
	var aliceErr, bobErr error
	err := s.db.Update(func(tx *kv.Tx) error {
		aliceErr = runWrite(tx, "alice", func(tx *kv.Tx) error {
			return tx.Append(alice.Fact.ID, &kv.Event{Kind: kv.Pinned, At: s.now()})
		})
		bobErr = runWrite(tx, "bob", func(tx *kv.Tx) error {
			return tx.Put(&kv.Record{ID: alice.Fact.ID, User: "alice", Text: "Bob's words.", RecordedAt: s.now()})
		})
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatal(err)
	}
	if aliceErr != nil {
		t.Errorf("alice's own write: %v", aliceErr)
	}
	if !errors.Is(bobErr, errCrossUser) {
		t.Errorf("bob's write to alice's fact in a shared transaction: %v, want errCrossUser", bobErr)
	}
	if after := snapshotOf(t, s); after != before {
		t.Error("the rolled-back transaction changed the store")
	}
}

// A write for a user that keeps to its user commits, and its upkeep too.
func TestUpdateOwnUserCommits(t *testing.T) {
	ctx := context.Background()
	s, alice, _ := twoUsers(t)
	err := s.update(ctx, "alice", func(tx *kv.Tx) error {
		r, err := tx.Get(alice.Fact.ID)
		if err != nil {
			return err
		}
		r.Pinned = true
		if err := tx.Put(&r); err != nil {
			return err
		}
		return tx.Append(alice.Fact.ID, &kv.Event{Kind: kv.Pinned, At: s.now()})
	})
	if err != nil {
		t.Fatal(err)
	}
	if f, err := s.Get(ctx, "alice", alice.Fact.ID); err != nil || !f.Pinned {
		t.Fatalf("alice's fact after her write: %+v, %v", f, err)
	}
}

// A read scoped to one user cannot reach another user's ids: the
// lifecycle helpers answer ErrNotFound, and a timeline patch given another
// user's id finds nothing of the user's.
func TestUserViewRefusesAnotherUsersFact(t *testing.T) {
	ctx := context.Background()
	s, _, bob := twoUsers(t)
	err := s.view(ctx, "alice", func(tx *kv.Tx) error {
		_, err := getUser(tx, bob.Fact.ID, "alice")
		return err
	})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("getUser of bob's fact for alice: %v, want ErrNotFound", err)
	}
	err = s.view(ctx, "alice", func(tx *kv.Tx) error {
		_, err := getDecision(tx, "alice", bob.Decision.ID)
		return err
	})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("getDecision of bob's decision for alice: %v, want ErrNotFound", err)
	}
	// Bob's id names no fact of alice's: a patch with it finds it gone.
	if tl, err := s.patchTimeline(ctx, "alice", nil, []uint64{bob.Fact.ID}); err != nil || len(tl) != 0 {
		t.Errorf("alice's timeline patched with bob's id: %d entries, %v; want none", len(tl), err)
	}
}

// In the group commit, a write that crosses users fails alone: the writes
// it was batched with, of both users, commit, and nothing of it does.
func TestCrossUserWriteInBatchFailsAlone(t *testing.T) {
	ctx := context.Background()
	s, alice, bob := twoUsers(t)
	batches := watchBatches(s)
	release, leader := blockLeader(t, s)
	type write struct {
		name string
		run  func() error
	}
	writes := []write{
		{"alice pins her fact", func() error { _, err := s.Pin(ctx, "alice", alice.Fact.ID); return err }},
		{"bob's write to alice's fact", func() error {
			return s.update(ctx, "bob", func(tx *kv.Tx) error {
				r := kv.Record{ID: alice.Fact.ID, User: "alice", Text: "Bob's words.", RecordedAt: s.now()}
				if err := tx.Put(&r); err != nil {
					return err
				}
				return tx.Append(alice.Fact.ID, &kv.Event{Kind: kv.Retracted, At: s.now()})
			})
		}},
		{"bob pins his fact", func() error { _, err := s.Pin(ctx, "bob", bob.Fact.ID); return err }},
	}
	errs := make([]chan error, len(writes))
	for i, w := range writes {
		errs[i] = make(chan error, 1)
		go func() { errs[i] <- w.run() }()
		waitQueued(t, s, i+1)
	}
	release()
	if err := receive(t, leader, "the leader"); err != nil {
		t.Fatal(err)
	}
	for i, w := range writes {
		err := receive(t, errs[i], w.name)
		if cross := i == 1; cross != errors.Is(err, errCrossUser) {
			t.Errorf("%s: %v", w.name, err)
		}
	}
	batches.mu.Lock()
	largest := batches.largest
	batches.mu.Unlock()
	if largest != len(writes) {
		t.Errorf("largest batch %d, want the %d writes in one", largest, len(writes))
	}
	evs, err := s.Events(ctx, "alice", alice.Fact.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Kind == EventRetracted {
			t.Errorf("alice's log holds bob's step: %+v", evs)
		}
	}
	for user, id := range map[string]uint64{"alice": alice.Fact.ID, "bob": bob.Fact.ID} {
		if f, err := s.Get(ctx, user, id); err != nil || !f.Pinned {
			t.Errorf("%s's fact after the batch: pinned %v, %v", user, f.Pinned, err)
		}
	}
}
