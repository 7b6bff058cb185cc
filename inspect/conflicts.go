package inspect

import (
	"fmt"
	"net/http"

	"github.com/palimpsest-mem/memory"
)

// conflictView is a conflict with both its facts, and for an open one the
// ways to settle it: each with why not where the store would refuse it,
// or Settle, why none can be taken now.
type conflictView struct {
	memory.Conflict
	New, Existing ref
	Keeps         []keepOffer
	Settle        string
}

// conflicts is /conflicts: the open conflicts (?all=1: every one), newest
// first, each with the Resolve buttons the store would take.
func (h *Handler) conflicts(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user := userOf(r)
	showAll := r.URL.Query().Get("all") != ""
	cs, err := h.s.Conflicts(ctx, user, &memory.ConflictOptions{All: showAll})
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	list, pg, err := paginate(cs, r, h.o.PageSize, func(c memory.Conflict) uint64 { return c.ID })
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	x := h.refs(r, user)
	d := struct {
		All       bool
		Conflicts []conflictView
		Pager     pager
	}{All: showAll, Pager: pg}
	for _, c := range list {
		v := conflictView{Conflict: c}
		if v.New, err = x.get(c.New); err == nil {
			v.Existing, err = x.get(c.Existing)
		}
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		if c.Open() {
			v.Keeps, v.Settle = h.offerKeeps(ctx, user, c)
		}
		d.Conflicts = append(d.Conflicts, v)
	}
	h.render(w, http.StatusOK, "conflicts", h.newPage(ctx, r, "Conflicts", "conflicts", d))
}

// resolve is POST /conflicts/{id}/resolve with keep = new, existing or both.
func (h *Handler) resolve(w http.ResponseWriter, r *http.Request) {
	id, user, ok := h.postTarget(w, r, "conflict")
	if !ok {
		return
	}
	keep := memory.Keep(r.PostForm.Get("keep"))
	switch keep {
	case memory.KeepNew, memory.KeepExisting, memory.KeepBoth:
	default:
		h.fail(w, r, http.StatusBadRequest, fmt.Sprintf("keep %q: new, existing or both.", keep))
		return
	}
	if _, err := h.s.ResolveConflict(r.Context(), user, id, keep); err != nil {
		h.failErr(w, r, err)
		return
	}
	redirect(w, r, href("/conflicts", user, "done", string(keep)))
}
