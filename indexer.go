package memory

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
)

// indexer brings the candidate index in line with committed writes in the
// background, in commit order, so a write does not wait for bleve: each
// commit queues its changes, a goroutine applies whatever has queued as one
// batch, and a lookup waits only for the changes committed before it began.
//
// While no lookup waits, the goroutine lets changes gather for up to
// flushDelay: bleve's cost is mostly per batch (a segment, its merges and
// their garbage), and on two cores that work competes with the writers. A
// lookup that needs the queued changes cuts the delay short.
//
// A lookup searches one user's facts, so it waits only for the changes that
// touched that user (or deleted a record, whose user is gone with it): with
// many users writing, waiting for all of them put every lookup behind
// other users' batches, which bleve applies slowly while it merges.
type indexer struct {
	s       *Store
	mu      sync.Mutex
	cond    *sync.Cond
	kick    chan struct{} // wakes a delayed flush: a lookup waits, or Close
	queue   []change
	queued  uint64 // sequence of the last change queued
	applied uint64 // sequence of the last change applied, skipped or covered by a build
	waiters int    // lookups waiting for queued changes
	// byUser is the sequence of the last change queued that touched each
	// user's facts, until it is applied; anyUser that of the last change
	// that deleted a record.
	byUser  map[string]uint64
	anyUser uint64
	delay   time.Duration
	running bool
	stopped bool
}

// How long queued changes may wait for company, and how many make a batch
// worth applying at once.
const (
	flushDelay = 5 * time.Millisecond
	flushBatch = 64
)

// change is what one commit did to the set of current facts: the final
// state of each record it wrote.
type change struct {
	seq     uint64
	touched func(func(uint64, *kv.Record))
}

func (q *indexer) init(s *Store) {
	q.s = s
	q.cond = sync.NewCond(&q.mu)
	q.kick = make(chan struct{}, 1)
	q.delay = flushDelay
	q.byUser = map[string]uint64{}
}

// wake cuts a delayed flush short.
func (q *indexer) wake() {
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// syncIndex queues a committed write for the index. Called with writeMu
// held, right after the commit, so changes queue in commit order.
func (s *Store) syncIndex(touched func(func(uint64, *kv.Record))) {
	if touched == nil {
		return
	}
	s.ixMu.RLock()
	built := s.ix != nil
	s.ixMu.RUnlock()
	if !built {
		return // the next lookup builds the index from the store
	}
	var users []string
	deleted := false
	touched(func(_ uint64, r *kv.Record) {
		if r == nil {
			deleted = true
		} else if !slices.Contains(users, r.User) {
			users = append(users, r.User)
		}
	})
	q := &s.indexer
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return
	}
	q.queued++
	for _, u := range users {
		q.byUser[u] = q.queued
	}
	if deleted {
		q.anyUser = q.queued
	}
	q.queue = append(q.queue, change{seq: q.queued, touched: touched})
	if !q.running {
		q.running = true
		go q.run()
	}
	q.cond.Broadcast()
}

// run applies queued changes until the queue is empty.
func (q *indexer) run() {
	var delay *time.Timer
	for {
		q.mu.Lock()
		if len(q.queue) < flushBatch && q.waiters == 0 && !q.stopped {
			q.mu.Unlock()
			if delay == nil {
				delay = time.NewTimer(q.delay)
			} else {
				delay.Reset(q.delay)
			}
			select {
			case <-delay.C:
			case <-q.kick:
				delay.Stop()
			}
			q.mu.Lock()
		}
		if len(q.queue) == 0 || q.stopped {
			q.running = false
			q.cond.Broadcast()
			q.mu.Unlock()
			return
		}
		batch := q.queue
		q.queue = nil
		q.mu.Unlock()

		q.apply(batch)

		q.mu.Lock()
		if last := batch[len(batch)-1].seq; last > q.applied {
			q.applied = last
		}
		q.forgetApplied()
		q.cond.Broadcast()
		q.mu.Unlock()
	}
}

// apply writes a batch of changes to the index as one bleve batch: the
// latest state of each fact wins. A failure drops the index; the next
// lookup rebuilds it from the store.
func (q *indexer) apply(batch []change) {
	s := q.s
	final := map[uint64]*kv.Record{}
	var order []uint64
	for _, c := range batch {
		c.touched(func(id uint64, r *kv.Record) {
			if _, seen := final[id]; !seen {
				order = append(order, id)
			}
			final[id] = r
		})
	}
	var put []index.Doc
	var del []uint64
	for _, id := range order {
		if r := final[id]; r != nil && r.Current() {
			put = append(put, index.Doc{ID: id, User: r.User, Text: r.Text})
		} else {
			del = append(del, id)
		}
	}
	s.ixMu.RLock()
	ix := s.ix
	var err error
	if ix != nil {
		err = s.attachVectors(context.Background(), put, false)
		if err == nil && len(del) > 0 {
			err = ix.Delete(del...)
		}
		if err == nil && len(put) > 0 {
			err = ix.Put(put...)
		}
	}
	s.ixMu.RUnlock()
	if err != nil {
		s.dropIndex()
	}
}

// forgetApplied drops the users whose changes have all been applied.
// Called with mu held.
func (q *indexer) forgetApplied() {
	for u, seq := range q.byUser {
		if seq <= q.applied {
			delete(q.byUser, u)
		}
	}
}

// wait returns once every change queued before the call has been applied.
func (q *indexer) wait(ctx context.Context) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waitFor(ctx, q.queued)
}

// waitUser returns once every change queued before the call that can
// change user's candidates has been applied.
func (q *indexer) waitUser(ctx context.Context, user string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waitFor(ctx, max(q.byUser[user], q.anyUser))
}

// waitFor waits until the change numbered target has been applied. Called
// with mu held.
func (q *indexer) waitFor(ctx context.Context, target uint64) error {
	if q.applied < target {
		q.waiters++
		defer func() { q.waiters-- }()
		q.wake()
		// A cancelled lookup stops waiting at once.
		stop := context.AfterFunc(ctx, func() {
			q.mu.Lock()
			q.cond.Broadcast()
			q.mu.Unlock()
		})
		defer stop()
	}
	for q.applied < target && !q.stopped {
		if err := ctx.Err(); err != nil {
			return err
		}
		q.cond.Wait()
	}
	return nil
}

// skip marks everything queued as applied: the index was just built from
// the store, or dropped. Called with ixMu held.
func (q *indexer) skip() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue = nil
	q.applied = q.queued
	clear(q.byUser)
	q.cond.Broadcast()
}

// stop ends background work for Close.
func (q *indexer) stop() {
	q.mu.Lock()
	q.stopped = true
	q.cond.Broadcast()
	q.wake()
	for q.running {
		q.cond.Wait()
	}
	q.mu.Unlock()
}
