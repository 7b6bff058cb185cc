package memory

import (
	"context"
	"sync"

	"github.com/palimpsest-mem/memory/kv"
)

// writeReq is one write waiting to be committed.
type writeReq struct {
	fn   func(tx *kv.Tx) error
	done chan error
}

// committer gathers writes from many goroutines into shared transactions
// (group commit). The first writer to arrive commits at once, alone; writes
// that arrive meanwhile queue up and go together in the next transaction,
// so one pair of fsyncs serves them all. A lone writer never waits for
// company.
type committer struct {
	mu      sync.Mutex
	pending []writeReq
	active  bool // a goroutine is committing and will drain pending
}

// update runs fn in a write transaction, possibly shared with other
// writes, and once it has committed brings the candidate index in line
// with every record written. fn may run more than once (if a write it
// shared a transaction with fails, each is run again on its own), so it
// must not have effects outside tx beyond setting its own results.
func (s *Store) update(ctx context.Context, fn func(tx *kv.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := writeReq{fn: fn, done: make(chan error, 1)}
	c := &s.commit
	c.mu.Lock()
	c.pending = append(c.pending, req)
	if c.active {
		c.mu.Unlock()
		return <-req.done
	}
	c.active = true
	c.mu.Unlock()
	for {
		c.mu.Lock()
		batch := c.pending
		c.pending = nil
		if len(batch) == 0 {
			c.active = false
			c.mu.Unlock()
			break
		}
		c.mu.Unlock()
		s.commitBatch(batch)
	}
	return <-req.done
}

// commitBatch commits a batch in one transaction; if any write in it
// fails, the transaction is rolled back and each write runs on its own, so
// one write's error never becomes another's.
func (s *Store) commitBatch(batch []writeReq) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if len(batch) > 1 {
		err := s.commitTx(func(tx *kv.Tx) error {
			for _, r := range batch {
				if err := r.fn(tx); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil {
			for _, r := range batch {
				r.done <- nil
			}
			return
		}
	}
	for _, r := range batch {
		r.done <- s.commitTx(r.fn)
	}
}

// commitTx commits fn in one transaction and, once committed,
// lets the caches and the candidate index follow. Called with writeMu held.
func (s *Store) commitTx(fn func(tx *kv.Tx) error) error {
	var touched func(func(uint64, *kv.Record))
	err := s.db.Update(func(tx *kv.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		touched = tx.Touched
		return nil
	})
	if err == nil {
		s.lists.invalidate()
		s.syncIndex(touched)
	}
	return err
}
