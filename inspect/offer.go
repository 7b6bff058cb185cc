package inspect

import (
	"context"
	"errors"
	"strings"

	"github.com/palimpsest-mem/memory"
)

// A page offers an action only where the store would do it: it asks
// CanUndo and CanResolve, the rule the writes apply, and where the answer
// is no it says why in words instead of a button that would answer 409.

// keepOffer is one way to settle a conflict, with why not when the store
// would refuse it.
type keepOffer struct {
	Keep         memory.Keep
	Label, Title string
	Ghost        bool
	WhyNot       string
}

// keeps are the choices of a conflict, in the order the page shows them.
var keeps = []keepOffer{
	{Keep: memory.KeepNew, Label: "Keep new", Title: "The new fact replaces the existing one"},
	{Keep: memory.KeepExisting, Label: "Keep existing", Title: "The new fact is retracted", Ghost: true},
	{Keep: memory.KeepBoth, Label: "Keep both", Title: "Both stay current", Ghost: true},
}

// offerKeeps asks the store about each choice of open conflict c. When
// every one is refused for one reason, that reason is the answer (settle)
// and no choice is offered.
func (h *Handler) offerKeeps(ctx context.Context, user string, c memory.Conflict) (offers []keepOffer, settle string) {
	why := map[string]bool{}
	for _, k := range keeps {
		if err := h.s.CanResolve(ctx, user, c.ID, k.Keep); err != nil {
			k.WhyNot = whyNot(err)
			why[k.WhyNot] = true
		}
		offers = append(offers, k)
	}
	if len(why) == 1 && offers[0].WhyNot != "" && offers[1].WhyNot != "" && offers[2].WhyNot != "" {
		return nil, offers[0].WhyNot
	}
	return offers, ""
}

// undoWhyNot is why the store would refuse Undo of v now, "" when it
// would undo it.
func (h *Handler) undoWhyNot(ctx context.Context, user string, v decisionView) string {
	err := h.s.CanUndo(ctx, user, v.ID)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, memory.ErrUndoStale):
		return staleWhy(v)
	}
	return whyNot(err)
}

// staleWhy says which fact of a decision changed since it, as the facts
// stand now; the store said one did.
func staleWhy(v decisionView) string {
	if a := v.Added; a.ID != 0 && !a.Gone {
		switch {
		case a.Fact.Fact.State() != memory.Current:
			return "#" + itoa(a.ID) + ", the fact it stored, was " + a.Fact.Fact.State().String() + " since"
		case len(a.Fact.AlsoSupersedes) > 0:
			return "#" + itoa(a.ID) + ", the fact it stored, was kept over other facts since, in a conflict"
		case v.Action == memory.ActionUpdate && a.Fact.Supersedes != v.Target.ID:
			return "#" + itoa(a.ID) + ", the fact it stored, no longer replaces #" + itoa(v.Target.ID)
		}
	}
	if t := v.Target; t.ID != 0 && !t.Gone {
		did := "superseded"
		if v.Action == memory.ActionInvalidate {
			did = "retracted"
		}
		if t.Fact.Fact.State() == memory.Current {
			return "#" + itoa(t.ID) + ", the fact it " + did + ", is current again"
		}
		return "#" + itoa(t.ID) + ", the fact it " + did + ", has changed since"
	}
	return "the facts it changed have changed since"
}

// whyNot says in words why the store refuses a change.
func whyNot(err error) string {
	switch {
	case errors.Is(err, memory.ErrAlreadyUndone):
		return "it was undone already"
	case errors.Is(err, memory.ErrUndoStale):
		return "the facts it changed have changed since"
	case errors.Is(err, memory.ErrResolved):
		return "it is resolved already"
	case errors.Is(err, memory.ErrMoot):
		if _, cause, ok := strings.Cut(err.Error(), memory.ErrMoot.Error()+": "); ok {
			return "it no longer holds: " + cause
		}
		return "it no longer holds: a fact of it is no longer current"
	case errors.Is(err, memory.ErrInvalidInterval):
		return "the existing fact starts after the new one, so the new one cannot be what replaced it"
	case errors.Is(err, memory.ErrSupersessionCycle):
		return "the existing fact already follows the new one"
	case errors.Is(err, memory.ErrTimeOrder):
		return "the store's clock stands before the facts' last change"
	case errors.Is(err, memory.ErrInvalidClock):
		return "the store's clock reads a time no record can hold"
	case errors.Is(err, memory.ErrReadOnly):
		return "the store is open read-only"
	case errors.Is(err, memory.ErrStale):
		return "the store must be repaired first (memctl repair)"
	case errors.Is(err, memory.ErrNotFound):
		return "a fact it names is gone"
	}
	return err.Error()
}
