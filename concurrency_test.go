package memory_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// Many goroutines doing mixed operations on a few users: run under -race.
// Expected errors are the ones a racing caller can meet; anything else
// fails. Afterwards Check must be clean (logs replay to their markers,
// links agree both ways, indexes match) and no list crosses users.
func TestConcurrentMixedOperations(t *testing.T) {
	s, _ := open(t, nil, nil)
	const workers, steps = 16, 60
	users := []string{"", "alice", "bob"}
	var wg sync.WaitGroup
	errc := make(chan error, workers)
	deadline := time.Now().Add(60 * time.Second)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			user := users[w%len(users)]
			var mine []uint64
			for i := range steps {
				if time.Now().After(deadline) {
					errc <- errors.New("deadline passed: likely deadlock")
					return
				}
				pick := func() uint64 {
					if len(mine) == 0 {
						return 1
					}
					return mine[rng.IntN(len(mine))]
				}
				var err error
				switch op := rng.IntN(10); {
				case op < 3 || len(mine) == 0:
					var f memory.Fact
					f, err = s.Add(ctx, memory.Note{User: user, Text: fmt.Sprintf("w%d fact %d", w, i)})
					mine = append(mine, f.ID)
				case op == 3:
					var f memory.Fact
					f, err = s.Supersede(ctx, user, pick(), memory.Note{User: user, Text: fmt.Sprintf("w%d new %d", w, i)})
					if err == nil {
						mine = append(mine, f.ID)
					}
				case op == 4:
					_, err = s.Invalidate(ctx, user, pick(), memory.Change{})
				case op == 5:
					_, err = s.Restore(ctx, user, pick(), memory.Change{})
				case op == 6:
					_, err = s.Pin(ctx, user, pick())
				case op == 7:
					_, err = s.At(ctx, user, time.Time{}, time.Time{})
				case op == 8 && i%2 == 0:
					_, err = s.Prompt(ctx, user)
				case op == 8:
					_, err = s.Candidates(ctx, user, fmt.Sprintf("w%d fact %d", w, i-1), 12)
				default:
					_, err = s.List(ctx, user, &memory.ListOptions{All: true})
				}
				if err != nil && !errors.Is(err, memory.ErrNotCurrent) && !errors.Is(err, memory.ErrAlreadyCurrent) &&
					!errors.Is(err, memory.ErrNotFound) {
					errc <- err
					return
				}
			}
		}()
	}
	// A reader and a deleter alongside, so compaction races with everything.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 3 {
			f, err := s.Add(ctx, memory.Note{User: "carol", Text: "short-lived"})
			if err == nil {
				_, err = s.Delete(ctx, "carol", f.ID, nil)
			}
			if err != nil {
				errc <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		all := must[[]memory.Fact](t)(s.List(ctx, u, &memory.ListOptions{All: true}))
		for _, f := range all {
			if f.User != u {
				t.Fatalf("user %q listed a fact of %q", u, f.User)
			}
		}
	}
}
