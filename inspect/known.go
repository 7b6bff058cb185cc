package inspect

import (
	"context"
	"time"

	"github.com/palimpsest-mem/memory"
)

// A time-travel page shows the facts as the store knew them at the record
// time asked: every read gives a fact as it stands now (At too, whatever
// record time it is asked about), so a fact superseded since would show
// today's state and interval. Its lifecycle log, replayed up to that time
// as At replays it, gives the state and the interval then.

// asKnown is f as the store knew it at record time k, which it was
// recorded by: its markers (superseded, retracted, pinned) and its event
// interval then, and its state then, which Fact.State cannot tell when a
// successor has been deleted since.
func asKnown(f memory.Fact, evs []memory.Event, k time.Time) (memory.Fact, memory.State) {
	h := replay(f, evs, k)
	g := f
	g.ValidUntil, g.SupersededBy, g.Pinned = h.Until, h.By, h.Pinned
	g.EventStart, g.EventEnd = h.Start, h.End
	state := memory.Current
	switch {
	case !h.Visible:
		state = memory.Retracted
	case h.Superseded:
		state = memory.Superseded
	}
	return g, state
}

// travelViews are fs, read at the times of t, as the store knew them at
// t.Known: states, intervals and pins then, upcoming and ended as of then.
// Without a record time they are as the store knows them now.
func (h *Handler) travelViews(ctx context.Context, user string, fs []memory.Fact, t travel) ([]factView, error) {
	now := h.o.Clock()
	out := make([]factView, len(fs))
	for i, f := range fs {
		if t.Known.IsZero() {
			out[i] = view(f, now)
			continue
		}
		evs, err := h.s.Events(ctx, user, f.ID)
		if err != nil {
			return nil, err
		}
		g, state := asKnown(f, evs, t.Known)
		out[i] = viewState(g, state, minTime(now, t.Known))
	}
	return out, nil
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
