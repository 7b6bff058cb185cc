package memory

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"

	"github.com/palimpsest-mem/memory/index/live"
	"github.com/palimpsest-mem/memory/kv"
)

// writeReq is one write waiting to be committed.
type writeReq struct {
	// user is whose data fn writes, and only theirs (runWrite checks).
	user string
	fn   func(tx *kv.Tx) error
	// done carries the write's outcome, or the news that its writer now
	// leads the next batch. It holds one value, so nobody blocks sending.
	done chan outcome
	// taken is set, under committer.mu, once the write is in a batch or its
	// writer has been named the next leader: from then on it cannot
	// withdraw, and its writer waits for done whatever its context says.
	taken bool
}

// outcome is what a writer gets back on its done channel.
type outcome struct {
	err error
	// panicked: running the write panicked, with value; its own caller
	// panics with it, wherever the panic happened.
	panicked bool
	value    any
	// lead: not a result but the leadership, handed over by the writer
	// that just committed its own batch; the receiver's write is pending.
	lead bool
}

// committer gathers writes from many goroutines into shared transactions
// (group commit). The first writer to arrive when none is committing
// leads: it commits at once, alone. Writes that arrive meanwhile queue up;
// when the leader has committed the batch that holds its own write it
// hands the lead to the first queued writer, which commits everything
// queued by then in one transaction, so one pair of fsyncs serves them all,
// and hands on in turn. Every call thus commits at most one batch, the one
// that holds its own write, and returns when that one has committed; a lone
// writer never waits for company.
//
// Why not bbolt's DB.Batch: it holds a lone writer MaxBatchDelay (10 ms by
// default) waiting for company; it takes no context, so a queued writer
// cannot withdraw; it commits on a goroutine of its own (a timer's), where
// kv's guard, which makes bbolt's panic on a damaged page ErrCorrupt, does
// not reach, so the panic would kill the process (here a writer commits,
// and a panic stays that writer's: commitTx catches it, and a write's own
// goes to its caller); and its callers return in no order, while the
// caches and the index must follow each commit in commit order, under
// writeMu (commitTx).
type committer struct {
	mu      sync.Mutex
	pending []*writeReq
	active  bool // some writer leads; it or its successor will take pending

	// hookBatch, when set by a test, runs in the leader's goroutine before
	// each batch it commits.
	hookBatch func(leader *writeReq, batch []*writeReq)
}

// update runs fn, a write of user's data, in a write transaction,
// possibly shared with other writes (of any users), and once it has
// committed brings the candidate index in line with every record written.
// A write that changes another user's data fails (runWrite): a backend
// that keeps each user apart commits one user at a time. fn may run more
// than once (if a write it shared a transaction with fails, each is run
// again on its own), so it must not have effects outside tx beyond
// setting its own results.
//
// A clock outside the record times a store holds refuses the write
// before fn runs (checkClock): every write through here records the time
// it is made (Import, whose times are the file's, writes a file of its own).
//
// A writer whose ctx ends while its write is still queued withdraws it
// (fn never runs) and returns ctx.Err(); once the write is taken into a
// batch, update waits for that batch's result. A panic in fn is the
// panic of this call alone: other writes in its batch are unaffected.
func (s *Store) update(ctx context.Context, user string, fn func(tx *kv.Tx) error) error {
	if err := s.checkClock(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.be != nil {
		return s.updateBackend(ctx, user, fn)
	}
	req := &writeReq{user: user, fn: fn, done: make(chan outcome, 1)}
	c := &s.commit
	c.mu.Lock()
	c.pending = append(c.pending, req)
	if !c.active {
		c.active = true
		req.taken = true
		c.mu.Unlock()
		return s.lead(req)
	}
	c.mu.Unlock()
	var o outcome
	select {
	case o = <-req.done:
	case <-ctx.Done():
		c.mu.Lock()
		if !req.taken {
			c.pending = slices.DeleteFunc(c.pending, func(r *writeReq) bool { return r == req })
			c.mu.Unlock()
			return ctx.Err()
		}
		c.mu.Unlock()
		o = <-req.done
	}
	if o.lead {
		return s.lead(req)
	}
	return o.result()
}

// lead commits every pending write, own among them, in one batch, then
// hands the lead on and returns own's result.
func (s *Store) lead(own *writeReq) error {
	c := &s.commit
	c.mu.Lock()
	batch := c.pending
	c.pending = nil
	for _, r := range batch {
		r.taken = true
	}
	c.mu.Unlock()
	// Handed on even if something below panics: a committer left active
	// with nobody leading would hang every later writer.
	defer c.handOff()
	if c.hookBatch != nil {
		c.hookBatch(own, batch)
	}
	s.commitBatch(batch)
	return (<-own.done).result()
}

// handOff makes the first pending writer the leader, or marks the
// committer idle when none is waiting.
func (c *committer) handOff() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		c.active = false
		return
	}
	next := c.pending[0]
	next.taken = true // named leader, it can no longer withdraw
	next.done <- outcome{lead: true}
}

func (o outcome) result() error {
	if o.panicked {
		panic(o.value)
	}
	return o.err
}

// commitBatch commits a batch in one transaction and delivers each write's
// outcome; if any write in it fails or panics, the transaction is rolled
// back and each write runs on its own, so one write's error (or panic) is
// never another's.
func (s *Store) commitBatch(batch []*writeReq) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if len(batch) > 1 {
		o, committed := s.commitTx(func(tx *kv.Tx) error {
			for _, r := range batch {
				if err := runWrite(tx, r.user, r.fn); err != nil {
					return err
				}
			}
			return nil
		})
		if committed {
			for _, r := range batch {
				r.done <- outcome{}
			}
			if o.panicked {
				// Every write is in; the panic came after the commit,
				// keeping the caches and index in line, and is no
				// write's fault. It goes on in the leader's goroutine,
				// where it happened.
				panic(o.value)
			}
			return
		}
	}
	for _, r := range batch {
		o, _ := s.commitTx(func(tx *kv.Tx) error { return runWrite(tx, r.user, r.fn) })
		r.done <- o
	}
}

// errCrossUser: a transaction of one user's data reached another user's.
// It is the program's fault, not the store's: the write fails and changes
// nothing, the read fails rather than answer with another user's data.
var errCrossUser = errors.New("memory: a transaction crossed users")

// runWrite runs fn, a write of user's data, in tx, scoped to user: a
// change it makes to another user's data fails it, wrapping errCrossUser
// and kv.ErrOtherUser. Writes of several users share a transaction one
// scope after another, so each is checked on its own changes, not on what
// the batch touched.
func runWrite(tx *kv.Tx, user string, fn func(tx *kv.Tx) error) error {
	tx.Scope(user)
	err := fn(tx)
	if cross := tx.EndScope(); err == nil && cross != nil {
		err = fmt.Errorf("%w: %w", errCrossUser, cross)
	}
	return err
}

// updateOutside runs fn, a write of user's data, in a transaction of its
// own outside the group commit, scoped as update's writes are. It is for
// writes no cache or index follows (the embeddings a lookup kept).
func (s *Store) updateOutside(user string, fn func(tx *kv.Tx) error) error {
	return s.db.Update(func(tx *kv.Tx) error { return runWrite(tx, user, fn) })
}

// commitTx commits fn in one transaction and, once committed, lets the
// caches and the candidate index follow. A panic is caught and returned
// in the outcome; committed says whether fn's writes are in the store.
// Called with writeMu held.
func (s *Store) commitTx(fn func(tx *kv.Tx) error) (o outcome, committed bool) {
	defer func() {
		// The transaction was rolled back if the panic came out of
		// db.Update, which does not commit a transaction whose function
		// did not return.
		if v := recover(); v != nil {
			o = outcome{panicked: true, value: v}
		}
	}()
	var (
		touched func(func(string, uint64, *kv.Record))
		commit  func() kv.Commit
		users   touchedUsers
		graphs  map[string]*userGraph
	)
	err := s.db.Update(func(tx *kv.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		// Every write keeps the conflicts true, in its own transaction.
		var err error
		if graphs, err = s.keepConflicts(tx); err != nil {
			return err
		}
		touched, users, commit = tx.Touched, tx.TouchedUsers, tx.Commit
		return nil
	})
	if err != nil {
		return outcome{err: err}, false
	}
	committed = true
	s.lists.invalidate(users)
	// A graph the upkeep read from the transaction is the committed
	// state now: the next write of its user starts from it.
	gen := s.lists.current()
	for user, g := range graphs {
		s.lists.putTimeline(user, gen, g.tl)
		s.lists.putGraph(user, gen, g)
	}
	s.live.Sync(liveChanges(touched), commitName(commit()))
	return outcome{}, true
}

// liveChanges is what a commit did to the set of current facts, as the
// live index takes it: touched calls its argument with the user, id and
// final state of each record the commit wrote, nil for one deleted.
func liveChanges(touched func(func(string, uint64, *kv.Record))) iter.Seq[live.Change] {
	return func(yield func(live.Change) bool) {
		more := true
		touched(func(user string, id uint64, r *kv.Record) {
			if !more {
				return
			}
			c := live.Change{ID: id, User: user, Deleted: r == nil}
			if r != nil {
				c.Text, c.Current = r.Text, r.Current()
			}
			more = yield(c)
		})
	}
}
