package memory

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/kv"
)

// The graph of facts is derived, never stored: an edge is the set of claims
// with the same (subject, relation, object) among one user's facts, and its
// state on both time axes is computed from the facts behind it exactly as At
// computes theirs. Supersede, retract, restore, undo and hard delete carry
// edges with their facts, and the graph retires nothing by itself.

// EdgeState is where an edge stands at the times asked about.
type EdgeState string

// Edge states.
const (
	// EdgeCurrent: some supporting fact is visible and its event interval
	// holds the event time asked about.
	EdgeCurrent EdgeState = "current"
	// EdgeEnded: the interval is visible but ended by the event time asked
	// about (or starts after it).
	EdgeEnded EdgeState = "ended"
	// EdgeRetracted: every supporting fact recorded by then is retracted.
	EdgeRetracted EdgeState = "retracted"
	// EdgeUpcoming: the interval is visible and begins after the event time
	// asked about (a change told in advance).
	EdgeUpcoming EdgeState = "upcoming"
)

// EdgeQuery selects edges; empty Subject, Relation or Object match any.
// Names are compared normalized (NormalizeName); Subject "" is any
// subject, and UserSubject is the user.
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
	State   EdgeState
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

// edgeKey is an edge: names normalized.
type edgeKey struct {
	subject, object string
	relation        Relation
}

// claimRef is a claim of a fact of a timeline: tl[fact].rec.Claims[claim].
type claimRef struct{ fact, claim int }

// userGraph is the claims of one user's facts grouped by edge, over the
// timeline they were read from. It holds no state of its own: every
// question replays the supporting facts' logs (spanAt) at the record time
// asked about, so it cannot drift from the facts.
type userGraph struct {
	tl       timeline
	keys     []edgeKey // sorted
	support  map[edgeKey][]claimRef
	byEntity map[string][]edgeKey
	// res is the merges it applies; names the name each merged entity
	// shows, as the latest claim naming it spells it.
	res   *aliases
	names map[string]string
	// stems finds entities by their names' stems, for Search.
	stems *nameStems
}

func keyLess(a, b edgeKey) int {
	return cmp.Or(cmp.Compare(a.subject, b.subject), cmp.Compare(a.relation, b.relation), cmp.Compare(a.object, b.object))
}

// buildGraph groups tl's claims by edge, their names resolved by res: a
// name merged into another joins its edges.
func buildGraph(tl timeline, res *aliases) *userGraph {
	g := &userGraph{tl: tl, support: map[edgeKey][]claimRef{}, byEntity: map[string][]edgeKey{}, res: res, names: maps.Clone(res.into),
		stems: new(nameStems)}
	g.add(0)
	return g
}

// add groups the claims of the facts of g.tl from the from'th on, which
// come after those already grouped. The maps and slices it changes are
// its own: a graph extended from another shares nothing it writes.
func (g *userGraph) add(from int) {
	var fresh []edgeKey
	for i := from; i < len(g.tl); i++ {
		for j, c := range g.tl[i].rec.Claims {
			k := edgeKey{g.res.root(claims.Normalize(c.Subject)), g.res.root(claims.Normalize(c.Object)), Relation(c.Relation)}
			for _, n := range []struct{ key, name string }{{k.subject, c.Subject}, {k.object, c.Object}} {
				if _, merged := g.res.has[n.key]; merged && claims.Normalize(n.name) == n.key {
					g.names[n.key] = n.name
				}
			}
			refs := g.support[k]
			if n := len(refs); n > 0 && refs[n-1].fact == i {
				continue // the same claim twice in one fact
			}
			if len(refs) == 0 {
				fresh = append(fresh, k)
				g.byEntity[k.subject] = append(slices.Clip(g.byEntity[k.subject]), k)
				if k.object != k.subject {
					g.byEntity[k.object] = append(slices.Clip(g.byEntity[k.object]), k)
				}
			}
			g.support[k] = append(slices.Clip(refs), claimRef{i, j})
		}
	}
	if len(fresh) == 0 {
		return
	}
	slices.SortFunc(fresh, keyLess)
	g.keys = mergeKeys(g.keys, fresh)
	touched := map[string]bool{}
	for _, k := range fresh {
		touched[k.subject], touched[k.object] = true, true
	}
	for name := range touched {
		slices.SortFunc(g.byEntity[name], keyLess)
	}
}

// sameEdges reports whether g and h group the same claims into the same
// edges.
func (g *userGraph) sameEdges(h *userGraph) bool {
	return slices.Equal(g.keys, h.keys) && maps.Equal(g.names, h.names) && g.res.same(h.res) &&
		maps.EqualFunc(g.support, h.support, slices.Equal) &&
		maps.EqualFunc(g.byEntity, h.byEntity, slices.Equal)
}

// mergeKeys merges two sorted key lists into a new one.
func mergeKeys(a, b []edgeKey) []edgeKey {
	out := make([]edgeKey, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if keyLess(a[0], b[0]) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// patchGraph is the graph of tl under the merges res built from base, the
// graph of an earlier timeline of the same user, when the same merges
// apply and tl only changed base's facts or added facts after them: claims
// are immutable with their fact, so the edges and their support stay and
// only the new facts' claims are grouped (every question replays the
// logs, which tl carries). Otherwise it builds anew.
func patchGraph(base *userGraph, tl timeline, res *aliases) *userGraph {
	if base == nil || len(tl) < len(base.tl) || !base.res.same(res) {
		return buildGraph(tl, res)
	}
	for i := range base.tl {
		if base.tl[i].rec.ID != tl[i].rec.ID {
			return buildGraph(tl, res)
		}
	}
	g := &userGraph{tl: tl, keys: base.keys, support: maps.Clone(base.support), byEntity: maps.Clone(base.byEntity),
		res: res, names: maps.Clone(base.names), stems: new(nameStems)}
	g.add(len(base.tl))
	return g
}

// graph returns user's graph, from the cache when it is fresh, else
// patched from the last one built.
func (s *Store) graph(ctx context.Context, user string) (*userGraph, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if g, ok := s.lists.getGraph(user); ok {
		return g, nil
	}
	gen := s.lists.current()
	base := s.lists.staleGraph(user)
	tl, err := s.userTimeline(ctx, user)
	if err != nil {
		return nil, err
	}
	ms, err := s.userMerges(ctx, user)
	if err != nil {
		return nil, err
	}
	g := patchGraph(base, tl, currentAliases(ms))
	s.lists.putGraph(user, gen, g)
	return g, nil
}

// piece is one maximal interval of an edge as known at a record time.
type piece struct {
	start, end int64 // start math.MinInt64: unknown; end meaningful when hasEnd
	hasEnd     bool
	retracted  bool
	refs       []claimRef
}

func (p piece) contains(e int64) bool {
	return !p.retracted && p.start <= e && (!p.hasEnd || e < p.end)
}

func (p piece) same(q piece) bool {
	return p.start == q.start && p.hasEnd == q.hasEnd && (!p.hasEnd || p.end == q.end) && p.retracted == q.retracted &&
		slices.Equal(p.refs, q.refs)
}

// pieces is edge k as known at record time at: the union of its visible
// supporting facts' event intervals, one piece per maximal interval, start
// order; or, when every supporting fact recorded by then is retracted, one
// retracted piece spanning theirs. Intervals that meet join: a fact
// superseded by one making the same claim continues its edge.
func (g *userGraph) pieces(k edgeKey, at int64) []piece {
	type iv struct {
		p   span
		ref claimRef
	}
	var vis, gone []iv
	for _, r := range g.support[k] {
		e := &g.tl[r.fact]
		p := spanAt(&e.rec, e.evs, at)
		switch {
		case e.rec.RecordedAt > at:
		case !p.visible:
			gone = append(gone, iv{p, r})
		case p.hasEnd && p.end <= p.start:
			// An empty interval: superseded from where it began; At never
			// shows it either.
		default:
			vis = append(vis, iv{p, r})
		}
	}
	merge := func(ivs []iv, retracted bool) []piece {
		slices.SortStableFunc(ivs, func(a, b iv) int { return cmp.Compare(a.p.start, b.p.start) })
		var out []piece
		for _, v := range ivs {
			if n := len(out); n > 0 && (!out[n-1].hasEnd || v.p.start <= out[n-1].end || retracted) {
				last := &out[n-1]
				if last.hasEnd && (!v.p.hasEnd || v.p.end > last.end) {
					last.end, last.hasEnd = v.p.end, v.p.hasEnd
				}
				last.refs = append(last.refs, v.ref)
				continue
			}
			out = append(out, piece{start: v.p.start, end: v.p.end, hasEnd: v.p.hasEnd, retracted: retracted, refs: []claimRef{v.ref}})
		}
		for i := range out {
			slices.SortFunc(out[i].refs, func(a, b claimRef) int { return cmp.Compare(a.fact, b.fact) })
		}
		return out
	}
	if len(vis) > 0 {
		return merge(vis, false)
	}
	return merge(gone, true)
}

// edge is the public form of piece p of k; e is the event time its state
// is relative to.
func (g *userGraph) edge(k edgeKey, p piece, e int64) Edge {
	last := p.refs[len(p.refs)-1] // the latest fact names it
	c := g.tl[last.fact].rec.Claims[last.claim]
	out := Edge{Subject: g.display(k.subject, c.Subject), Relation: k.relation, Object: g.display(k.object, c.Object), Kind: EntityKind(c.Kind)}
	for _, r := range p.refs {
		out.Support = append(out.Support, g.tl[r.fact].rec.ID)
	}
	switch {
	case p.retracted:
		out.State = EdgeRetracted
	case p.contains(e):
		out.State = EdgeCurrent
	case p.start > e:
		out.State = EdgeUpcoming
	default:
		out.State = EdgeEnded
	}
	if p.start != math.MinInt64 {
		out.EventStart = timeAt(p.start)
	}
	if p.hasEnd {
		out.EventEnd = timeAt(p.end)
	}
	return out
}

func timeAt(n int64) *time.Time {
	t := time.Unix(0, n).UTC()
	return &t
}

// UserSubject names the user as a subject or entity in queries: claims
// about the user have the subject "". (It holds a control character, which
// no claim's name may.)
const UserSubject = "\x00user"

// entityKey is the key of an entity name in a query: its normalized name,
// or the entity it is merged into.
func (g *userGraph) entityKey(name string) string {
	if name == UserSubject {
		return ""
	}
	return g.res.root(claims.Normalize(name))
}

// match is the filter of a query, names normalized; has says a subject is
// asked for ("" being the user).
type match struct {
	subject, object string
	has             bool
}

func (m match) ok(k edgeKey, relation Relation) bool {
	return (!m.has || m.subject == k.subject) && (m.object == "" || m.object == k.object) &&
		(relation == "" || relation == k.relation)
}

// Edges returns user's edges that q selects (nil: every edge current now),
// ordered by subject, relation, object and interval start.
func (s *Store) Edges(ctx context.Context, user string, q *EdgeQuery) ([]Edge, error) {
	var o EdgeQuery
	if q != nil {
		o = *q
	}
	g, err := s.graph(ctx, user)
	if err != nil {
		return nil, err
	}
	now := s.now()
	e, k := orNow(o.Event, now), orNow(o.Known, now)
	if !o.Known.IsZero() {
		g = g.asOf(k)
	}
	m := match{subject: g.entityKey(o.Subject), object: g.res.root(claims.Normalize(o.Object)), has: o.Subject != ""}
	keys := g.keys
	switch {
	case m.has:
		keys = g.byEntity[m.subject]
	case m.object != "":
		keys = g.byEntity[m.object]
	}
	var out []Edge
	for _, key := range keys {
		if !m.ok(key, o.Relation) {
			continue
		}
		for _, p := range g.pieces(key, k) {
			if o.All || p.contains(e) {
				out = append(out, g.edge(key, p, e))
			}
		}
	}
	return out, nil
}

// Neighbours returns the edges current at event time event, as known at
// record time known (zero: now), that have entity as subject or object.
func (s *Store) Neighbours(ctx context.Context, user, entity string, event, known time.Time) ([]Edge, error) {
	g, err := s.graph(ctx, user)
	if err != nil {
		return nil, err
	}
	now := s.now()
	e, k := orNow(event, now), orNow(known, now)
	if !known.IsZero() {
		g = g.asOf(k)
	}
	var out []Edge
	for _, key := range g.byEntity[g.entityKey(entity)] {
		for _, p := range g.pieces(key, k) {
			if p.contains(e) {
				out = append(out, g.edge(key, p, e))
			}
		}
	}
	return out, nil
}

// EntityTimeline returns every interval of every edge of entity on both
// axes: each Edge carries its event interval and the record times
// (KnownFrom, KnownUntil) during which the store believed it, in the order
// of the edges, then KnownFrom. Its State is relative to now, and names
// resolve by the merges that hold now.
func (s *Store) EntityTimeline(ctx context.Context, user, entity string) ([]Edge, error) {
	g, err := s.graph(ctx, user)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var out []Edge
	for _, key := range g.byEntity[g.entityKey(entity)] {
		// The belief changes only at a supporting fact's record time or a
		// step of its log.
		var at []int64
		for _, r := range g.support[key] {
			e := &g.tl[r.fact]
			at = append(at, e.rec.RecordedAt)
			for _, ev := range e.evs {
				at = append(at, ev.At)
			}
		}
		slices.Sort(at)
		at = slices.Compact(at)
		type open struct {
			p    piece
			from int64
		}
		var live []open
		flush := func(o open, until int64, closed bool) {
			ed := g.edge(key, o.p, now)
			ed.KnownFrom = timeAt(o.from)
			if closed {
				ed.KnownUntil = timeAt(until)
			}
			out = append(out, ed)
		}
		for _, k := range at {
			ps := g.pieces(key, k)
			var next []open
			for _, p := range ps {
				i := slices.IndexFunc(live, func(o open) bool { return o.p.same(p) })
				if i >= 0 {
					next = append(next, live[i])
					live = slices.Delete(live, i, i+1)
				} else {
					next = append(next, open{p, k})
				}
			}
			for _, o := range live {
				flush(o, k, true)
			}
			live = next
		}
		for _, o := range live {
			flush(o, 0, false)
		}
	}
	return out, nil
}

// Why returns the facts behind e with their provenance, lifecycle logs and
// the decisions that made or ended them. A fact of e.Support that is gone,
// another user's, or no longer carries e's claim gives ErrNotFound.
func (s *Store) Why(ctx context.Context, user string, e Edge) ([]Support, error) {
	var out []Support
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		// A claim naming an alias supports the edge of its entity.
		ms, err := userMergesTx(tx, user)
		if err != nil {
			return err
		}
		same := sameEntity(ms)
		keyOf := func(subject, object string, r Relation) edgeKey {
			return edgeKey{same(claims.Normalize(subject)), same(claims.Normalize(object)), r}
		}
		key := keyOf(e.Subject, e.Object, e.Relation)
		want := map[uint64]int{}
		for _, id := range e.Support {
			r, err := getUser(tx, id, user)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(r.Claims, func(c kv.Claim) bool {
				return keyOf(c.Subject, c.Object, Relation(c.Relation)) == key
			})
			if i < 0 {
				return fmt.Errorf("fact %d has no claim %s %s %s: %w", id, e.Subject, e.Relation, e.Object, ErrNotFound)
			}
			evs, err := tx.Events(id)
			if err != nil {
				return err
			}
			sp := Support{Fact: factWithLog(&r, evs), Claim: fromKVClaims(r.Claims[i : i+1])[0]}
			sp.Events = eventsOf(evs)
			want[id] = len(out)
			out = append(out, sp)
		}
		if len(out) == 0 {
			return nil
		}
		// A decision made or ended a fact when it added it, targeted it, or
		// a step of the fact's log names it.
		named := map[uint64][]int{}
		for i, sp := range out {
			for _, ev := range sp.Events {
				for _, d := range []uint64{ev.Decision, ev.Undoes} {
					if d != 0 {
						named[d] = append(named[d], i)
					}
				}
			}
		}
		// Every user's decisions, filtered: the log has no per-user index
		// yet (see Decisions), so this read costs the whole store's log.
		return forEachLog(tx, kv.BucketDecisions, "decision", false, func(id uint64, d Decision) error {
			if d.User != user {
				return nil
			}
			var to []int
			for _, fid := range []uint64{d.Added, d.Target} {
				if i, ok := want[fid]; ok && fid != 0 {
					to = append(to, i)
				}
			}
			to = append(to, named[id]...)
			slices.Sort(to)
			for _, i := range slices.Compact(to) {
				out[i].Decisions = append(out[i].Decisions, d)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
