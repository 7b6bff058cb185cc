package jetstream

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// A user with more keys than one multi_last answers (1024) is read by the
// walk of its messages, with the same result.
func testManyKeys(t *testing.T, c *testCluster) {
	b := c.newBackend(t)
	const n = 1200
	rev := uint64(0)
	for from := 0; from < n; from += kv.MaxOps {
		var ops []kv.Op
		for i := from; i < min(n, from+kv.MaxOps); i++ {
			ops = append(ops, put("facts", fmt.Sprintf("%05d", i), "v1"))
		}
		rev = commit(t, b, "ann", rev, ops...)
	}
	rev = commit(t, b, "ann", rev, put("facts", "00007", "v2"), del("facts", "00008"))
	// The case this is about: multi_last refuses so many subjects.
	if _, err := multiLast(testCtx(t, 5*time.Second), b.(*Backend).nc, b.(*Backend).l.stream(0), []string{b.(*Backend).l.userPrefix("ann") + ".>"}, rev); !errors.Is(err, errTooMany) {
		t.Fatalf("multi_last of %d subjects: %v, want %v", n+1, err, errTooMany)
	}
	start := time.Now()
	s := snapshot(t, b, "ann")
	t.Logf("snapshot of %d keys by the walk: %v", n, time.Since(start))
	if s.Rev() != rev {
		t.Fatalf("rev %d, want %d", s.Rev(), rev)
	}
	got := scan(t, s, "facts", nil, nil, false)
	if len(got) != n-1 || got[0] != "00000=v1" || got[7] != "00007=v2" || got[8] != "00009=v1" || got[n-2] != fmt.Sprintf("%05d=v1", n-1) {
		t.Errorf("%d keys, %q … %q", len(got), got[:min(10, len(got))], got[len(got)-1])
	}

	// A process with none of it cached reads it cold, in steps. A walk of
	// one message a request makes over 1,200 requests, far more than fit
	// in one request's 100 ms on any machine (83 µs a round trip), while
	// each request alone has 100 ms: the walk retried whole never ended.
	cold := c.open(t, c.connect(t, ""), &Options{Prefix: b.(*Backend).l.prefix, Timeout: 100 * time.Millisecond})
	cold.walkBatch = 1
	start = time.Now()
	cs, err := cold.Snapshot(testCtx(t, time.Minute), "ann")
	if err != nil {
		t.Fatalf("a cold snapshot walked a message a request: %v", err)
	}
	t.Logf("cold snapshot, a message a request: %v", time.Since(start))
	if cold := scan(t, cs, "facts", nil, nil, false); cs.Rev() != rev || !slices.Equal(cold, got) {
		t.Errorf("cold snapshot at %d with %d keys, want %d with %d", cs.Rev(), len(cold), rev, len(got))
	}
}
