package inspect

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/eventtime"
)

// The lanes: the whole memory as the store knew it at one record time K.
// One lane per chain (a fact and the versions that superseded it, linked
// by Supersedes, AlsoSupersedes and SupersededBy), event time across. A
// lane holds the versions recorded by K (the newest maxBars of them that
// meet the period), each drawn over the event interval it had then: one superseded later is current, one not yet
// recorded is absent, one retracted by K is an outline that says so. A
// version is drawn filled over event time E exactly when At(E, K)
// returns it.

// lanesPerPage bounds a page of lanes: more rows than this are a scroll,
// not a picture; the rest are on the next pages, newest first.
const lanesPerPage = 40

// maxBars bounds a lane: a chain of hundreds of versions draws its newest
// maxBars in the period, and says how many older ones it left out (a zoom
// to an earlier period, or the chain's own diagram and page, shows them).
const maxBars = 40

// held is a version as the store knew it at one record time: the replay
// of its log that the store's At makes (spanAt), with its markers then.
type held struct {
	Visible    bool      // recorded by then and not retracted then
	Superseded bool      // superseded by then
	Retracted  time.Time // when it was retracted, if it was by then
	Start, End time.Time // zero Start: unknown; zero End: open
	// Until and By are its ValidUntil and SupersededBy then, Pinned
	// whether it was pinned then.
	Until  time.Time
	By     uint64
	Pinned bool
}

// heldAt replays f's lifecycle log up to record time k, as At does: a
// fact superseded by then ends where its successor starts, one retracted
// by then is not visible. ok is false when f was not recorded by k.
func heldAt(f memory.Fact, evs []memory.Event, k time.Time) (h held, ok bool) {
	if f.RecordedAt.After(k) {
		return held{}, false
	}
	return replay(f, evs, k), true
}

// replay is heldAt for a fact recorded by k.
func replay(f memory.Fact, evs []memory.Event, k time.Time) held {
	h := held{Visible: true, Start: f.EventFrom, End: f.EventUntil}
	if h.Start.IsZero() {
		h.Start = f.RecordedAt
	}
	var supEnd time.Time
	for _, e := range evs {
		if e.At.After(k) {
			break
		}
		switch e.Kind {
		case memory.EventSuperseded:
			h.Superseded, supEnd = true, e.EventEnd
			h.Until, h.By = e.At, e.By
		case memory.EventRetracted:
			h.Visible, h.Retracted = false, e.At
			h.Until, h.By = e.At, 0
		case memory.EventRestored:
			h.Superseded, h.Visible, h.Retracted = false, true, time.Time{}
			h.Until, h.By = time.Time{}, 0
		case memory.EventPinned:
			h.Pinned = true
		case memory.EventUnpinned:
			h.Pinned = false
		}
	}
	if h.Superseded && !supEnd.IsZero() && (h.End.IsZero() || supEnd.Before(h.End)) {
		h.End = supEnd
	}
	// Told without a time, the start is only the record time: an interval
	// that ends by then began at a time nobody said.
	if f.EventFrom.IsZero() && !h.End.IsZero() && !h.End.After(h.Start) {
		h.Start = time.Time{}
	}
	return h
}

// covers reports whether the interval holds event time e.
func (h held) covers(e time.Time) bool {
	return (h.Start.IsZero() || !e.Before(h.Start)) && (h.End.IsZero() || e.Before(h.End))
}

// meets reports whether the interval meets [from, to); a zero bound is
// open.
func (h held) meets(from, to time.Time) bool {
	return (to.IsZero() || h.Start.IsZero() || h.Start.Before(to)) && (from.IsZero() || h.End.IsZero() || h.End.After(from))
}

// state is the word for the version as known at k, the words of the rest
// of the inspector with k for now.
func (h held) state(k time.Time) string {
	switch {
	case !h.Visible:
		return memory.Retracted.String()
	case h.Superseded:
		return memory.Superseded.String()
	case !h.Start.IsZero() && h.Start.After(k):
		return "upcoming"
	case !h.End.IsZero() && !h.End.After(k):
		return "ended"
	}
	return memory.Current.String()
}

// chainOf is one lane before it is read: its versions recorded by K.
type chainOf struct {
	Root   int32 // the index of its first version in the facts
	Latest int32 // the index of the newest recorded of them
	N      int32 // its versions recorded by K
	at     int64 // the newest's record time, for the sort
}

// chains groups facts (in id order) into their supersession chains and
// keeps those with a version recorded by k that may meet [from, to) of
// event time, newest first (by the latest record time, then id). With a
// period, inAt holds what At(from, k) returned (from the first day of the
// store's range when from is zero): see mayMeet. The chains come without
// their versions: versionsOf reads those of the few on a page.
func chains(facts []memory.Fact, k, from, to time.Time, inAt map[uint64]bool) (roots []int32, out []chainOf) {
	ids := make([]uint64, len(facts))
	for i := range facts {
		ids[i] = facts[i].ID
	}
	index := func(id uint64) int {
		if id == 0 {
			return -1
		}
		if i, ok := slices.BinarySearch(ids, id); ok {
			return i
		}
		return -1
	}
	parent := make([]int32, len(facts))
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(i int, other uint64) {
		if j := index(other); j >= 0 {
			if a, b := find(int32(i)), find(int32(j)); a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	for i := range facts {
		f := &facts[i]
		union(i, f.Supersedes)
		for _, o := range f.AlsoSupersedes {
			union(i, o)
		}
		union(i, f.SupersededBy)
	}
	// A lane holds every version recorded by k; it is kept when one of
	// them may meet the period.
	zoomed := !from.IsZero() || !to.IsZero()
	group := make([]int32, len(facts)) // by root: 1 + its index in out
	roots = parent
	var meets []bool
	for i := range facts {
		f := &facts[i]
		root := find(int32(i))
		roots[i] = root
		if f.RecordedAt.After(k) {
			continue
		}
		g := group[root] - 1
		if g < 0 {
			g = int32(len(out))
			group[root] = g + 1
			out = append(out, chainOf{Root: root, Latest: -1})
			meets = append(meets, !zoomed)
		}
		c := &out[g]
		c.N++
		if at := f.RecordedAt.UnixNano(); c.Latest < 0 || at > c.at || at == c.at && f.ID > facts[c.Latest].ID {
			c.Latest, c.at = int32(i), at
		}
		if !meets[g] && mayMeet(f, inAt, from, to) {
			meets[g] = true
		}
	}
	kept := out[:0]
	for g, c := range out {
		if meets[g] {
			kept = append(kept, c)
		}
	}
	slices.SortFunc(kept, func(a, b chainOf) int {
		if c := cmp.Compare(b.at, a.at); c != 0 {
			return c
		}
		return cmp.Compare(b.Latest, a.Latest) // ids ascend with the index
	})
	return roots, kept
}

// versionsOf is the versions recorded by k of each of the chains cs, in
// id order, given the root of each fact.
func versionsOf(facts []memory.Fact, roots []int32, cs []chainOf, k time.Time) [][]*memory.Fact {
	at := make(map[int32]int, len(cs))
	for i, c := range cs {
		at[c.Root] = i
	}
	out := make([][]*memory.Fact, len(cs))
	for i := range facts {
		if g, ok := at[roots[i]]; ok && !facts[i].RecordedAt.After(k) {
			out[g] = append(out[g], &facts[i])
		}
	}
	return out
}

// mayMeet reports, from f's markers and At's answer at the period's
// start, whether f as known at k may meet [from, to). A version believed
// then whose interval meets the period either holds its start, and At
// returned it, or begins inside it; and an interval begins at its
// EventFrom, or at its record time, or at a time nobody said (and then
// holds the period's start if it meets it at all). So every version drawn
// filled is kept, and a few whose logs turn out to place them elsewhere.
// An outline (a version retracted by k) is kept when it begins in the
// period, or begins before it, is retracted now and was not told to end
// before it.
func mayMeet(f *memory.Fact, inAt map[uint64]bool, from, to time.Time) bool {
	if inAt[f.ID] {
		return true
	}
	start := f.EventFrom
	if start.IsZero() {
		start = f.RecordedAt
	}
	if !to.IsZero() && !start.Before(to) {
		return false
	}
	if !start.Before(from) {
		return true
	}
	return f.State() == memory.Retracted && (f.EventUntil.IsZero() || f.EventUntil.After(from))
}

// laneDiagram is the drawn lanes, ready for the template.
type laneDiagram struct {
	W, H, X0, X1, Y0, Y1 float64 // canvas and plot area
	LabelX, LabelW       float64 // the column of the lanes' labels
	Known                time.Time
	From, To             time.Time // the event axis
	Zoomed               bool
	Ticks                []tick
	Lanes                []laneView
	NowX                 float64
	Now                  bool // now lies on the axis
	AtX                  float64
	At                   bool // the "true at" line is drawn
	AtTime               time.Time
	Aria                 string
	Pager                pager
	Dropped              int // lanes of this page with nothing in the period once read
	Capped               int // lanes that left older versions out
	Items                int // intervals drawn
}

type laneView struct {
	Label, Title, Link string
	Y, H, BandW        float64 // the band
	N                  int     // its bars
	Older              int     // its older versions left out (maxBars)
	LabelY             float64
	Odd                bool
	Items              []laneItem
}

type laneItem struct {
	ID               uint64
	Text             string
	State            string
	Held             held
	Recorded         time.Time
	Title, Link      string
	Label            string // text inside the bar, "" when it does not fit
	X, Y, W, H, X2   float64
	LabelX, LabelY   float64
	StartEdge        bool // the interval begins inside the axis
	EndEdge          bool // it ends inside the axis
	RunsLeft, RunsOn bool // it began before the axis (or at an unknown time) / runs on past it
	row              int
	lo, hi           float64 // time extent for packing, in ns (±Inf when open)
	Ghost            bool    // retracted by then: drawn as an outline
	First            bool    // the first of its lane, in the table
	// Ready for the template, which pays for each action: the classes,
	// the path data of the solid ends and of the points where it runs
	// on (digits only), and the table's times.
	Class, Bar, Edges, Runs string
	FromText, UntilText     string
	RecText, RetractedText  string
}

// num writes a coordinate for path data.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Lane metrics in the diagram's units.
const (
	lanesW     = 1120
	laneRowH   = 22
	laneBarH   = 16
	laneLabelX = 10
	laneLabelW = 250
	lanePlotX0 = 272
	lanePlotX1 = lanesW - 24
	laneTop    = 48
	laneBottom = 44
	labelPx    = 11.5 // the labels' font size
)

// zoom reads ?from= and ?to=, the period of the event axis; a bare date
// for to includes that day.
func zoomOf(r *http.Request) (from, to time.Time, err error) {
	q := r.URL.Query()
	if from, err = parseWhen(q.Get("from")); err != nil {
		return from, to, fmt.Errorf("from: %w", err)
	}
	s := strings.TrimSpace(q.Get("to"))
	if to, err = parseWhen(s); err != nil {
		return from, to, fmt.Errorf("to: %w", err)
	}
	if _, e := time.Parse(time.DateOnly, s); e == nil {
		to = to.AddDate(0, 0, 1)
	}
	if !from.IsZero() && !to.IsZero() && !to.After(from) {
		return from, to, fmt.Errorf("the period ends before it begins (from %s to %s): %w", q.Get("from"), s, errBadInput)
	}
	return from, to, nil
}

// lanes reads and draws the page of lanes of user as known at known (zero:
// now), over [from, to) of event time (zero: the extent of what is drawn),
// with the "true at" line at at when set.
func (h *Handler) lanes(ctx context.Context, r *http.Request, user string, known, at, from, to time.Time) (*laneDiagram, error) {
	now := h.o.Clock()
	k := known
	if k.IsZero() {
		k = now
	}
	facts, err := h.s.List(ctx, user, &memory.ListOptions{All: true})
	if err != nil {
		return nil, err
	}
	var inAt map[uint64]bool
	if !from.IsZero() || !to.IsZero() {
		first := from
		if first.IsZero() {
			first = time.Date(eventtime.MinYear, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		at, err := h.s.At(ctx, user, first, k)
		if err != nil {
			return nil, err
		}
		inAt = make(map[uint64]bool, len(at))
		for _, f := range at {
			inAt[f.ID] = true
		}
	}
	roots, cs := chains(facts, k, from, to, inAt)
	page, pg, err := paginate(cs, r, lanesPerPage, nil)
	if err != nil {
		return nil, err
	}
	versions := versionsOf(facts, roots, page, k)
	d := &laneDiagram{Known: k, Pager: pg, Zoomed: !from.IsZero() || !to.IsZero()}
	for ci, c := range page {
		latest := &facts[c.Latest]
		lv := laneView{Link: href("/timeline", user, "fact", itoa(latest.ID))}
		// The newest versions first, up to maxBars of them in the period.
		vs := versions[ci]
		slices.SortStableFunc(vs, func(a, b *memory.Fact) int {
			if c := b.RecordedAt.Compare(a.RecordedAt); c != 0 {
				return c
			}
			return cmp.Compare(b.ID, a.ID)
		})
		for i, f := range vs {
			if len(lv.Items) == maxBars {
				lv.Older = len(vs) - i
				d.Capped++
				break
			}
			evs, err := h.s.Events(ctx, user, f.ID)
			if err != nil {
				return nil, err
			}
			hd, ok := heldAt(*f, evs, k)
			if !ok || !hd.meets(from, to) {
				continue
			}
			lv.Items = append(lv.Items, laneItem{ID: f.ID, Text: f.Text, Held: hd, Recorded: f.RecordedAt, State: hd.state(k),
				Link: href("/facts/"+itoa(f.ID), user), Ghost: !hd.Visible})
		}
		if len(lv.Items) == 0 {
			d.Dropped++
			continue
		}
		n := int(c.N)
		lv.Label = latest.Text
		lv.Title = fmt.Sprintf("%s (#%d; a chain of %d version%s as known at %s)", latest.Text, latest.ID, n, plural(n), stamp(k))
		if lv.Older > 0 {
			lv.Title += fmt.Sprintf("; its %d older versions are not drawn: zoom in, or open the chain", lv.Older)
		}
		d.Lanes = append(d.Lanes, lv)
	}
	d.layout(now, at, from, to)
	return d, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// layout scales the lanes onto the canvas and packs each lane's intervals
// into as few rows as keep them apart.
func (d *laneDiagram) layout(now, at, from, to time.Time) {
	lo, hi := from, to
	if lo.IsZero() || hi.IsZero() {
		var b bounds
		b.see(now)
		b.see(at)
		for _, l := range d.Lanes {
			for _, it := range l.Items {
				b.see(it.Held.Start)
				b.see(it.Held.End)
				if it.Held.Start.IsZero() { // an unknown start: room before its end
					b.see(it.Recorded)
				}
			}
		}
		if !lo.IsZero() {
			b.see(lo)
		}
		if !hi.IsZero() {
			b.see(hi)
		}
		plo, phi := b.padded(14)
		if lo.IsZero() {
			lo = plo
		}
		if hi.IsZero() || !hi.After(lo) {
			hi = phi
		}
		if !hi.After(lo) {
			hi = lo.AddDate(0, 1, 0)
		}
	}
	d.From, d.To = lo, hi
	d.W, d.X0, d.X1, d.Y0 = lanesW, lanePlotX0, lanePlotX1, laneTop
	d.LabelX, d.LabelW = laneLabelX, laneLabelW
	x := func(t time.Time) float64 {
		return round1(d.X0 + (d.X1-d.X0)*float64(t.Sub(lo))/float64(hi.Sub(lo)))
	}
	for _, tk := range ticks(lo, hi) {
		d.Ticks = append(d.Ticks, tick{x(tk.t), tk.label})
	}
	if !now.Before(lo) && now.Before(hi) {
		d.Now, d.NowX = true, x(now)
	}
	if !at.IsZero() && !at.Before(lo) && at.Before(hi) {
		d.At, d.AtX, d.AtTime = true, x(at), at
	}
	y := d.Y0
	for li := range d.Lanes {
		l := &d.Lanes[li]
		l.Odd = li%2 == 1
		for i := range l.Items {
			it := &l.Items[i]
			it.lo, it.hi = math.Inf(-1), math.Inf(1)
			if !it.Held.Start.IsZero() {
				it.lo = float64(it.Held.Start.UnixNano())
			}
			if !it.Held.End.IsZero() {
				it.hi = float64(it.Held.End.UnixNano())
			}
		}
		slices.SortStableFunc(l.Items, func(a, b laneItem) int {
			if c := cmp.Compare(a.lo, b.lo); c != 0 {
				return c
			}
			return cmp.Compare(a.ID, b.ID)
		})
		var ends []float64 // the end of the last interval of each row
		for i := range l.Items {
			it := &l.Items[i]
			it.row = -1
			for r, e := range ends {
				if e <= it.lo {
					it.row, ends[r] = r, it.hi
					break
				}
			}
			if it.row < 0 {
				it.row = len(ends)
				ends = append(ends, it.hi)
			}
		}
		l.Y, l.H = y, float64(len(ends)*laneRowH)
		l.BandW = d.X1 - d.LabelX
		l.N = len(l.Items)
		l.Items[0].First = true
		l.LabelY = y + 15
		if l.Older > 0 { // the count stays whole
			more := fmt.Sprintf(" +%d older", l.Older)
			l.Label = fitText(l.Label, labelPx, false, d.LabelW-textWidth(more, labelPx, false)) + more
		} else {
			l.Label = fitText(l.Label, labelPx, false, d.LabelW)
		}
		for i := range l.Items {
			it := &l.Items[i]
			left, right := d.X0, d.X1
			if it.Held.Start.IsZero() || it.Held.Start.Before(lo) {
				it.RunsLeft = true
			} else {
				left, it.StartEdge = x(it.Held.Start), true
			}
			if it.Held.End.IsZero() || it.Held.End.After(hi) {
				it.RunsOn = true
			} else {
				right, it.EndEdge = x(it.Held.End), true
			}
			it.X, it.Y = left, y+float64(it.row*laneRowH)+(laneRowH-laneBarH)/2
			it.W, it.H = math.Max(2, round1(right-left)), laneBarH // an instant stays visible
			if it.X+it.W > d.X1 {
				it.X = d.X1 - it.W
			}
			it.X2 = round1(it.X + it.W)
			it.Class = "ln-iv " + it.State
			if it.Ghost {
				it.Class += " ln-ghost"
			}
			top, v := num(it.Y), "v"+num(it.H)
			it.Bar = "M" + num(it.X) + " " + top + "h" + num(it.W) + v + "h-" + num(it.W) + "z"
			if it.StartEdge {
				it.Edges = "M" + num(it.X) + " " + top + v
			}
			if it.EndEdge {
				it.Edges += "M" + num(it.X2) + " " + top + v
			}
			half := num(it.H / 2)
			if it.RunsLeft {
				it.Runs = "M" + num(it.X) + " " + top + "l-5 " + half + "l5 " + half + "z"
			}
			if it.RunsOn {
				it.Runs += "M" + num(it.X2) + " " + top + "l5 " + half + "l-5 " + half + "z"
			}
			it.FromText, it.UntilText = orOpen(it.Held.Start, "?"), orOpen(it.Held.End, "open")
			it.RecText = stamp(it.Recorded)
			if it.Ghost {
				it.RetractedText = stamp(it.Held.Retracted)
			}
			it.Title = itemTitle(*it, d.Known)
			it.Label = fitText(fmt.Sprintf("#%d %s", it.ID, it.Text), labelPx, false, it.W-8)
			if utf8.RuneCountInString(it.Label) < 4 {
				it.Label = ""
			}
			it.LabelX, it.LabelY = it.X+4, it.Y+12
			d.Items++
		}
		y += l.H
	}
	d.Y1 = y
	if len(d.Lanes) == 0 {
		d.Y1 = y + laneRowH
	}
	d.H = d.Y1 + laneBottom
	d.Aria = fmt.Sprintf("Lanes of %d chains, %d intervals, as known at %s: event time across from %s to %s", len(d.Lanes), d.Items, stamp(d.Known), stamp(lo), stamp(hi))
}

// itemTitle says what a bar shows, in words.
func itemTitle(it laneItem, k time.Time) string {
	span := orOpen(it.Held.Start, "an unknown start") + " – " + orOpen(it.Held.End, "open")
	if it.Ghost {
		return fmt.Sprintf("#%d %s — retracted at %s: not believed as known at %s (it had said %s)", it.ID, it.Text, stamp(it.Held.Retracted), stamp(k), span)
	}
	return fmt.Sprintf("#%d %s — %s as known at %s: true %s", it.ID, it.Text, it.State, stamp(k), span)
}
