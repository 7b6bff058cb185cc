package inspect

import (
	"context"
	"net/http"
	"time"

	"github.com/palimpsest-mem/memory"
)

// Where a fact is shown, an open conflict it is in is said beside it, with
// the other fact and a link to settle it: a question for the user should
// not wait on a page they may never open.

// conflictFlag is an open conflict a fact is in, as its row or page shows it.
type conflictFlag struct {
	Conflict uint64
	Other    ref // the other fact of the conflict
	// Open says it is open now; a time-travel page also flags the
	// conflicts open then, and Since says how they ended.
	Open  bool
	Since string
	Link  string // the conflict on /conflicts
}

// openAt reports whether c was open at record time k, zero meaning now.
func openAt(c memory.Conflict, k time.Time) bool {
	if k.IsZero() {
		return c.Open()
	}
	return !c.At.After(k) && (c.ResolvedAt == nil || c.ResolvedAt.After(k)) && (c.MootAt == nil || c.MootAt.After(k))
}

// openConflicts are user's conflicts open at record time known (zero: now),
// by the facts they name.
func (h *Handler) openConflicts(ctx context.Context, user string, known time.Time) (map[uint64][]memory.Conflict, error) {
	var opts *memory.ConflictOptions
	if !known.IsZero() {
		opts = &memory.ConflictOptions{All: true}
	}
	cs, err := h.s.Conflicts(ctx, user, opts)
	if err != nil {
		return nil, err
	}
	out := map[uint64][]memory.Conflict{}
	for _, c := range cs {
		if openAt(c, known) {
			out[c.New] = append(out[c.New], c)
			out[c.Existing] = append(out[c.Existing], c)
		}
	}
	return out, nil
}

// flagFacts flags each of fs that is in a conflict open at record time
// known (zero: now).
func (h *Handler) flagFacts(r *http.Request, user string, known time.Time, fs []factView) error {
	byFact, err := h.openConflicts(r.Context(), user, known)
	if err != nil || len(byFact) == 0 {
		return err
	}
	x := h.refs(r, user)
	for i := range fs {
		for _, c := range byFact[fs[i].ID] {
			other := c.New
			if other == fs[i].ID {
				other = c.Existing
			}
			o, err := x.get(other)
			if err != nil {
				return err
			}
			fl := conflictFlag{Conflict: c.ID, Other: o, Open: c.Open()}
			switch {
			case fl.Open:
				fl.Link = href("/conflicts", user, "id", itoa(c.ID)) + "#c" + itoa(c.ID)
			case c.ResolvedAt != nil:
				fl.Since = "resolved " + stamp(*c.ResolvedAt) + ": kept " + string(c.Resolution)
			case c.MootAt != nil:
				fl.Since = "moot since " + stamp(*c.MootAt)
			}
			if !fl.Open {
				fl.Link = href("/conflicts", user, "all", "1", "id", itoa(c.ID)) + "#c" + itoa(c.ID)
			}
			fs[i].Flags = append(fs[i].Flags, fl)
		}
	}
	return nil
}

// openCount is how many conflicts of user are open now, for the nav; a
// failure shows none.
func (h *Handler) openCount(ctx context.Context, user string) int {
	cs, err := h.s.Conflicts(ctx, user, nil)
	if err != nil {
		return 0
	}
	return len(cs)
}
