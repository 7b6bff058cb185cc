package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
)

// Close while the first lookup is building the index: the build that ends
// after Close must not put its index in use, and Close returns only once
// no index directory is left.
func TestCloseDuringTheFirstBuildLeavesNoIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, Note{Text: "My garden has three apple trees."}); err != nil {
		t.Fatal(err)
	}
	built, release := make(chan string), make(chan struct{})
	s.live.hookAfterBuild = func(ix *index.Index) {
		built <- ix.Dir()
		<-release
	}
	lookup := make(chan error, 1)
	go func() {
		_, err := s.Candidates(ctx, "", "apple trees", 1)
		lookup <- err
	}()
	dir := <-built
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	// Give Close the time to get as far as it goes on its own (all the way,
	// before the fix) before the build goes on; either order must end well.
	time.Sleep(100 * time.Millisecond)
	close(release)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if err := <-lookup; err != nil && !errors.Is(err, ErrClosed) {
		t.Errorf("the lookup: %v", err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the index built during Close is still there: %s (%v)", dir, err)
	}
	if _, err := os.Lstat(path + ".index"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the index directory is still there after Close: %v", err)
	}
	if _, err := s.Candidates(ctx, "", "apple trees", 1); !errors.Is(err, ErrClosed) {
		t.Errorf("a lookup after Close: %v", err)
	}
	if _, err := os.Lstat(path + ".index"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a lookup after Close made an index directory: %v", err)
	}
}

// Close cancels a build that is still reading the store, instead of
// waiting for it to read everything.
func TestCloseCancelsABuild(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.Add(ctx, Note{Text: "My garden has three apple trees."}); err != nil {
			t.Fatal(err)
		}
	}
	// The first page read waits for Close to begin.
	reading := make(chan struct{})
	s.live.hookBuildPage = func() {
		close(reading)
		<-s.live.life.Done()
	}
	lookup := make(chan error, 1)
	go func() {
		_, err := s.Candidates(ctx, "", "apple trees", 1)
		lookup <- err
	}()
	<-reading
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-lookup; !errors.Is(err, ErrClosed) {
		t.Errorf("the lookup whose build Close cancelled: %v", err)
	}
	if _, err := os.Lstat(path + ".index"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the index directory is still there after Close: %v", err)
	}
}

// An index whose segment files are truncated under it (its memory maps
// fault, SIGBUS) is dropped by the lookup that meets the fault and built
// again from the store: the lookup still answers.
func TestLookupRebuildsAFaultedIndex(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var want uint64
	for i := range 500 {
		text := fmt.Sprintf("My garden fact number %d mentions apples.", i)
		if i == 499 {
			text = "My garden has a zebrawood bench."
		}
		f, err := s.Add(ctx, Note{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		want = f.ID
	}
	lookup := func() {
		t.Helper()
		got, err := s.Candidates(ctx, "", "zebrawood", 1)
		if err != nil || len(got.Candidates) != 1 || got.Candidates[0].Fact.ID != want {
			t.Fatalf("lookup: %+v, %v", got.Candidates, err)
		}
	}
	lookup()
	s.live.mu.RLock()
	first := s.live.ix.Dir()
	s.live.mu.RUnlock()
	// The searches read a segment's file once the persister has written it
	// and put it in place of the segment in memory; truncate the files
	// until a lookup meets one.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		filepath.WalkDir(first, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".zap") {
				os.Truncate(p, 0)
			}
			return nil
		})
		lookup()
		s.live.mu.RLock()
		now := s.live.ix.Dir()
		s.live.mu.RUnlock()
		if now != first {
			if _, err := os.Lstat(first); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the faulted index's directory is still there: %v", err)
			}
			return
		}
	}
	t.Fatal("test is void: no lookup met a truncated segment")
}

// Queued index changes wait for company only while nobody needs them: a
// lookup cuts the delay short, and Close does not wait it out either.
func TestLookupCutsTheIndexDelayShort(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	s.live.q.delay = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := s.Candidates(ctx, "", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"I play the cello on Fridays.", "My sister lives in Porto."} {
		f, err := s.Add(ctx, Note{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // let the flush fall asleep first
		got, err := s.Candidates(ctx, "", text, 1)
		if err != nil {
			t.Fatalf("lookup %d: %v (the delayed flush was never cut short)", i, err)
		}
		if len(got.Candidates) != 1 || got.Candidates[0].Fact.ID != f.ID {
			t.Fatalf("lookup %d: %+v, want fact %d", i, got, f.ID)
		}
	}
	if _, err := s.Add(ctx, Note{Text: "Queued when the store closes."}); err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("Close waited for the delayed flush")
	}
}

// A lookup waits for the queued changes to its own user's facts, not for
// other users': with the flush delayed for an hour, another user's change
// stays queued through the lookup, and that user's own lookup still finds it.
func TestLookupWaitsOnlyForItsUsersChanges(t *testing.T) {
	s, ctx, pending := delayedStore(t)
	if _, err := s.Candidates(ctx, "a", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	find := func(user, text string, want uint64) {
		t.Helper()
		got, err := s.Candidates(ctx, user, text, 1)
		if err != nil {
			t.Fatalf("lookup of %s: %v", user, err)
		}
		if len(got.Candidates) != 1 || got.Candidates[0].Fact.ID != want {
			t.Fatalf("lookup of %s: %+v, want fact %d", user, got, want)
		}
	}
	fa, err := s.Add(ctx, Note{User: "a", Text: "I play the cello on Fridays."})
	if err != nil {
		t.Fatal(err)
	}
	find("a", "cello on Fridays", fa.ID) // read your writes
	fb, err := s.Add(ctx, Note{User: "b", Text: "My sister lives in Porto."})
	if err != nil {
		t.Fatal(err)
	}
	find("a", "cello on Fridays", fa.ID)
	if !pending() {
		t.Fatal("a's lookup waited for b's change")
	}
	find("b", "sister in Porto", fb.ID)
	if pending() {
		t.Fatal("b's lookup returned before b's change reached the index")
	}
}

// A lookup that comes to wait for changes the indexer has already taken
// leaves no wake-up behind: once that batch is applied, the next change
// (another user's) waits out the delay like any other.
func TestWaitForATakenBatchLeavesNoWakeUp(t *testing.T) {
	s, ctx, _ := delayedStore(t)
	q := &s.live.q
	if _, err := s.Candidates(ctx, "other", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, Note{User: "a", Text: "I play the cello on Fridays."}); err != nil {
		t.Fatal(err)
	}
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
	s.live.q.batch = 2
	old, err := s.Add(ctx, Note{Text: "I live in Lisbon."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Candidates(ctx, "", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Supersede(ctx, "", old.ID, Note{Text: "I live in Porto."}); err != nil {
		t.Fatal(err)
	}
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
	if _, err := s.Candidates(ctx, "asker", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, Note{User: "other", Text: "I live in Lisbon."}); err != nil {
		t.Fatal(err)
	}
	// Give an apply at once the time to happen: with an hour's delay,
	// nothing else applies the change.
	time.Sleep(100 * time.Millisecond)
	if !pending() {
		t.Fatal("a change to a user nobody looked up was applied without waiting for company")
	}
	if _, err := s.Add(ctx, Note{User: "asker", Text: "I live in Porto."}); err != nil {
		t.Fatal(err)
	}
	for pending() {
		if ctx.Err() != nil {
			t.Fatal("a change to a user just looked up waited for the delay")
		}
		time.Sleep(time.Millisecond)
	}
	// A large change, such as a group commit of many writers, gathers
	// even for a user just looked up.
	notes := make([]Note, smallChange+1)
	for i := range notes {
		notes[i] = Note{User: "asker", Text: fmt.Sprintf("I have %d cats.", i+2)}
	}
	if _, err := s.Candidates(ctx, "asker", "cats", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.update(ctx, func(tx *kv.Tx) error {
		for i := range notes {
			rec, err := s.record(notes[i])
			if err != nil {
				return err
			}
			if err := s.insert(tx, &rec, nil, s.now()); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Give an apply at once the time to happen: with an hour's delay,
	// nothing else applies the change.
	time.Sleep(100 * time.Millisecond)
	if !pending() {
		t.Fatal("a large change was applied at once: many writers' commits would each make a segment")
	}
}

// The analyses lookups keep of their hits go with the index at a Delete:
// no word of a deleted fact stays in memory.
func TestDeleteForgetsTheAnalysesOfHits(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f, err := s.Add(ctx, Note{Text: "My garden has a zebrawood bench."})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Candidates(ctx, "", "zebrawood bench", 1)
	if err != nil || len(got.Candidates) != 1 {
		t.Fatalf("lookup: %+v, %v", got, err)
	}
	seen := func() bool {
		s.live.seenMu.Lock()
		defer s.live.seenMu.Unlock()
		_, ok := s.live.seen[f.ID]
		return ok
	}
	if !seen() {
		t.Fatal("test is void: the lookup kept no analysis of its hit")
	}
	if _, err := s.Delete(ctx, "", f.ID, nil); err != nil {
		t.Fatal(err)
	}
	if seen() {
		t.Error("the analysis of a deleted fact is still kept")
	}
}

// A batch the indexer took before the index was dropped and built again
// is not applied to the new index: it holds the store's state since, and
// the batch may bring back a fact deleted meanwhile.
func TestIndexerDropsABatchTakenBeforeARebuild(t *testing.T) {
	s, ctx, _ := delayedStore(t)
	if _, err := s.Candidates(ctx, "asker", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	f, err := s.Add(ctx, Note{User: "other", Text: "My secret word is zzquokka."})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	s.live.q.hookBeforeApply = func() {
		defer close(done)
		s.live.q.hookBeforeApply = nil
		if _, err := s.Delete(ctx, "other", f.ID, nil); err != nil {
			t.Error(err)
		}
		if _, err := s.Candidates(ctx, "asker", "rebuild the index", 1); err != nil {
			t.Error(err)
		}
	}
	s.live.q.wake() // take the gathered batch, holding the fact, now
	<-done
	s.live.q.wake() // past the apply, the empty queue ends the goroutine
	for {
		s.live.q.mu.Lock()
		running := s.live.q.running
		s.live.q.mu.Unlock()
		if !running {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the indexer did not end")
		}
		time.Sleep(time.Millisecond)
	}
	ids, ok, err := s.live.ids(ctx)
	if err != nil || !ok {
		t.Fatalf("ids: %v %v", ok, err)
	}
	if ids[f.ID] {
		t.Errorf("the deleted fact %d is in the rebuilt index: a batch taken before the rebuild was applied", f.ID)
	}
}

// A lookup that read a fact before a Delete dropped the kept analyses, and
// analyses it after, keeps no analysis: the deleted words would stay in
// memory until 4,096 others pushed them out.
func TestAnalysisReadBeforeADropIsNotKept(t *testing.T) {
	s := openStore(t)
	an, err := s.live.analyzer()
	if err != nil {
		t.Fatal(err)
	}
	gen := s.live.seenGen() // the lookup begins and reads the fact
	s.live.drop()           // a Delete commits and drops
	s.live.terms(an, 7, "My secret word is zzquokka.", gen)
	s.live.seenMu.Lock()
	defer s.live.seenMu.Unlock()
	if _, kept := s.live.seen[7]; kept {
		t.Error("an analysis read before the drop was kept after it")
	}
}

// delayedStore opens a store whose indexer waits an hour for company, so
// that only a lookup, a full batch or an urgent change applies queued
// changes; pending reports whether some are still queued.
func delayedStore(t *testing.T) (s *Store, ctx context.Context, pending func() bool) {
	t.Helper()
	s = openStore(t)
	s.live.q.delay = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	t.Cleanup(cancel)
	return s, ctx, func() bool {
		s.live.q.mu.Lock()
		defer s.live.q.mu.Unlock()
		return s.live.q.applied < s.live.q.queued
	}
}
