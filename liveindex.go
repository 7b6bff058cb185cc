package memory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
)

// liveIndex is the candidate index beside a store, kept in line with its
// commits: built from the store by the first lookup, fed each committed
// write in the background, dropped when it fails or a Delete leaves
// deleted words in it, and built again by the next lookup. Its surface:
//
//	sync    queue a committed write (the writer holds the write lock)
//	search  run a function on the index once the user's changes are in,
//	        building the index first; rebuilt once if its files faulted
//	ids     the documents it holds, once every queued change is in (Check)
//	drop    close it and remove its files
//	close   cancel a build, wait for it, drop: no index outlives the store
//
// It reads the store only through src, so what a fact is to the index
// (its text, its user, its vector) is the store's to say.
type liveIndex struct {
	root string // the private directory beside the store file
	mode LookupMode
	src  liveSource
	// writes is the store's write lock, held by each writer from its
	// commit until its sync: a build holds it so that no write commits
	// between the snapshot it reads and the moment it receives updates.
	writes sync.Locker

	// The analyzer is built on first use: the topics lexicons take tens
	// of milliseconds to load, which a store that never looks up need not pay.
	anOnce sync.Once
	an     *index.Analyzer
	anErr  error

	// seen holds the analysis of the texts of facts lookups returned
	// lately, so that a lookup need not analyse its hits again: a user's
	// lookups meet the same facts over and over. Keyed by id, checked
	// against the text; emptied when full and at drop, so that a Delete
	// leaves no word of a deleted fact in it.
	seenMu sync.Mutex
	seen   map[uint64]analysed
	seenAt uint64 // the generation of seen: drop starts a new one

	// mu guards ix, which is nil until the first lookup builds it and
	// after a drop; the next lookup rebuilds it.
	mu sync.RWMutex
	ix *index.Index
	q  indexer

	// life ends at close, first thing: it cancels a build in progress,
	// and a build that ends later finds it over and keeps no index.
	life context.Context
	end  context.CancelFunc

	// hookAfterBuild, when set by a test, runs when a build has filled
	// its index and before the index is put in use.
	hookAfterBuild func(*index.Index)
	// hookBuildPage, when set by a test, runs before a build reads the
	// first page of facts.
	hookBuildPage func()
}

type analysed struct {
	text  string
	terms index.Terms
}

// seenMax bounds the analyses kept: a few hundred bytes each.
const seenMax = 4096

// seenGen returns the generation of the kept analyses, to take before a
// lookup reads the store: a drop (and so a Delete) starts a new one.
func (l *liveIndex) seenGen() uint64 {
	l.seenMu.Lock()
	defer l.seenMu.Unlock()
	return l.seenAt
}

// terms returns the analysis of fact id's text, read by a lookup that
// took generation gen before it read the store. It keeps the analysis
// only while gen is current: a lookup that read a fact before a Delete
// committed, and analyses it after the Delete dropped the kept ones,
// must not keep the deleted words.
func (l *liveIndex) terms(an *index.Analyzer, id uint64, text string, gen uint64) index.Terms {
	l.seenMu.Lock()
	a, ok := l.seen[id]
	l.seenMu.Unlock()
	if ok && a.text == text {
		return a.terms
	}
	t := an.Analyze(text)
	l.seenMu.Lock()
	if gen == l.seenAt {
		if len(l.seen) >= seenMax {
			clear(l.seen)
		}
		l.seen[id] = analysed{text, t}
	}
	l.seenMu.Unlock()
	return t
}

// liveSource is how the live index reads the store.
type liveSource struct {
	// page returns up to n current facts after the key after, as
	// documents, and the key to go on from (nil at the end). The build
	// calls it holding the write lock.
	page func(ctx context.Context, after []byte, n int) ([]index.Doc, []byte, error)
	// vectors fills in the stored vectors of documents a commit wrote;
	// called without the write lock, it only reads.
	vectors func(docs []index.Doc) error
}

func newLiveIndex(root string, mode LookupMode, writes sync.Locker, src liveSource) *liveIndex {
	l := &liveIndex{root: root, mode: mode, writes: writes, src: src, seen: map[uint64]analysed{}}
	l.life, l.end = context.WithCancel(context.Background())
	l.q.init(l)
	return l
}

// analyzer returns the text analyzer of the lookup mode.
func (l *liveIndex) analyzer() (*index.Analyzer, error) {
	l.anOnce.Do(func() { l.an, l.anErr = index.NewAnalyzer(l.mode) })
	return l.an, l.anErr
}

// search runs fn on the index, building it first if needed, once every
// change committed before the call that can change user's candidates has
// reached it (read your writes). An index whose files faulted under fn
// (truncated or damaged while in use) is dropped and built again from the
// store, once.
func (l *liveIndex) search(ctx context.Context, user string, fn func(*index.Index) error) error {
	err := l.try(ctx, user, fn)
	if errors.Is(err, index.ErrFault) {
		l.drop()
		err = l.try(ctx, user, fn)
		if errors.Is(err, index.ErrFault) {
			l.drop()
		}
	}
	return err
}

func (l *liveIndex) try(ctx context.Context, user string, fn func(*index.Index) error) error {
	for {
		if err := l.q.waitUser(ctx, user); err != nil {
			return err
		}
		l.mu.RLock()
		if ix := l.ix; ix != nil {
			defer l.mu.RUnlock()
			return fn(ix)
		}
		l.mu.RUnlock()
		if err := l.build(ctx); err != nil {
			return err
		}
	}
}

// built says whether an index is in use.
func (l *liveIndex) built() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.ix != nil
}

// build fills a new index from the current facts in the store, holding
// the write lock from the snapshot it reads to the moment it is in use.
func (l *liveIndex) build(ctx context.Context) error {
	l.writes.Lock()
	defer l.writes.Unlock()
	if l.life.Err() != nil {
		return ErrClosed
	}
	if l.built() {
		return nil
	}
	an, err := l.analyzer()
	if err != nil {
		return err
	}
	// close cancels the build: it waits for the write lock, which the
	// build holds.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(l.life, cancel)()
	ix, err := index.New(an, l.root)
	if err != nil {
		return fmt.Errorf("building the candidate index: %w", err)
	}
	// Batches come from short read transactions, one at a time as the
	// index takes them; the write lock keeps the store still in between.
	// Of the sizes tried (500 to 12,500), batches of 1,000 built a 100k
	// index fastest, with nearly the least memory: larger ones leave bleve
	// more and bigger unpersisted segments to merge.
	const batch = 1000
	var after []byte
	done := false
	err = ix.Bulk(func() ([]index.Doc, error) {
		if done {
			return nil, nil
		}
		if after == nil && l.hookBuildPage != nil {
			l.hookBuildPage()
		}
		if l.life.Err() != nil {
			return nil, ErrClosed
		}
		var docs []index.Doc
		var err error
		docs, after, err = l.src.page(ctx, after, batch)
		done = after == nil
		return docs, err
	})
	if err != nil {
		err = errors.Join(err, ix.Close())
		if l.life.Err() != nil {
			return fmt.Errorf("building the candidate index: %w", ErrClosed)
		}
		return fmt.Errorf("building the candidate index: %w", err)
	}
	if l.hookAfterBuild != nil {
		l.hookAfterBuild(ix)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.life.Err() != nil {
		return errors.Join(ErrClosed, ix.Close())
	}
	l.ix = ix
	l.q.skip() // the build read every commit so far
	return nil
}

// sync queues a committed write for the index: touched gives the final
// state of each record it wrote, nil for one deleted. Called with the
// write lock held, right after the commit, so changes queue in commit
// order; with no index built there is nothing to do, since the next
// lookup builds it from the store.
func (l *liveIndex) sync(touched func(func(uint64, *kv.Record))) {
	if touched == nil || !l.built() {
		return
	}
	l.q.add(touched)
}

// ids returns the documents the index holds once every change queued
// before the call is in, or ok false when no index is built. An index
// whose files faulted is dropped: it is derived data, not the store's,
// and the next lookup builds it again.
func (l *liveIndex) ids(ctx context.Context) (docs map[uint64]bool, ok bool, err error) {
	l.mu.RLock()
	ix := l.ix
	l.mu.RUnlock()
	if ix == nil {
		return nil, false, nil
	}
	if err := l.q.wait(ctx); err != nil {
		return nil, false, err
	}
	docs, err = ix.DocIDs(ctx)
	switch {
	case errors.Is(err, index.ErrClosed):
		return nil, false, nil // dropped meanwhile: nothing to compare
	case errors.Is(err, index.ErrFault):
		l.drop()
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return docs, true, nil
}

// drop closes the index and removes its files; changes queued for it are
// moot, since the next lookup rebuilds it from the store.
func (l *liveIndex) drop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ix != nil {
		l.ix.Close()
		l.ix = nil
	}
	l.q.skip()
	l.seenMu.Lock()
	clear(l.seen)
	l.seenAt++
	l.seenMu.Unlock()
}

// close cancels a build in progress and waits for it to end, stops the
// background work and drops the index, so that no index outlives the
// store. Lookups after it return ErrClosed, and so does a Check that it
// overtakes (closed).
func (l *liveIndex) close() {
	l.end()
	// A build holds the write lock from start to end: once it is ours,
	// none runs, and the ended life stops any later one. A Check holds it
	// too while it compares the index with the store: the queue stops only
	// then, for a stopped queue no longer brings the index up to date.
	l.writes.Lock()
	l.q.stop()
	l.drop()
	l.writes.Unlock()
}

// closed reports whether close has begun.
func (l *liveIndex) closed() bool { return l.life.Err() != nil }

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
	l       *liveIndex
	mu      sync.Mutex
	cond    *sync.Cond
	kick    chan struct{} // wakes a delayed flush: a lookup waits, or close
	queue   []change
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
	flushDelay  = 100 * time.Millisecond
	flushBatch  = 1000
	askedFor    = time.Second
	askedMax    = 1024
	smallChange = 4
)

// change is what one commit did to the set of current facts: it calls
// its argument with the final state of each record the commit wrote.
type change func(func(uint64, *kv.Record))

func (q *indexer) init(l *liveIndex) {
	q.l = l
	q.cond = sync.NewCond(&q.mu)
	q.kick = make(chan struct{}, 1)
	q.delay, q.batch = flushDelay, flushBatch
	q.byUser = map[string]uint64{}
	q.askedAt = map[string]time.Time{}
}

// asked notes a lookup of user. Called with mu held.
func (q *indexer) asked(user string, now time.Time) {
	if len(q.askedAt) >= askedMax {
		for u, at := range q.askedAt {
			if now.Sub(at) >= askedFor {
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
func (q *indexer) add(touched func(func(uint64, *kv.Record))) {
	var users []string
	deleted := false
	records := 0
	touched(func(_ uint64, r *kv.Record) {
		records++
		if r == nil {
			deleted = true
		} else if !slices.Contains(users, r.User) {
			users = append(users, r.User)
		}
	})
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return
	}
	q.queued++
	now := time.Now()
	for _, u := range users {
		q.byUser[u] = q.queued
		if at, ok := q.askedAt[u]; ok && now.Sub(at) < askedFor && records <= smallChange {
			q.urgent = true
		}
	}
	if deleted {
		q.anyUser = q.queued
	}
	q.queue = append(q.queue, touched)
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
		batch, upTo, epoch := q.queue, q.queued, q.epoch
		q.queue, q.records, q.urgent, q.taken = nil, 0, false, upTo
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
		q.apply(batch, epoch)

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
// batch: the latest state of each fact wins. A batch taken before the
// index was dropped or built again is moot: the index holds the store's
// state since, and the batch's states may be older. A failure drops the
// index; the next lookup rebuilds it from the store.
func (q *indexer) apply(batch []change, epoch uint64) {
	l := q.l
	final := map[uint64]*kv.Record{}
	var order []uint64
	for _, touched := range batch {
		touched(func(id uint64, r *kv.Record) {
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
	l.mu.RLock()
	ix := l.ix
	// A skip happens with l.mu held, so the epoch cannot move under RLock.
	q.mu.Lock()
	moot := q.epoch != epoch
	q.mu.Unlock()
	var err error
	if ix != nil && !moot {
		err = l.src.vectors(put)
		if err == nil && len(del) > 0 {
			err = ix.Delete(del...)
		}
		if err == nil && len(put) > 0 {
			err = ix.Put(put...)
		}
	}
	l.mu.RUnlock()
	if err != nil {
		l.drop()
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
	q.queue, q.records, q.urgent = nil, 0, false
	q.applied, q.taken = q.queued, q.queued
	q.epoch++
	clear(q.byUser)
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
