package memory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/internal/clip"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/reconcile"
)

// Fallback policies, for Options.Fallback.
const (
	FallbackAdd   = "add"
	FallbackError = "error"
)

// fallbackPolicy checks Options.Fallback; "" means FallbackAdd.
func fallbackPolicy(p string) (string, error) {
	switch p {
	case "":
		return FallbackAdd, nil
	case FallbackAdd, FallbackError:
		return p, nil
	}
	return "", fmt.Errorf("unknown fallback policy %q (add or error)", p)
}

// Outcome is the result of Remember: the decision, and the fact stored
// (for a noop, the fact the new one restates; zero if none).
type Outcome struct {
	Decision Decision
	Fact     Fact
}

// errMoved stops a Remember transaction whose target changed after the
// decision was made: the decision is made again on the new state.
var errMoved = errors.New("target changed since the decision")

// Remember reconciles a new fact with what the store knows: it finds the
// candidates the fact may update or contradict, lets the decider judge
// outside any write transaction, then applies the verdict — add, update
// (supersede), invalidate (retract the target and add) or noop — in one
// transaction together with its decision record. A target that changed
// meanwhile is judged again once; a pinned one is never touched: the fact
// is added and a conflict links the two. When the decider fails, or
// answers an update that would end its target before the target's explicit
// EventFrom, the fallback policy applies and the decision says so.
func (s *Store) Remember(ctx context.Context, n Note) (Outcome, error) {
	rec, err := s.record(n)
	if err != nil {
		return Outcome{}, err
	}
	vec := s.embedFact(ctx, rec.Text)
	var out Outcome
	for attempt := 1; ; attempt++ {
		look, err := s.Candidates(ctx, rec.User, rec.Text, DefaultCandidates)
		if err != nil {
			return Outcome{}, err
		}
		in := s.decisionInput(&rec, n, look)
		words := eventtime.Parse(rec.Text, in.SaidAt, "")
		d, derr := s.decider.Decide(ctx, in)
		proposed := d.Action
		fallback := ""
		if derr == nil && (d.Action == ActionUpdate || d.Action == ActionInvalidate) &&
			d.Target >= 1 && d.Target <= len(in.Candidates) && in.Candidates[d.Target-1].Pinned {
			// Automation never touches a pinned fact: add, and say so.
			d = reconcile.Decision{Action: ActionAdd, ConflictWith: d.Target, Decider: d.Decider, Model: d.Model, Raw: d.Raw,
				EventFrom: d.EventFrom, Grain: d.Grain,
				Reason: fmt.Sprintf("%s (the decider said %s candidate %d, which is pinned)", d.Reason, d.Action, d.Target)}
		}
		if derr == nil {
			derr = reconcile.Validate(d, in)
		}
		if derr != nil {
			fallback = fmt.Sprintf("%s decider failed: %v", s.decider.Name(), derr)
			d = reconcile.Decision{Action: ActionAdd, Decider: s.decider.Name(), Model: d.Model, Raw: d.Raw}
			if s.fallback == FallbackError {
				d.Action = ""
			}
		}
		err = s.update(ctx, func(tx *kv.Tx) error {
			r := rec // every run, and every retry, starts from the note again
			var err error
			out, err = s.apply(tx, &r, vec, look, d, proposed, fallback, words, attempt)
			return err
		})
		if errors.Is(err, errMoved) && attempt == 1 {
			continue
		}
		if err == nil && out.Decision.Fallback != "" && s.fallback == FallbackError {
			err = fmt.Errorf("%w: %s (decision %d)", ErrDecider, out.Decision.Fallback, out.Decision.ID)
		}
		return out, err
	}
}

// decisionInput numbers the candidates 1..n for the decider and adds the
// evidence of the lookup.
func (s *Store) decisionInput(rec *kv.Record, n Note, look Lookup) reconcile.Input {
	in := reconcile.Input{Text: rec.Text, SaidAt: n.Source.SaidAt}
	if in.SaidAt.IsZero() {
		in.SaidAt = s.clock().UTC()
	}
	for i, c := range look.Candidates {
		in.Candidates = append(in.Candidates, reconcile.Candidate{
			N: i + 1, Text: c.Fact.Text, Pinned: c.Fact.Pinned, RecordedAt: c.Fact.RecordedAt,
			EventFrom: c.Fact.EventFrom, Terms: c.Terms, Topics: c.Topics, Score: c.Score, Overlap: c.Overlap,
		})
	}
	return in
}

// apply carries out decision d within tx and logs it.
func (s *Store) apply(tx *kv.Tx, rec *kv.Record, vec []float32, look Lookup, d reconcile.Decision, proposed Action,
	fallback string, words eventtime.Result, attempt int) (Outcome, error) {
	id, err := tx.NextBlobID(kv.BucketDecisions)
	if err != nil {
		return Outcome{}, err
	}
	now := s.now()
	dec := Decision{
		ID: id, At: time.Unix(0, now).UTC(), User: rec.User, Text: rec.Text,
		Action: d.Action, Proposed: proposed, Decider: d.Decider, Model: d.Model,
		Reason: clipLog(d.Reason), Raw: clipLog(d.Raw), Fallback: clipLog(fallback), Grain: d.Grain,
		Candidates: make([]uint64, 0, len(look.Candidates)),
	}
	var gone []int // numbers of the candidates hard-deleted since the lookup
	for i, c := range look.Candidates {
		if tx.Has(c.Fact.ID) {
			dec.Candidates = append(dec.Candidates, c.Fact.ID)
		} else {
			gone = append(gone, i+1)
		}
	}
	if len(gone) > 0 {
		// Delete scrubbed the decisions it found, and this one was not
		// written yet: judge again on a fresh lookup, and if it happens
		// again keep no trace of the deleted fact, as Delete would not.
		if attempt == 1 {
			return Outcome{}, errMoved
		}
		dec.Raw, dec.Reason = "", "[reason removed with a deleted fact it may quote]"
		if dec.Fallback != "" {
			dec.Fallback = "[fallback reason removed with a deleted fact it may quote]"
		}
		if slices.Contains(gone, d.Target) || slices.Contains(gone, d.ConflictWith) {
			d.Target, d.ConflictWith = 0, 0
			if d.Action != "" {
				d.Action, dec.Action = ActionAdd, ActionAdd
				dec.Reason += " (the fact it concerned was deleted meanwhile: added)"
			}
		}
	}
	if dec.Decider == "" {
		dec.Decider = s.decider.Name()
	}
	// The event time: as given, else the model's answer, else the words'.
	source, when, grain := EventFromModel, d.EventFrom, d.Grain
	if when.IsZero() && words.Found {
		source, when, grain = EventFromWords, words.Start, string(words.Grain)
	}
	if !when.IsZero() && !rec.HasFrom && (!rec.HasUntil || rec.EventUntil > when.UnixNano()) {
		t := when.UTC()
		dec.EventFrom, dec.Grain = &t, grain
		rec.EventFrom, rec.HasFrom, rec.EventSource = t.UnixNano(), true, source
	}
	var out Outcome
	var target kv.Record
	if d.Target > 0 {
		dec.Target = look.Candidates[d.Target-1].Fact.ID
		if target, err = tx.Get(dec.Target); err != nil && !errors.Is(err, kv.ErrNotFound) {
			return out, err
		}
	}
	if d.ConflictWith > 0 && d.Action == ActionAdd {
		// An add the decider flags as contradicting a fact it will not
		// change: recorded as a conflict for the user to resolve.
		d.Action, d.Target = ActionUpdate, d.ConflictWith
		dec.Target = look.Candidates[d.Target-1].Fact.ID
		if target, err = tx.Get(dec.Target); err != nil && !errors.Is(err, kv.ErrNotFound) {
			return out, err
		}
		target.Pinned, attempt = true, 2 // take the conflict path below, whatever its state
	}
	if d.Action == ActionUpdate && target.ID != 0 && target.Current() && target.User == rec.User && !target.Pinned {
		// An update that would end the target before its explicit start
		// is a wrong answer: the fallback policy applies, and says why.
		if err := endsAfterStart(&target, successorStart(rec, now)); err != nil {
			fallback = fmt.Sprintf("%s decider's update refused: %v", dec.Decider, err)
			dec.Fallback = clipLog(fallback)
			d.Action = ActionAdd
			if s.fallback == FallbackError {
				d.Action = ""
			}
			dec.Action = d.Action
		}
	}
	switch d.Action {
	case "":
		// The decider failed and the policy is to refuse: only the log, and
		// without the text, which no fact holds and so no hard delete
		// could reach.
		dec.Text, dec.Raw = "", ""
		if len(gone) == 0 { // else already scrubbed above
			dec.Fallback = clipLog(strings.ReplaceAll(fallback, rec.Text, "…"))
		}
	case ActionNoop:
		if dec.Target != 0 && (target.ID == 0 || !target.Current() || target.User != rec.User) {
			// What the fact restates is gone: judge again, then keep it.
			if attempt == 1 {
				return out, errMoved
			}
			dec.Action = ActionAdd
			dec.Reason += fmt.Sprintf(" (fact %d changed meanwhile: added)", dec.Target)
			if err := s.checkBudget(tx, rec.User, rec.Auto, false); err != nil {
				return out, err
			}
			if err := s.insert(tx, rec, vec, now); err != nil {
				return out, err
			}
		} else if dec.Target != 0 {
			out.Fact = factOf(&target)
		}
	case ActionAdd:
		if err := s.checkBudget(tx, rec.User, rec.Auto, false); err != nil {
			return out, err
		}
		if err := s.insert(tx, rec, vec, now); err != nil {
			return out, err
		}
	case ActionUpdate, ActionInvalidate:
		moved := target.ID == 0 || !target.Current() || target.User != rec.User
		if moved && attempt == 1 {
			return out, errMoved
		}
		if moved || target.Pinned {
			why := "was pinned"
			switch {
			case moved:
				why = "had changed meanwhile"
			case d.ConflictWith > 0:
				why = "the decider would not change"
			}
			if err := s.checkBudget(tx, rec.User, rec.Auto, false); err != nil {
				return out, err
			}
			if err := s.insert(tx, rec, vec, now); err != nil {
				return out, err
			}
			cid, err := tx.NextBlobID(kv.BucketConflicts)
			if err != nil {
				return out, err
			}
			dec.Action, dec.Conflict = ActionAdd, cid
			if d.ConflictWith == 0 {
				dec.Reason = fmt.Sprintf("%s (the decider said %s fact %d, which %s: added, conflict %d)", dec.Reason, d.Action, dec.Target, why, cid)
			}
			c := Conflict{ID: cid, At: dec.At, User: rec.User, New: rec.ID, Existing: dec.Target, Decision: id,
				Reason: fmt.Sprintf("fact %d seems to contradict fact %d, which %s", rec.ID, dec.Target, why)}
			if err := putJSON(tx, kv.BucketConflicts, cid, c); err != nil {
				return out, err
			}
		} else if d.Action == ActionUpdate {
			if err := s.supersedeTx(tx, target.ID, rec, vec, true); err != nil {
				return out, err
			}
		} else {
			if err := s.checkBudget(tx, rec.User, rec.Auto, target.Auto); err != nil {
				return out, err
			}
			if err := changeTx(tx, &target, now, &kv.Event{Kind: kv.Retracted, Auto: true, Cause: fmt.Sprintf("decision %d", id)}); err != nil {
				return out, err
			}
			if err := s.insert(tx, rec, vec, now); err != nil {
				return out, err
			}
		}
	}
	if rec.ID != 0 {
		dec.Added = rec.ID
		out.Fact = factOf(rec)
	}
	out.Decision = dec
	return out, putJSON(tx, kv.BucketDecisions, id, dec)
}

// clipLog bounds a text kept in the decision log, at a rune boundary, so that
// no decider can make a log line too long to export and import.
func clipLog(s string) string { return clip.Bytes(s, MaxDecisionText) }
