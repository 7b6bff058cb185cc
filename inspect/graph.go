package inspect

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/palimpsest-mem/memory"
)

// entities is /entities: a user's entities, with how many edges each has.
func (h *Handler) entities(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user := userOf(r)
	es, err := h.s.Entities(ctx, user)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	list, pg, err := paginate(es, r, h.o.PageSize, nil)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d := struct {
		Entities []memory.Entity
		Pager    pager
	}{list, pg}
	h.render(w, http.StatusOK, "entities", h.newPage(ctx, r, "Entities", "entities", d))
}

// entity is /entity?name=…: an entity's neighbourhood at the time-travel
// point (now by default) drawn as a graph, and its edges over time, on both
// axes, as a table and as the bi-temporal diagram (one rectangle per
// interval).
func (h *Handler) entity(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user, t, ok := h.travelQuery(w, r)
	if !ok {
		return
	}
	name := strings.TrimSpace(r.URL.Query().Get("name"))
	if name == "" {
		h.fail(w, r, http.StatusBadRequest, "Which entity? Give ?name=.")
		return
	}
	tl, err := h.s.EntityTimeline(ctx, user, name)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if len(tl) == 0 {
		h.fail(w, r, http.StatusNotFound, fmt.Sprintf("No edge names %q.", name))
		return
	}
	now := h.o.Clock()
	shapes := make([]shape, 0, len(tl))
	for _, e := range tl {
		sp := span{RecFrom: now}
		if e.EventStart != nil {
			sp.EvFrom = *e.EventStart
		}
		if e.EventEnd != nil {
			sp.EvTo = *e.EventEnd
		}
		if e.KnownFrom != nil {
			sp.RecFrom = *e.KnownFrom
		}
		if e.KnownUntil != nil {
			sp.RecTo = *e.KnownUntil
		}
		label := edgeLabel(e)
		link := ""
		if len(e.Support) > 0 {
			link = href("/facts/"+itoa(e.Support[len(e.Support)-1]), user)
		}
		// The state in the library's words (memctl graph's), and the
		// record times it was believed, which end for a belief revised since.
		title := fmt.Sprintf("%s (%s; believed %s → %s)", label, e.State, orOpen(sp.RecFrom, "?"), orOpen(sp.RecTo, "now"))
		shapes = append(shapes, shape{Label: label, Title: title, Link: link, Class: edgeClass(e.State), Spans: []span{sp}})
	}
	d := struct {
		Name    string
		Edges   []memory.Edge
		Diagram *diagram
		Travel  travel
		True    []memory.Edge // Neighbours at the time-travel point
		Graph   *entityGraph  // the neighbourhood at the time-travel point
	}{Name: name, Edges: tl, Diagram: layout(shapes, now, t.At, t.Known), Travel: t}
	d.Diagram.Edges = true
	es, err := graphEdges(ctx, h.s, user, name, t.At, t.Known)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	d.Graph = buildEntityGraph(user, name, es, t.At, t.Known)
	if t.On() {
		if d.True, err = h.s.Neighbours(ctx, user, name, t.At, t.Known); err != nil {
			h.failErr(w, r, err)
			return
		}
	}
	h.render(w, http.StatusOK, "entity", h.newPage(ctx, r, "Entity "+name, "entities", d))
}

// edgeLabel names an edge as a sentence-like triple.
func edgeLabel(e memory.Edge) string {
	s := e.Subject
	if s == "" || s == memory.UserSubject {
		s = "user"
	}
	return fmt.Sprintf("%s %s %s", s, e.Relation, e.Object)
}

// edgeClass maps an edge's state onto the diagram's classes of facts.
func edgeClass(state memory.EdgeState) string {
	switch state {
	case memory.EdgeEnded:
		return "superseded"
	case memory.EdgeRetracted:
		return "retracted"
	case memory.EdgeUpcoming:
		return "upcoming"
	}
	return "current"
}
