package live

import (
	"context"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory/index"
)

// Change is the final state of one record a commit wrote, or whose log it
// changed: a fact that is current after the commit (Current), one that is
// not, or a record deleted (Deleted; its text went with it). A record is
// named by its user and id, for an id is unique only among its user's
// facts; a store that cannot tell whose a deleted record was (a change log
// that names ids alone, in a store whose ids are unique) says UserUnknown,
// and every document of the id goes.
type Change struct {
	ID          uint64
	User        string
	Text        string
	Current     bool
	Deleted     bool
	UserUnknown bool // with Deleted: User is not known
}

// key is the key of the changed record's document.
func (c Change) key() index.DocKey { return index.DocKey{User: c.User, ID: c.ID} }

// split turns changes, in commit order, into the documents of ix to put and
// the keys to delete, the latest change of each record winning; gone are
// the keys of records deleted, whose words must be purged. A deletion of
// UserUnknown goes for each document of its id that ix holds or an earlier
// change puts.
func split(ix *index.Index, changes []Change) (put []index.Doc, del, gone []index.DocKey, err error) {
	type last struct {
		c  Change
		at int
	}
	final := map[index.DocKey]last{}
	var order []index.DocKey
	anyUser := map[uint64]int{} // id -> the last deletion of UserUnknown
	var ids []uint64
	for i, c := range changes {
		if c.Deleted && c.UserUnknown {
			if _, ok := anyUser[c.ID]; !ok {
				ids = append(ids, c.ID)
			}
			anyUser[c.ID] = i
			continue
		}
		k := c.key()
		if _, ok := final[k]; !ok {
			order = append(order, k)
		}
		final[k] = last{c, i}
	}
	if len(ids) > 0 {
		held, err := ix.KeysOf(ids)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, k := range held {
			if _, ok := final[k]; !ok {
				order = append(order, k)
				final[k] = last{at: -1}
			}
		}
		for k, f := range final {
			if at, ok := anyUser[k.ID]; ok && at > f.at {
				final[k] = last{Change{ID: k.ID, User: k.User, Deleted: true}, at}
			}
		}
	}
	for _, k := range order {
		switch c := final[k].c; {
		case c.Deleted:
			del, gone = append(del, k), append(gone, k)
		case c.Current:
			put = append(put, index.Doc{ID: c.ID, User: c.User, Text: c.Text})
		default:
			del = append(del, k)
		}
	}
	return put, del, gone, nil
}

// Sync queues a committed write for the index: changes yields the final
// state of each record it wrote, and may be ranged over more than once,
// after the call too; commit names the commit in the store (Source.Head),
// and the kept index is marked with it once the changes are in. Called
// with the write lock held, right after the commit, so changes queue in
// commit order; with no index built there is nothing to do, since the
// next lookup builds it from the store (or catches up from its marker).
func (l *Index) Sync(changes iter.Seq[Change], commit []byte) {
	if changes == nil || !l.built() {
		return
	}
	l.q.add(changes, commit)
}

// indexer brings the index in line with committed writes in the
// background, in commit order, so a write does not wait for bleve: each
// commit queues its changes, a goroutine applies whatever has queued as one
// batch, and a lookup waits only for the changes committed before it began.
//
// While no lookup waits, the goroutine lets changes gather for up to
// flushDelay or flushBatch records: bleve's cost is mostly per batch (a
// segment, its merges and their garbage), every lookup reads each segment
// not yet merged, and on two cores that work competes with the writers and
// the lookups. A lookup that needs the queued changes cuts the delay short,
// so the delay costs no lookup its own user's writes. (With 64 writers
// beside lookups, 5 ms or 64 commits made batches of about one commit
// each; 100 ms or 1,000 records let the writers add about a third more
// a second and cut the lookups' p50 by about a quarter.)
//
// A small change (a few records: one Remember's) to a user looked up in
// the last second is applied at once: Remember looks up, writes and looks
// up again, and the apply then runs while the caller does other work
// instead of inside its next lookup. Group commits of many writers are
// larger and still gather: applying each at once doubled the p99 of
// lookups beside 64 writers of the same user.
//
// A lookup searches one user's facts, so it waits only for the changes that
// touched that user (or deleted a record, whose user is gone with it): with
// many users writing, waiting for all of them put every lookup behind
// other users' batches, which bleve applies slowly while it merges.
type indexer struct {
	l       *Index
	mu      sync.Mutex
	cond    *sync.Cond
	kick    chan struct{} // wakes a delayed flush: a lookup waits, or close
	queue   []iter.Seq[Change]
	commit  []byte // the commit of the last change queued
	records int    // records the queued changes wrote
	queued  uint64 // sequence of the last change queued
	applied uint64 // sequence of the last change applied, skipped or covered by a build
	// taken is the sequence of the last change taken into a batch: a
	// lookup waiting for no later one needs no wake-up, for the batch is
	// already being applied.
	taken uint64
	// epoch counts skips: a batch taken before a skip (a drop, a build)
	// is moot, and must not reach the index made since.
	epoch uint64
	// byUser is the sequence of the last change queued that touched each
	// user's facts, until it is applied; anyUser that of the last change
	// that deleted a record.
	byUser  map[string]uint64
	anyUser uint64
	delay   time.Duration
	batch   int // records worth applying without waiting out delay
	// askedAt is when each user was last looked up, for a while: a change
	// to a user looked up lately is applied at once, not gathered, since
	// that user's next lookup is likely near (Remember looks up, writes,
	// and looks up again) and would otherwise wait for the whole batch.
	askedAt map[string]time.Time
	// revs is, for a store of per-user revisions (Source.User), the
	// revision of each user's data the index holds once the changes
	// queued so far are in (follow.go); emptied with the index, by skip.
	revs map[string]userRev
	// askedFor is how long a lookup counts as lately (askedForDefault; a
	// test makes it outlast the test, so that a slow machine cannot age it).
	askedFor time.Duration
	// urgent: apply what is queued without waiting out the delay, because
	// a lookup waits for it or a change touched a user looked up lately.
	urgent bool
	// hookBeforeApply, when set by a test, runs after a batch is taken and
	// before it is applied.
	hookBeforeApply func()
	running         bool
	stopped         bool
}

// How long queued changes may wait for company, and how many records make
// a batch worth applying at once; how long after its lookup a user's
// changes are applied at once, and how many such users are remembered.
const (
	flushDelay      = 100 * time.Millisecond
	flushBatch      = 1000
	askedForDefault = time.Second
	askedMax        = 1024
	smallChange     = 4
)

func (q *indexer) init(l *Index) {
	q.l = l
	q.cond = sync.NewCond(&q.mu)
	q.kick = make(chan struct{}, 1)
	q.delay, q.batch, q.askedFor = flushDelay, flushBatch, askedForDefault
	q.byUser = map[string]uint64{}
	q.askedAt = map[string]time.Time{}
	q.revs = map[string]userRev{}
}

// asked notes a lookup of user. Called with mu held.
func (q *indexer) asked(user string, now time.Time) {
	if len(q.askedAt) >= askedMax {
		for u, at := range q.askedAt {
			if now.Sub(at) >= q.askedFor {
				delete(q.askedAt, u)
			}
		}
		if len(q.askedAt) >= askedMax {
			clear(q.askedAt)
		}
	}
	q.askedAt[user] = now
}

// wake cuts a delayed flush short.
func (q *indexer) wake() {
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// add queues a committed write's changes.
func (q *indexer) add(changes iter.Seq[Change], commit []byte) {
	users, deleted, records := summary(changes)
	q.mu.Lock()
	defer q.mu.Unlock()
	q.enqueue(changes, commit, users, deleted, records)
}

// summary is what the queue notes of a write's changes: the users whose
// facts they touch, whether they delete a record, how many records.
func summary(changes iter.Seq[Change]) (users []string, deleted bool, records int) {
	for c := range changes {
		records++
		if c.Deleted {
			deleted = true
		} else if !slices.Contains(users, c.User) {
			users = append(users, c.User)
		}
	}
	return users, deleted, records
}

// enqueue is add, with summary's reading of changes. Called with mu held.
func (q *indexer) enqueue(changes iter.Seq[Change], commit []byte, users []string, deleted bool, records int) {
	if q.stopped {
		return
	}
	q.queued++
	now := time.Now()
	for _, u := range users {
		q.byUser[u] = q.queued
		if at, ok := q.askedAt[u]; ok && now.Sub(at) < q.askedFor && records <= smallChange {
			q.urgent = true
		}
	}
	if deleted {
		q.anyUser = q.queued
	}
	q.queue = append(q.queue, changes)
	q.commit = commit
	q.records += records
	if !q.running {
		q.running = true
		go q.run()
	}
	if q.urgent {
		q.wake()
	}
	q.cond.Broadcast()
}

// run applies queued changes until the queue is empty.
func (q *indexer) run() {
	var delay *time.Timer
	for {
		q.mu.Lock()
		if q.records < q.batch && !q.urgent && !q.stopped {
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
		batch, commit, upTo, epoch := q.queue, q.commit, q.queued, q.epoch
		q.queue, q.commit, q.records, q.urgent, q.taken = nil, nil, 0, false, upTo
		// Wake-ups sent for what this batch takes are spent: left in the
		// channel, one would cut the next change's delay short.
		select {
		case <-q.kick:
		default:
		}
		q.mu.Unlock()

		if q.hookBeforeApply != nil {
			q.hookBeforeApply()
		}
		q.apply(batch, commit, epoch)

		q.mu.Lock()
		if upTo > q.applied {
			q.applied = upTo
		}
		q.forgetApplied()
		q.cond.Broadcast()
		q.mu.Unlock()
	}
}

// apply writes a batch of changes taken in epoch to the index as one bleve
// batch, marked with commit, the store's commit of its last change: the
// latest state of each fact wins. A batch taken before the index was
// dropped or built again is moot: the index holds the store's state since,
// and the batch's states may be older. A failure drops the index; the next
// lookup rebuilds it from the store.
func (q *indexer) apply(batch []iter.Seq[Change], commit []byte, epoch uint64) {
	l := q.l
	var changes []Change
	for _, cs := range batch {
		changes = slices.AppendSeq(changes, cs)
	}
	l.mu.RLock()
	ix := l.ix
	// A skip happens with l.mu held, so the epoch cannot move under RLock.
	q.mu.Lock()
	moot := q.epoch != epoch
	q.mu.Unlock()
	var err error
	if ix != nil && !moot {
		var put []index.Doc
		var del []index.DocKey
		put, del, _, err = split(ix, changes)
		if err == nil {
			err = l.src.Vectors(put)
		}
		if err == nil {
			err = ix.Apply(put, del, l.marker(commit))
		}
	}
	l.mu.RUnlock()
	if err != nil {
		l.Drop()
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
	q.asked(user, time.Now())
	return q.waitFor(ctx, max(q.byUser[user], q.anyUser))
}

// waitDeleted returns once every change queued before the call that
// deleted a record has been applied.
func (q *indexer) waitDeleted(ctx context.Context) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waitFor(ctx, q.anyUser)
}

// waitFor waits until the change numbered target has been applied. Called
// with mu held.
func (q *indexer) waitFor(ctx context.Context, target uint64) error {
	if q.applied < target {
		if target > q.taken {
			q.urgent = true
			q.wake()
		}
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
// the store, or dropped. Called with the live index's mu held.
func (q *indexer) skip() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue, q.commit, q.records, q.urgent = nil, nil, 0, false
	q.applied, q.taken = q.queued, q.queued
	q.epoch++
	clear(q.byUser)
	clear(q.revs) // the index they were of is gone, or new and empty
	q.cond.Broadcast()
}

// stop ends background work for close.
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
