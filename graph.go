package memory

import (
	"context"
	"errors"
	"time"
)

// The graph of facts is derived, never stored: an edge is the set of claims
// with the same (subject, relation, object) among one user's facts, and its
// state on both time axes is computed from the facts behind it exactly as At
// computes theirs. Supersede, retract, restore, undo and hard delete carry
// edges with their facts, and the graph retires nothing by itself.

// Edge states.
const (
	// EdgeCurrent: some supporting fact is visible and its event interval
	// holds the event time asked about.
	EdgeCurrent = "current"
	// EdgeEnded: the interval is visible but ended by the event time asked
	// about (or starts after it).
	EdgeEnded = "ended"
	// EdgeRetracted: every supporting fact recorded by then is retracted.
	EdgeRetracted = "retracted"
)

// EdgeQuery selects edges; empty Subject, Relation or Object match any.
// Names are compared normalized (claims.Normalize).
type EdgeQuery struct {
	Subject  string
	Relation Relation
	Object   string
	// Event is the event time asked about, Known the record time: the graph
	// as the store believed it then. Zero means now.
	Event, Known time.Time
	// All includes the intervals that do not hold Event (ended, or not yet
	// begun) and the retracted edges.
	All bool
}

// Edge is one maximal event interval of an edge as known at a record time.
// Re-asserting a claim after its interval ended gives a second Edge, never a
// revived first one.
type Edge struct {
	Subject  string
	Relation Relation
	Object   string
	// Kind is the object's kind, as the latest supporting claim says.
	Kind EntityKind
	// Support is the ids of the facts behind this interval, ascending.
	Support []uint64
	State   string // EdgeCurrent, EdgeEnded or EdgeRetracted
	// EventStart is nil when no supporting fact says when it began;
	// EventEnd is nil while open.
	EventStart, EventEnd *time.Time
	// KnownFrom and KnownUntil bound the record times at which the store
	// believed this interval; set by EntityTimeline only (KnownUntil nil
	// while still believed).
	KnownFrom, KnownUntil *time.Time
}

// Support is a fact behind an edge, with its claim, its lifecycle log and
// the decisions that made or ended it.
type Support struct {
	Fact      Fact
	Claim     Claim
	Events    []Event
	Decisions []Decision
}

// errGraphPending is returned by graph queries not built yet.
var errGraphPending = errors.New("graph: not implemented yet")

// Edges returns user's edges that q selects (nil: every edge current now),
// ordered by subject, relation, object and interval start.
func (s *Store) Edges(ctx context.Context, user string, q *EdgeQuery) ([]Edge, error) {
	return nil, errGraphPending
}

// Neighbours returns the edges current at event time event, as known at
// record time known (zero: now), that have entity as subject or object.
func (s *Store) Neighbours(ctx context.Context, user, entity string, event, known time.Time) ([]Edge, error) {
	return nil, errGraphPending
}

// EntityTimeline returns every interval of every edge of entity on both
// axes: each Edge carries its event interval and the record times
// (KnownFrom, KnownUntil) during which the store believed it, oldest first.
func (s *Store) EntityTimeline(ctx context.Context, user, entity string) ([]Edge, error) {
	return nil, errGraphPending
}

// Why returns the facts behind e with their provenance, lifecycle logs and
// decisions. A fact of e.Support that is gone or no longer carries e's claim
// gives ErrNotFound.
func (s *Store) Why(ctx context.Context, user string, e Edge) ([]Support, error) {
	return nil, errGraphPending
}
