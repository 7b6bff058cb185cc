package live

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/palimpsest-mem/memory/index"
)

// A store whose users each have a revision of their own (one on a
// kv.Backend, which other processes write too) has the index follow each
// user apart (Source.User). Its build makes it empty; a user's first
// lookup reads the user's facts in, and from then on the index records
// the revision of the user's data it holds. A lookup names the revision it
// must see (SearchAt): while the index holds an older one, or none it can
// name, the user's facts are read again and what changed is put in or
// taken out (catchUpUser), holding the user's commits in this process off
// from the read until the index has it. This process's own commits move
// the recorded revision as they sync (SyncUser), so only another
// process's commits cost a read; a commit of ours on top of another's
// leaves a revision the index cannot name, caught up at the next lookup.

// UserFacts is what a store of per-user revisions says of one user at one
// revision: the user's current facts, and which of the ids asked about
// (those the index holds) are gone from the store, hard-deleted, so that
// their words are purged from the index's files.
type UserFacts struct {
	Docs []index.Doc
	Gone []uint64
	Rev  uint64
}

// userRev is the revision of a user's data the index holds; known false
// while it holds the user's documents at no revision it can name.
type userRev struct {
	rev   uint64
	known bool
}

// A UserRead reads one user's facts for the index, given the ids of those
// it holds (see Source.User).
type UserRead func(ctx context.Context, held []uint64) (UserFacts, error)

// SearchAt is Search for a store of per-user revisions: fn runs once the
// index holds user's facts as of revision rev or a later one (the caller
// read rev from the store when its lookup began), caught up first when it
// does not, from read (the caller's snapshot at rev: no read again) or,
// if read is nil, from Source.User. An index whose files faulted is
// dropped and built again, once, as Search does.
func (l *Index) SearchAt(ctx context.Context, user string, rev uint64, read UserRead, fn func(*index.Index) error) error {
	if l.src.User == nil {
		return errors.New("live: SearchAt on a store without per-user revisions")
	}
	if read == nil {
		read = func(ctx context.Context, held []uint64) (UserFacts, error) { return l.src.User(ctx, user, held) }
	}
	return l.faulted(func() error { return l.tryAt(ctx, user, rev, read, fn) })
}

func (l *Index) tryAt(ctx context.Context, user string, rev uint64, read UserRead, fn func(*index.Index) error) error {
	for {
		// The revision is read before the wait, which then covers the
		// commits that recorded it: the index holds at least that
		// revision once the wait is over, unless dropped (a new epoch).
		r, held, epoch, err := l.q.waitRev(ctx, user)
		if err != nil {
			return err
		}
		l.mu.RLock()
		ix := l.ix
		if ix != nil && held && r.known && r.rev >= rev && l.q.inEpoch(epoch) {
			defer l.mu.RUnlock()
			return fn(ix)
		}
		l.mu.RUnlock()
		if ix == nil {
			if err := l.build(ctx); err != nil {
				return err
			}
			continue
		}
		caught, ok, err := l.catchUpUser(ctx, user, rev, read)
		if err != nil {
			return err
		}
		if ok {
			// Read under the user's lock after the lookup began: the
			// newest there is, even from a store whose revisions went back.
			rev = min(rev, caught)
		}
	}
}

// catchUpUser brings the index's documents of user to the facts read
// gives, holding the user's commits off from before the read until the
// index has them, then purges the words of the facts gone. It returns the
// revision read; ok false if there was no index to bring (dropped
// meanwhile), or it held rev already.
func (l *Index) catchUpUser(ctx context.Context, user string, rev uint64, read UserRead) (caught uint64, ok bool, err error) {
	w := l.userWrites(user)
	w.Lock()
	if r, held := l.q.rev(user); held && r.known && r.rev >= rev {
		// Another lookup caught up meanwhile, or the commit that made rev
		// has synced: the caller's next wait sees it in.
		w.Unlock()
		return 0, false, nil
	}
	caught, gone, ok, err := l.follow(ctx, user, read)
	w.Unlock()
	if err != nil {
		return 0, false, err
	}
	// The purge's error changes nothing of the promise (see Purge): it
	// dropped the index, and the lookup builds it again.
	_ = l.purgeBuilt(ctx, gone)
	return caught, ok, nil
}

// Follow brings the index's documents of user, if it holds the user's at
// another revision than rev or at none it can name, to the facts read
// gives (read at rev), and purges the words of those gone. A user whose
// documents the index does not hold stays out: a check compares only the
// users the index holds. Called holding the write lock (a check), so that
// no commit runs meanwhile, and with nothing else of the index held.
func (l *Index) Follow(ctx context.Context, user string, rev uint64, read UserRead) error {
	if l.src.User == nil || !l.built() {
		return nil
	}
	if r, held := l.q.rev(user); !held || r.known && r.rev == rev {
		return nil
	}
	_, gone, _, err := l.follow(ctx, user, read)
	if err != nil {
		return err
	}
	_ = l.purgeBuilt(ctx, gone) // as catchUpUser's
	return nil
}

// follow brings the index's documents of user to the facts read returns,
// given the ids of those it holds, and records the revision read. The
// caller holds the user's commits off. It returns the revision, and the
// keys of the facts gone from the store, whose words the caller purges;
// ok false if there was no index (dropped: the next lookup builds it).
func (l *Index) follow(ctx context.Context, user string, read UserRead) (rev uint64, gone []index.DocKey, ok bool, err error) {
	// The user's changes queued before go in first: what is compared is
	// then all the index will hold of the user until commits go on.
	if err := l.q.waitUser(ctx, user); err != nil {
		return 0, nil, false, err
	}
	l.mu.RLock()
	ix, epoch := l.ix, l.q.epochNow()
	l.mu.RUnlock()
	if ix == nil {
		return 0, nil, false, nil
	}
	keys, err := ix.UserKeys(ctx, user)
	if errors.Is(err, index.ErrClosed) {
		return 0, nil, false, nil // dropped meanwhile
	}
	if err != nil {
		return 0, nil, false, err
	}
	held := make([]uint64, len(keys))
	has := make(map[uint64]bool, len(keys))
	for i, k := range keys {
		held[i], has[k.ID] = k.ID, true
	}
	f, err := read(ctx, held)
	if err != nil {
		return 0, nil, false, err
	}
	// A fact's text never changes under its id, and ids are never used
	// again: a document the index holds is its fact's, and only the
	// facts missing go in.
	current := make(map[uint64]bool, len(f.Docs))
	var put []index.Doc
	for _, d := range f.Docs {
		current[d.ID] = true
		if !has[d.ID] {
			put = append(put, d)
		}
	}
	var del []index.DocKey
	for _, k := range keys {
		if !current[k.ID] {
			del = append(del, k)
		}
	}
	for _, id := range f.Gone {
		if has[id] {
			gone = append(gone, index.DocKey{User: user, ID: id})
		}
	}
	if err := l.src.Vectors(put); err != nil {
		return 0, nil, false, err
	}
	l.mu.RLock()
	if l.ix != ix || !l.q.inEpoch(epoch) {
		l.mu.RUnlock()
		return 0, nil, false, nil // dropped, maybe built again, meanwhile
	}
	if len(put) > 0 || len(del) > 0 {
		err = ix.Apply(put, del, nil)
	}
	if err == nil {
		l.q.setRev(user, userRev{f.Rev, true})
	}
	l.mu.RUnlock()
	if err != nil {
		// As a failed batch of the indexer: the index goes, and the next
		// lookup builds it again.
		l.Drop()
		return 0, nil, false, err
	}
	return f.Rev, gone, true, nil
}

// SyncUser is Sync for a store of per-user revisions: the commit took
// user from revision from to to. An index that held from holds to once
// the changes are in; one that held another revision of the user holds
// none it can name, and the user's next lookup catches up; one that
// holds none of the user's documents is left without them, for the
// user's first lookup reads them all. Called right after the commit,
// holding the user's commits off and the write lock shared, as Sync is.
func (l *Index) SyncUser(changes iter.Seq[Change], user string, from, to uint64) {
	if changes == nil || !l.built() {
		return
	}
	l.q.addUser(changes, user, from, to)
}

// purgeBuilt is Purge on the index in use, never building one: for a
// catch-up, whose caller may hold the write lock a build takes (a check).
// The deletions are in already: the catch-up applied them itself.
func (l *Index) purgeBuilt(ctx context.Context, keys []index.DocKey) error {
	if len(keys) == 0 {
		return nil
	}
	l.seen.forget()
	l.mu.RLock()
	ix := l.ix
	if ix == nil {
		l.mu.RUnlock()
		return nil
	}
	n, err := ix.Count()
	small := err == nil && n < l.purgeFrom
	if err == nil && !small {
		err = ix.Purge(ctx, keys)
	}
	l.mu.RUnlock()
	if err != nil || small {
		l.Drop()
	}
	return err
}

// addUser queues a commit's changes of user, which took it from revision
// from to to, and records the revision the index holds once they are in.
func (q *indexer) addUser(changes iter.Seq[Change], user string, from, to uint64) {
	users, deleted, records := summary(changes)
	q.mu.Lock()
	defer q.mu.Unlock()
	r, held := q.revs[user]
	if !held {
		return // the user's first lookup reads every fact of theirs
	}
	q.enqueue(changes, nil, users, deleted, records)
	// Queued first: a lookup that reads the new revision waits for them.
	q.revs[user] = userRev{to, r.known && r.rev == from}
}

// waitRev is waitUser, returning the revision of user the index holds once
// the wait is over (held false: none) and the epoch it holds it in.
func (q *indexer) waitRev(ctx context.Context, user string) (r userRev, held bool, epoch uint64, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	r, held = q.revs[user]
	epoch = q.epoch
	q.asked(user, time.Now())
	return r, held, epoch, q.waitFor(ctx, max(q.byUser[user], q.anyUser))
}

func (q *indexer) rev(user string) (userRev, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	r, ok := q.revs[user]
	return r, ok
}

// setRev records the revision of user the index holds. Called with the
// index's mu held, so that no drop comes between the check of the epoch
// and the record.
func (q *indexer) setRev(user string, r userRev) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.revs[user] = r
}

func (q *indexer) epochNow() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.epoch
}

// inEpoch says no skip (a drop or a build) came since epoch.
func (q *indexer) inEpoch(epoch uint64) bool { return q.epochNow() == epoch }

// held keeps of current the keys of the users the index holds: the only
// ones a check of a store of per-user revisions compares.
func (q *indexer) held(current map[index.DocKey]bool) map[index.DocKey]bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make(map[index.DocKey]bool, len(current))
	for k := range current {
		if _, ok := q.revs[k.User]; ok {
			out[k] = true
		}
	}
	return out
}
