package inspect

import (
	"errors"
	"net/http"
	"slices"

	"github.com/palimpsest-mem/memory"
)

// ref is a fact a decision or conflict names, as it stands now; Gone when
// it was deleted.
type ref struct {
	ID   uint64
	Fact factView
	Gone bool
}

// decisionView is a decision with the facts it names.
type decisionView struct {
	memory.Decision
	Target, Added ref
	Candidates    []ref
	// UndoWhyNot is why the store would not undo it now; "" when it
	// would, or when it was undone (the log says when).
	UndoWhyNot string
}

// refs reads the facts a page names, each once.
type refs struct {
	h    *Handler
	r    *http.Request
	user string
	seen map[uint64]ref
}

func (h *Handler) refs(r *http.Request, user string) *refs {
	return &refs{h: h, r: r, user: user, seen: map[uint64]ref{}}
}

func (x *refs) get(id uint64) (ref, error) {
	if id == 0 {
		return ref{}, nil
	}
	if v, ok := x.seen[id]; ok {
		return v, nil
	}
	f, err := x.h.s.Get(x.r.Context(), x.user, id)
	v := ref{ID: id}
	switch {
	case errors.Is(err, memory.ErrNotFound):
		v.Gone = true
	case err != nil:
		return ref{}, err
	default:
		v.Fact = view(f, x.h.o.Clock())
	}
	x.seen[id] = v
	return v, nil
}

func (h *Handler) decisionView(x *refs, d memory.Decision) (decisionView, error) {
	v := decisionView{Decision: d}
	var err error
	if v.Target, err = x.get(d.Target); err != nil {
		return v, err
	}
	if v.Added, err = x.get(d.Added); err != nil {
		return v, err
	}
	for _, id := range d.Candidates {
		c, err := x.get(id)
		if err != nil {
			return v, err
		}
		v.Candidates = append(v.Candidates, c)
	}
	return v, nil
}

// decisions is /decisions: the decision log, newest first, with the
// candidates each was shown and an Undo button where the store would undo
// it, else why not.
func (h *Handler) decisions(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user := userOf(r)
	all, err := h.s.Decisions(ctx, user, 0)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	// ?changed=1: only the decisions that changed a fact already held (an
	// update, an invalidation, a restatement), the ones worth checking.
	changed := r.URL.Query().Get("changed") != ""
	if changed {
		all = slices.DeleteFunc(slices.Clone(all), func(d memory.Decision) bool { return d.Target == 0 })
	}
	list, pg, err := paginate(all, r, h.o.PageSize, func(d memory.Decision) uint64 { return d.ID })
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	x := h.refs(r, user)
	d := struct {
		Decisions []decisionView
		Pager     pager
		Changed   bool
	}{Pager: pg, Changed: changed}
	for _, dec := range list {
		v, err := h.decisionView(x, dec)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		if v.UndoneAt == nil {
			v.UndoWhyNot = h.undoWhyNot(ctx, user, v)
		}
		d.Decisions = append(d.Decisions, v)
	}
	h.render(w, http.StatusOK, "decisions", h.newPage(ctx, r, "Decisions", "decisions", d))
}

// undo is POST /decisions/{id}/undo.
func (h *Handler) undo(w http.ResponseWriter, r *http.Request) {
	id, user, ok := h.postTarget(w, r, "decision")
	if !ok {
		return
	}
	if _, err := h.s.Undo(r.Context(), user, id); err != nil {
		h.failErr(w, r, err)
		return
	}
	redirect(w, r, href("/decisions", user, "done", "undone"))
}
