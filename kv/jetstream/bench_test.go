package jetstream

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// One writer's commit of 5 keys on an R3 stream, every node fsyncing
// (SyncAlways), all three nodes in this process on one disk.
func BenchmarkCommit(b *testing.B) {
	c := startCluster(b)
	be := c.open(b, c.connect(b, ""), nil)
	rev := uint64(0)
	ops := make([]kv.Op, 5)
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		for k := range ops {
			ops[k] = put("facts", fmt.Sprint(k), fmt.Sprint("value ", i))
		}
		start := time.Now()
		rev = commit(b, be, "ann", rev, ops...)
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
}

// A snapshot of a user with 100 keys: the head from the leader, then one
// multi_last ("read"), or the view the Backend keeps ("cached"); and the
// head alone ("rev", kv.RevReader).
func BenchmarkSnapshot(b *testing.B) {
	c := startCluster(b)
	be := c.open(b, c.connect(b, ""), nil)
	var ops []kv.Op
	for k := range 100 {
		ops = append(ops, put("facts", fmt.Sprint(k), "a value of some length"))
	}
	commit(b, be, "ann", 0, ops...)
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			be.views.mu.Lock()
			clear(be.views.views)
			be.views.mu.Unlock()
			snapshot(b, be, "ann")
		}
	})
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			snapshot(b, be, "ann")
		}
	})
	b.Run("rev", func(b *testing.B) {
		ctx := testCtx(b, time.Minute)
		for b.Loop() {
			if _, err := be.Rev(ctx, "ann"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
