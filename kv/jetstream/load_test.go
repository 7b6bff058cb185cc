package jetstream

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/nats-io/nats.go"

	"github.com/palimpsest-mem/memory/kv"
)

// A load is writers committing to the cluster while a test crashes nodes:
// each writer has a user of its own and, when shared, commits to one user
// all writers share every fourth time, where the revision guards decide.
//
// A commit of value v writes facts/a = facts/b = v and facts/c-v = v:
// a snapshot shows a half commit when a and b differ or c-a is not a, and
// keeps every commit's own key, so every acknowledged one can be looked
// for at the end.
//
// Every snapshot and commit goes into a history for porcupine: each user
// is a register holding a, a snapshot reads it, a commit at the
// snapshot's revision is a compare-and-set from the value read (values
// are unique, so a revision guard and a value guard agree).
type load struct {
	b    *Backend
	base time.Time
	stop chan struct{}
	wg   sync.WaitGroup

	// flyers are the values whose commit the leader refused at least once
	// with err_code 10164: another write of the user was in flight, so the
	// guard was not compared with the user's head at all.
	flyers sync.Map
	// committing is the number of Commit calls under way, for a test to
	// crash a node while some are.
	committing atomic.Int32

	mu       sync.Mutex
	hist     []porcupine.Operation
	acked    []change
	unknown  []change // an outcome the commit could not tell
	failures []error  // half commits seen, unexpected errors
	stats    loadStats
}

// change is one commit of value v to user, at rev when acknowledged.
type change struct {
	user, v string
	rev     uint64
}

type loadStats struct {
	reads, readErrs, acked, conflicts, unknown int
	inFlight                                   int // conflicts refused (also) for a write in flight
}

const sharedUser = "shared"

// runLoad starts writers on b until finish.
func runLoad(t testing.TB, b *Backend, writers int, shared bool) *load {
	l := &load{b: b, base: time.Now(), stop: make(chan struct{})}
	b.publish = func(ctx context.Context, nc *nats.Conn, writes []write) (uint64, error) {
		seq, err := publishBatch(ctx, nc, writes)
		var ae *APIError
		if errors.As(err, &ae) && ae.ErrCode == errCodeWrongLastSeqFlyer {
			l.flyers.Store(string(writes[0].data), true) // the commit's value: facts/a
		}
		return seq, err
	}
	for w := range writers {
		l.wg.Go(func() {
			// Paced, so the history and the users' keys stay a few hundred
			// a writer over a test: the checks are over the crash, not a
			// throughput. Periods of their own, so that on the shared user
			// some guards are stale when they arrive (err_code 10071), not
			// only refused for a commit in flight (10164).
			tick := time.NewTicker(time.Duration(11+w) * time.Millisecond)
			defer tick.Stop()
			var last kv.Snapshot // of the shared user
			for i := 0; ; i++ {
				select {
				case <-l.stop:
					return
				case <-tick.C:
				}
				user, v := fmt.Sprint("w", w), fmt.Sprintf("w%d-%d", w, i)
				switch {
				case !shared || i%4 != 3:
					l.step(w, user, v, nil)
				case i%8 == 7 && last != nil:
					// On the writer's last snapshot of the shared user,
					// most likely stale by now: a guard refused (or not)
					// by the head it is compared with.
					l.step(w, sharedUser, v, last)
				default:
					last = l.step(w, sharedUser, v, nil)
				}
			}
		})
	}
	t.Cleanup(l.finish)
	return l
}

func (l *load) now() int64 { return int64(time.Since(l.base)) }

// step reads user (or takes s, read before) and commits v on what it
// read; it returns the snapshot, nil when the read failed.
func (l *load) step(client int, user, v string, s kv.Snapshot) kv.Snapshot {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if s == nil {
		call := l.now()
		var err error
		s, err = l.b.Snapshot(ctx, user)
		ret := l.now()
		if err != nil { // a failed read observed nothing: left out of the history
			l.mu.Lock()
			l.stats.readErrs++
			l.mu.Unlock()
			return nil
		}
		l.mu.Lock()
		l.stats.reads++
		l.hist = append(l.hist, porcupine.Operation{ClientId: client, Input: regIn{user: user},
			Output: regOut{value: string(s.Get("facts", []byte("a")))}, Call: call, Return: ret})
		if err := whole(s); err != nil {
			l.failures = append(l.failures, fmt.Errorf("user %s at %d: %w", user, s.Rev(), err))
		}
		l.mu.Unlock()
	}
	old := string(s.Get("facts", []byte("a")))
	in := regIn{user: user, write: true, expect: old, v: v}
	call := l.now()
	l.committing.Add(1)
	rev, err := l.b.Commit(ctx, user, s.Rev(), []kv.Op{
		put("facts", "a", v), put("facts", "b", v), put("facts", "c-"+v, v)})
	l.committing.Add(-1)
	ret := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	out := regOut{}
	switch {
	case err == nil:
		l.stats.acked++
		l.acked = append(l.acked, change{user, v, rev})
	case errors.Is(err, kv.ErrConflict):
		l.stats.conflicts++
		out.refused = true
		if _, ok := l.flyers.Load(v); ok {
			l.stats.inFlight++
			out.inFlight = true
		}
	default:
		// ErrUnknownOutcome, or an error that may have come after a send:
		// applied or not, the checks accept either but never half.
		l.stats.unknown++
		l.unknown = append(l.unknown, change{user: user, v: v})
		out.unknown = true
		ret = math.MaxInt64 / 2 // it may take effect any time after its call
		if !errors.Is(err, kv.ErrUnknownOutcome) {
			l.failures = append(l.failures, fmt.Errorf("commit of %s: %w", user, err))
		}
	}
	l.hist = append(l.hist, porcupine.Operation{ClientId: client, Input: in, Output: out, Call: call, Return: ret})
	return s
}

// whole reports a half commit in s.
func whole(s kv.Snapshot) error {
	a, b := s.Get("facts", []byte("a")), s.Get("facts", []byte("b"))
	if string(a) != string(b) {
		return fmt.Errorf("half a commit: a=%q b=%q", a, b)
	}
	if a != nil && string(s.Get("facts", []byte("c-"+string(a)))) != string(a) {
		return fmt.Errorf("half a commit: a=%q without its own key", a)
	}
	return nil
}

// acks is the number of commits acknowledged so far.
func (l *load) acks() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats.acked
}

// waitAcks waits until n more commits than now are acknowledged.
func (l *load) waitAcks(ctx context.Context, n int) error {
	want := l.acks() + n
	if err := poll(ctx, func() bool { return l.acks() >= want }); err != nil {
		return fmt.Errorf("%d commits acknowledged, waited for %d: %w", l.acks(), want, err)
	}
	return nil
}

// across counts the commits called before at (a time of l.now) that
// returned after it, and how many of those were acknowledged.
func (l *load) across(at int64) (commits, acked int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, op := range l.hist {
		if op.Input.(regIn).write && op.Call < at && op.Return > at {
			commits++
			if o := op.Output.(regOut); !o.refused && !o.unknown {
				acked++
			}
		}
	}
	return commits, acked
}

// finish stops the writers and waits for their last steps.
func (l *load) finish() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	l.wg.Wait()
}

// verify checks, through b, that every acknowledged commit is there, no
// user shows half a commit, and each commit of unknown outcome is there
// whole or not at all; it returns how many of those are there.
func (l *load) verify(t testing.TB, b kv.Backend, via string) (applied int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	snaps := map[string]kv.Snapshot{}
	get := func(user string) kv.Snapshot {
		if s, ok := snaps[user]; ok {
			return s
		}
		s := snapshot(t, b, user)
		if err := whole(s); err != nil {
			t.Errorf("via %s: user %s: %v", via, user, err)
		}
		snaps[user] = s
		return s
	}
	lost := 0
	for _, c := range l.acked {
		s := get(c.user)
		if string(s.Get("facts", []byte("c-"+c.v))) != c.v || s.Rev() < c.rev {
			lost++
			if lost <= 5 {
				t.Errorf("via %s: user %s: commit %s acknowledged at %d lost (user at %d)", via, c.user, c.v, c.rev, s.Rev())
			}
		}
	}
	if lost > 0 {
		t.Errorf("via %s: %d of %d acknowledged commits lost", via, lost, len(l.acked))
	}
	for _, c := range l.unknown {
		if get(c.user).Get("facts", []byte("c-"+c.v)) != nil {
			applied++
		}
	}
	return applied
}

// check runs porcupine over the history, within limit: an illegal
// history fails the test, one the search could not finish is logged.
func (l *load) check(t testing.TB, limit time.Duration) {
	t.Helper()
	l.mu.Lock()
	hist := append([]porcupine.Operation(nil), l.hist...)
	l.mu.Unlock()
	start := time.Now()
	res := porcupine.CheckOperationsTimeout(registers, hist, limit)
	t.Logf("porcupine: %d operations (%+v): %s in %v", len(hist), l.stats, res, time.Since(start).Round(time.Millisecond))
	switch res {
	case porcupine.Illegal:
		t.Error("the history of snapshots and commits is not linearizable")
		l.explain(t, hist)
	case porcupine.Unknown:
		t.Logf("porcupine did not finish within %v: linearizability not decided", limit)
	}
}

// explain logs the history of the first user whose register is not
// linearizable, in call order.
func (l *load) explain(t testing.TB, hist []porcupine.Operation) {
	t.Helper()
	for _, ops := range registers.Partition(hist) {
		if porcupine.CheckOperations(registers, ops) {
			continue
		}
		slices.SortFunc(ops, func(a, b porcupine.Operation) int { return cmp.Compare(a.Call, b.Call) })
		// The shortest illegal prefix, by call: its last operations are
		// where the history stops making sense.
		n := sort.Search(len(ops), func(n int) bool { return !porcupine.CheckOperations(registers, ops[:n+1]) }) + 1
		t.Logf("user %s, %d operations, illegal from the %dth:", ops[0].Input.(regIn).user, len(ops), n)
		for _, op := range ops[max(0, n-24):n] {
			ret := "never"
			if op.Return < math.MaxInt64/2 {
				ret = time.Duration(op.Return).String()
			}
			t.Logf("  client %d  %v .. %s  %s", op.ClientId, time.Duration(op.Call), ret, registers.DescribeOperation(op.Input, op.Output))
		}
		return
	}
}

// regIn is a snapshot of user (write false) or a commit of v guarded by
// the value expect it read.
type regIn struct {
	user, expect, v string
	write           bool
}

// regOut is what a snapshot read, or how a commit ended.
type regOut struct {
	value            string
	refused, unknown bool
	// inFlight: refused for another write in flight, which may still fail
	// (its leader crashed): the head may have been at the guard.
	inFlight bool
}

// registers is the model: one register per user, "" before any commit.
var registers = porcupine.Model{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		by := map[string][]porcupine.Operation{}
		var users []string
		for _, op := range h {
			u := op.Input.(regIn).user
			if by[u] == nil {
				users = append(users, u)
			}
			by[u] = append(by[u], op)
		}
		var out [][]porcupine.Operation
		for _, u := range users {
			out = append(out, by[u])
		}
		return out
	},
	Init: func() any { return "" },
	Step: func(state, input, output any) (bool, any) {
		s, in, out := state.(string), input.(regIn), output.(regOut)
		switch {
		case !in.write:
			return out.value == s, s
		case out.unknown: // applied if its guard held where it took effect
			if s == in.expect {
				return true, in.v
			}
			return true, s
		case out.inFlight:
			return true, s
		case out.refused:
			return s != in.expect, s
		default:
			return s == in.expect, in.v
		}
	},
	DescribeOperation: func(input, output any) string {
		in, out := input.(regIn), output.(regOut)
		if !in.write {
			return fmt.Sprintf("snapshot(%s) = %q", in.user, out.value)
		}
		return fmt.Sprintf("commit(%s, %q -> %q) refused=%v (in flight %v) unknown=%v", in.user, in.expect, in.v, out.refused, out.inFlight, out.unknown)
	},
}
