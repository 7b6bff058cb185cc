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
