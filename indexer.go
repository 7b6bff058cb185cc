package memory

import (
	"context"
	"sync"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
)

// indexer brings the candidate index in line with committed writes in the
// background, in commit order, so a write does not wait for bleve: each
// commit queues its changes, a goroutine applies whatever has queued as one
// batch, and a lookup waits only for the changes committed before it began.
type indexer struct {
	s       *Store
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []change
	queued  uint64 // sequence of the last change queued
	applied uint64 // sequence of the last change applied, skipped or covered by a build
	running bool
	stopped bool
}

// change is what one commit did to the set of current facts: the final
// state of each record it wrote.
type change struct {
	seq     uint64
	touched func(func(uint64, *kv.Record))
}

func (q *indexer) init(s *Store) {
	q.s = s
	q.cond = sync.NewCond(&q.mu)
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
	q := &s.indexer
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return
	}
	q.queued++
	q.queue = append(q.queue, change{seq: q.queued, touched: touched})
	if !q.running {
		q.running = true
		go q.run()
	}
	q.cond.Broadcast()
}

// run applies queued changes until the queue is empty.
func (q *indexer) run() {
	for {
		q.mu.Lock()
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

// wait returns once every change queued before the call has been applied.
func (q *indexer) wait(ctx context.Context) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	target := q.queued
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
	q.cond.Broadcast()
}

// stop ends background work for Close.
func (q *indexer) stop() {
	q.mu.Lock()
	q.stopped = true
	q.cond.Broadcast()
	for q.running {
		q.cond.Wait()
	}
	q.mu.Unlock()
}
