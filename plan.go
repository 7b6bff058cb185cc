package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/reconcile"
)

// judgement is the decider's answer as Remember plans from it.
type judgement struct {
	d        reconcile.Verdict
	proposed Action           // what the decider answered, before the rules below
	fallback string           // why the decider's answer was not used; "" when it was
	words    eventtime.Result // the time expression of the new fact's text
	claims   claimChoice      // the claims the new fact is stored with

	// err is the decider's failure as it came, for the caller alone: it
	// may quote what a provider or a model sent back, which fallback never
	// does.
	err error
}

// judge makes the decider's answer d (or its failure derr) on input in a
// judgement: an update or retraction of a candidate pinned at the lookup
// becomes an add in conflict with it, since automation never touches a
// pinned fact; an answer that failed or is invalid becomes the fallback
// policy's add, or no action at all when refuse (FallbackError). The
// fallback a failure leaves in the decision is its reconcile.Failure's
// text alone, in the project's words: no provider message, no model
// answer (Raw is dropped), no error of a decider's own, any of which may
// quote the text; the whole error goes to the caller in v.err.
func judge(d reconcile.Verdict, derr error, in reconcile.Input, decider string, refuse bool) judgement {
	v := judgement{proposed: d.Action}
	if derr == nil && (d.Action == ActionUpdate || d.Action == ActionInvalidate) &&
		d.Target >= 1 && d.Target <= len(in.Candidates) && in.Candidates[d.Target-1].Pinned {
		d = reconcile.Verdict{Action: ActionAdd, ConflictWith: d.Target, Decider: d.Decider, Model: d.Model, Raw: d.Raw,
			EventFrom: d.EventFrom, Grain: d.Grain,
			Reason: fmt.Sprintf("%s (the decider said %s candidate %d, which is pinned)", d.Reason, d.Action, d.Target)}
	}
	if derr == nil {
		derr = reconcile.Validate(d, in)
	}
	if derr != nil {
		f := *reconcile.AsFailure(derr)
		// A provider's error code is a token, yet it could still spell a
		// word of the text ("qqpin-4321"): then it is left out.
		if f.Code != "" && strings.Contains(strings.ToLower(in.Text), f.Code) {
			f.Code = ""
		}
		v.fallback = fmt.Sprintf("%s decider failed: %s", decider, f.Text())
		v.err = derr
		if !slices.Contains(reconcile.Actions, v.proposed) {
			v.proposed = "" // an action of its own words is no action
		}
		d = reconcile.Verdict{Action: ActionAdd, Decider: decider, Model: d.Model}
		if refuse {
			d.Action = ""
		}
	}
	v.d = d
	return v
}

// planAction is what a Remember transaction carries out.
type planAction int

const (
	// planLogOnly writes the decision alone, without the text: the decider
	// failed and the fallback policy refuses the fact.
	planLogOnly planAction = iota + 1
	// planNoop stores nothing: the new fact restates the target.
	planNoop
	// planAdd stores the new fact beside the others.
	planAdd
	// planAddConflict stores it, and a conflict with the target that
	// automation did not change.
	planAddConflict
	// planSupersede stores it as the target's successor.
	planSupersede
	// planRetractAdd retracts the target and stores it.
	planRetractAdd
)

var planActionNames = [...]string{"", "log only", "noop", "add", "add+conflict", "supersede", "retract+add"}

func (a planAction) String() string {
	if a > 0 && int(a) < len(planActionNames) {
		return planActionNames[a]
	}
	return fmt.Sprintf("planAction(%d)", int(a))
}

// plan is everything a Remember transaction writes, decided before it
// writes anything.
type plan struct {
	action planAction
	// fact is the new fact to store, with the event time it takes.
	fact kv.Record
	// target is the fact the decision concerns as read in the transaction
	// (planNoop, planSupersede, planRetractAdd).
	target kv.Record
	// decision is the log entry as it will be written.
	decision Decision
	// conflicts are the conflicts to record (planAddConflict), with the
	// target first, then the other candidates the decider named, ids in
	// sequence.
	conflicts []Conflict
}

// planIDs are the ids the transaction would give: to the decision, to a
// new fact and to a conflict.
type planIDs struct{ decision, fact, conflict uint64 }

// candidateState is a looked-up candidate as the transaction finds it.
type candidateState struct {
	id   uint64
	gone bool // hard-deleted since the lookup
}

// planInput is what planRemember plans from.
type planInput struct {
	judgement
	// note is the new fact as the note gives it.
	note kv.Record
	// candidates are the lookup's, numbered 1..n as the decider saw them.
	candidates []candidateState
	// target is the candidate the verdict names (Target, else
	// ConflictWith) as read in the transaction; zero when it is not found.
	target kv.Record
	// also are the candidates of AlsoConflictWith as read in the
	// transaction, in its order; zero when one is not found.
	also    []kv.Record
	attempt int // 1, then 2 when judged again on a fresh lookup
	ids     planIDs
	now     int64
	decider string // the store's decider's name
	refuse  bool   // the fallback policy is FallbackError
}

// planRemember turns the verdict into a plan against the state the
// transaction read, or errMoved on a first attempt to have it judged again
// on a fresh lookup: a candidate was hard-deleted, or the target is no
// longer the current fact of the user it was. On the second attempt the
// plan makes do: a deleted candidate leaves no trace, and an update or
// retraction of a changed or pinned target becomes an add in conflict with
// it. It reads and writes nothing.
func planRemember(in planInput) (plan, error) {
	d, fallback := in.d, in.fallback
	dec := Decision{
		ID: in.ids.decision, At: time.Unix(0, in.now).UTC(), User: in.note.User, Text: in.note.Text,
		Action: d.Action, Proposed: in.proposed, Decider: d.Decider, Model: d.Model,
		Reason: clipLog(d.Reason), Raw: clipLog(d.Raw), Fallback: clipLog(fallback), Grain: d.Grain,
		Candidates: make([]uint64, 0, len(in.candidates)),
	}
	var gone []int // numbers of the candidates hard-deleted since the lookup
	for i, c := range in.candidates {
		if c.gone {
			gone = append(gone, i+1)
		} else {
			dec.Candidates = append(dec.Candidates, c.id)
		}
	}
	if len(gone) > 0 {
		// Delete scrubbed the decisions it found, and this one was not
		// written yet: judge again on a fresh lookup, and if it happens
		// again keep no trace of the deleted fact, as Delete would not.
		if in.attempt == 1 {
			return plan{}, errMoved
		}
		dec.Raw, dec.Reason = "", "[reason removed with a deleted fact it may quote]"
		if dec.Fallback != "" {
			dec.Fallback = "[fallback reason removed with a deleted fact it may quote]"
		}
		if in.claims.note != "" {
			in.claims.note = "[claims note removed with a deleted fact it may quote]"
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
		dec.Decider = in.decider
	}
	rec := in.note
	if in.claims.set {
		rec.Claims = in.claims.claims
	}
	// The event time: as given, else the model's answer, else the words'.
	source, when, grain := EventFromModel, d.EventFrom, d.Grain
	if when.IsZero() && in.words.Found {
		source, when, grain = EventFromWords, in.words.Start, string(in.words.Grain)
	}
	if !when.IsZero() && !rec.HasFrom && (!rec.HasUntil || rec.EventUntil > when.UnixNano()) {
		t := when.UTC()
		dec.EventFrom, dec.Grain = &t, grain
		rec.EventFrom, rec.HasFrom, rec.EventSource = t.UnixNano(), true, source
	}
	// The end: as given, else the words' ("until Friday", "from 13 to 15
	// July"), when it comes after the start. An end with no start ("I
	// worked there until 2023") is kept: the fact was true up to then.
	if end := in.words.End; !end.IsZero() && !rec.HasUntil && (!rec.HasFrom || end.UnixNano() > rec.EventFrom) {
		t := end.UTC()
		dec.EventUntil = &t
		rec.EventUntil, rec.HasUntil, rec.EventUntilSource = t.UnixNano(), true, EventFromWords
	}
	// The target, read in the transaction: an add in conflict with a
	// candidate concerns that one, and never changes it.
	conflictOnly := d.ConflictWith > 0 && d.Action == ActionAdd
	if n := cmp.Or(d.Target, d.ConflictWith); n > 0 {
		if n > len(in.candidates) { // judge let through no such verdict
			return plan{}, fmt.Errorf("decision %d: candidate %d of %d", dec.ID, n, len(in.candidates))
		}
		dec.Target = in.candidates[n-1].id
	}
	var target kv.Record
	if dec.Target != 0 && in.target.ID == dec.Target {
		target = in.target
	}
	live := target.ID != 0 && target.Current() && target.User == rec.User
	if d.Action == ActionUpdate && live && !target.Pinned {
		// An update that would end the target before its explicit start
		// is a wrong answer: the fallback policy applies, and says why.
		if err := endsAfterStart(&target, successorStart(&rec, in.now)); err != nil {
			fallback = fmt.Sprintf("%s decider's update refused: %v", dec.Decider, err)
			dec.Fallback = clipLog(fallback)
			d.Action = ActionAdd
			if in.refuse {
				d.Action = ""
			}
			dec.Action = d.Action
		}
	}
	p := plan{fact: rec}
	// addConflict plans the fact added and a conflict with the target,
	// which automation did not change because it why.
	addConflict := func(why string) {
		cid := in.ids.conflict
		p.action = planAddConflict
		dec.Action, dec.Conflict = ActionAdd, cid
		p.conflicts = []Conflict{{ID: cid, At: dec.At, User: rec.User, New: in.ids.fact, Existing: dec.Target, Decision: dec.ID,
			Reason: fmt.Sprintf("fact %d seems to contradict fact %d, which %s", in.ids.fact, dec.Target, why)}}
	}
	// alsoConflict plans a conflict with each other candidate the decider
	// named that is still a current fact of the user: one changed or
	// deleted meanwhile is no longer what the new fact may replace.
	alsoConflict := func() {
		for i, n := range d.AlsoConflictWith {
			if n < 1 || n > len(in.candidates) || slices.Contains(gone, n) || i >= len(in.also) {
				continue
			}
			r := in.also[i]
			if r.ID != in.candidates[n-1].id || !r.Current() || r.User != rec.User || r.ID == dec.Target {
				continue
			}
			cid := in.ids.conflict + uint64(len(p.conflicts))
			dec.AlsoConflicts = append(dec.AlsoConflicts, cid)
			p.conflicts = append(p.conflicts, Conflict{ID: cid, At: dec.At, User: rec.User, New: in.ids.fact, Existing: r.ID, Decision: dec.ID,
				Reason: fmt.Sprintf("fact %d seems to contradict fact %d, or another fact, which the decider would not change", in.ids.fact, r.ID)})
		}
	}
	switch d.Action {
	case "":
		// The decider failed and the policy is to refuse: only the log, and
		// without the text, which no fact holds and so no hard delete
		// could reach.
		p.action = planLogOnly
		dec.Text, dec.Raw = "", ""
		if len(gone) == 0 { // else already scrubbed above
			dec.Fallback = clipLog(fallback) // in the store's own words (judge)
		}
	case ActionNoop:
		switch {
		case dec.Target != 0 && !live:
			// What the fact restates is gone: judge again, then keep it.
			if in.attempt == 1 {
				return plan{}, errMoved
			}
			p.action = planAdd
			dec.Action = ActionAdd
			dec.Reason += fmt.Sprintf(" (fact %d changed meanwhile: added)", dec.Target)
		default:
			p.action, p.target = planNoop, target
		}
	case ActionAdd:
		// An add the decider flags as contradicting a fact it will not
		// change: recorded as a conflict for the user to resolve.
		switch {
		case conflictOnly && live:
			addConflict("the decider would not change")
			alsoConflict()
		case conflictOnly:
			// A conflict holds only while both facts are current: with
			// one that changed meanwhile it would be moot at once.
			p.action = planAdd
			dec.Reason += fmt.Sprintf(" (fact %d changed meanwhile: added, with no conflict)", dec.Target)
		default:
			p.action = planAdd
		}
	case ActionUpdate, ActionInvalidate:
		// A changed target is judged again once; a pinned one is never
		// changed.
		if !live && in.attempt == 1 {
			return plan{}, errMoved
		}
		if !live {
			// Judged twice, and changed both times: the fact is added; a
			// conflict with a fact no longer current would be moot at once.
			p.action, dec.Action = planAdd, ActionAdd
			dec.Reason = fmt.Sprintf("%s (the decider said %s fact %d, which had changed meanwhile: added)", dec.Reason, d.Action, dec.Target)
		} else if target.Pinned {
			addConflict("was pinned")
			dec.Reason = fmt.Sprintf("%s (the decider said %s fact %d, which was pinned: added, conflict %d)", dec.Reason, d.Action, dec.Target, dec.Conflict)
		} else if d.Action == ActionUpdate {
			p.action, p.target = planSupersede, target
		} else {
			p.action, p.target = planRetractAdd, target
		}
	default:
		return plan{}, fmt.Errorf("decision %d: unknown action %q", dec.ID, d.Action)
	}
	if p.action != planLogOnly && p.action != planNoop {
		dec.Added = in.ids.fact
		dec.ClaimsFrom, dec.ClaimsNote = in.claims.from, clipLog(in.claims.note)
	}
	p.decision = dec
	return p, nil
}
