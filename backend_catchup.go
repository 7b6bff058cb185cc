package memory

import (
	"context"
	"sync"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/index/live"
	"github.com/palimpsest-mem/memory/kv"
)

// On a Backend other processes commit too, and the candidate index is this
// process's: each lookup through it names the revision of the user's data
// it must see, read from the backend when the lookup begins, and the index
// catches the user up from the backend when it holds an older one
// (index/live's follow.go). Nothing else is kept between commits on a
// Backend: the lists, timelines, graphs and conflicts are cached for the
// file only (listCache.off), and the analyses the index keeps of facts
// are checked against the text read.
//
// The check costs one read of the user's revision: kv.RevReader's (on a
// cluster a request to the stream leader, the cost of a snapshot whose
// view the backend kept), else a snapshot. Candidates reads its hits from
// the snapshot it checked with, so it reads nothing more than it did.

// searchIndex runs fn on the candidate index once it holds user's facts as
// committed when the call began, on a Backend by any process.
func (s *Store) searchIndex(ctx context.Context, user string, fn func(*index.Index) error) error {
	if s.be == nil {
		return s.live.Search(ctx, user, fn)
	}
	var rev uint64
	var err error
	if r, ok := s.be.(kv.RevReader); ok {
		rev, err = r.Rev(ctx, user)
	} else {
		var snap kv.Snapshot
		if snap, err = s.be.Snapshot(ctx, user); err == nil {
			rev = snap.Rev()
		}
	}
	if err != nil {
		return err
	}
	return s.live.SearchAt(ctx, user, rev, nil, fn)
}

// searchIndexAt is searchIndex for a lookup that reads the facts it found
// next: on a Backend it returns the snapshot of user it checked the index
// against, for viewAt to read them from; nil on the file.
func (s *Store) searchIndexAt(ctx context.Context, user string, fn func(*index.Index) error) (kv.Snapshot, error) {
	if s.be == nil {
		return nil, s.live.Search(ctx, user, fn)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	snap, err := s.be.Snapshot(ctx, user)
	if err != nil {
		return nil, err
	}
	read := func(_ context.Context, held []uint64) (live.UserFacts, error) { return s.userFacts(snap, user, held) }
	return snap, s.live.SearchAt(ctx, user, snap.Rev(), read, fn)
}

// viewAt is view, on snapshot at of user's data when there is one
// (searchIndexAt's).
func (s *Store) viewAt(ctx context.Context, user string, at kv.Snapshot, fn func(tx *kv.Tx) error) error {
	if at == nil {
		return s.view(ctx, user, fn)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return kv.ViewAt(at, s.beOpts, fn)
}

// indexUser is the candidate index's Source.User on a Backend: user's
// current facts in a snapshot read now. The index holds the user's
// commits off meanwhile (userWrites).
func (s *Store) indexUser(ctx context.Context, user string, held []uint64) (live.UserFacts, error) {
	if err := ctx.Err(); err != nil {
		return live.UserFacts{}, err
	}
	snap, err := s.be.Snapshot(ctx, user)
	if err != nil {
		return live.UserFacts{}, err
	}
	return s.userFacts(snap, user, held)
}

// userFacts is what snap says of user to the candidate index: the current
// facts, and which of held are no longer there at all.
func (s *Store) userFacts(snap kv.Snapshot, user string, held []uint64) (live.UserFacts, error) {
	f := live.UserFacts{Rev: snap.Rev()}
	err := kv.ViewAt(snap, s.beOpts, func(tx *kv.Tx) error {
		for _, id := range held {
			if !tx.Has(id) {
				f.Gone = append(f.Gone, id) // hard-deleted: its words are purged
			}
		}
		return tx.ForEachCurrent(func(r kv.Record) error {
			f.Docs = append(f.Docs, index.Doc{ID: r.ID, User: user, Text: r.Text})
			return nil
		})
	})
	return f, err
}

// userWrites holds off user's commits in this process (updateBackend's
// locks, shared and the user's stripe), for a catch-up of the index.
func (s *Store) userWrites(user string) sync.Locker {
	return userLock{all: &s.beAll, user: &s.beUsers[userStripe(user)]}
}

type userLock struct {
	all  *sync.RWMutex
	user *sync.Mutex
}

func (l userLock) Lock()   { l.all.RLock(); l.user.Lock() }
func (l userLock) Unlock() { l.user.Unlock(); l.all.RUnlock() }

// seenCommit is a Backend that notes the revisions its one successful
// Commit took the user from and to: what the candidate index needs to
// tell whether it now holds the commit's revision (live.Index.SyncUser).
type seenCommit struct {
	kv.Backend
	from, to uint64
	ok       bool
}

func (b *seenCommit) Commit(ctx context.Context, user string, rev uint64, ops []kv.Op) (uint64, error) {
	to, err := b.Backend.Commit(ctx, user, rev, ops)
	if err == nil {
		b.from, b.to, b.ok = rev, to, true
	}
	return to, err
}
