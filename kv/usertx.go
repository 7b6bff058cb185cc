package kv

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A Tx over a Backend is one user's: it reads a snapshot of the user's
// data through an overlay of its own writes (overlay.go), and ViewUser
// and UpdateUser run the same record, log, index and blob code on it as on
// the file. Ids and counters are then the user's own: the buckets'
// sequences live in the user's data.

// UserOptions configure a Tx over a Backend; nil means none.
type UserOptions struct {
	// LogOwner and LogFacts index the logs of conflicts and merges, as
	// Options' do for the file.
	LogOwner LogOwner
	LogFacts LogFacts
	// Retries bounds how often UpdateUser runs fn again after a commit
	// lost to another writer of the user; 0 means 20.
	Retries int
}

func newUserTx(s Snapshot, write bool, o *UserOptions) *Tx {
	sp := newOverlay(s, write)
	t := &Tx{sp: sp, logsIndexed: true, factsIndexed: true}
	if o != nil {
		t.owner, t.factKeys = o.LogOwner, o.LogFacts
	}
	t.meta, t.facts, t.users = sp.bucket(bucketMeta), sp.bucket(bucketFacts), sp.bucket(bucketUsers)
	return t
}

// ViewUser runs fn on one snapshot of user's data in b; a write in fn
// fails with ErrReadOnly.
func ViewUser(ctx context.Context, b Backend, user string, o *UserOptions, fn func(*Tx) error) (err error) {
	s, err := b.Snapshot(ctx, user)
	if err != nil {
		return err
	}
	return ViewAt(s, o, fn)
}

// ViewAt runs fn on s, a snapshot Backend.Snapshot returned, for a reader
// that reads one revision of the user more than once; a write in fn fails
// with ErrReadOnly.
func ViewAt(s Snapshot, o *UserOptions, fn func(*Tx) error) (err error) {
	defer recoverCorrupt(&err, guard())
	return fn(newUserTx(s, false, o))
}

// UpdateUser runs fn on a snapshot of user's data and commits what it
// wrote as one change of b, guarded by the snapshot's revision. When
// another writer of the user committed first, fn runs again on a fresh
// snapshot (so it must change nothing outside the Tx), at most
// UserOptions.Retries times; then the error wraps ErrConflict. It returns
// the user's new revision, or the snapshot's when fn wrote nothing.
//
// A transaction that asked for an erase (MarkScrubPending: a hard delete)
// has b erase the user's earlier versions once it is committed; an erase
// that cannot be proven yet returns an error wrapping ErrErasePending with
// the revision of the commit, which stands.
func UpdateUser(ctx context.Context, b Backend, user string, o *UserOptions, fn func(*Tx) error) (rev uint64, err error) {
	retries := 20
	if o != nil && o.Retries > 0 {
		retries = o.Retries
	}
	for try := 0; ; try++ {
		s, err := b.Snapshot(ctx, user)
		if err != nil {
			return 0, err
		}
		t := newUserTx(s, true, o)
		if err := runUser(t, fn); err != nil {
			return 0, err
		}
		ops := t.sp.(*overlay).ops()
		if len(ops) == 0 {
			return s.Rev(), nil
		}
		rev, err = b.Commit(ctx, user, s.Rev(), ops)
		if errors.Is(err, ErrConflict) && try < retries {
			// Back off a little more each time, so writers of one user
			// that keep meeting take turns.
			select {
			case <-ctx.Done():
				return 0, ctx.Err()
			case <-time.After(time.Duration(try) * 200 * time.Microsecond):
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		if t.erase {
			if err := b.Erase(ctx, user); err != nil {
				return rev, fmt.Errorf("committed at revision %d; erasing the earlier versions: %w", rev, err)
			}
		}
		return rev, nil
	}
}

func runUser(t *Tx, fn func(*Tx) error) (err error) {
	defer recoverCorrupt(&err, guard())
	return fn(t)
}
