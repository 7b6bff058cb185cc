package memory

import (
	"context"
	"fmt"

	"github.com/palimpsest-mem/memory/kv"
)

// Add records a new current fact.
func (s *Store) Add(ctx context.Context, n Note) (Fact, error) {
	rec, err := s.record(n)
	if err != nil {
		return Fact{}, err
	}
	vec := s.embedFact(ctx, rec.Text)
	err = s.update(ctx, rec.User, func(tx *kv.Tx) error {
		if err := s.checkBudget(tx, rec.User, rec.Auto, false); err != nil {
			return err
		}
		return s.insert(tx, &rec, vec, s.now())
	})
	if err != nil {
		return Fact{}, err
	}
	return factOf(&rec), nil
}

// insert allocates an id for rec and writes it with its embedding (if
// any) and first log entries: recorded, and pinned if the note says so,
// the table's first steps.
func (s *Store) insert(tx *kv.Tx, rec *kv.Record, vec []float32, now int64) error {
	id, err := tx.NextID()
	if err != nil {
		return err
	}
	rec.ID, rec.RecordedAt = id, now
	evs := []kv.Event{{Kind: kv.Recorded, At: now, Auto: rec.Auto}}
	if rec.Pinned {
		evs = append(evs, kv.Event{Kind: kv.Pinned, At: now, Auto: rec.Auto})
	}
	var st factState // a new fact needs no confirmation counts
	for i := range evs {
		if st, err = next(st, &evs[i]); err != nil {
			return err
		}
	}
	st.mark(rec)
	if err := tx.Put(rec); err != nil {
		return err
	}
	if vec != nil {
		if err := tx.PutVector(id, vec); err != nil {
			return err
		}
	}
	for i := range evs {
		if err := tx.Append(id, &evs[i]); err != nil {
			return err
		}
	}
	return nil
}

// checkBudget refuses a write that would leave user with more current
// automatic facts than the budget. replacesAuto says the write retires one.
func (s *Store) checkBudget(tx *kv.Tx, user string, auto, replacesAuto bool) error {
	if s.budget == 0 || !auto || replacesAuto {
		return nil
	}
	if n := tx.CountCurrent(user, true); n >= s.budget {
		return fmt.Errorf("user %q has %d current automatic facts: %w", user, n, ErrBudgetExceeded)
	}
	return nil
}

// getUser reads fact id and refuses it when it belongs to another user, so
// that one user's operations cannot reach another's facts.
func getUser(tx *kv.Tx, id uint64, user string) (kv.Record, error) {
	r, err := tx.Get(id)
	if err != nil {
		return r, err
	}
	if r.User != user {
		return kv.Record{}, fmt.Errorf("fact %d of user %q: %w", id, user, ErrNotFound)
	}
	return r, nil
}

// Supersede records n as the successor of user's fact oldID: the world
// changed and the old fact is true no longer. The insert and the marking of
// the old fact happen in one transaction. n.User may be left empty: the new
// fact is user's; a different n.User gives ErrInvalidUser. With
// n.Origin == OriginAuto a pinned old fact gives ErrPinned. The old fact's
// interval ends where the new one starts (n.EventFrom, else now): before
// an explicit EventFrom of the old fact that gives ErrInvalidInterval; an
// old fact without one was true until then, from an unknown start.
func (s *Store) Supersede(ctx context.Context, user string, oldID uint64, n Note) (Fact, error) {
	if n.User == "" {
		n.User = user
	} else if n.User != user {
		return Fact{}, fmt.Errorf("supersede fact %d of user %q with a note of user %q: %w", oldID, user, n.User, ErrInvalidUser)
	}
	rec, err := s.record(n)
	if err != nil {
		return Fact{}, err
	}
	vec := s.embedFact(ctx, rec.Text)
	err = s.update(ctx, user, func(tx *kv.Tx) error { return s.supersedeTx(tx, oldID, &rec, vec, rec.Auto, 0) })
	if err != nil {
		return Fact{}, err
	}
	return factOf(&rec), nil
}

// supersedeTx writes rec as the successor of fact oldID within tx. auto
// says the change is made by automation, which may not touch a pinned fact;
// decision is the decision log entry that made it (0 for none).
func (s *Store) supersedeTx(tx *kv.Tx, oldID uint64, rec *kv.Record, vec []float32, auto bool, decision uint64) error {
	old, err := getUser(tx, oldID, rec.User)
	if err != nil {
		return err
	}
	// The table judges the step before anything is written; its
	// successor and where it starts are known once it is recorded.
	now := s.now()
	e := kv.Event{Kind: kv.Superseded, Auto: auto, Decision: decision}
	if err := mayStep(tx, &old, now, e); err != nil {
		return fmt.Errorf("supersede fact %d: %w", oldID, err)
	}
	if err := s.checkBudget(tx, rec.User, rec.Auto, old.Auto); err != nil {
		return err
	}
	if err := endsAfterStart(&old, successorStart(rec, now)); err != nil {
		return err
	}
	rec.Supersedes = oldID
	if err := s.insert(tx, rec, vec, now); err != nil {
		return err
	}
	if s.hookAfterInsert != nil {
		if err := s.hookAfterInsert(); err != nil {
			return err
		}
	}
	e.By, e.End = rec.ID, eventStart(rec)
	return step(tx, &old, now, &e)
}

// successorStart is where a successor about to be recorded at now starts.
func successorStart(rec *kv.Record, now int64) int64 {
	if rec.HasFrom {
		return rec.EventFrom
	}
	return now
}

// endsAfterStart refuses to close old's interval at end, its successor's
// start, when old has an explicit start after it: the interval would end
// before it begins. (Without an EventFrom the start is unknown, and the
// fact was true until end: see spanAt.)
func endsAfterStart(old *kv.Record, end int64) error {
	if old.HasFrom && end < old.EventFrom {
		return fmt.Errorf("supersede fact %d: %w: its successor starts at %s, before its own start %s",
			old.ID, ErrInvalidInterval, stamp(end), stamp(old.EventFrom))
	}
	return nil
}

// Invalidate retracts a current fact: it was never true. It stays as history
// and Restore undoes it. With c.Origin == OriginAuto a pinned fact gives ErrPinned.
func (s *Store) Invalidate(ctx context.Context, user string, id uint64, c Change) (Fact, error) {
	return s.moveFact(ctx, user, id, c, func(*kv.Tx, *kv.Record) (*kv.Event, error) {
		return &kv.Event{Kind: kv.Retracted}, nil
	})
}

// Restore makes a superseded or retracted fact current again: the undo of
// a wrong Supersede or Invalidate. The successor of a superseded fact stays
// as it is. An automatic fact counts against AutoBudget again. With
// c.Origin == OriginAuto a pinned fact gives ErrPinned.
func (s *Store) Restore(ctx context.Context, user string, id uint64, c Change) (Fact, error) {
	return s.moveFact(ctx, user, id, c, func(tx *kv.Tx, r *kv.Record) (*kv.Event, error) {
		// The table judges the step first: the budget is a question only
		// for a restore that may be taken.
		e := &kv.Event{Kind: kv.Restored, Auto: c.Origin == OriginAuto}
		if err := mayStep(tx, r, s.now(), *e); err != nil {
			return nil, err
		}
		if err := s.checkBudget(tx, r.User, r.Auto, false); err != nil {
			return nil, err
		}
		return e, nil
	})
}

// Pin protects a fact from automation. Pinning a pinned fact changes nothing.
func (s *Store) Pin(ctx context.Context, user string, id uint64) (Fact, error) {
	return s.setPinned(ctx, user, id, true)
}

// Unpin lets automation change the fact again.
func (s *Store) Unpin(ctx context.Context, user string, id uint64) (Fact, error) {
	return s.setPinned(ctx, user, id, false)
}

func (s *Store) setPinned(ctx context.Context, user string, id uint64, pinned bool) (Fact, error) {
	return s.moveFact(ctx, user, id, Change{}, func(_ *kv.Tx, r *kv.Record) (*kv.Event, error) {
		if r.Pinned == pinned {
			return nil, nil
		}
		if pinned {
			return &kv.Event{Kind: kv.Pinned}, nil
		}
		return &kv.Event{Kind: kv.Unpinned}, nil
	})
}

// moveFact takes the step fn returns for fact id, in one transaction; fn
// only judges whether the step may be taken, and a nil step means there is
// nothing to moveFact.
func (s *Store) moveFact(ctx context.Context, user string, id uint64, c Change,
	fn func(tx *kv.Tx, r *kv.Record) (*kv.Event, error)) (Fact, error) {
	reason, err := s.validText("reason", c.Reason, true)
	if err != nil {
		return Fact{}, err
	}
	var out Fact
	err = s.update(ctx, user, func(tx *kv.Tx) error {
		r, err := getUser(tx, id, user)
		if err != nil {
			return err
		}
		e, err := fn(tx, &r)
		if err != nil {
			return fmt.Errorf("fact %d: %w", id, err)
		}
		if e != nil {
			e.Auto, e.Cause = c.Origin == OriginAuto, reason
			if err := step(tx, &r, s.now(), e); err != nil {
				return err
			}
		}
		out, err = factIn(tx, &r)
		return err
	})
	if err != nil {
		return Fact{}, err
	}
	return out, nil
}
