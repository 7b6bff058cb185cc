package inspect

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
)

// The entity graph: an entity's neighbourhood at one point of the two time
// axes (event time at, record time known), drawn as a radial picture. The
// entity is in the centre; every edge naming it, as the store knew it then
// (Edges with All, so ended, upcoming and retracted intervals too), is a
// spoke out to the neighbour at its other end. Each edge has its own slot of
// angle, and its label (relation, state word when not current, interval)
// runs along its spoke, so labels of neighbouring slots are parallel-ish and
// never cross; the spokes of one neighbour fan back into its node. The
// current spokes are exactly what Neighbours returns.

// Geometry of the picture, in SVG units.
const (
	egCentreR    = 56  // the entity's circle
	egNodeR      = 10  // a neighbour's circle
	egSlot       = 32  // arc per edge slot at the inner end of the labels
	egGroupGap   = 0.6 // extra slots between two neighbours
	egLabelGap   = 8   // from the inner radius to a label's first letter
	egNodeGap    = 34  // from the end of the labels to the neighbours' circles
	egNameGap    = 6   // from a neighbour's circle to its name
	egMargin     = 12
	egLabelSize  = 10.5 // px of the edges' labels: the relation bold, the interval not
	egNameSize   = 12   // px of the neighbours' names, bold
	egCentreSize = 13   // px of the entity's name, bold
	egNameMaxW   = 170  // the longest a neighbour's name is drawn
	egLabelMax   = 24   // characters of an edge's label

	// maxGraphNeighbours are the neighbours drawn; the others are listed.
	maxGraphNeighbours = 24
	// maxGraphEdges are the edges drawn to one neighbour; the others are
	// listed.
	maxGraphEdges = 3
)

// egEdge is one edge of the entity, drawn or listed.
type egEdge struct {
	Edge  memory.Edge
	Other string // the name at the other end, as shown
	// Subj and Obj are the ends as shown ("user" for the user); OtherLink
	// the other end's page, OtherIsSubj which end it is.
	Subj, Obj   string
	OtherLink   string
	OtherIsSubj bool
	State       string // the library's state word
	Relation    string
	Interval    string // event start → end, by the day
	Title       string
	Link        string // a supporting fact
	Drawn       bool
	// Drawn: the spoke and its label, in the rotated frame of the label.
	Path         string
	Rot          float64
	LX           float64
	Anchor       string
	Line1, Line2 string
}

// egNode is a neighbour.
type egNode struct {
	Name, Short, Link, Title, Class string
	X, Y                            float64
	Rot, TX                         float64
	Anchor                          string
	Edges                           []*egEdge
	Hidden                          int // edges not drawn
	key                             string
	rank                            int
}

// entityGraph is the picture, ready for the template.
type entityGraph struct {
	Name, Centre string
	At, Known    string  // "now" or a time
	VX, VY, W, H float64 // the view box; the centre is (0, 0)
	CR, NR       float64
	Nodes        []*egNode // drawn, in angle order
	List         []*egEdge // every edge, by neighbour
	Omitted      []*egNode // neighbours not drawn
	Counts       []egCount
	Label        string // the aria-label
}

type egCount struct {
	State string
	N     int
}

// stateRank orders states for choosing what to draw: what holds then first.
func stateRank(s memory.EdgeState) int {
	switch s {
	case memory.EdgeCurrent:
		return 0
	case memory.EdgeUpcoming:
		return 1
	case memory.EdgeEnded:
		return 2
	}
	return 3
}

// namedEdge is an edge of an entity with the name at its other end.
type namedEdge struct {
	memory.Edge
	Other       string
	OtherIsSubj bool
}

// graphEdges is every edge naming entity at event time at as known at
// known (zero: now), each with the name at its other end.
func graphEdges(ctx context.Context, s *memory.Store, user, entity string, at, known time.Time) ([]namedEdge, error) {
	out, err := s.Edges(ctx, user, &memory.EdgeQuery{Subject: entity, Event: at, Known: known, All: true})
	if err != nil {
		return nil, err
	}
	in, err := s.Edges(ctx, user, &memory.EdgeQuery{Object: entity, Event: at, Known: known, All: true})
	if err != nil {
		return nil, err
	}
	es := make([]namedEdge, 0, len(out)+len(in))
	for _, e := range out {
		es = append(es, namedEdge{e, e.Object, false})
	}
	for _, e := range in {
		if slices.ContainsFunc(out, func(o memory.Edge) bool { return sameEdge(o, e) }) {
			continue // the entity on both ends, listed once
		}
		es = append(es, namedEdge{e, e.Subject, true})
	}
	return es, nil
}

// sameEdge reports whether a and b are one interval of one edge.
func sameEdge(a, b memory.Edge) bool {
	return a.Subject == b.Subject && a.Relation == b.Relation && a.Object == b.Object &&
		slices.Equal(a.Support, b.Support) && eqTime(a.EventStart, b.EventStart) && eqTime(a.EventEnd, b.EventEnd)
}

func eqTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// travelArgs are the query arguments that keep a link at the same point.
func travelArgs(at, known time.Time) []string {
	var kv []string
	for _, p := range []struct {
		k string
		t time.Time
	}{{"at", at}, {"known", known}} {
		switch t := p.t.UTC(); {
		case p.t.IsZero():
		case t.Equal(truncDay(t)):
			kv = append(kv, p.k, dayOf(t))
		default:
			kv = append(kv, p.k, t.Format(time.RFC3339Nano))
		}
	}
	return kv
}

func dayOrNil(t *time.Time, none string) string {
	if t == nil {
		return none
	}
	return dayOf(*t)
}

// buildEntityGraph lays out the edges of name at the point (at, known).
func buildEntityGraph(user, name string, edges []namedEdge, at, known time.Time) *entityGraph {
	g := &entityGraph{Name: name, Centre: fitText(name, egCentreSize, true, 2*egCentreR-8), At: "now", Known: "now", CR: egCentreR, NR: egNodeR}
	if !at.IsZero() {
		g.At = stamp(at)
	}
	if !known.IsZero() {
		g.Known = stamp(known)
	}
	kv := travelArgs(at, known)
	byKey := map[string]*egNode{}
	var nodes []*egNode
	counts := map[string]int{}
	for _, ne := range edges {
		e, other := ne.Edge, ne.Other
		n := byKey[nodeKey(other)]
		if n == nil {
			n = &egNode{Name: other, key: nodeKey(other), rank: 4}
			if other == "" || other == memory.UserSubject {
				n.Name = "user"
				n.Link = href("/", user, kv...)
			} else {
				n.Link = href("/entity", user, append([]string{"name", other}, kv...)...)
			}
			n.Short = fitText(n.Name, egNameSize, true, egNameMaxW)
			byKey[n.key] = n
			nodes = append(nodes, n)
		}
		ee := &egEdge{Edge: e, Other: n.Name, State: string(e.State), Relation: string(e.Relation),
			Interval: dayOrNil(e.EventStart, "?") + " → " + dayOrNil(e.EventEnd, "open"),
			Subj:     e.Subject, Obj: e.Object, OtherLink: n.Link, OtherIsSubj: ne.OtherIsSubj}
		if ee.Subj == "" {
			ee.Subj = "user"
		}
		if len(e.Support) > 0 {
			ee.Link = href("/facts/"+itoa(e.Support[len(e.Support)-1]), user)
		}
		ids := make([]string, len(e.Support))
		for j, id := range e.Support {
			ids[j] = "#" + itoa(id)
		}
		ee.Title = fmt.Sprintf("%s — %s; true %s → %s; facts %s", edgeLabel(e), e.State,
			orWord(e.EventStart, "?"), orWord(e.EventEnd, "open"), strings.Join(ids, ", "))
		n.Edges = append(n.Edges, ee)
		n.rank = min(n.rank, stateRank(e.State))
		counts[ee.State]++
	}
	for _, s := range []memory.EdgeState{memory.EdgeCurrent, memory.EdgeUpcoming, memory.EdgeEnded, memory.EdgeRetracted} {
		if counts[string(s)] > 0 {
			g.Counts = append(g.Counts, egCount{string(s), counts[string(s)]})
		}
	}
	// The neighbours drawn: those with an edge that holds then first.
	slices.SortStableFunc(nodes, func(a, b *egNode) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.key, b.key))
	})
	drawn := nodes
	if len(drawn) > maxGraphNeighbours {
		drawn, g.Omitted = nodes[:maxGraphNeighbours], nodes[maxGraphNeighbours:]
	}
	// Around the circle by relation, then name: the neighbours of one kind
	// sit together.
	slices.SortStableFunc(drawn, func(a, b *egNode) int {
		return cmp.Or(cmp.Compare(a.Edges[0].Relation, b.Edges[0].Relation), cmp.Compare(a.key, b.key))
	})
	for _, n := range nodes {
		slices.SortStableFunc(n.Edges, func(a, b *egEdge) int {
			return cmp.Or(cmp.Compare(a.Relation, b.Relation), cmpStart(a.Edge.EventStart, b.Edge.EventStart))
		})
	}
	for _, n := range drawn {
		chosen := slices.Clone(n.Edges)
		slices.SortStableFunc(chosen, func(a, b *egEdge) int { return cmp.Compare(stateRank(a.Edge.State), stateRank(b.Edge.State)) })
		if len(chosen) > maxGraphEdges {
			n.Hidden = len(chosen) - maxGraphEdges
			chosen = chosen[:maxGraphEdges]
		}
		for _, e := range chosen {
			e.Drawn = true
		}
		n.Class = string([]memory.EdgeState{memory.EdgeCurrent, memory.EdgeUpcoming, memory.EdgeEnded, memory.EdgeRetracted}[n.rank])
	}
	for _, n := range nodes {
		g.List = append(g.List, n.Edges...)
	}
	g.Nodes = drawn
	g.place()
	g.Label = g.ariaLabel()
	return g
}

func orWord(t *time.Time, none string) string {
	if t == nil {
		return none
	}
	return stamp(*t)
}

// nodeKey is the key by which the other ends of edges are one neighbour.
func nodeKey(name string) string {
	if name == "" || name == memory.UserSubject {
		return ""
	}
	return memory.NormalizeName(name)
}

func cmpStart(a, b *time.Time) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return a.Compare(*b)
}

// place computes the radial layout: one slot of angle per drawn edge, a
// gap between neighbours, the inner radius of the labels as large as the
// slots need, the first neighbour to the right and then clockwise, the
// centre at (0, 0) and the view box fitted to what is drawn.
func (g *entityGraph) place() {
	units, longest := 0.0, 0.0
	for _, n := range g.Nodes {
		units += float64(drawnCount(n)) + egGroupGap
		for _, e := range n.Edges {
			if !e.Drawn {
				continue
			}
			e.Line1 = e.Relation
			if e.Edge.State != memory.EdgeCurrent {
				e.Line1 += " · " + e.State
			}
			e.Line1, e.Line2 = short(e.Line1, egLabelMax), short(e.Interval, egLabelMax)
			longest = max(longest, e.width())
		}
	}
	inner := float64(egCentreR + 18)
	if need := units * egSlot / (2 * math.Pi); need > inner {
		inner = need
	}
	bend := inner + egLabelGap + longest + 6
	nodeR := bend + egNodeGap
	unit := 2 * math.Pi / math.Max(units, 1)
	pos := 0.0
	for i, n := range g.Nodes {
		k := float64(drawnCount(n))
		if i == 0 {
			pos = -k / 2 // the first group centred on angle 0
		}
		na := (pos + k/2) * unit
		n.X, n.Y = g.at(nodeR, na)
		n.Rot, n.TX, n.Anchor = radialText(na, nodeR+egNodeR+egNameGap)
		j := 0
		for _, e := range n.Edges {
			if !e.Drawn {
				continue
			}
			ea := (pos + float64(j) + 0.5) * unit
			j++
			x0, y0 := g.at(egCentreR, ea)
			x1, y1 := g.at(bend, ea)
			e.Path = fmt.Sprintf("M%g %gL%g %gL%g %g", x0, y0, x1, y1, n.X, n.Y)
			e.Rot, e.LX, e.Anchor = radialText(ea, inner+egLabelGap)
		}
		pos += k + egGroupGap
	}
	for _, n := range g.Nodes {
		var states []string
		for _, e := range n.Edges {
			states = append(states, e.Relation+" "+e.State)
		}
		n.Title = n.Name + ": " + strings.Join(states, ", ")
		if n.Hidden > 0 {
			n.Title += fmt.Sprintf(" (%d not drawn; the list has them)", n.Hidden)
		}
	}
	// The view box: everything drawn, and a margin.
	lo, hi := [2]float64{-egCentreR, -egCentreR}, [2]float64{egCentreR, egCentreR}
	see := func(x, y float64) {
		lo[0], lo[1], hi[0], hi[1] = math.Min(lo[0], x), math.Min(lo[1], y), math.Max(hi[0], x), math.Max(hi[1], y)
	}
	for _, n := range g.Nodes {
		see(n.X-egNodeR, n.Y-egNodeR)
		see(n.X+egNodeR, n.Y+egNodeR)
	}
	for _, b := range g.boxes() {
		for _, p := range b.Corners {
			see(p[0], p[1])
		}
	}
	g.VX, g.VY = math.Floor(lo[0]-egMargin), math.Floor(lo[1]-egMargin)
	g.W, g.H = math.Ceil(hi[0]+egMargin)-g.VX, math.Ceil(hi[1]+egMargin)-g.VY
}

// textBox is the box a drawn text takes: its corners in the picture's
// coordinates, and what it is.
type textBox struct {
	Corners [4][2]float64
	What    string
}

// boxOf is the box of a text w wide running from x (in the frame rotated
// by rot degrees about the centre) towards its anchor, from y0 to y1
// across.
func boxOf(rot, x float64, anchor string, w, y0, y1 float64, what string) textBox {
	x0, x1 := x, x+w
	if anchor == "end" {
		x0, x1 = x-w, x
	}
	sn, cs := math.Sincos(rot * math.Pi / 180)
	b := textBox{What: what}
	for i, p := range [4][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} {
		b.Corners[i] = [2]float64{p[0]*cs - p[1]*sn, p[0]*sn + p[1]*cs}
	}
	return b
}

// boxes are the boxes of the names and the edges' labels (two lines: the
// relation above the spoke, the interval below it).
func (g *entityGraph) boxes() []textBox {
	var out []textBox
	for _, n := range g.Nodes {
		out = append(out, boxOf(n.Rot, n.TX, n.Anchor, textWidth(n.Short, egNameSize, true), -9, 7, "name "+n.Name))
		for _, e := range n.Edges {
			if !e.Drawn {
				continue
			}
			y0, y1 := -13.0, 15.0
			if e.Anchor == "end" { // turned over: above the spoke is the other side
				y0, y1 = -15, 13
			}
			out = append(out, boxOf(e.Rot, e.LX, e.Anchor, e.width(), y0, y1, "label "+e.Other+" "+e.Line1))
		}
	}
	return out
}

func drawnCount(n *egNode) int {
	c := 0
	for _, e := range n.Edges {
		if e.Drawn {
			c++
		}
	}
	return c
}

// at is the point at radius r and angle a (radians, clockwise from the
// right, as SVG's y runs down) from the centre, (0, 0).
func (g *entityGraph) at(r, a float64) (float64, float64) {
	return round1(r * math.Cos(a)), round1(r * math.Sin(a))
}

// radialText is how text runs outwards from radius r along angle a: the
// rotation about the centre (in degrees) and the x of its first letter in
// the rotated frame, turned over on the left half so it never reads upside
// down.
func radialText(a, r float64) (rot, x float64, anchor string) {
	deg := a * 180 / math.Pi
	if math.Cos(a) < -1e-9 {
		return round1(deg + 180), -r, "end"
	}
	return round1(deg), r, "start"
}

// ariaLabel says in words what the picture shows.
func (g *entityGraph) ariaLabel() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Graph of %s true at %s, as known at %s: %d neighbours", g.Name, g.At, g.Known, len(g.Nodes)+len(g.Omitted))
	if len(g.Omitted) > 0 {
		fmt.Fprintf(&b, " (%d drawn)", len(g.Nodes))
	}
	var parts []string
	for _, c := range g.Counts {
		parts = append(parts, fmt.Sprintf("%d %s", c.N, c.State))
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, "; edges: %s", strings.Join(parts, ", "))
	}
	b.WriteString(". The list beside it gives every edge.")
	return b.String()
}

// width is the width of an edge's label: its longer line.
func (e *egEdge) width() float64 {
	return max(textWidth(e.Line1, egLabelSize, true), textWidth(e.Line2, egLabelSize, false))
}
