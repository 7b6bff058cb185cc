package memory

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sync"

	"github.com/palimpsest-mem/memory/index/live"
	"github.com/palimpsest-mem/memory/kv"
)

// A store on a Backend keeps each user's data apart (kv.Backend): every
// read is one user's snapshot and every write one user's commit, guarded
// by the snapshot's revision, so users never wait on each other and ids
// and counters are each user's own. The bbolt file is the default backend
// and keeps its own path through the group commit (commit.go); this file
// is the other path, for a cluster (package kv/jetstream).

// OpenBackend opens a store on b, one of the module's backends (package
// cluster opens one on kv/jetstream; kv.Backend is not a stable API of
// its own). dir is a private folder of this process for the candidate
// index it derives from b (in dir/index); it is made if need be, and
// holds personal data as a store file does. opts are Open's: ReadOnly,
// NoSync and LockTimeout are the backend's business and ignored, and
// LookupSemantic is refused. Close closes b.
func OpenBackend(b kv.Backend, dir string, opts *Options) (*Store, error) {
	if b == nil {
		return nil, errors.New("memory: OpenBackend: nil backend")
	}
	if dir == "" {
		return nil, errors.New("memory: OpenBackend: no folder for the candidate index")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Lookup == LookupSemantic {
		return nil, fmt.Errorf("memory: Options.Lookup %q on a cluster backend: %w", o.Lookup, ErrUnsupported)
	}
	s, err := newStore(o)
	if err != nil {
		return nil, err
	}
	s.be = b
	s.lists.off = true
	s.beOpts = &kv.UserOptions{LogOwner: logOwner, LogFacts: conflictFacts}
	// The index is this process's, and other processes commit too: it
	// takes each user in at the user's first lookup and catches the user
	// up at each lookup from the revision it holds (backend_catchup.go).
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memory: OpenBackend: %w", err)
	}
	s.live, err = live.Open("", live.Options{Root: filepath.Join(dir, "index"), Mode: s.mode, Writes: exclusive{&s.beAll}, UserWrites: s.userWrites,
		Source: live.Source{Vectors: s.indexVectors, User: s.indexUser}})
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return s, nil
}

// updateBackend is update on a Backend: one commit of user's data, then
// the candidate index follows it. A commit lost to another writer of the
// user runs fn again (kv.UpdateUser).
func (s *Store) updateBackend(ctx context.Context, user string, fn func(tx *kv.Tx) error) error {
	// Commits of different users run side by side; one user's follow one
	// another, so the index gets each user's changes in commit order. An
	// index build or a Check holds them all off (beAll), and a catch-up of
	// the index holds the user's off (userWrites).
	s.beAll.RLock()
	defer s.beAll.RUnlock()
	mu := &s.beUsers[userStripe(user)]
	mu.Lock()
	defer mu.Unlock()
	var (
		touched func(func(string, uint64, *kv.Record))
		users   touchedUsers
		graphs  map[string]*userGraph
	)
	be := &seenCommit{Backend: s.be}
	_, err := kv.UpdateUser(ctx, be, user, s.beOpts, func(tx *kv.Tx) error {
		if err := runWrite(tx, user, fn); err != nil {
			return err
		}
		var err error
		if graphs, err = s.keepConflicts(tx); err != nil {
			return err
		}
		touched, users = tx.Touched, tx.TouchedUsers
		return nil
	})
	if err != nil && !errors.Is(err, kv.ErrErasePending) || touched == nil {
		return err
	}
	// Committed (an erase may be pending): the caches and the index follow.
	s.lists.invalidate(users)
	gen := s.lists.current()
	for u, g := range graphs {
		s.lists.putTimeline(u, gen, g.tl)
		s.lists.putGraph(u, gen, g)
	}
	if be.ok {
		s.live.SyncUser(liveChanges(touched), user, be.from, be.to)
	}
	return err
}

// checkEachUser runs check on every user's snapshot in turn, and brings
// the candidate index's documents of each user it holds to that snapshot,
// so that Check compares the index with the facts it read (another
// process may have committed since the index last caught up). The caller
// holds beAll: no commit of this process runs.
func (s *Store) checkEachUser(ctx context.Context, check func(tx *kv.Tx) error) error {
	users, err := s.be.Users(ctx)
	if err != nil {
		return err
	}
	for _, u := range users {
		snap, err := s.be.Snapshot(ctx, u)
		if err == nil {
			err = kv.ViewAt(snap, s.beOpts, check)
		}
		if err == nil {
			err = s.live.Follow(ctx, u, snap.Rev(), func(_ context.Context, held []uint64) (live.UserFacts, error) { return s.userFacts(snap, u, held) })
		}
		if err != nil {
			return fmt.Errorf("user %q: %w", u, err)
		}
	}
	return nil
}

// finishErases tries again the erases of hard deletes a cluster could not
// prove (a node was down): nil once every one is done, else an error
// wrapping ErrErasePending that names the users still pending.
func (s *Store) finishErases(ctx context.Context) error {
	pe, ok := s.be.(kv.PendingEraser)
	if !ok {
		return nil
	}
	var errs []error
	for _, u := range pe.PendingErases() {
		if err := s.be.Erase(ctx, u); err != nil {
			errs = append(errs, fmt.Errorf("user %q: %w", u, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: hard deletes not yet erased everywhere: %w", ErrErasePending, errors.Join(errs...))
	}
	return nil
}

// userStripe is the lock of beUsers a user's commits take.
func userStripe(user string) int {
	h := fnv.New32a()
	h.Write([]byte(user))
	return int(h.Sum32() % uint32(len(Store{}.beUsers)))
}

// exclusive is the write side of an RWMutex as a Locker: what the index's
// build takes to hold every commit off.
type exclusive struct{ mu *sync.RWMutex }

func (e exclusive) Lock()   { e.mu.Lock() }
func (e exclusive) Unlock() { e.mu.Unlock() }
