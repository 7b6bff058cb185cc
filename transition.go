package memory

import (
	"errors"
	"fmt"

	"github.com/palimpsest-mem/memory/kv"
)

// The lifecycle of a fact, in one table. A record keeps where its fact
// stands (ValidUntil, SupersededBy, Pinned) and its log keeps every step
// that led there. next says which step may follow which and what each
// one moves. Every write takes its steps through it (insert, step), and
// Check and Import fold it over a log (replay) to compare the end with the
// record. So a rule written once holds for writes and for what a check
// accepts.

// factState is where a fact's lifecycle stands after a prefix of its log.
type factState struct {
	recorded bool
	until    int64  // record time it stopped being current; 0 while current
	by       uint64 // the successor of a superseded fact (0 once deleted)
	pinned   bool
	last     int64 // record time of the last step: no step may come before it
	// confirmed counts, per decision, its confirmations that an undo has
	// not cancelled. It is known only for a state folded from the log
	// (replay); stateOf leaves it nil, as only an Unconfirmed step needs it.
	confirmed map[uint64]int
}

func (st factState) current() bool { return st.recorded && st.until == 0 }

// next is the transition table: the state after step e, or why e cannot
// follow st. Its errors wrap ErrNotCurrent, ErrAlreadyCurrent, ErrPinned
// and ErrTimeOrder where a write can meet them; the others only a damaged
// or hand-made log can, since no write takes such a step.
//
//	step          from                  to
//	recorded      nothing yet           current
//	superseded    current               ended at its At, by e.By
//	retracted     current               ended at its At
//	restored      ended                 current
//	pinned        any                   pinned
//	unpinned      any                   not pinned
//	confirmed     current               unchanged (the log keeps when)
//	unconfirmed   a confirmation of     unchanged, that confirmation
//	              e.Undoes standing     no longer counts
//
// Besides: no step is recorded before the last one; automation
// (e.Auto) never supersedes, retracts or restores a pinned fact. A step
// taken updates st's confirmation counts in place (a fold keeps only what
// next returns); a refused one changes nothing.
func next(st factState, e *kv.Event) (factState, error) {
	if e.At == 0 {
		// Zero marks "not ended" in a record, so a step then could not be
		// told from none; a write records the epoch a nanosecond later.
		return st, fmt.Errorf("a %s step at record time zero, which a record cannot hold", e.Kind)
	}
	if !st.recorded {
		if e.Kind != kv.Recorded {
			return st, fmt.Errorf("a %s step before the fact's recording", e.Kind)
		}
		return factState{recorded: true, last: e.At, confirmed: st.confirmed}, nil
	}
	// What a step may follow is judged before when it comes: a step that
	// is wrong at any time says so, not that the clock is behind.
	switch e.Kind {
	case kv.Superseded, kv.Retracted, kv.Restored:
		if e.Kind == kv.Restored && st.current() {
			return st, ErrAlreadyCurrent
		}
		if e.Kind != kv.Restored && !st.current() {
			return st, ErrNotCurrent
		}
		if e.Auto && st.pinned {
			return st, ErrPinned
		}
	case kv.Pinned, kv.Unpinned:
	case kv.Confirmed:
		// Only a current fact is told again (Remember's noop).
		if !st.current() {
			return st, fmt.Errorf("confirmed: %w", ErrNotCurrent)
		}
	case kv.Unconfirmed:
		// The undo of a restatement cancels its confirmation, once, in
		// whatever state the fact is in by then; with none standing there
		// is nothing to cancel.
		if st.confirmed[e.Undoes] == 0 {
			return st, fmt.Errorf("%w of decision %d", errNoConfirmation, e.Undoes)
		}
	case kv.Recorded:
		return st, errors.New("recorded again")
	default:
		return st, fmt.Errorf("a step of unknown kind %s", e.Kind)
	}
	if e.At < st.last {
		return st, fmt.Errorf("%s at %s, after a step at %s: %w", e.Kind, stamp(e.At), stamp(st.last), ErrTimeOrder)
	}
	switch e.Kind {
	case kv.Superseded, kv.Retracted:
		st.until, st.by = e.At, e.By
		if e.Kind == kv.Retracted {
			st.by = 0
		}
	case kv.Restored:
		st.until, st.by = 0, 0
	case kv.Pinned, kv.Unpinned:
		st.pinned = e.Kind == kv.Pinned
	case kv.Confirmed:
		if st.confirmed != nil && e.Decision != 0 {
			st.confirmed[e.Decision]++
		}
	case kv.Unconfirmed:
		st.confirmed[e.Undoes]--
	}
	st.last = e.At
	return st, nil
}

// replay folds next over a log: the state it ends in, or the first step
// the table refuses.
func replay(evs []kv.Event) (factState, error) {
	st := factState{confirmed: map[uint64]int{}}
	for i := range evs {
		var err error
		if st, err = next(st, &evs[i]); err != nil {
			return st, fmt.Errorf("log step %d: %w", i, err)
		}
	}
	return st, nil
}

// stateOf is where r stands, read from its markers and the time of its
// last step; with log, from its whole log, which an Unconfirmed step needs.
func stateOf(tx *kv.Tx, r *kv.Record, log bool) (factState, error) {
	if log {
		evs, err := tx.Events(r.ID)
		if err != nil {
			return factState{}, err
		}
		return replay(evs)
	}
	last, err := tx.LastEventAt(r.ID)
	if err != nil {
		return factState{}, err
	}
	return factState{recorded: true, until: r.ValidUntil, by: r.SupersededBy, pinned: r.Pinned, last: last}, nil
}

// mark sets r's markers to st.
func (st factState) mark(r *kv.Record) {
	r.ValidUntil, r.SupersededBy, r.Pinned = st.until, st.by, st.pinned
}

// replayMatches checks that a log is well formed and ends in the record's
// state: a lifecycle that does not replay to its markers is corruption.
func replayMatches(r *kv.Record, evs []kv.Event) error {
	if len(evs) == 0 || evs[0].Kind != kv.Recorded || evs[0].At != r.RecordedAt {
		return errors.New("log does not start with its recording")
	}
	st, err := replay(evs)
	if err != nil {
		return err
	}
	if st.until != r.ValidUntil || st.by != r.SupersededBy || st.pinned != r.Pinned {
		return fmt.Errorf("log replays to valid_until=%d superseded_by=%d pinned=%v, record has %d %d %v",
			st.until, st.by, st.pinned, r.ValidUntil, r.SupersededBy, r.Pinned)
	}
	return nil
}

// step takes step e at record time now on fact r: next judges it against
// where r stands, then r and its log are written. It is the one way a
// recorded fact's lifecycle moves on; recording is insert's.
func step(tx *kv.Tx, r *kv.Record, now int64, e *kv.Event) error {
	st, err := stateOf(tx, r, e.Kind == kv.Unconfirmed)
	if err != nil {
		return err
	}
	e.At = now
	if st, err = next(st, e); err != nil {
		return fmt.Errorf("fact %d: %w", r.ID, err)
	}
	st.mark(r)
	if err := tx.Put(r); err != nil {
		return err
	}
	return tx.Append(r.ID, e)
}

// mayStep reports, without writing, why step e at now on fact r would be
// refused, if it would: for a write that must know before it writes
// anything else. The caller names the fact.
func mayStep(tx *kv.Tx, r *kv.Record, now int64, e kv.Event) error {
	st, err := stateOf(tx, r, e.Kind == kv.Unconfirmed)
	if err != nil {
		return err
	}
	e.At = now
	_, err = next(st, &e)
	return err
}
