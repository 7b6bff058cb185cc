package memory

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// Queued index changes wait for company only while nobody needs them: a
// lookup cuts the delay short, and Close does not wait it out either.
func TestLookupCutsTheIndexDelayShort(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	s.indexer.delay = time.Hour
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
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.indexer.delay = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
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
	pending := func() bool {
		s.indexer.mu.Lock()
		defer s.indexer.mu.Unlock()
		return s.indexer.applied < s.indexer.queued
	}
	fa, err := s.Add(ctx, Note{User: "a", Text: "I play the cello on Fridays."})
	if err != nil {
		t.Fatal(err)
	}
	find("a", "cello on Fridays", fa.ID) // read your writes
	// A wake-up the flush has not taken yet would apply b's change at once.
	select {
	case <-s.indexer.kick:
	default:
	}
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
