package memory

import (
	"context"
	"errors"
	"testing"
	"time"
)

// closeRace opens a store with a built index and a change the indexer has
// taken but not applied: apply is held until release is called.
func closeRace(t *testing.T) (s *Store, release func()) {
	t.Helper()
	s = openStore(t)
	ctx := context.Background()
	if _, err := s.Add(ctx, Note{Text: "I like green tea."}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Candidates(ctx, "", "tea", 1); err != nil { // builds the index
		t.Fatal(err)
	}
	held, block := make(chan struct{}), make(chan struct{})
	// No indexer runs now; the one the next write starts reads the hook.
	s.hookIndexApply = func() {
		s.hookIndexApply = nil
		close(held)
		<-block
	}
	// A small change to a user just looked up is applied at once.
	if _, err := s.Add(ctx, Note{Text: "I like black coffee."}); err != nil {
		t.Fatal(err)
	}
	<-held
	return s, once(func() { close(block) })
}

// once makes f safe to call more than once.
func once(f func()) func() {
	done := false
	return func() {
		if !done {
			done = true
			f()
		}
	}
}

// closing reports whether Close has begun and holds the write lock (it
// waits then for the indexer to stop).
func closing(s *Store) bool {
	if !s.live.Closed() {
		return false
	}
	if s.writeMu.TryLock() {
		s.writeMu.Unlock()
		return false
	}
	return true
}

// A Check that starts while Close is in progress reports ErrClosed; it
// reported ErrCorrupt ("index lacks current fact 2"), because Close
// stopped the indexer while Check compared the index with the store.
func TestCheckDuringCloseIsErrClosed(t *testing.T) {
	s, release := closeRace(t)
	defer release()
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	for !closing(s) { // Close waits in the indexer's stop for the held apply
		time.Sleep(time.Millisecond)
	}
	checked := make(chan error, 1)
	go func() { checked <- s.Check(context.Background()) }()
	var err error
	select {
	case err = <-checked:
	case <-time.After(200 * time.Millisecond): // waits for Close, as it should
		release()
		err = <-checked
	}
	release()
	if cerr := <-closed; cerr != nil {
		t.Fatal(cerr)
	}
	if !errors.Is(err, ErrClosed) {
		t.Errorf("Check during Close = %v, want ErrClosed", err)
	}
}

// A Check already comparing when Close begins ends first, on the store as
// it is: never ErrCorrupt for an index Close stopped halfway.
func TestCloseWaitsForCheck(t *testing.T) {
	s, release := closeRace(t)
	defer release()
	checked := make(chan error, 1)
	go func() { checked <- s.Check(context.Background()) }()
	for s.writeMu.TryLock() { // until Check holds the store still
		s.writeMu.Unlock()
		time.Sleep(time.Millisecond)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	// Give Close the time to stop the indexer under the Check (which it
	// must not) before the held apply goes on.
	deadline := time.Now().Add(200 * time.Millisecond)
	for len(checked) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	release()
	if err := <-checked; err != nil && !errors.Is(err, ErrClosed) {
		t.Errorf("Check beside Close = %v, want nil or ErrClosed", err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}
