package memory

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
	"go.uber.org/goleak"
)

// liveness bounds the waits of these tests for something that must happen,
// so a bug fails the test instead of hanging it; nothing is timed.
const liveness = 20 * time.Second

func openCommitStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// batchLog records, through the committer's hook, which writer led each
// batch and what was in it.
type batchLog struct {
	mu      sync.Mutex
	led     map[*writeReq]int // batches each call committed
	writes  int               // writes in all batches
	largest int
	notOwn  int // batches that did not hold their leader's own write
}

func watchBatches(s *Store) *batchLog {
	l := &batchLog{led: map[*writeReq]int{}}
	s.commit.hookBatch = func(leader *writeReq, batch []*writeReq) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.led[leader]++
		l.writes += len(batch)
		l.largest = max(l.largest, len(batch))
		own := false
		for _, r := range batch {
			own = own || r == leader
		}
		if !own {
			l.notOwn++
		}
	}
	return l
}

// check asserts that every call committed one batch, the one holding its
// own write.
func (l *batchLog) check(t *testing.T) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, n := range l.led {
		if n != 1 {
			t.Errorf("one call committed %d batches before it returned; want 1, its own", n)
		}
	}
	if l.notOwn > 0 {
		t.Errorf("%d batches were committed by a call whose write was not in them", l.notOwn)
	}
}

// blockLeader starts a write that becomes the leader and holds the
// committer inside its transaction until release is closed.
func blockLeader(t *testing.T, s *Store) (release func(), done <-chan error) {
	t.Helper()
	inside, gate := make(chan struct{}), make(chan struct{})
	var opened sync.Once
	errc := make(chan error, 1)
	var once sync.Once
	go func() {
		errc <- s.update(context.Background(), "", func(tx *kv.Tx) error {
			once.Do(func() { close(inside) })
			<-gate
			rec, err := s.record(Note{Text: "The leader's fact."})
			if err != nil {
				return err
			}
			return s.insert(tx, &rec, nil, s.now())
		})
	}()
	<-inside
	return func() { opened.Do(func() { close(gate) }) }, errc
}

// waitQueued waits until n writes are queued behind the leader.
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	deadline := time.Now().Add(liveness)
	for {
		s.commit.mu.Lock()
		got := len(s.commit.pending)
		s.commit.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func receive(t *testing.T, c <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-c:
		return err
	case <-time.After(liveness):
		t.Fatalf("%s never returned", what)
		return nil
	}
}

func countFacts(t *testing.T, s *Store) int {
	t.Helper()
	fs, err := s.List(context.Background(), "", &ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	return len(fs)
}

// The first writer commits its own write and hands the lead to the first
// writer queued meanwhile, which commits all of them in one batch: no call
// commits another batch after its own, however many writers keep coming.
func TestCommitWriterReturnsWithItsOwnBatch(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	ctx := context.Background()
	s := openCommitStore(t)
	log := watchBatches(s)

	const queued = 31
	release, leaderDone := blockLeader(t, s)
	errc := make(chan error, queued)
	for i := range queued {
		go func() {
			_, err := s.Add(ctx, Note{Text: fmt.Sprintf("Queued fact number %d.", i)})
			errc <- err
		}()
	}
	waitQueued(t, s, queued)
	release()
	if err := receive(t, leaderDone, "the leader"); err != nil {
		t.Fatal(err)
	}
	for range queued {
		if err := receive(t, errc, "a queued writer"); err != nil {
			t.Fatal(err)
		}
	}
	log.check(t)
	if log.largest != queued {
		t.Errorf("largest batch %d, want the %d queued writes together", log.largest, queued)
	}

	// Many writers at once, none held: still one batch per leader, and
	// every write in exactly one batch.
	const writers, each = 32, 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if _, err := s.Add(ctx, Note{User: fmt.Sprintf("u%d", w), Text: fmt.Sprintf("Fact %d of writer %d.", i, w)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	log.check(t)
	if want := 1 + queued + writers*each; log.writes != want {
		t.Errorf("%d writes in batches, want %d", log.writes, want)
	}
	if n := countFacts(t, s); n != 1+queued {
		t.Errorf("default user has %d facts, want %d", n, 1+queued)
	}
	s.Close()
	goleak.VerifyNone(t, ignore)
}

// A queued writer whose context ends before its write is taken into a
// batch returns at once with the context's error, and nothing of it is
// written.
func TestCommitQueuedWriterWithdrawsOnCancel(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	ctx := context.Background()
	s := openCommitStore(t)

	release, leaderDone := blockLeader(t, s)
	cctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := s.Add(cctx, Note{Text: "A fact its writer gave up on."})
		errc <- err
	}()
	waitQueued(t, s, 1)
	cancel()
	var err error
	select {
	case err = <-errc:
	case <-time.After(liveness):
		t.Error("the cancelled writer did not return while the batch ahead of it was held")
		release()
		err = receive(t, errc, "the cancelled writer")
	}
	release()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled queued writer: %v, want context.Canceled", err)
	}
	if err := receive(t, leaderDone, "the leader"); err != nil {
		t.Fatal(err)
	}
	if n := countFacts(t, s); n != 1 {
		t.Errorf("%d facts, want only the leader's", n)
	}
	f, err := s.Add(ctx, Note{Text: "The next fact."})
	if err != nil || f.ID != 2 {
		t.Errorf("next add: %+v, %v; want id 2", f, err)
	}
	s.Close()
	goleak.VerifyNone(t, ignore)
}

// Once its write is in a batch, a writer waits for that batch's result even
// if its context ends: it learns whether its write went in.
func TestCommitTakenWriterWaitsForItsResult(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	ctx := context.Background()
	s := openCommitStore(t)

	release, leaderDone := blockLeader(t, s)
	first := make(chan error, 1)
	go func() { _, err := s.Add(ctx, Note{Text: "The next leader's fact."}); first <- err }()
	waitQueued(t, s, 1)

	cctx, cancel := context.WithCancel(ctx)
	inside, gate := make(chan struct{}), make(chan struct{})
	var once sync.Once
	taken := make(chan error, 1)
	go func() {
		taken <- s.update(cctx, "", func(tx *kv.Tx) error {
			once.Do(func() { close(inside) })
			<-gate
			rec, err := s.record(Note{Text: "A fact whose writer was cancelled too late."})
			if err != nil {
				return err
			}
			return s.insert(tx, &rec, nil, s.now())
		})
	}()
	waitQueued(t, s, 2)
	release()
	select {
	case <-inside:
	case <-time.After(liveness):
		t.Fatal("the queued write never ran")
	}
	cancel()
	close(gate)
	if err := receive(t, taken, "the writer taken into a batch"); err != nil {
		t.Errorf("taken writer: %v, want its write's result (nil)", err)
	}
	for _, c := range []<-chan error{leaderDone, first} {
		if err := receive(t, c, "a writer"); err != nil {
			t.Fatal(err)
		}
	}
	if n := countFacts(t, s); n != 3 {
		t.Errorf("%d facts, want 3", n)
	}
	s.Close()
	goleak.VerifyNone(t, ignore)
}

// A write whose function panics, in a batch shared with others: the others
// commit, the panicking call alone fails, and later writers do not hang on
// a committer left busy. Whichever writer leads the batch, the panic
// reaches the call that made it, with its own value (kv passes a bug's
// panic through; only damage to the file becomes ErrCorrupt).
func TestCommitPanicIsItsWritersAlone(t *testing.T) {
	for _, panicAt := range []int{0, 1} { // the batch's leader, or a follower
		t.Run(fmt.Sprintf("panicking write %d of the batch", panicAt), func(t *testing.T) {
			ignore := goleak.IgnoreCurrent()
			ctx := context.Background()
			s := openCommitStore(t)
			log := watchBatches(s)

			release, leaderDone := blockLeader(t, s)
			type result struct {
				err      error
				panicked any
			}
			results := make([]chan result, 3)
			for i := range results {
				results[i] = make(chan result, 1)
				go func() {
					var r result
					defer func() { r.panicked = recover(); results[i] <- r }()
					if i == panicAt {
						r.err = s.update(ctx, "", func(*kv.Tx) error { panic("a bug in a write") })
						return
					}
					_, r.err = s.Add(ctx, Note{Text: fmt.Sprintf("Fact %d beside a panic.", i)})
				}()
				waitQueued(t, s, i+1) // queued in this order
			}
			release()
			if err := receive(t, leaderDone, "the leader"); err != nil {
				t.Fatal(err)
			}
			for i, c := range results {
				var r result
				select {
				case r = <-c:
				case <-time.After(liveness):
					t.Fatalf("writer %d never returned", i)
				}
				switch {
				case i != panicAt && (r.err != nil || r.panicked != nil):
					t.Errorf("writer %d beside the panic: %v, panic %v", i, r.err, r.panicked)
				case i == panicAt && r.panicked == nil:
					t.Errorf("panicking writer: %v, no panic", r.err)
				case i == panicAt && r.panicked != "a bug in a write":
					t.Errorf("panicking writer got panic %v", r.panicked)
				}
			}
			log.check(t)
			errc := make(chan error, 1)
			go func() { _, err := s.Add(ctx, Note{Text: "A later fact."}); errc <- err }()
			if err := receive(t, errc, "a later writer"); err != nil {
				t.Fatal(err)
			}
			if n := countFacts(t, s); n != 4 {
				t.Errorf("%d facts, want 4: the leader's, two beside the panic, the later one", n)
			}
			s.Close()
			goleak.VerifyNone(t, ignore)
		})
	}
}

// A write that shares its transaction with a hard delete and appends to
// the log of the fact before the deleted one keeps that log whole: the
// delete emptied the pages of the long log it removed, and the append used
// to find no step of its fact across them and write over the recording.
func TestCommitWriteBatchedAfterADeleteKeepsItsLog(t *testing.T) {
	ctx := context.Background()
	s := openCommitStore(t)
	defer s.Close()
	q, err := s.Add(ctx, Note{Text: "I keep my bicycle in the hall."})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Add(ctx, Note{Text: "I keep my guitar in the attic."})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 230 { // pages of r's steps alone
		if i%2 == 0 {
			_, err = s.Pin(ctx, "", r.ID)
		} else {
			_, err = s.Unpin(ctx, "", r.ID)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	log := watchBatches(s)
	release, leaderDone := blockLeader(t, s)
	deleted, pinned := make(chan error, 1), make(chan error, 1)
	go func() { _, err := s.Delete(ctx, "", r.ID, nil); deleted <- err }()
	waitQueued(t, s, 1)
	go func() { _, err := s.Pin(ctx, "", q.ID); pinned <- err }()
	waitQueued(t, s, 2)
	release()
	for what, c := range map[string]<-chan error{"the leader": leaderDone, "the delete": deleted, "the pin": pinned} {
		if err := receive(t, c, what); err != nil {
			t.Fatal(err)
		}
	}
	if log.largest != 2 {
		t.Fatalf("largest batch %d: the delete and the pin were not committed together", log.largest)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	evs, err := s.Events(ctx, "", q.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Kind != EventRecorded || evs[1].Kind != EventPinned {
		t.Errorf("log of fact %d: %+v, want recorded then pinned", q.ID, evs)
	}
}
