package inspect

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory"
)

// The bi-temporal diagram: x is event time (when it was true in the world),
// y is record time (when the store believed it), upwards. A version is the
// region of (event, record) points at which the store held it true; its
// lifecycle log cuts it into rectangles: a supersede narrows its event
// interval from that record time on, a retraction ends it, a restore opens
// it again. The point (E, K) lies in a version exactly when At(E, K)
// returns it, so the crosshair of the time-travel inputs reads the answer
// off the picture.

// version is a fact with its lifecycle log.
type version struct {
	Fact   memory.Fact
	Events []memory.Event
}

// span is one rectangle of belief: event interval × record interval. A zero
// From is an unknown start, a zero To (either axis) open.
type span struct {
	EvFrom, EvTo   time.Time
	RecFrom, RecTo time.Time
}

// spans replays a version's log into its rectangles.
func spans(v version) []span {
	var out []span
	var cur *span
	open := func(at, to time.Time) {
		out = append(out, span{EvFrom: v.Fact.EventStart, EvTo: to, RecFrom: at})
		cur = &out[len(out)-1]
	}
	closeAt := func(at time.Time) {
		if cur != nil {
			cur.RecTo = at
			cur = nil
		}
	}
	for _, e := range v.Events {
		switch e.Kind {
		case memory.EventRecorded:
			closeAt(e.At)
			open(e.At, v.Fact.EventUntil)
		case memory.EventSuperseded:
			to := time.Time{}
			if cur != nil {
				to = cur.EvTo
			}
			if !e.EventEnd.IsZero() && (to.IsZero() || e.EventEnd.Before(to)) {
				to = e.EventEnd
			}
			closeAt(e.At)
			open(e.At, to)
		case memory.EventRetracted:
			closeAt(e.At)
		case memory.EventRestored:
			closeAt(e.At)
			open(e.At, v.Fact.EventUntil)
		}
	}
	if len(out) == 0 { // no log (an old export): the markers alone
		out = append(out, span{EvFrom: v.Fact.EventStart, EvTo: v.Fact.EventEnd, RecFrom: v.Fact.RecordedAt})
		if v.Fact.State() == memory.Retracted {
			out[0].RecTo = v.Fact.ValidUntil
		}
	}
	// A rectangle of no record time (two steps at one instant) draws nothing.
	kept := out[:0]
	for _, s := range out {
		if s.RecTo.IsZero() || s.RecTo.After(s.RecFrom) {
			kept = append(kept, s)
		}
	}
	return kept
}

// shape is one version or edge interval to draw.
type shape struct {
	Label, Title, Link, Class string
	Spans                     []span
}

// diagram is a drawn picture, ready for the template.
type diagram struct {
	W, H, X0, Y0, X1, Y1 float64 // canvas and plot area
	XTicks, YTicks       []tick
	Shapes               []shapeView
	NowX                 float64
	Cross                bool
	CrossX, CrossY       float64
	Omitted              int
	Edges                bool // the shapes are edges' intervals, not versions
}

type tick struct {
	Pos   float64
	Label string
}

type shapeView struct {
	Title, Link, Class, Label string
	Rects                     []rectView
	LabelX, LabelY            float64
}

type rectView struct {
	X, Y, W, H                  float64
	OpenRight, OpenTop, NoStart bool
}

const (
	diagramW    = 1120
	rowH        = 26
	minPlotH    = 240
	maxPlotH    = 620
	marginLeft  = 92
	marginRight = 24
	marginTop   = 18
	marginBot   = 46
)

// draw lays out versions; focus, when not 0, is the fact the page is about,
// and (at, known), when either is set, the crosshair.
func draw(vs []version, now time.Time, user string, focus uint64, at, known time.Time) *diagram {
	shapes := make([]shape, 0, len(vs))
	for _, v := range vs {
		st := view(v.Fact, now).State
		if v.Fact.ID == focus {
			st += " focus"
		}
		shapes = append(shapes, shape{
			Label: fmt.Sprintf("#%d %s", v.Fact.ID, v.Fact.Text),
			Title: fmt.Sprintf("#%d %s (%s; true %s – %s)", v.Fact.ID, v.Fact.Text, view(v.Fact, now).State, orOpen(v.Fact.EventStart, "?"), orOpen(v.Fact.EventEnd, "open")),
			Link:  href("/facts/"+itoa(v.Fact.ID), user),
			Class: st,
			Spans: spans(v),
		})
	}
	return layout(shapes, now, at, known)
}

func orOpen(t time.Time, none string) string {
	if t.IsZero() {
		return none
	}
	return stamp(t)
}

// layout scales shapes onto the canvas, with the crosshair at (at, known)
// when either is set.
func layout(shapes []shape, now, at, known time.Time) *diagram {
	// Two domains: event times across, record times up; now on both.
	var ex, rx bounds
	ex.see(now)
	rx.see(now)
	ex.see(at)
	rx.see(known)
	for _, s := range shapes {
		for _, p := range s.Spans {
			ex.see(p.EvFrom)
			ex.see(p.EvTo)
			rx.see(p.RecFrom)
			rx.see(p.RecTo)
		}
	}
	// An event axis that begins after the first record time would hide
	// the facts of unknown start: it starts no later than the first record.
	ex.see(rx.lo)
	xlo, xhi := ex.padded(14)
	ylo, yhi := rx.padded(20)
	plotH := math.Min(maxPlotH, math.Max(minPlotH, float64(len(shapes)*rowH)))
	d := &diagram{W: diagramW, H: marginTop + plotH + marginBot, X0: marginLeft, Y0: marginTop, X1: diagramW - marginRight, Y1: marginTop + plotH}
	x := func(t time.Time) float64 {
		return round1(d.X0 + (d.X1-d.X0)*float64(t.Sub(xlo))/float64(xhi.Sub(xlo)))
	}
	y := func(t time.Time) float64 {
		return round1(d.Y1 - (d.Y1-d.Y0)*float64(t.Sub(ylo))/float64(yhi.Sub(ylo)))
	}
	for _, tk := range ticks(xlo, xhi) {
		d.XTicks = append(d.XTicks, tick{x(tk.t), tk.label})
	}
	for _, tk := range ticks(ylo, yhi) {
		d.YTicks = append(d.YTicks, tick{y(tk.t), tk.label})
	}
	d.NowX = x(now)
	if !at.IsZero() || !known.IsZero() {
		if at.IsZero() {
			at = now
		}
		if known.IsZero() {
			known = now
		}
		d.Cross, d.CrossX, d.CrossY = true, x(at), y(known)
	}
	for _, s := range shapes {
		sv := shapeView{Title: s.Title, Link: s.Link, Class: s.Class, Label: short(s.Label, 44)}
		for _, p := range s.Spans {
			r := rectView{X: d.X0, Y: d.Y0}
			if p.EvFrom.IsZero() {
				r.NoStart = true
			} else {
				r.X = x(p.EvFrom)
			}
			right := d.X1
			if p.EvTo.IsZero() {
				r.OpenRight = true
			} else {
				right = x(p.EvTo)
			}
			top := d.Y0
			if p.RecTo.IsZero() {
				r.OpenTop = true
			} else {
				top = y(p.RecTo)
			}
			r.Y = top
			r.W = math.Max(2, round1(right-r.X)) // an instant stays visible
			r.H = math.Max(2, round1(y(p.RecFrom)-top))
			sv.Rects = append(sv.Rects, r)
		}
		if len(sv.Rects) == 0 {
			continue
		}
		first := sv.Rects[0]
		sv.LabelX, sv.LabelY = first.X+5, first.Y+first.H-7
		d.Shapes = append(d.Shapes, sv)
	}
	placeLabels(d)
	return d
}

// Label metrics in the diagram's units (11.5px text).
const (
	labelCharW = 6.2
	labelLineH = 13
)

// placeLabels keeps each label inside the plot and moves one that would
// overlap a label placed before it up a line at a time, so that versions
// recorded the same day stay readable.
func placeLabels(d *diagram) {
	type box struct{ x0, x1, y float64 }
	var placed []box
	for i := range d.Shapes {
		sv := &d.Shapes[i]
		w := labelCharW * float64(utf8.RuneCountInString(sv.Label))
		if sv.LabelX+w > d.X1-4 {
			sv.LabelX = math.Max(d.X0+4, d.X1-4-w)
		}
		for range 12 {
			clash := false
			for _, b := range placed {
				if math.Abs(b.y-sv.LabelY) < labelLineH && sv.LabelX < b.x1 && b.x0 < sv.LabelX+w {
					clash = true
					break
				}
			}
			if !clash || sv.LabelY-labelLineH < d.Y0+labelLineH {
				break
			}
			sv.LabelY -= labelLineH
		}
		placed = append(placed, box{sv.LabelX, sv.LabelX + w, sv.LabelY})
	}
}

// bounds is the range of the times seen on one axis.
type bounds struct{ lo, hi time.Time }

func (b *bounds) see(t time.Time) {
	if t.IsZero() {
		return
	}
	if b.lo.IsZero() || t.Before(b.lo) {
		b.lo = t
	}
	if b.hi.IsZero() || t.After(b.hi) {
		b.hi = t
	}
}

// padded widens the range by 1/n on each side (a month each way when it
// is one instant), so that nothing is drawn on the border.
func (b bounds) padded(n int) (time.Time, time.Time) {
	lo, hi := b.lo, b.hi
	if !hi.After(lo) {
		return lo.AddDate(0, -1, 0), hi.AddDate(0, 1, 0)
	}
	pad := hi.Sub(lo) / time.Duration(n)
	return lo.Add(-pad), hi.Add(pad)
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// short cuts s to n runes, with an ellipsis when it cut.
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

type timeTick struct {
	t     time.Time
	label string
}

// ticks are round times between lo and hi, at most about eight.
func ticks(lo, hi time.Time) []timeTick {
	span := hi.Sub(lo)
	const day = 24 * time.Hour
	var out []timeTick
	switch {
	case span <= 10*day:
		for t := truncDay(lo).Add(day); t.Before(hi); t = t.Add(day) {
			out = append(out, timeTick{t, t.Format("Jan 2")})
		}
	case span <= 60*day:
		for t := truncDay(lo).Add(day); t.Before(hi); t = t.Add(day) {
			if t.Weekday() == time.Monday {
				out = append(out, timeTick{t, t.Format("Jan 2")})
			}
		}
	default:
		months := int(span/(30*day)) + 1
		step := 1
		for _, s := range []int{1, 2, 3, 6, 12, 24, 60, 120, 600} {
			step = s
			if months/s <= 8 {
				break
			}
		}
		t := time.Date(lo.Year(), lo.Month(), 1, 0, 0, 0, 0, time.UTC)
		for !t.After(lo) || (int(t.Month())-1)%step != 0 && step <= 12 || step > 12 && (t.Month() != 1 || t.Year()%(step/12) != 0) {
			t = t.AddDate(0, 1, 0)
		}
		for ; t.Before(hi); t = t.AddDate(0, step, 0) {
			label := t.Format("Jan 2006")
			if step >= 12 {
				label = strconv.Itoa(t.Year())
			}
			out = append(out, timeTick{t, label})
		}
	}
	return out
}

func truncDay(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// maxShapes bounds a user's diagram: more rectangles than this are a blur,
// and the page says how many it left out.
const maxShapes = 40

// timelineData is the timeline page.
type timelineData struct {
	Travel   travel
	Fact     uint64
	Diagram  *diagram     // ?fact=: the chain's bi-temporal diagram
	Lanes    *laneDiagram // else: the lanes of every chain
	From, To string       // the zoom's days, for the form
	True     []factView   // At(at, known): what the crosshair lies in
	TrueMore int          // how many more At answered than True holds
	TrueLink string       // the facts list at the same point
	Shown    int
}

// timeline is /timeline: the lanes of a user's chains as known at
// ?known= over the period ?from= to ?to=, or, with ?fact=ID, the
// bi-temporal diagram of one chain.
func (h *Handler) timeline(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user, t, ok := h.travelQuery(w, r)
	if !ok {
		return
	}
	now := h.o.Clock()
	d := timelineData{Travel: t}
	s := r.URL.Query().Get("fact")
	if s == "" {
		from, to, err := zoomOf(r)
		if err != nil {
			h.fail(w, r, http.StatusBadRequest, err.Error())
			return
		}
		if d.Lanes, err = h.lanes(ctx, r, user, t.Known, t.At, from, to); err != nil {
			h.failErr(w, r, err)
			return
		}
		d.From = dayOf(from)
		if !to.IsZero() {
			d.To = dayOf(to.Add(-time.Nanosecond))
		}
		// What At answers is listed under the "true at" line, drawn when
		// at is set; as known then at now, the lanes crossing now say it.
		if !t.At.IsZero() && !h.trueAt(w, r, user, &d, now) {
			return
		}
		h.render(w, http.StatusOK, "timeline", h.newPage(ctx, r, "Timeline", "timeline", d))
		return
	}
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		h.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a fact id.", s))
		return
	}
	facts, err := h.s.History(ctx, user, id)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d.Fact = id
	omitted := 0
	if len(facts) > maxShapes {
		omitted = len(facts) - maxShapes
		facts = facts[len(facts)-maxShapes:]
	}
	vs := make([]version, 0, len(facts))
	for _, f := range facts {
		evs, err := h.s.Events(ctx, user, f.ID)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		vs = append(vs, version{f, evs})
	}
	d.Diagram = draw(vs, now, user, d.Fact, t.At, t.Known)
	d.Diagram.Omitted = omitted
	d.Shown = len(vs)
	if !h.trueAt(w, r, user, &d, now) {
		return
	}
	h.render(w, http.StatusOK, "timeline", h.newPage(ctx, r, "Timeline", "timeline", d))
}

// trueAt lists what At answers for the time-travel point, when one is set;
// false when it failed and the error page is written.
func (h *Handler) trueAt(w http.ResponseWriter, r *http.Request, user string, d *timelineData, now time.Time) bool {
	if !d.Travel.On() {
		return true
	}
	at, err := h.s.At(r.Context(), user, d.Travel.At, d.Travel.Known)
	if err != nil {
		h.failErr(w, r, err)
		return false
	}
	if len(at) > maxTrue {
		d.TrueMore = len(at) - maxTrue
		d.TrueLink = href("/", user, "at", stampQuery(d.Travel.At), "known", stampQuery(d.Travel.Known))
		at = at[:maxTrue]
	}
	// Each as the store knew it at known, as the facts list shows it.
	if d.True, err = h.travelViews(r.Context(), user, at, d.Travel); err != nil {
		h.failErr(w, r, err)
		return false
	}
	return true
}

// maxTrue bounds the list of what At answers under the picture; the facts
// list at the same point pages through the rest.
const maxTrue = 50

// stampQuery is t as the time-travel inputs take it, "" when zero.
func stampQuery(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
