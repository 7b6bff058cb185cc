package reconcile

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/internal/clip"
	"github.com/palimpsest-mem/memory/internal/term"
)

// Action is what a new fact does to the stored fact it concerns.
type Action string

const (
	// Add: both stay true; the new fact is stored beside the others.
	Add Action = "add"
	// Update: the world changed; the target was true until the new fact.
	Update Action = "update"
	// Invalidate: the target was never true (a correction).
	Invalidate Action = "invalidate"
	// Noop: the new fact restates the target; nothing is stored.
	Noop Action = "noop"
)

// Actions lists every action.
var Actions = []Action{Add, Update, Invalidate, Noop}

// Candidate is a stored fact as a decider sees it: numbered 1..n in the
// order shown, never by its id in the store.
type Candidate struct {
	N          int
	Text       string
	Pinned     bool // shown as context, never an eligible target
	RecordedAt time.Time
	EventFrom  time.Time // zero when unknown
	// Evidence from the lookup: the words, roots and synonym sets (Terms)
	// and topics the new fact shares with this one, and how much of their
	// stems overlap (0..1).
	Terms   []term.Term
	Topics  []string
	Overlap float64
	// Score is the lookup's score; candidates come best first.
	Score float64
	// Relation is a single-valued relation ("lives_in", "works_at", …)
	// both facts claim of the same subject: a second current value, which
	// may be a change (a move, a new job) or not (a second job). "" when
	// none.
	Relation string
	// RelationDiffers says the two facts give Relation different objects
	// ("Lisbon", "Porto"); false when they give the same one.
	RelationDiffers bool
	// ClaimsDiffer says both facts claim some relation but share no claim
	// ("My sister lives in Kazan", "I live in Lyon"): their shared words
	// speak of different things, so neither restates the other.
	ClaimsDiffer bool
	// AboutOther says the relations both claim are claimed of different
	// subjects (the sister's city, the user's): no evidence that the new
	// fact concerns this one at all.
	AboutOther bool
	// OtherRelations says the new fact claims relations and this one none
	// of them: a topic frame both share is no evidence between them.
	OtherRelations bool
}

// Input is what a decider decides on.
type Input struct {
	Text       string    // the new fact
	SaidAt     time.Time // when it was said; the reference for relative times
	Candidates []Candidate
}

// Verdict is a decider's answer: what the new fact does, to which
// candidate, and why. Package memory logs it in a Decision.
type Verdict struct {
	Action Action
	// Target is the candidate's number, 1..n, or 0 for none.
	Target int
	// EventFrom is when the new fact became true, if the decider found one;
	// Grain is its precision: day, week, month, season or year.
	EventFrom time.Time
	Grain     string
	Reason    string
	// ConflictWith, on an add, names a candidate the new fact seems to
	// contradict but the decider will not change (it is pinned, or the
	// evidence is not clear enough): the store records a conflict.
	ConflictWith int
	// AlsoConflictWith names further candidates the new fact may
	// contradict, when the decider cannot tell which one it concerns: the
	// store records one conflict per candidate named. Only an add with
	// ConflictWith may have them; a model's answer gives none.
	AlsoConflictWith []int
	// Raw is the model's answer as received (bounded), "" for rules.
	Raw     string
	Decider string
	Model   string
	// Claims are the claims the decider says the new fact states, each
	// valid (claims.Validate); ClaimsGiven says the decider gave them —
	// maybe none — rather than leaving them to the store's rules. Only a
	// model decider's answer carries them.
	Claims      []claims.Claim
	ClaimsGiven bool
	// ClaimsDropped says what of the decider's claims was not kept and
	// why: each invalid claim, or a claims field missing or not a list.
	// The decision stands either way.
	ClaimsDropped []string
}

// Decider decides what a new fact does to its candidates.
type Decider interface {
	Name() string
	Decide(ctx context.Context, in Input) (Verdict, error)
}

// ErrInvalidDecision wraps every reason a decision is refused.
var ErrInvalidDecision = errors.New("invalid decision")

// MaxRaw bounds the raw model answer kept in a decision.
const MaxRaw = 4000

// Validate checks a decision against its input: a known action; update and
// invalidate name an eligible candidate; add names none. Its errors are
// *Failure and wrap ErrInvalidDecision.
func Validate(d Verdict, in Input) error { return validate(d, in, false) }

// validate is Validate; with pinnedOK an update or invalidate may name a
// pinned candidate, as a model's answer may (see parseAnswer).
func validate(d Verdict, in Input, pinnedOK bool) error {
	switch d.Action {
	case Add:
		if d.Target != 0 {
			return invalid(ReasonTarget, "", "add names target %d", d.Target)
		}
	case Update, Invalidate, Noop:
		// A noop must name what it restates: a noop of nothing would drop
		// the fact.
		if d.Target < 1 || d.Target > len(in.Candidates) {
			return invalid(ReasonTarget, "", "%s names target %d, want 1..%d", d.Action, d.Target, len(in.Candidates))
		}
		if d.Action != Noop && !pinnedOK && in.Candidates[d.Target-1].Pinned {
			return invalid(ReasonPinned, "", "target %d is pinned and not eligible", d.Target)
		}
	default:
		return invalid(ReasonUnknownAction, "", "unknown action %q", clip.Bytes(string(d.Action), 80))
	}
	if d.ConflictWith != 0 && (d.Action != Add || d.ConflictWith < 1 || d.ConflictWith > len(in.Candidates)) {
		return invalid(ReasonConflictWith, "", "conflict with %d on a %s", d.ConflictWith, d.Action)
	}
	for i, n := range d.AlsoConflictWith {
		if d.ConflictWith == 0 || n < 1 || n > len(in.Candidates) || n == d.ConflictWith || slices.Contains(d.AlsoConflictWith[:i], n) {
			return invalid(ReasonConflictWith, "", "also conflict with %d beside conflict with %d", n, d.ConflictWith)
		}
	}
	if !d.EventFrom.IsZero() && !eventtime.InRange(d.EventFrom) {
		return invalid(ReasonDateRange, "", "event time %s outside the %s", d.EventFrom.Format("2006-01-02"), eventtime.RangeText)
	}
	switch d.Grain {
	case "", "day", "week", "month", "season", "year":
	default:
		return invalid(ReasonUnknownGrain, "", "unknown grain %q", clip.Bytes(d.Grain, 40))
	}
	return nil
}

// AddAll is the decider of the system this project grew from: it always
// adds. It is kept for comparison.
type AddAll struct{}

// Name is "add".
func (AddAll) Name() string { return "add" }

// Decide adds.
func (AddAll) Decide(context.Context, Input) (Verdict, error) {
	return Verdict{Action: Add, Reason: "the add decider always adds", Decider: "add"}, nil
}
