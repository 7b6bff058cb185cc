package inspect

import (
	"fmt"
	"net/http"

	"github.com/palimpsest-mem/memory"
)

// whyData is "why was this compared": the decisions that concerned a fact,
// with the candidates each was shown, and what the lookup finds for its text
// now, with the evidence.
type whyData struct {
	Fact      factView
	Decisions []decisionView
	Lookup    memory.Lookup
	// Evidence maps a candidate's id to the lookup's evidence for it now.
	Evidence  map[uint64]memory.Candidate
	LookupErr string
}

// why is /facts/{id}/why.
func (h *Handler) why(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user := userOf(r)
	f, _, ok := h.pathFact(w, r, false)
	if !ok {
		return
	}
	id := f.ID
	d := whyData{Fact: view(f, h.o.Clock()), Evidence: map[uint64]memory.Candidate{}}
	decs, err := h.s.Decisions(ctx, user, 0)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	x := h.refs(r, user)
	for _, dec := range decs {
		if dec.Added != id && dec.Target != id {
			continue
		}
		v, err := h.decisionView(x, dec)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		d.Decisions = append(d.Decisions, v)
	}
	// The lookup sees only current facts, and the fact itself is one when
	// current: it is left out, as it was not there when it was compared.
	lk, err := h.s.Candidates(ctx, user, f.Text, memory.DefaultCandidates+1)
	if err != nil {
		d.LookupErr = err.Error()
	}
	kept := lk.Candidates[:0]
	for _, c := range lk.Candidates {
		if c.Fact.ID != id {
			kept = append(kept, c)
			d.Evidence[c.Fact.ID] = c
		}
	}
	lk.Candidates = kept
	d.Lookup = lk
	h.render(w, http.StatusOK, "why", h.newPage(ctx, r, fmt.Sprintf("Why fact #%d was compared", id), "facts", d))
}
