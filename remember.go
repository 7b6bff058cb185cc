package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/reconcile"
)

// FallbackPolicy is what Remember does when the decider fails
// (Options.Fallback).
type FallbackPolicy string

// Fallback policies.
const (
	// FallbackAdd: the fact is added all the same.
	FallbackAdd FallbackPolicy = "add"
	// FallbackError: the fact is refused, with ErrDecider.
	FallbackError FallbackPolicy = "error"
)

// fallbackPolicy checks Options.Fallback; "" means FallbackAdd.
func fallbackPolicy(p FallbackPolicy) (FallbackPolicy, error) {
	switch p {
	case "":
		return FallbackAdd, nil
	case FallbackAdd, FallbackError:
		return p, nil
	}
	return "", fmt.Errorf("unknown fallback policy %q, want add or error", p)
}

// Outcome is the result of Remember: the decision, and the fact stored
// (for a noop, the fact the new one restates; zero if none).
type Outcome struct {
	Decision Decision
	Fact     Fact
	// DeciderError is the decider's failure, whole, when the fallback
	// policy added the fact (FallbackAdd): it may quote what the provider
	// or the model sent back, so it is given here and never stored (the
	// decision's Fallback says the cause in the store's own words). nil
	// when the decider did not fail. Under FallbackError the error
	// Remember returns carries it instead.
	DeciderError error
}

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
	// A clock the store cannot hold refuses the write: before a model is
	// asked, not after.
	if err := s.checkClock(); err != nil {
		return Outcome{}, err
	}
	rec, err := s.record(n)
	if err != nil {
		return Outcome{}, err
	}
	vec := s.embedFact(ctx, rec.Text)
	var out Outcome
	for attempt := 1; ; attempt++ {
		// The lookup runs before the decision, so it uses the note's claims
		// (the caller's, else the rules'), never the model's: those come
		// with the verdict and replace them only in the fact stored.
		look, err := s.candidates(ctx, rec.User, rec.Text, fromKVClaims(rec.Claims), DefaultCandidates)
		if err != nil {
			return Outcome{}, err
		}
		in := s.decisionInput(&rec, n, look)
		d, derr := s.decider.Decide(ctx, in)
		v := judge(d, derr, in, s.decider.Name(), s.fallback == FallbackError)
		v.words = eventtime.Parse(rec.Text, in.SaidAt, "")
		if v.d.Action != "" { // else the fact is refused, and has no claims
			v.claims = s.claimsFor(ctx, &n, rec.Text, d, &v)
		}
		err = s.update(ctx, rec.User, func(tx *kv.Tx) error {
			var err error // every run, and every retry, plans from the note again
			out, err = s.rememberTx(tx, &rec, vec, look, v, attempt)
			return err
		})
		if errors.Is(err, errMoved) && attempt == 1 {
			continue
		}
		if err == nil && out.Decision.Fallback != "" && s.fallback == FallbackError {
			if v.err != nil {
				err = fmt.Errorf("%w: %s decider failed: %w (decision %d)", ErrDecider, s.decider.Name(), v.err, out.Decision.ID)
			} else {
				err = fmt.Errorf("%w: %s (decision %d)", ErrDecider, out.Decision.Fallback, out.Decision.ID)
			}
		}
		if err == nil && out.Decision.Fallback != "" {
			out.DeciderError = v.err
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
			Relation: string(c.Relation), RelationDiffers: c.RelationDiffers,
			ClaimsDiffer: c.ClaimsDiffer, AboutOther: c.AboutOther, OtherRelations: c.OtherRelations,
		})
	}
	return in
}

// rememberTx reads in tx what the plan depends on — which candidates
// still exist, the state of the one the verdict names, the ids the
// transaction would give — plans, and carries the plan out.
func (s *Store) rememberTx(tx *kv.Tx, note *kv.Record, vec []float32, look Lookup, v judgement, attempt int) (Outcome, error) {
	id, err := tx.NextBlobID(kv.BucketDecisions)
	if err != nil {
		return Outcome{}, err
	}
	now := s.now()
	in := planInput{
		judgement: v, note: *note, attempt: attempt, now: now,
		ids:        planIDs{decision: id, fact: tx.PeekNextID(), conflict: tx.BlobSeq(kv.BucketConflicts) + 1},
		candidates: make([]candidateState, len(look.Candidates)),
		decider:    s.decider.Name(),
		refuse:     s.fallback == FallbackError,
	}
	for i, c := range look.Candidates {
		in.candidates[i] = candidateState{id: c.Fact.ID, gone: !tx.Has(c.Fact.ID)}
	}
	if n := cmp.Or(v.d.Target, v.d.ConflictWith); n >= 1 && n <= len(look.Candidates) {
		if in.target, err = tx.Get(look.Candidates[n-1].Fact.ID); err != nil && !errors.Is(err, kv.ErrNotFound) {
			return Outcome{}, err
		}
	}
	for _, n := range v.d.AlsoConflictWith {
		var r kv.Record
		if n >= 1 && n <= len(look.Candidates) {
			if r, err = tx.Get(look.Candidates[n-1].Fact.ID); err != nil && !errors.Is(err, kv.ErrNotFound) {
				return Outcome{}, err
			}
		}
		in.also = append(in.also, r)
	}
	p, err := planRemember(in)
	if err != nil {
		return Outcome{}, err
	}
	return s.carryOut(tx, &p, vec, now)
}

// carryOut writes plan p, one case per action, and the decision record.
func (s *Store) carryOut(tx *kv.Tx, p *plan, vec []float32, now int64) (Outcome, error) {
	rec := &p.fact
	var out Outcome
	switch p.action {
	case planLogOnly:
	case planNoop:
		if p.target.ID != 0 {
			if err := confirm(tx, &p.target, now, p.decision.ID); err != nil {
				return out, err
			}
			out.Fact = factOf(&p.target)
		}
	case planAdd, planAddConflict:
		if err := s.checkBudget(tx, rec.User, rec.Auto, false); err != nil {
			return out, err
		}
		if err := s.insert(tx, rec, vec, now); err != nil {
			return out, err
		}
		for _, c := range p.conflicts {
			cid, err := tx.NextBlobID(kv.BucketConflicts)
			if err != nil {
				return out, err
			}
			if cid != c.ID {
				return out, fmt.Errorf("conflict id %d, planned %d", cid, c.ID)
			}
			if err := putConflict(tx, &c); err != nil {
				return out, err
			}
		}
	case planSupersede:
		if err := s.supersedeTx(tx, p.target.ID, rec, vec, true, p.decision.ID); err != nil {
			return out, err
		}
	case planRetractAdd:
		if err := s.checkBudget(tx, rec.User, rec.Auto, p.target.Auto); err != nil {
			return out, err
		}
		e := &kv.Event{Kind: kv.Retracted, Auto: true, Cause: fmt.Sprintf("decision %d", p.decision.ID), Decision: p.decision.ID}
		if err := step(tx, &p.target, now, e); err != nil {
			return out, err
		}
		if err := s.insert(tx, rec, vec, now); err != nil {
			return out, err
		}
	default:
		return out, fmt.Errorf("unknown plan action %d", p.action)
	}
	if rec.ID != p.decision.Added {
		// The plan names the new fact in the decision and the conflict.
		return out, fmt.Errorf("fact id %d, planned %d", rec.ID, p.decision.Added)
	}
	if rec.ID != 0 {
		out.Fact = factOf(rec)
	}
	out.Decision = p.decision
	return out, putDecision(tx, &p.decision)
}

// confirm logs that fact r was told again at now, by decision: the
// confirmation Prompt ranks by. A clock behind r's last step (set back)
// confirms nothing the log does not already say is later, and is let pass
// rather than refuse a restatement.
func confirm(tx *kv.Tx, r *kv.Record, now int64, decision uint64) error {
	err := step(tx, r, now, &kv.Event{Kind: kv.Confirmed, Auto: true, Decision: decision, Cause: "told again"})
	if errors.Is(err, ErrTimeOrder) { // step checks the order before it writes anything
		return nil
	}
	return err
}

// undoneConfirmations maps the index in evs of each confirmed step that
// a later step cancelled (the Undo of its decision, which names it) to
// when; nil when none was, as in nearly every log.
func undoneConfirmations(evs []kv.Event) map[int]int64 {
	var out map[int]int64
	for i, e := range evs {
		if e.Kind != kv.Unconfirmed {
			continue
		}
		if j := confirmationOf(evs[:i], e.Undoes, out); j >= 0 {
			if out == nil {
				out = map[int]int64{}
			}
			out[j] = e.At
		}
	}
	return out
}

// confirmationOf is the index in evs of the confirmed step of decision,
// not among undone, or -1.
func confirmationOf(evs []kv.Event, decision uint64, undone map[int]int64) int {
	for j := len(evs) - 1; j >= 0; j-- {
		if _, gone := undone[j]; !gone && evs[j].Kind == kv.Confirmed && decision != 0 && evs[j].Decision == decision {
			return j
		}
	}
	return -1
}

// lastConfirmed is the record time of the last confirmation of a log
// that still counts, 0 for none.
func lastConfirmed(evs []kv.Event) int64 {
	undone := undoneConfirmations(evs)
	for j := len(evs) - 1; j >= 0; j-- {
		if _, gone := undone[j]; !gone && evs[j].Kind == kv.Confirmed {
			return evs[j].At
		}
	}
	return 0
}

// clipLog is a text as the decision log keeps it (logText): bounded, at a
// rune boundary, so that no decider can make a log line too long to
// export and import, and with no control character but newline and tab.
func clipLog(s string) string { return logText(s) }
