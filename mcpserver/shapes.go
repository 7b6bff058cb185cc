package mcpserver

import (
	"slices"
	"time"

	"github.com/palimpsest-mem/memory"
)

// The objects of the tools' structured results. Where memctl --json prints
// the same object (a fact, a claim, a decision, a conflict, an edge, a
// merge), the keys and values are the same, so a script written for one
// reads the other; cmd/memctl's tests compare them.

// Fact is a fact object: memctl's --json fact.
type Fact struct {
	ID           uint64  `json:"id"`
	User         string  `json:"user"`
	Text         string  `json:"text"`
	State        string  `json:"state" jsonschema:"current, superseded or retracted"`
	Pinned       bool    `json:"pinned"`
	RecordedAt   *string `json:"recorded_at" jsonschema:"record time: when the store learned it"`
	ValidUntil   *string `json:"valid_until" jsonschema:"record time it stopped being believed; null while current"`
	SupersededBy uint64  `json:"superseded_by" jsonschema:"the fact that replaced it, 0 for none"`
	EventFrom    *string `json:"event_from" jsonschema:"event time it became true, as stored; null: from when recorded"`
	EventUntil   *string `json:"event_until" jsonschema:"event time it stops being true, as stored (not included); null: open"`
	// Where each came from: given, model or words; null when unknown.
	EventSource      *string `json:"event_source" jsonschema:"where event_from came from: given, model or words"`
	EventUntilSource *string `json:"event_until_source" jsonschema:"where event_until came from: given or words"`
	// The effective interval, the one the at tool uses.
	EventStart *string `json:"event_start" jsonschema:"effective start of the event interval; null when unknown"`
	EventEnd   *string `json:"event_end" jsonschema:"effective end of the event interval; null while open"`
	Source     *string `json:"source" jsonschema:"the reference it came from (a message id), if any"`
	Claims     []Claim `json:"claims" jsonschema:"what the fact states: the graph's edges are made of these"`
}

// Claim is one (subject, relation, object) a fact states; subject "" is
// the user. Its JSON keys (subject, relation, object, kind) are the
// library's, as memctl's --json prints them too: one mapping, not three.
type Claim = memory.Claim

func factOf(f memory.Fact) Fact {
	o := Fact{
		ID:               f.ID,
		User:             f.User,
		Text:             f.Text,
		State:            f.State().String(),
		Pinned:           f.Pinned,
		RecordedAt:       timeOf(f.RecordedAt),
		ValidUntil:       timeOf(f.ValidUntil),
		SupersededBy:     f.SupersededBy,
		EventFrom:        timeOf(f.EventFrom),
		EventUntil:       timeOf(f.EventUntil),
		EventSource:      nonEmpty(f.EventSource),
		EventUntilSource: nonEmpty(f.EventUntilSource),
		EventStart:       timeOf(f.EventStart),
		EventEnd:         timeOf(f.EventEnd),
		Claims:           claimsOf(f.Claims),
	}
	if f.Source.Ref != "" {
		ref := f.Source.Ref
		o.Source = &ref
	}
	return o
}

func factsOf(fs []memory.Fact) []Fact {
	out := make([]Fact, 0, len(fs)) // [] rather than null
	for _, f := range fs {
		out = append(out, factOf(f))
	}
	return out
}

func factPtr(f *memory.Fact) *Fact {
	if f == nil || f.ID == 0 {
		return nil
	}
	o := factOf(*f)
	return &o
}

// claimsOf is cs, [] rather than null when empty.
func claimsOf(cs []memory.Claim) []Claim {
	if cs == nil {
		return []Claim{}
	}
	return cs
}

// timeOf is nil for the zero time, so that it encodes as null.
func timeOf(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339Nano)
	return &s
}

func timePtrOf(t *time.Time) *string {
	if t == nil {
		return nil
	}
	return timeOf(*t)
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Decision is a decision of the log: the library's, with the action
// "refused" where the library leaves it empty (the fallback policy stored
// nothing), as memctl prints it.
type Decision struct {
	memory.Decision
	Action string `json:"action" jsonschema:"add, update, invalidate, noop, or refused"`
}

func decisionOf(d memory.Decision) Decision {
	a := string(d.Action)
	if a == "" {
		a = "refused"
	}
	return Decision{Decision: d, Action: a}
}

// Conflict is a conflict with both its facts as they are now (null for
// one deleted since), as memctl conflicts --json prints it.
type Conflict struct {
	memory.Conflict
	NewFact      *Fact `json:"new_fact"`
	ExistingFact *Fact `json:"existing_fact"`
}

// Event is one step of a fact's lifecycle log.
type Event struct {
	Kind     string  `json:"kind" jsonschema:"recorded, superseded, retracted, restored, pinned, unpinned, confirmed or unconfirmed"`
	At       *string `json:"at" jsonschema:"record time of the step"`
	Origin   string  `json:"origin" jsonschema:"user or auto"`
	By       uint64  `json:"by" jsonschema:"the successor of a superseded step, 0 for none"`
	EventEnd *string `json:"event_end" jsonschema:"where a superseded step closed the event interval"`
	Cause    string  `json:"cause"`
	Decision uint64  `json:"decision" jsonschema:"the decision this step carried out, 0 for none"`
	Undoes   uint64  `json:"undoes" jsonschema:"the decision whose undo this step is part of, 0 for none"`
}

func eventsOf(es []memory.Event) []Event {
	out := make([]Event, 0, len(es))
	for _, e := range es {
		out = append(out, Event{Kind: string(e.Kind), At: timeOf(e.At), Origin: e.Origin.String(), By: e.By,
			EventEnd: timeOf(e.EventEnd), Cause: e.Cause, Decision: e.Decision, Undoes: e.Undoes})
	}
	return out
}

// Edge is an edge interval of the graph, as memctl graph --json prints it.
type Edge struct {
	Subject    string   `json:"subject" jsonschema:"\"\" is the user"`
	Relation   string   `json:"relation"`
	Object     string   `json:"object"`
	Kind       string   `json:"kind"`
	Support    []uint64 `json:"support" jsonschema:"the facts behind this interval"`
	State      string   `json:"state" jsonschema:"current, ended, upcoming or retracted"`
	EventStart *string  `json:"event_start"`
	EventEnd   *string  `json:"event_end"`
	KnownFrom  *string  `json:"known_from" jsonschema:"record time from which the store believed this interval (entity only)"`
	KnownUntil *string  `json:"known_until" jsonschema:"record time until which it did; null while still believed"`
	// The names merged into the subject and the object.
	SubjectAliases []string `json:"subject_aliases"`
	ObjectAliases  []string `json:"object_aliases"`
}

func edgeOf(e memory.Edge, aliases map[string][]string) Edge {
	support := e.Support
	if support == nil {
		support = []uint64{}
	}
	names := func(n string) []string {
		if n == "" {
			return []string{} // the user
		}
		return append([]string{}, aliases[memory.NormalizeName(n)]...)
	}
	return Edge{
		Subject: e.Subject, Relation: string(e.Relation), Object: e.Object, Kind: string(e.Kind),
		Support: support, State: string(e.State),
		EventStart: timePtrOf(e.EventStart), EventEnd: timePtrOf(e.EventEnd),
		KnownFrom: timePtrOf(e.KnownFrom), KnownUntil: timePtrOf(e.KnownUntil),
		SubjectAliases: names(e.Subject), ObjectAliases: names(e.Object),
	}
}

// aliasNames maps an entity's normalized name to the names merged into it,
// directly or by a chain, as the merges stood at record time known (zero:
// now), as memctl graph shows them.
func aliasNames(ms []memory.Merge, known time.Time) map[string][]string {
	to := map[string]string{}
	from := map[string]string{}
	for _, m := range ms {
		applied := m.UndoneAt == nil
		if !known.IsZero() {
			applied = !m.At.After(known) && (m.UndoneAt == nil || m.UndoneAt.After(known))
		}
		if applied {
			k := memory.NormalizeName(m.From)
			to[k], from[k] = memory.NormalizeName(m.Into), m.From
		}
	}
	out := map[string][]string{}
	for k := range to {
		r := k
		for range len(to) { // bounded: the library refuses cycles, and this must not loop on one
			next, ok := to[r]
			if !ok {
				break
			}
			r = next
		}
		out[r] = append(out[r], from[k])
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}

// Merge is an entry of the merge log, as memctl graph merges --json prints it.
type Merge struct {
	ID         uint64  `json:"id"`
	At         *string `json:"at"`
	From       string  `json:"from"`
	Into       string  `json:"into"`
	State      string  `json:"state" jsonschema:"active or undone"`
	Reason     string  `json:"reason"`
	UndoneAt   *string `json:"undone_at"`
	UndoReason string  `json:"undo_reason"`
}

func mergeOf(m memory.Merge) Merge {
	state := "active"
	if m.UndoneAt != nil {
		state = "undone"
	}
	return Merge{ID: m.ID, At: timeOf(m.At), From: m.From, Into: m.Into, State: state, Reason: m.Reason,
		UndoneAt: timePtrOf(m.UndoneAt), UndoReason: m.UndoReason}
}
