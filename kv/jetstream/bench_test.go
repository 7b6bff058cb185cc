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

// A cold snapshot of a user as large as the bench's big user (99,000
// facts, about 5 messages each): 100,000 keys written 5 times each, read
// by a Backend that has kept no view of the user, so by the walk of all
// 500,000 messages, 1000 a request.
func BenchmarkColdSnapshot(b *testing.B) {
	c := startCluster(b)
	be := c.open(b, c.connect(b, ""), nil)
	const keys, versions = 100_000, 5
	value := make([]byte, 200)
	rev := uint64(0)
	var ops []kv.Op
	for v := range versions {
		for k := range keys {
			value[0] = byte(v)
			ops = append(ops, kv.Op{Bucket: "facts", Key: fmt.Appendf(nil, "%06d", k), Value: slices.Clone(value)})
			if len(ops) == kv.MaxOps || k == keys-1 {
				rev = commit(b, be, "ann", rev, ops...)
				ops = ops[:0]
			}
		}
	}
	cold := c.open(b, c.connect(b, ""), &Options{Prefix: be.l.prefix})
	for b.Loop() {
		cold.views.mu.Lock()
		clear(cold.views.views)
		cold.views.mu.Unlock()
		s := snapshot(b, cold, "ann")
		if s.Rev() != rev {
			b.Fatalf("rev %d, want %d", s.Rev(), rev)
		}
	}
}
