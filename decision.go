package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/reconcile"
)

// Action is what Remember did with a new fact.
type Action = reconcile.Action

const (
	// ActionAdd stored the new fact beside the others.
	ActionAdd = reconcile.Add
	// ActionUpdate stored it as the successor of the target.
	ActionUpdate = reconcile.Update
	// ActionInvalidate retracted the target and stored the new fact.
	ActionInvalidate = reconcile.Invalidate
	// ActionNoop stored nothing: the new fact restates the target.
	ActionNoop = reconcile.Noop
)

// Decision is one entry of the decision log: what Remember decided about a
// new fact, on what evidence, and what it did. It is written in the same
// transaction as the change it made.
type Decision struct {
	ID   uint64    `json:"id"`
	At   time.Time `json:"at"`
	User string    `json:"user"`
	// Text is the new fact's text; empty when the decider failed and the
	// fallback refused the fact, so that no copy outlives what no hard
	// delete can name.
	Text string `json:"text"`
	// Action is what was done; Proposed is what the decider answered, which
	// differs when a pinned or changed target turned an update into an add.
	Action   Action `json:"action"`
	Proposed Action `json:"proposed"`
	// Target is the id of the fact the decision concerned (0 for none);
	// Added is the id of the fact it stored (0 for none).
	Target     uint64   `json:"target"`
	Added      uint64   `json:"added"`
	Candidates []uint64 `json:"candidates"`
	Decider    string   `json:"decider"`
	Model      string   `json:"model,omitempty"`
	Reason     string   `json:"reason"`
	// Raw is the model's answer as received, bounded.
	Raw string `json:"raw,omitempty"`
	// Fallback says why the decider's answer was not used ("" when it was).
	Fallback string `json:"fallback"`
	// ClaimsFrom says where the claims stored with the added fact came
	// from: ClaimsFromCaller (Note.Claims), ClaimsFromModel (the decision's
	// answer, or the Claimer's call) or ClaimsFromRules; "" when no fact was
	// added, and in decisions written before it was recorded.
	ClaimsFrom string `json:"claims_from,omitempty"`
	// ClaimsNote says what of the model's claims was dropped and why, or
	// why the rules' claims were stored instead of a model's (the claims
	// call's error); "" when there is nothing to say.
	ClaimsNote string `json:"claims_note,omitempty"`
	// Conflict is the conflict the decision recorded with Target, when it
	// added the fact beside a fact it would not change; AlsoConflicts the
	// conflicts with other facts the new one may replace instead, when the
	// decider could not tell which.
	Conflict      uint64     `json:"conflict,omitempty"`
	AlsoConflicts []uint64   `json:"also_conflicts,omitempty"`
	EventFrom     *time.Time `json:"event_from,omitempty"`
	Grain         string     `json:"grain,omitempty"`
	// EventUntil is the end the new fact was stored with from its words.
	EventUntil *time.Time `json:"event_until,omitempty"`
	UndoneAt   *time.Time `json:"undone_at,omitempty"`
}

// Conflict links a new fact to an existing one it may replace or
// contradict, until the user resolves it. Remember records one when
// automation would have changed a fact but did not (it was pinned, or the
// decider could not tell which fact the new one replaces); the store
// derives one, with Relation set, whenever two current facts of a user
// claim different objects of one single-valued relation of one subject,
// however they came to be.
//
// A conflict is open until it is resolved, or until it is moot: one of
// its facts stopped being current by another path (a supersede, a
// retraction, an undo, another conflict's resolution, an import), or, for
// a derived conflict, its objects were merged into one entity. The change
// that makes it moot marks it so in its own transaction, with the cause.
type Conflict struct {
	ID       uint64    `json:"id"`
	At       time.Time `json:"at"`
	User     string    `json:"user"`
	New      uint64    `json:"new"`
	Existing uint64    `json:"existing"`
	// Decision is the decision that recorded it; 0 for a derived one.
	Decision uint64 `json:"decision"`
	Reason   string `json:"reason"`
	// Relation is the single-valued relation whose two values the facts
	// claim, for a conflict the store derived from their claims; "" for
	// one a decision recorded.
	Relation   Relation   `json:"relation,omitempty"`
	ResolvedAt *time.Time `json:"resolved_at,omitempty"`
	Resolution Keep       `json:"resolution,omitempty"`
	// MootAt is when the conflict stopped holding without being resolved,
	// and Moot why, in the store's words ("fact 22 was superseded by fact
	// 24").
	MootAt *time.Time `json:"moot_at,omitempty"`
	Moot   string     `json:"moot,omitempty"`
}

// Open reports whether the conflict is neither resolved nor moot: a
// question for the user.
func (c *Conflict) Open() bool { return c.ResolvedAt == nil && c.MootAt == nil }

// Keep is how a conflict is resolved.
type Keep string

const (
	// KeepNew: the new fact supersedes the existing one.
	KeepNew Keep = "new"
	// KeepExisting: the new fact is retracted.
	KeepExisting Keep = "existing"
	// KeepBoth: both stay current.
	KeepBoth Keep = "both"
)

// logEntry is an entry of the decision or the conflict log, kept as JSON.
type logEntry interface {
	Decision | Conflict | Merge
	owner() string
}

func (d Decision) owner() string { return d.User }
func (c Conflict) owner() string { return c.User }

// decodeLog decodes one log entry; noun names it in the error.
func decodeLog[T logEntry](noun string, id uint64, b []byte) (T, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return v, fmt.Errorf("%s %d: %v", noun, id, err)
	}
	return v, nil
}

// getLog reads user's entry id of a log; another user's is not found.
func getLog[T logEntry](tx *kv.Tx, bucket []byte, noun, user string, id uint64) (T, error) {
	b, err := tx.Blob(bucket, id)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s %d: %w", noun, id, ErrNotFound)
	}
	v, err := decodeLog[T](noun, id, b)
	if err != nil {
		return v, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if v.owner() != user {
		var zero T
		return zero, fmt.Errorf("%s %d of user %q: %w", noun, id, user, ErrNotFound)
	}
	return v, nil
}

// forEachLog calls fn with every entry of a log, newest first when
// reverse; an entry that does not decode stops it with ErrCorrupt.
func forEachLog[T logEntry](tx *kv.Tx, bucket []byte, noun string, reverse bool, fn func(id uint64, v T) error) error {
	return tx.ForEachBlob(bucket, reverse, func(id uint64, b []byte) error {
		v, err := decodeLog[T](noun, id, b)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		return fn(id, v)
	})
}

// forEachUserLog is forEachLog over user's entries only, which the
// store's per-user index of the log finds without reading the others'.
func forEachUserLog[T logEntry](tx *kv.Tx, bucket []byte, noun, user string, reverse bool, fn func(id uint64, v T) error) error {
	return tx.ForEachUserBlob(bucket, user, reverse, func(id uint64, b []byte) error {
		v, err := decodeLog[T](noun, id, b)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if v.owner() != user {
			return nil // the index may hand over entries it could not place
		}
		return fn(id, v)
	})
}

// logOwner tells the store's log index whose a conflict or merge is: the
// "user" of its JSON; a value that does not decode names nobody.
func logOwner(_, value []byte) (string, bool) {
	var v struct {
		User *string `json:"user"`
	}
	if json.Unmarshal(value, &v) != nil || v.User == nil {
		return "", false
	}
	return *v.User, true
}

func getDecision(tx *kv.Tx, user string, id uint64) (Decision, error) {
	return getLog[Decision](tx, kv.BucketDecisions, "decision", user, id)
}

func putJSON(tx *kv.Tx, bucket []byte, id uint64, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return tx.PutBlob(bucket, id, b)
}

// Decisions returns user's decisions, newest first; limit ≤ 0 means all.
func (s *Store) Decisions(ctx context.Context, user string, limit int) ([]Decision, error) {
	var out []Decision
	// The decision log has no per-user index: this reads every user's
	// decisions and keeps user's, a cost that grows with the whole store
	// until a later file format gives each user a log of their own.
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		return forEachLog(tx, kv.BucketDecisions, "decision", true, func(_ uint64, d Decision) error {
			if limit > 0 && len(out) == limit {
				return nil
			}
			if d.User == user {
				out = append(out, d)
			}
			return nil
		})
	})
	return out, err
}

// Undo reverses a decision as a whole, in one transaction: the fact it
// added is retracted and the fact it superseded or retracted is restored;
// a restatement's confirmation of its target no longer counts (its step
// stays in the log, and a step EventUnconfirmed naming the decision marks
// it undone).
// Undoing an undone decision gives ErrAlreadyUndone; if either fact has
// changed since, nothing is done and ErrUndoStale says so.
func (s *Store) Undo(ctx context.Context, user string, decisionID uint64) (Decision, error) {
	var d Decision
	err := s.update(ctx, user, func(tx *kv.Tx) error {
		var err error
		if d, err = getDecision(tx, user, decisionID); err != nil {
			return err
		}
		now := s.now()
		steps, err := undoSteps(tx, d, now)
		if err != nil {
			return err
		}
		for i := range steps {
			if err := step(tx, &steps[i].r, now, &steps[i].e); err != nil {
				return err
			}
		}
		at := time.Unix(0, now).UTC()
		d.UndoneAt = &at
		return putDecision(tx, &d)
	})
	return d, err
}

// pendingStep is a step a write will take on a fact, judged already.
type pendingStep struct {
	r kv.Record
	e kv.Event
}

// undoSteps are the steps Undo of d takes at now, each judged by the
// lifecycle table without writing, or why Undo is refused: Undo and
// CanUndo ask it alike.
func undoSteps(tx *kv.Tx, d Decision, now int64) ([]pendingStep, error) {
	if d.UndoneAt != nil {
		return nil, fmt.Errorf("decision %d: %w", d.ID, ErrAlreadyUndone)
	}
	cause := fmt.Sprintf("undo of decision %d", d.ID)
	var out []pendingStep
	take := func(r kv.Record, e kv.Event) error {
		if err := mayStep(tx, &r, now, e); err != nil {
			return fmt.Errorf("fact %d: %w", r.ID, err)
		}
		out = append(out, pendingStep{r, e})
		return nil
	}
	if d.Added != 0 {
		r, err := getUser(tx, d.Added, d.User)
		if err != nil {
			return nil, err
		}
		// Still current, and replacing what the decision made it replace
		// (a conflict resolved in its favour since would be undone only
		// in part).
		want := uint64(0)
		if d.Action == ActionUpdate {
			want = d.Target
		}
		if !r.Current() || r.Supersedes != want || len(r.AlsoSupersedes) > 0 {
			return nil, fmt.Errorf("fact %d: %w", r.ID, ErrUndoStale)
		}
		if err := take(r, kv.Event{Kind: kv.Retracted, Cause: cause, Undoes: d.ID}); err != nil {
			return nil, err
		}
	}
	if d.Target != 0 && (d.Action == ActionUpdate || d.Action == ActionInvalidate) {
		// Its state must still be the one this decision gave it: its
		// last step is the decision's supersede or retraction.
		r, evs, err := targetLog(tx, d)
		if err != nil {
			return nil, err
		}
		last := evs[len(evs)-1]
		ours := (d.Action == ActionUpdate && last.Kind == kv.Superseded && last.By == d.Added) ||
			(d.Action == ActionInvalidate && last.Kind == kv.Retracted && last.Decision == d.ID)
		if r.Current() || !ours {
			return nil, fmt.Errorf("fact %d: %w", r.ID, ErrUndoStale)
		}
		if err := take(r, kv.Event{Kind: kv.Restored, Cause: cause, Undoes: d.ID}); err != nil {
			return nil, err
		}
	}
	if d.Action == ActionNoop && d.Target != 0 {
		// A restatement confirmed its target: that confirmation no
		// longer counts. Its step stays in the log, cancelled by this
		// one; none is there when the clock stood behind the log then.
		r, err := getUser(tx, d.Target, d.User)
		if err != nil {
			return nil, err
		}
		err = take(r, kv.Event{Kind: kv.Unconfirmed, Cause: cause, Undoes: d.ID})
		if err != nil && !errors.Is(err, errNoConfirmation) {
			return nil, err
		}
	}
	return out, nil
}

// ConflictOptions select what Conflicts returns; nil means the open
// conflicts.
type ConflictOptions struct {
	// All includes the resolved and the moot conflicts.
	All bool
}

// Conflicts returns user's conflicts, newest first: the open ones (a
// question for the user), or all.
func (s *Store) Conflicts(ctx context.Context, user string, opts *ConflictOptions) ([]Conflict, error) {
	if opts == nil || !opts.All {
		cs, err := s.openConflicts(ctx, user)
		return slices.Clone(cs), err
	}
	return s.readConflicts(ctx, user, true)
}

// openConflicts are user's open conflicts, newest first, from the cache
// when it is fresh; the slice is shared, to be read only.
func (s *Store) openConflicts(ctx context.Context, user string) ([]Conflict, error) {
	if cs, ok := s.lists.getConflicts(user); ok {
		return cs, nil
	}
	gen := s.lists.current()
	cs, err := s.readConflicts(ctx, user, false)
	if err == nil {
		s.lists.putConflicts(user, gen, cs)
	}
	return cs, err
}

// readConflicts reads user's conflicts, newest first: all, or the open
// ones.
func (s *Store) readConflicts(ctx context.Context, user string, all bool) ([]Conflict, error) {
	// A file of an older format, read as it is, may hold open conflicts
	// that no longer hold: its upgrade settles them, a read asks.
	older := s.db != nil && !s.db.Current()
	var out []Conflict
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		return forEachUserLog(tx, kv.BucketConflicts, "conflict", user, true, func(_ uint64, c Conflict) error {
			if !all && !c.Open() {
				return nil
			}
			if !all && older {
				if why, err := mootCause(tx, &c, nil); err != nil || why != "" {
					return err
				}
			}
			out = append(out, c)
			return nil
		})
	})
	return out, err
}

// ResolveConflict settles an open conflict as the user says: keep the new
// fact (it supersedes the existing one), keep the existing one (the new
// one is retracted) or keep both. It reads both facts again in its own
// transaction: a conflict that is resolved gives ErrResolved, one that is
// moot — a fact of it is no longer current, or a derived one's names are
// one entity — gives ErrMoot, and either changes nothing. Keeping the new
// fact is refused with ErrInvalidInterval when the existing one has an
// explicit start after the new one's, and with ErrSupersessionCycle when
// the existing fact already follows the new one. A new fact kept over
// several existing ones (a decision unsure which it replaces raised a
// conflict with each) replaces each of them, in whatever order the
// conflicts are resolved (Fact.AlsoSupersedes). The other conflicts of a
// fact the resolution retracted or superseded become moot in the same
// transaction.
func (s *Store) ResolveConflict(ctx context.Context, user string, id uint64, keep Keep) (Conflict, error) {
	if err := validKeep(id, keep); err != nil {
		return Conflict{}, err
	}
	var c Conflict
	err := s.update(ctx, user, func(tx *kv.Tx) error {
		var err error
		if c, err = getLog[Conflict](tx, kv.BucketConflicts, "conflict", user, id); err != nil {
			return err
		}
		now := s.now()
		steps, err := resolveSteps(tx, c, keep, now)
		if err != nil {
			return err
		}
		if keep == KeepNew {
			if _, err := addPredecessor(tx, c.New, c.Existing); err != nil {
				return err
			}
		}
		for i := range steps {
			if err := step(tx, &steps[i].r, now, &steps[i].e); err != nil {
				return err
			}
		}
		at := time.Unix(0, now).UTC()
		c.ResolvedAt, c.Resolution = &at, keep
		return putConflict(tx, &c)
	})
	return c, err
}

func validKeep(id uint64, keep Keep) error {
	switch keep {
	case KeepNew, KeepExisting, KeepBoth:
		return nil
	}
	return fmt.Errorf("conflict %d: keep %q, want new, existing or both", id, keep)
}

// resolveSteps are the steps that settling c with keep at now takes on its
// facts, judged without writing, or why it is refused: ResolveConflict and
// CanResolve ask it alike. Keeping the new fact also names the existing
// one among those it replaced (addPredecessor).
func resolveSteps(tx *kv.Tx, c Conflict, keep Keep, now int64) ([]pendingStep, error) {
	id := c.ID
	switch {
	case c.ResolvedAt != nil:
		return nil, fmt.Errorf("conflict %d: %w (keep %s)", id, ErrResolved, c.Resolution)
	case c.MootAt != nil:
		return nil, fmt.Errorf("conflict %d: %w: %s", id, ErrMoot, c.Moot)
	case c.New == c.Existing:
		return nil, fmt.Errorf("%w: conflict %d names fact %d on both sides", ErrCorrupt, id, c.New)
	}
	ms, err := userMergesTx(tx, c.User)
	if err != nil {
		return nil, err
	}
	if why, err := mootCause(tx, &c, currentAliases(ms)); err != nil {
		return nil, err
	} else if why != "" {
		return nil, fmt.Errorf("conflict %d: %w: %s", id, ErrMoot, why)
	}
	cause := fmt.Sprintf("conflict %d resolved: keep %s", id, keep)
	var p pendingStep
	switch keep {
	case KeepExisting:
		n, err := getUser(tx, c.New, c.User)
		if err != nil {
			return nil, err
		}
		p = pendingStep{n, kv.Event{Kind: kv.Retracted, Cause: cause}}
	case KeepNew:
		ex, err := getUser(tx, c.Existing, c.User)
		if err != nil {
			return nil, err
		}
		if follows, err := succeeds(tx, c.New, c.Existing); err != nil {
			return nil, err
		} else if follows {
			return nil, fmt.Errorf("conflict %d: keep fact %d over fact %d: %w", id, c.New, c.Existing, ErrSupersessionCycle)
		}
		succ, err := tx.Get(c.New)
		if err != nil {
			return nil, err
		}
		if err := endsAfterStart(&ex, eventStart(&succ)); err != nil {
			return nil, fmt.Errorf("conflict %d: %w", id, err)
		}
		p = pendingStep{ex, kv.Event{Kind: kv.Superseded, By: c.New, End: eventStart(&succ), Cause: cause}}
	default:
		return nil, nil // both stay: no step
	}
	if err := mayStep(tx, &p.r, now, p.e); err != nil {
		return nil, fmt.Errorf("fact %d: %w", p.r.ID, err)
	}
	return []pendingStep{p}, nil
}

// addPredecessor records that fact succ replaces fact pred and returns
// succ: as the one it replaced when it names none yet, else as one more.
func addPredecessor(tx *kv.Tx, succ, pred uint64) (kv.Record, error) {
	r, err := tx.Get(succ)
	if err != nil {
		return r, err
	}
	switch {
	case r.Supersedes == pred || slices.Contains(r.AlsoSupersedes, pred):
		return r, nil
	case r.Supersedes == 0:
		r.Supersedes = pred
	default:
		r.AlsoSupersedes = append(slices.Clip(r.AlsoSupersedes), pred)
	}
	return r, tx.Put(&r)
}

// predecessors are the facts r replaced: the one it was written to
// replace, then those a person kept it over.
func predecessors(r *kv.Record) []uint64 {
	if r.Supersedes == 0 {
		return r.AlsoSupersedes
	}
	return append([]uint64{r.Supersedes}, r.AlsoSupersedes...)
}

// succeeds reports whether fact to follows fact from in the supersession
// graph: a chain of steps, each superseding a fact by the next, leads from
// one to the other. Linking to as replaced by from would then close a
// cycle.
func succeeds(tx *kv.Tx, from, to uint64) (bool, error) {
	seen := map[uint64]bool{from: true}
	queue := []uint64{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		evs, err := tx.Events(cur)
		if err != nil {
			return false, err
		}
		for _, e := range evs {
			if e.Kind != kv.Superseded || e.By == 0 || seen[e.By] {
				continue
			}
			if e.By == to {
				return true, nil
			}
			seen[e.By] = true
			queue = append(queue, e.By)
		}
	}
	return false, nil
}

// targetLog reads the fact a decision concerned, as its user's, with its
// lifecycle log.
func targetLog(tx *kv.Tx, d Decision) (kv.Record, []kv.Event, error) {
	r, err := getUser(tx, d.Target, d.User)
	if err != nil {
		return kv.Record{}, nil, err
	}
	evs, err := tx.Events(r.ID)
	return r, evs, err
}
