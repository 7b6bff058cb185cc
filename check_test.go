package memory_test

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Check beside a stream of writes never reports false corruption or
// crashes: it holds writes off while bbolt's page check runs. The test
// proves the two did overlap: some Add was called before a Check returned
// and returned after that Check was called (an order of events on one
// counter, no timing), and every acknowledged Add is in the store after.
func TestCheckBesideWrites(t *testing.T) {
	s, _ := open(t, nil, nil)
	var (
		seq     atomic.Int64 // orders the calls and returns of both sides
		stop    atomic.Bool
		mu      sync.Mutex
		adds    [][2]int64 // [called, returned] of each Add
		checks  [][2]int64 // the same of each Check
		written int
	)
	overlap := func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range adds {
			for _, c := range checks {
				if a[0] < c[1] && c[0] < a[1] {
					return true
				}
			}
		}
		return false
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			called := seq.Add(1)
			if _, err := s.Add(ctx, memory.Note{Text: strings.Repeat("word ", 20) + string(rune('a'+i%26))}); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			adds = append(adds, [2]int64{called, seq.Add(1)})
			written++
			mu.Unlock()
		}
	}()
	// At least 30 checks, and on until one of them met a write (bounded,
	// so a store that serialises the two fails instead of hanging).
	for i := 0; i < 30 || (i < 2000 && !overlap()); i++ {
		called := seq.Add(1)
		if err := s.Check(ctx); err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatal(err)
		}
		mu.Lock()
		checks = append(checks, [2]int64{called, seq.Add(1)})
		mu.Unlock()
	}
	stop.Store(true)
	wg.Wait()
	if !overlap() {
		t.Fatalf("no Add was in flight during any of %d Checks (%d adds): the test proved nothing", len(checks), len(adds))
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))); n != written {
		t.Errorf("%d facts after %d acknowledged adds", n, written)
	}
}
