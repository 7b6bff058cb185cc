package memory

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/kv"
)

// State is where a fact stands on the record-time axis.
type State int

const (
	// Current facts go into answers and prompts.
	Current State = iota
	// Superseded facts were true; the world changed and a newer fact replaced them.
	Superseded
	// Retracted facts were never true: a mistake, kept as history.
	Retracted
)

func (s State) String() string {
	switch s {
	case Current:
		return "current"
	case Superseded:
		return "superseded"
	case Retracted:
		return "retracted"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Origin says who wrote a fact or made a change.
type Origin int

const (
	// OriginUser: stated by the user, or done on the user's explicit request.
	OriginUser Origin = iota
	// OriginAuto: written by automation. Automation may not supersede or
	// invalidate a pinned fact, and its current facts count against AutoBudget.
	OriginAuto
)

func (o Origin) String() string {
	if o == OriginAuto {
		return "auto"
	}
	return "user"
}

// Source is a fact's provenance.
type Source struct {
	Kind   string    // e.g. "chat", "import", "cli"
	Ref    string    // e.g. a message id
	Quote  string    // the words the fact came from
	SaidAt time.Time // when they were said; zero when unknown
}

// Fact is one version of a fact. Times are UTC; a zero time is unset.
type Fact struct {
	ID     uint64
	User   string // "" is the default user
	Text   string
	Pinned bool
	Origin Origin
	Source Source

	// Record time: when the store learned the fact and when it stopped
	// believing it (zero while current).
	RecordedAt time.Time
	ValidUntil time.Time
	// SupersededBy is the newer fact that replaced this one, 0 if none.
	SupersededBy uint64
	// Supersedes is the fact this one replaced when it was written, 0 if none.
	Supersedes uint64
	// AlsoSupersedes are the facts it replaced later, each when a person
	// kept it over one in a conflict (ResolveConflict), after it had
	// replaced Supersedes.
	AlsoSupersedes []uint64

	// Event time: when the fact was true in the world. A zero EventFrom means
	// "from when it was recorded"; a zero EventUntil means open-ended.
	EventFrom  time.Time
	EventUntil time.Time
	// EventSource says where EventFrom came from: EventGiven by the caller,
	// EventFromModel (a model's answer) or EventFromWords (the text's own
	// time expression); "" when EventFrom is unset. EventUntilSource says
	// the same of EventUntil ("I'm in Rome until Friday" gives it from the
	// words).
	EventSource      string
	EventUntilSource string

	// The effective event interval, the one At uses, beside the stored
	// fields above. EventStart is EventFrom, else RecordedAt — a fact told
	// without a time is taken to be true from when it was recorded —
	// unless the interval ends by then ("I moved to B back in June",
	// superseding a fact told in December): then nobody said when it
	// began, and EventStart is zero. EventEnd is where the interval
	// closes: EventUntil, or, for a superseded fact, its successor's start
	// if earlier; zero while open. Every read gives them as the store
	// knows them now (At too, whatever record time it is asked about),
	// like the markers.
	EventStart time.Time
	EventEnd   time.Time

	// Claims are what the fact states, (subject, relation, object): the
	// edges of the graph are derived from them. Written with the fact and
	// immutable with it; empty for a fact that states none.
	Claims []Claim
}

// Where a fact's event time came from.
const (
	EventGiven     = "given"
	EventFromModel = "model"
	EventFromWords = "words"
)

// State derives the fact's state from its markers.
func (f Fact) State() State {
	switch {
	case f.ValidUntil.IsZero():
		return Current
	case f.SupersededBy != 0:
		return Superseded
	}
	return Retracted
}

// Note is what a caller knows of a new fact.
type Note struct {
	User       string
	Text       string
	EventFrom  time.Time // zero: from now
	EventUntil time.Time // zero: open-ended
	Pinned     bool
	Origin     Origin
	Source     Source
	// Claims: nil means extract them from Text by rule; a non-nil slice,
	// even empty, means exactly these (each validated: a bad one is
	// ErrInvalidClaim and nothing is written).
	Claims []Claim
}

// Change says who makes a change of state and why; Reason is kept in the log.
type Change struct {
	Origin Origin
	Reason string
}

// EventKind names a step of a fact's lifecycle.
type EventKind string

const (
	EventRecorded   EventKind = "recorded"
	EventSuperseded EventKind = "superseded"
	EventRetracted  EventKind = "retracted"
	EventRestored   EventKind = "restored"
	EventPinned     EventKind = "pinned"
	EventUnpinned   EventKind = "unpinned"
	// EventConfirmed: the fact was told again (a Remember whose decision
	// is a noop names it); Prompt ranks it as fresh from then.
	EventConfirmed EventKind = "confirmed"
	// EventUnconfirmed: Undo of the decision Undoes names cancelled that
	// decision's EventConfirmed step, which stays in the log and no longer
	// counts.
	EventUnconfirmed EventKind = "unconfirmed"
)

// Event is one entry of a fact's append-only lifecycle log.
type Event struct {
	Kind   EventKind
	At     time.Time // record time of the step
	Origin Origin
	// By is the successor of a EventSuperseded step (0 once it was deleted).
	By uint64
	// EventEnd is where the superseded fact's event interval closed: the
	// start of its successor's.
	EventEnd time.Time
	// Cause says why, for people: a user's reason, or what Remember, Undo
	// and ResolveConflict say of their steps.
	Cause string
	// Decision is the decision (see Decisions) whose verdict this step
	// carried out: Remember's supersede or retraction of the target. 0 for
	// none.
	Decision uint64
	// Undoes is the decision whose Undo this step is part of; 0 for none.
	Undoes uint64
}

func toTime(n int64, has bool) time.Time {
	if !has {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func toNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func originOf(auto bool) Origin {
	if auto {
		return OriginAuto
	}
	return OriginUser
}

func factOf(r *kv.Record) Fact {
	f := Fact{
		ID:     r.ID,
		User:   r.User,
		Text:   r.Text,
		Pinned: r.Pinned,
		Origin: originOf(r.Auto),
		Source: Source{
			Kind:   r.Source.Kind,
			Ref:    r.Source.Ref,
			Quote:  r.Source.Quote,
			SaidAt: toTime(r.Source.SaidAt, r.Source.SaidAt != 0),
		},
		RecordedAt:       toTime(r.RecordedAt, true),
		ValidUntil:       toTime(r.ValidUntil, r.ValidUntil != 0),
		SupersededBy:     r.SupersededBy,
		Supersedes:       r.Supersedes,
		AlsoSupersedes:   slices.Clone(r.AlsoSupersedes),
		EventFrom:        toTime(r.EventFrom, r.HasFrom),
		EventUntil:       toTime(r.EventUntil, r.HasUntil),
		EventSource:      r.EventSource,
		EventUntilSource: r.EventUntilSource,
		Claims:           fromKVClaims(r.Claims),
	}
	f.EventStart, f.EventEnd = effective(spanAt(r, nil, math.MaxInt64))
	return f
}

// effective is the interval a Fact carries: zero for an unknown start or
// an open end.
func effective(p span) (start, end time.Time) {
	if p.start != math.MinInt64 {
		start = time.Unix(0, p.start).UTC()
	}
	if p.hasEnd {
		end = time.Unix(0, p.end).UTC()
	}
	return start, end
}

// factWithLog is factOf with the end its log gives: a superseded fact's
// interval closes at its successor's start.
func factWithLog(r *kv.Record, evs []kv.Event) Fact {
	f := factOf(r)
	f.EventStart, f.EventEnd = effective(spanAt(r, evs, math.MaxInt64))
	return f
}

// factIn is the fact of r with its effective interval. Only a superseded
// fact's end is in its log: a current or retracted one costs no read.
func factIn(tx *kv.Tx, r *kv.Record) (Fact, error) {
	if r.SupersededBy == 0 || r.ValidUntil == 0 {
		return factOf(r), nil
	}
	evs, err := tx.Events(r.ID)
	if err != nil {
		return Fact{}, err
	}
	return factWithLog(r, evs), nil
}

// eventsOf is a fact's log as the API shows it.
func eventsOf(evs []kv.Event) []Event {
	if len(evs) == 0 {
		return nil
	}
	out := make([]Event, len(evs))
	for i := range evs {
		out[i] = eventOf(&evs[i])
	}
	return out
}

func eventOf(e *kv.Event) Event {
	return Event{
		Kind:     EventKind(e.Kind.String()),
		At:       toTime(e.At, true),
		Origin:   originOf(e.Auto),
		By:       e.By,
		EventEnd: toTime(e.End, e.Kind == kv.Superseded),
		Cause:    e.Cause,
		Decision: e.Decision,
		Undoes:   e.Undoes,
	}
}

// validText checks text against the store's rules and returns it trimmed.
// what names the field in errors.
func (s *Store) validText(what, text string, optional bool) (string, error) {
	return checkText(what, text, s.maxRunes, optional)
}

// checkText checks text (valid UTF-8, no control character but line
// breaks and tabs, at most maxRunes runes once trimmed, not empty unless
// optional) and returns it trimmed.
func checkText(what, text string, maxRunes int, optional bool) (string, error) {
	if !utf8.ValidString(text) {
		return "", fmt.Errorf("%s: %w", what, ErrInvalidUTF8)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		if optional {
			return "", nil
		}
		return "", fmt.Errorf("%s: %w", what, ErrEmpty)
	}
	n := 0
	for i, r := range text {
		if r != '\n' && r != '\t' && unicode.IsControl(r) {
			return "", fmt.Errorf("%s: %w: %U at byte %d", what, ErrControlChar, r, i)
		}
		n++
	}
	if n > maxRunes {
		return "", fmt.Errorf("%s: %w: %d runes, at most %d", what, ErrTooLong, n, maxRunes)
	}
	return text, nil
}

func validUser(user string) error {
	if len(user) > MaxUserLen {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrInvalidUser, len(user), MaxUserLen)
	}
	if !utf8.ValidString(user) {
		return fmt.Errorf("%w: not valid UTF-8", ErrInvalidUser)
	}
	for _, r := range user {
		if unicode.IsControl(r) {
			return fmt.Errorf("%w: control character %U", ErrInvalidUser, r)
		}
	}
	return nil
}

func validTime(what string, t time.Time) error {
	if !t.IsZero() && !eventtime.InRange(t) {
		return fmt.Errorf("%s %s: %w", what, t.Format(time.RFC3339), ErrInvalidTime)
	}
	return nil
}

// record validates a note and builds the record it becomes; the id and
// record time are set by the transaction that writes it.
func (s *Store) record(n Note) (kv.Record, error) {
	text, err := s.validText("text", n.Text, false)
	if err != nil {
		return kv.Record{}, err
	}
	if err := validUser(n.User); err != nil {
		return kv.Record{}, err
	}
	for _, c := range []struct {
		what string
		t    time.Time
	}{{"event from", n.EventFrom}, {"event until", n.EventUntil}, {"said at", n.Source.SaidAt}} {
		if err := validTime(c.what, c.t); err != nil {
			return kv.Record{}, err
		}
	}
	if !n.EventFrom.IsZero() && !n.EventUntil.IsZero() && !n.EventUntil.After(n.EventFrom) {
		return kv.Record{}, fmt.Errorf("%w: until %s is not after from %s", ErrInvalidInterval,
			n.EventUntil.UTC().Format(time.RFC3339), n.EventFrom.UTC().Format(time.RFC3339))
	}
	quote, err := s.validText("source quote", n.Source.Quote, true)
	if err != nil {
		return kv.Record{}, err
	}
	src := kv.Source{Quote: quote, SaidAt: toNanos(n.Source.SaidAt)}
	for _, f := range []struct {
		what string
		v    string
		dst  *string
	}{{"source kind", n.Source.Kind, &src.Kind}, {"source ref", n.Source.Ref, &src.Ref}} {
		v, err := s.validText(f.what, f.v, true)
		if err != nil {
			return kv.Record{}, err
		}
		if len(v) > 256 {
			return kv.Record{}, fmt.Errorf("%s: %w: %d bytes, at most 256", f.what, ErrTooLong, len(v))
		}
		*f.dst = v
	}
	cs, err := claimsOf(&n, text)
	if err != nil {
		return kv.Record{}, err
	}
	return kv.Record{
		Claims:     cs,
		User:       n.User,
		Text:       text,
		Pinned:     n.Pinned,
		Auto:       n.Origin == OriginAuto,
		EventFrom:  toNanos(n.EventFrom),
		EventUntil: toNanos(n.EventUntil),
		HasFrom:    !n.EventFrom.IsZero(),
		HasUntil:   !n.EventUntil.IsZero(),
		EventSource: func() string {
			if n.EventFrom.IsZero() {
				return ""
			}
			return EventGiven
		}(),
		EventUntilSource: func() string {
			if n.EventUntil.IsZero() {
				return ""
			}
			return EventGiven
		}(),
		Source: src,
	}, nil
}
