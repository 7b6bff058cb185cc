package inspect

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/eventtime"
)

// factView is a fact with its state as a person reads it now.
type factView struct {
	memory.Fact
	// State is current, upcoming (current, true only from a later
	// start), ended (current, its interval over), superseded or retracted.
	State string
	// Flags are the open conflicts it is in, where a page shows them.
	Flags []conflictFlag
}

func view(f memory.Fact, now time.Time) factView { return viewState(f, f.State(), now) }

// viewState is f in state st, which its markers may not tell (asKnown),
// upcoming and ended as of now.
func viewState(f memory.Fact, st memory.State, now time.Time) factView {
	v := factView{Fact: f, State: st.String()}
	if st == memory.Current {
		switch {
		case f.EventStart.After(now):
			v.State = "upcoming"
		case !f.EventEnd.IsZero() && !f.EventEnd.After(now):
			v.State = "ended"
		}
	}
	return v
}

// parseWhen reads a time from a form: a date (midnight UTC), the
// datetime-local form of <input> (UTC), or RFC 3339, within the years
// eventtime.MinYear to MaxYear. "" is the zero time.
func parseWhen(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.DateOnly, "2006-01-02T15:04", "2006-01-02T15:04:05", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			// The store holds no time outside the range, and a point far
			// from it would squash the timeline's scale.
			if !eventtime.InRange(t) {
				return time.Time{}, fmt.Errorf("%q is outside the %s (UTC): %w", s, eventtime.RangeText, errBadInput)
			}
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time: give YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC)", s)
}

// pager is one page of a list, newest first.
type pager struct {
	Page, Pages, Total, From, To int
	Prev, Next                   string // links, "" at the ends
}

// paginate cuts items, already newest first, to page p (1-based) and links
// the neighbours with the rest of the query kept. With key, ?id=N is the
// page holding the item N, so that a link to one (/decisions?id=N#dN)
// finds it however many came after it.
func paginate[T any](items []T, r *http.Request, size int, key func(T) uint64) ([]T, pager, error) {
	p := 1
	q := r.URL.Query()
	if s := q.Get("page"); s != "" {
		if _, err := fmt.Sscanf(s, "%d", &p); err != nil || p < 1 || fmt.Sprint(p) != s {
			return nil, pager{}, fmt.Errorf("page %q is not a page number: %w", s, errBadInput)
		}
	}
	if s := q.Get("id"); s != "" && key != nil {
		id, err := strconv.ParseUint(s, 10, 64)
		if err != nil || id == 0 {
			return nil, pager{}, fmt.Errorf("id %q is not an id: %w", s, errBadInput)
		}
		i := slices.IndexFunc(items, func(x T) bool { return key(x) == id })
		if i < 0 {
			return nil, pager{}, fmt.Errorf("no entry %d here: %w", id, memory.ErrNotFound)
		}
		p = i/size + 1
	}
	g := pager{Page: p, Total: len(items), Pages: max(1, (len(items)+size-1)/size)}
	if p > g.Pages {
		return nil, pager{}, fmt.Errorf("page %d of %d: %w", p, g.Pages, memory.ErrNotFound)
	}
	lo, hi := (p-1)*size, min(len(items), p*size)
	g.From, g.To = lo+1, hi
	// The neighbours keep the list's filters, not the entry it was opened
	// at nor the notice of a change made on it.
	q.Del("id")
	q.Del("done")
	link := func(n int) string {
		q.Set("page", fmt.Sprint(n))
		return r.URL.Path + "?" + q.Encode()
	}
	if p > 1 {
		g.Prev = link(p - 1)
	}
	if p < g.Pages {
		g.Next = link(p + 1)
	}
	return items[lo:hi], g, nil
}

// travel is the time-travel form: true at an event time, as known at a
// record time.
type travel struct {
	At, Known time.Time
	All       bool
}

func (t travel) On() bool { return !t.At.IsZero() || !t.Known.IsZero() }

func travelOf(r *http.Request) (travel, error) {
	q := r.URL.Query()
	var t travel
	var err error
	if t.At, err = parseWhen(q.Get("at")); err != nil {
		return t, fmt.Errorf("true at: %w", err)
	}
	if t.Known, err = parseWhen(q.Get("known")); err != nil {
		return t, fmt.Errorf("as known at: %w", err)
	}
	t.All = q.Get("all") != ""
	return t, nil
}

// travelQuery reads the user and the time-travel inputs of a list page,
// answering 400 itself when they are bad.
func (h *Handler) travelQuery(w http.ResponseWriter, r *http.Request) (string, travel, bool) {
	t, err := travelOf(r)
	if err != nil {
		h.fail(w, r, http.StatusBadRequest, err.Error())
		return "", t, false
	}
	return userOf(r), t, true
}

// pathFact reads the fact {id} of the path names, with its chain when
// chain is set, answering the error itself when there is none.
func (h *Handler) pathFact(w http.ResponseWriter, r *http.Request, chain bool) (memory.Fact, []memory.Fact, bool) {
	id, ok := idOf(r)
	if !ok {
		h.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a fact id.", r.PathValue("id")))
		return memory.Fact{}, nil, false
	}
	f, err := h.s.Get(r.Context(), userOf(r), id)
	var versions []memory.Fact
	if err == nil && chain {
		versions, err = h.s.History(r.Context(), userOf(r), id)
	}
	if err != nil {
		h.failErr(w, r, err)
		return memory.Fact{}, nil, false
	}
	return f, versions, true
}

// factsData is the list page.
type factsData struct {
	Travel            travel
	Facts             []factView
	Pager             pager
	Current, Upcoming int
}

// facts is "/": the current facts of a user with the upcoming ones, or all
// of them, or those true at an event time as known at a record time.
func (h *Handler) facts(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user, t, ok := h.travelQuery(w, r)
	if !ok {
		return
	}
	var list []memory.Fact
	var err error
	if t.On() {
		list, err = h.s.At(ctx, user, t.At, t.Known)
	} else {
		list, err = h.s.List(ctx, user, &memory.ListOptions{All: t.All})
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	now := h.o.Clock()
	d := factsData{Travel: t}
	for i := range list {
		if list[i].State() == memory.Current {
			d.Current++
			if list[i].EventStart.After(now) {
				d.Upcoming++
			}
		}
	}
	// Newest first, without copying the store's list: page through it backwards.
	rev := make([]int, len(list))
	for i := range rev {
		rev[i] = len(list) - 1 - i
	}
	idx, pg, err := paginate(rev, r, h.o.PageSize, nil)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d.Pager = pg
	page := make([]memory.Fact, len(idx))
	for i, j := range idx {
		page[i] = list[j]
	}
	if d.Facts, err = h.travelViews(ctx, user, page, t); err != nil {
		h.failErr(w, r, err)
		return
	}
	if err := h.flagFacts(r, user, t.Known, d.Facts); err != nil {
		h.failErr(w, r, err)
		return
	}
	h.render(w, http.StatusOK, "facts", h.newPage(ctx, r, "Facts", "facts", d))
}

// step is one entry of a chain's lifecycle log, named by its version.
type step struct {
	memory.Event
	Fact uint64
}

// OwnCause is the step's cause but for the words its links say already:
// Remember's "decision 8" and Undo's "undo of decision 17" name the
// decision the row links to, and would read twice.
func (s step) OwnCause() string {
	switch {
	case s.Decision != 0 && s.Cause == "decision "+itoa(s.Decision),
		s.Undoes != 0 && s.Cause == "undo of decision "+itoa(s.Undoes):
		return ""
	}
	return s.Cause
}

// factData is a fact's page.
type factData struct {
	Fact     factView
	Chain    []factView
	Steps    []step
	Timeline *diagram
	Claims   []memory.Claim
}

// fact is /facts/{id}: the fact, its chain of versions, their lifecycle
// log with each step's cause, and its provenance.
func (h *Handler) fact(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user := userOf(r)
	f, chain, ok := h.pathFact(w, r, true)
	if !ok {
		return
	}
	id := f.ID
	now := h.o.Clock()
	d := factData{Fact: view(f, now), Claims: f.Claims}
	fv := []factView{d.Fact}
	if err := h.flagFacts(r, user, time.Time{}, fv); err != nil {
		h.failErr(w, r, err)
		return
	}
	d.Fact = fv[0]
	var versions []version
	for _, c := range chain {
		d.Chain = append(d.Chain, view(c, now))
		evs, err := h.s.Events(ctx, user, c.ID)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		for _, e := range evs {
			d.Steps = append(d.Steps, step{e, c.ID})
		}
		versions = append(versions, version{Fact: c, Events: evs})
	}
	slices.SortStableFunc(d.Steps, func(a, b step) int { return a.At.Compare(b.At) })
	omitted := 0
	if len(versions) > maxShapes { // a long chain: its newest versions
		omitted = len(versions) - maxShapes
		versions = versions[omitted:]
	}
	d.Timeline = draw(versions, now, user, id, time.Time{}, time.Time{})
	d.Timeline.Omitted = omitted
	h.render(w, http.StatusOK, "fact", h.newPage(ctx, r, fmt.Sprintf("Fact #%d", id), "facts", d))
}

// act is POST /facts/{id}/{action}: pin, unpin, retract, restore, delete.
func (h *Handler) act(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, user, ok := h.postTarget(w, r, "fact")
	if !ok {
		return
	}
	c := memory.Change{Origin: memory.OriginUser, Reason: strings.TrimSpace(r.PostForm.Get("reason"))}
	action := r.PathValue("action")
	var err error
	switch action {
	case "pin":
		_, err = h.s.Pin(ctx, user, id)
	case "unpin":
		_, err = h.s.Unpin(ctx, user, id)
	case "retract":
		if c.Reason == "" {
			c.Reason = "retracted in the inspector"
		}
		_, err = h.s.Invalidate(ctx, user, id, c)
	case "restore":
		if c.Reason == "" {
			c.Reason = "restored in the inspector"
		}
		_, err = h.s.Restore(ctx, user, id, c)
	case "delete":
		if r.PostForm.Get("confirm") != "yes" {
			h.fail(w, r, http.StatusBadRequest, "A hard delete needs its confirmation (confirm=yes).")
			return
		}
		if _, err = h.s.Delete(ctx, user, id, &memory.DeleteOptions{Chain: r.PostForm.Get("chain") != ""}); err == nil {
			redirect(w, r, href("/", user, "done", "deleted"))
			return
		}
	default:
		h.fail(w, r, http.StatusNotFound, fmt.Sprintf("No action %q: pin, unpin, retract, restore or delete.", action))
		return
	}
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	redirect(w, r, href("/facts/"+itoa(id), user, "done", action))
}

// confirmDelete is the page that asks before a hard delete.
func (h *Handler) confirmDelete(w http.ResponseWriter, r *http.Request) {
	f, chain, ok := h.pathFact(w, r, true)
	if !ok {
		return
	}
	d := struct {
		Fact  factView
		Chain int
	}{view(f, h.o.Clock()), len(chain)}
	h.render(w, http.StatusOK, "delete", h.newPage(r.Context(), r, fmt.Sprintf("Delete fact #%d", f.ID), "facts", d))
}

// add is POST /facts: a fact the user states in the inspector.
func (h *Handler) add(w http.ResponseWriter, r *http.Request) {
	from, err := parseWhen(r.PostForm.Get("event_from"))
	if err != nil {
		h.fail(w, r, http.StatusBadRequest, "True from: "+err.Error())
		return
	}
	user := r.PostForm.Get("user")
	f, err := h.s.Add(r.Context(), memory.Note{
		User: user, Text: strings.TrimSpace(r.PostForm.Get("text")), EventFrom: from,
		Pinned: r.PostForm.Get("pinned") != "", Origin: memory.OriginUser,
		Source: memory.Source{Kind: "inspector"},
	})
	if err != nil {
		if errors.Is(err, memory.ErrEmpty) {
			h.fail(w, r, http.StatusBadRequest, "A fact needs some text.")
			return
		}
		h.failErr(w, r, err)
		return
	}
	redirect(w, r, href("/facts/"+itoa(f.ID), user, "done", "added"))
}
