package memory

import (
	"context"
	"fmt"

	"github.com/palimpsest-mem/memory/kv"
)

// A page that offers Undo or Resolve asks first whether it can succeed, by
// the rule the write itself applies, so that it offers no button the store
// would refuse and can say why not instead.

// CanUndo reports, without writing, whether Undo of user's decision id
// would be done now: nil if so, else the error Undo would return —
// ErrAlreadyUndone, ErrUndoStale when a fact it changed has changed since,
// ErrNotFound, ErrReadOnly, ErrStale. A write between the two may still
// change the answer.
func (s *Store) CanUndo(ctx context.Context, user string, id uint64) error {
	if err := s.mayWrite(); err != nil {
		return err
	}
	return s.view(ctx, user, func(tx *kv.Tx) error {
		d, err := getDecision(tx, user, id)
		if err != nil {
			return err
		}
		_, err = undoSteps(tx, d, s.now())
		return err
	})
}

// CanResolve reports, without writing, whether ResolveConflict of user's
// conflict id with keep would be done now: nil if so, else the error it
// would return — ErrResolved, ErrMoot, ErrInvalidInterval or
// ErrSupersessionCycle for keeping the new fact, ErrNotFound, ErrReadOnly,
// ErrStale. A write between the two may still change the answer.
func (s *Store) CanResolve(ctx context.Context, user string, id uint64, keep Keep) error {
	if err := validKeep(id, keep); err != nil {
		return err
	}
	if err := s.mayWrite(); err != nil {
		return err
	}
	return s.view(ctx, user, func(tx *kv.Tx) error {
		c, err := getLog[Conflict](tx, kv.BucketConflicts, "conflict", user, id)
		if err != nil {
			return err
		}
		_, err = resolveSteps(tx, c, keep, s.now())
		return err
	})
}

// mayWrite is what refuses every write before it reads anything: a clock
// out of range, a store opened read-only or one waiting for Repair.
func (s *Store) mayWrite() error {
	if err := s.checkClock(); err != nil {
		return err
	}
	if s.be != nil {
		return nil // a cluster refuses what it cannot take at the commit
	}
	if s.db.ReadOnly() {
		return ErrReadOnly
	}
	if err := s.db.Stale(); err != nil {
		return fmt.Errorf("write refused until the store is repaired: %w", err)
	}
	return nil
}
