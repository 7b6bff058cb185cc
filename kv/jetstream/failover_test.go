package jetstream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/palimpsest-mem/memory/kv"
)

// The stream leader stops under concurrent commits: every commit that
// returned a revision is in the final snapshot, a new leader takes over
// and commits go on, and the stopped node catches up when it restarts.
func TestFailover(t *testing.T) {
	c := startCluster(t)
	b := c.open(t, c.connect(t, ""), &Options{Timeout: time.Second})
	stream := b.l.stream(0)
	var sendsUnknown atomic.Int64 // sends left without an answer, resolved by the head
	b.publish = func(ctx context.Context, nc *nats.Conn, writes []write) (uint64, error) {
		seq, err := publishBatch(ctx, nc, writes)
		if err != nil && !definite(err) {
			sendsUnknown.Add(1)
		}
		return seq, err
	}
	const writers = 4
	type acked struct {
		key string
		rev uint64
	}
	var (
		mu       sync.Mutex
		acks     []acked
		unknown  atomic.Int64
		stop     = make(chan struct{})
		wg       sync.WaitGroup
		failures = make(chan error, writers)
	)
	for w := range writers {
		user := fmt.Sprint("writer", w)
		wg.Go(func() {
			ctx := testCtx(t, 60*time.Second)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				s, err := b.Snapshot(ctx, user)
				if err != nil {
					failures <- err
					return
				}
				key := fmt.Sprint("k", i)
				rev, err := b.Commit(ctx, user, s.Rev(), []kv.Op{put("facts", key, "v"+key), put("facts", "last", key)})
				switch {
				case err == nil:
					mu.Lock()
					acks = append(acks, acked{user + "/" + key, rev})
					mu.Unlock()
				case errors.Is(err, kv.ErrUnknownOutcome):
					// Left unresolved when the writer's context ended; one
					// writer per user, so a conflict would be a bug.
					unknown.Add(1)
				default:
					failures <- err
					return
				}
			}
		})
	}
	// Under way first: some commits acknowledged, whatever the load.
	for started := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(acks)
		mu.Unlock()
		if n >= writers {
			break
		}
		if time.Since(started) > 20*time.Second {
			t.Fatalf("%d commits acknowledged in 20 s before the stop", n)
		}
	}
	leader, err := c.WaitStreamLeader(testCtx(t, 20*time.Second), stream, -1)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	before := len(acks)
	mu.Unlock()
	stopped := time.Now()
	c.Stop(leader)
	next, err := c.WaitStreamLeader(testCtx(t, 20*time.Second), stream, leader)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("leader %s stopped after %d commits; %s leads after %v", c.NodeName(leader), before, c.NodeName(next), time.Since(stopped))
	// Commits go on: the first acknowledged after the stop.
	resumed := false
	for !resumed && time.Since(stopped) < 20*time.Second {
		time.Sleep(10 * time.Millisecond)
		mu.Lock()
		resumed = len(acks) > before+writers // past the commits in flight at the stop
		mu.Unlock()
	}
	if !resumed {
		t.Fatalf("no commit acknowledged in 20 s after the leader stopped")
	}
	t.Logf("commits acknowledged again %v after the stop", time.Since(stopped))
	if err := c.Start(testCtx(t, 20*time.Second), leader); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	close(stop)
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Fatal(err)
	}
	// Every acknowledged commit is there, at a revision no later than the
	// user's.
	lost := 0
	for _, a := range acks {
		user, key, _ := strings.Cut(a.key, "/")
		s := snapshot(t, b, user)
		if s.Get("facts", []byte(key)) == nil || s.Rev() < a.rev {
			lost++
		}
	}
	t.Logf("%d commits acknowledged, %d sends without an answer, %d commits left unresolved, %d lost",
		len(acks), sendsUnknown.Load(), unknown.Load(), lost)
	if lost > 0 {
		t.Errorf("%d acknowledged commits lost", lost)
	}
	if err := c.WaitStreamCurrent(testCtx(t, 20*time.Second), stream); err != nil {
		t.Fatal(err)
	}
	seqs := c.lastSeqs(t, stream)
	for i, s := range seqs {
		if s != seqs[0] {
			t.Errorf("node %s at %d, others at %d", c.NodeName(i), s, seqs[0])
		}
	}
}
