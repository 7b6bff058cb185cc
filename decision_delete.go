package memory

import (
	"context"
	"fmt"

	"github.com/palimpsest-mem/memory/kv"
)

// DeleteDecision erases decision id of user for good: its record, then,
// by scrubbing the file's free pages as Delete does, every byte of it left in bbolt's
// free pages. It is for the decisions no fact holds, which no Delete of a
// fact reaches: a refusal (FallbackError), or a decision whose facts were
// deleted since. A decision whose added fact, or the target it superseded,
// retracted or confirmed, still exists is refused with ErrDecisionHasFact,
// as is one a conflict names, and nothing changes. Ids are never reused.
func (s *Store) DeleteDecision(ctx context.Context, user string, id uint64) error {
	s.deleting.RLock()
	defer s.deleting.RUnlock()
	err := s.update(ctx, user, func(tx *kv.Tx) error {
		d, err := getDecision(tx, user, id)
		if err != nil {
			return err
		}
		if d.Added != 0 && tx.Has(d.Added) {
			return fmt.Errorf("decision %d added fact %d: %w", id, d.Added, ErrDecisionHasFact)
		}
		// Its step in the target's log names it (a refused update names
		// its target but changed nothing).
		switch d.Action {
		case ActionUpdate, ActionInvalidate, ActionNoop:
			if d.Target != 0 && tx.Has(d.Target) {
				return fmt.Errorf("decision %d changed fact %d (%s): %w", id, d.Target, d.Action, ErrDecisionHasFact)
			}
		}
		err = forEachUserLog(tx, kv.BucketConflicts, "conflict", user, false, func(cid uint64, c Conflict) error {
			if c.Decision == id {
				return fmt.Errorf("decision %d recorded conflict %d: %w", id, cid, ErrDecisionHasFact)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := tx.MarkScrubPending(); err != nil {
			return err
		}
		return tx.DeleteBlob(kv.BucketDecisions, id)
	})
	if err != nil {
		return err
	}
	if s.hookBeforeScrub != nil {
		s.hookBeforeScrub()
	}
	if s.be != nil {
		return nil // the commit's erase ran in update
	}
	if err := s.db.Scrub(); err != nil {
		return fmt.Errorf("decision %d deleted, but scrubbing the file's free pages failed, so its bytes may remain in it: %w", id, err)
	}
	return nil
}
