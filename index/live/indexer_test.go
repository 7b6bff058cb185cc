package live

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/index"
)

// Queued index changes wait for company only while nobody needs them: a
// lookup cuts the delay short, and Close does not wait it out either.
func TestLookupCutsTheIndexDelayShort(t *testing.T) {
	s := newStore(t)
	s.l.q.delay = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	if _, err := s.find(ctx, "", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"I play the cello on Fridays.", "My sister lives in Porto."} {
		id := s.add("", text)
		time.Sleep(20 * time.Millisecond) // let the flush fall asleep first
		got, err := s.find(ctx, "", text, 1)
		if err != nil {
			t.Fatalf("lookup %d: %v (the delayed flush was never cut short)", i, err)
		}
		if len(got) != 1 || got[0] != id {
			t.Fatalf("lookup %d: %v, want fact %d", i, got, id)
		}
	}
	s.add("", "Queued when the store closes.")
	closed := make(chan struct{})
	go func() { s.l.Close(); close(closed) }()
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("Close waited for the delayed flush")
	}
}

// A lookup waits for the queued changes to its own user's facts, not for
// other users': with the flush delayed for an hour, another user's change
// stays queued through the lookup, and that user's own lookup still finds it.
func TestLookupWaitsOnlyForItsUsersChanges(t *testing.T) {
	s, ctx, pending := delayedStore(t)
	if _, err := s.find(ctx, "a", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	fa := s.add("a", "I play the cello on Fridays.")
	s.mustFind(t, ctx, "a", "cello on Fridays", fa) // read your writes
	fb := s.add("b", "My sister lives in Porto.")
	s.mustFind(t, ctx, "a", "cello on Fridays", fa)
	if !pending() {
		t.Fatal("a's lookup waited for b's change")
	}
	s.mustFind(t, ctx, "b", "sister in Porto", fb)
	if pending() {
		t.Fatal("b's lookup returned before b's change reached the index")
	}
}

// A lookup that comes to wait for changes the indexer has already taken
// leaves no wake-up behind: once that batch is applied, the next change
// (another user's) waits out the delay like any other.
func TestWaitForATakenBatchLeavesNoWakeUp(t *testing.T) {
	s, ctx, _ := delayedStore(t)
	q := &s.l.q
	if _, err := s.find(ctx, "other", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	s.add("a", "I play the cello on Fridays.")
	done := make(chan struct{})
	q.hookBeforeApply = func() {
		defer close(done)
		q.hookBeforeApply = nil
		// A lookup of a's arrives now: it would wait for the batch in hand.
		gone, cancel := context.WithCancel(ctx)
		cancel()
		q.mu.Lock()
		_ = q.waitFor(gone, q.byUser["a"])
		q.mu.Unlock()
	}
	q.wake() // take the gathered batch now
	<-done
	if err := q.waitUser(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	q.mu.Lock()
	urgent, kicks := q.urgent, len(q.kick)
	q.mu.Unlock()
	if urgent || kicks != 0 {
		t.Errorf("after the batch was applied: urgent %v, %d wake-ups queued; the next change would skip the delay", urgent, kicks)
	}
}

// Queued changes are applied without waiting out the delay once they
// wrote enough records, however few commits wrote them: a supersession is
// one commit of two records.
func TestIndexerAppliesAFullBatchAtOnce(t *testing.T) {
	s, ctx, pending := delayedStore(t)
	s.l.q.batch = 2
	old := s.add("", "I live in Lisbon.")
	if _, err := s.find(ctx, "", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	s.supersede(old, "I live in Porto.")
	for pending() {
		if ctx.Err() != nil {
			t.Fatal("a commit of a full batch of records waited for the delay")
		}
		time.Sleep(time.Millisecond)
	}
}

// A change to a user looked up lately is applied at once, not gathered:
// Remember looks up, writes, and looks up again, and that next lookup
// would wait for the whole batch. Other users' changes still gather.
func TestIndexerAppliesALookedUpUsersChangeAtOnce(t *testing.T) {
	s, ctx, pending := delayedStore(t)
	if _, err := s.find(ctx, "asker", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	s.add("other", "I live in Lisbon.")
	// Give an apply at once the time to happen: with an hour's delay,
	// nothing else applies the change.
	time.Sleep(100 * time.Millisecond)
	if !pending() {
		t.Fatal("a change to a user nobody looked up was applied without waiting for company")
	}
	s.add("asker", "I live in Porto.")
	for pending() {
		if ctx.Err() != nil {
			t.Fatal("a change to a user just looked up waited for the delay")
		}
		time.Sleep(time.Millisecond)
	}
	// A large change, such as a group commit of many writers, gathers
	// even for a user just looked up.
	texts := make([]string, smallChange+1)
	for i := range texts {
		texts[i] = fmt.Sprintf("I have %d cats.", i+2)
	}
	if _, err := s.find(ctx, "asker", "cats", 1); err != nil {
		t.Fatal(err)
	}
	s.add("asker", texts...)
	// Give an apply at once the time to happen: with an hour's delay,
	// nothing else applies the change.
	time.Sleep(100 * time.Millisecond)
	if !pending() {
		t.Fatal("a large change was applied at once: many writers' commits would each make a segment")
	}
}

// A batch the indexer took before the index was dropped and built again
// is not applied to the new index: it holds the store's state since, and
// the batch may bring back a fact deleted meanwhile.
func TestIndexerDropsABatchTakenBeforeARebuild(t *testing.T) {
	s, ctx, _ := delayedStore(t)
	q := &s.l.q
	if _, err := s.find(ctx, "asker", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	f := s.add("other", "My secret word is zzquokka.")
	done := make(chan struct{})
	q.hookBeforeApply = func() {
		defer close(done)
		q.hookBeforeApply = nil
		// A drop (a fault's, or a failed purge's) while the batch is taken.
		s.commit(Change{ID: f, User: "other", Deleted: true})
		s.l.Drop()
		if _, err := s.find(ctx, "asker", "rebuild the index", 1); err != nil {
			t.Error(err)
		}
	}
	q.wake() // take the gathered batch, holding the fact, now
	<-done
	q.wake() // past the apply, the empty queue ends the goroutine
	for {
		q.mu.Lock()
		running := q.running
		q.mu.Unlock()
		if !running {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the indexer did not end")
		}
		time.Sleep(time.Millisecond)
	}
	keys, ok, err := s.l.keys(ctx)
	if err != nil || !ok {
		t.Fatalf("keys: %v %v", ok, err)
	}
	if keys[index.DocKey{User: "other", ID: f}] {
		t.Errorf("the deleted fact %d is in the rebuilt index: a batch taken before the rebuild was applied", f)
	}
}
