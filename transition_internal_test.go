package memory

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/palimpsest-mem/memory/kv"
)

// The transition table, row by row: each step from each state it may or
// may not follow, with the state it leads to or the error that refuses it.
func TestNext(t *testing.T) {
	current := factState{recorded: true, last: 10, confirmed: map[uint64]int{}}
	ended := factState{recorded: true, until: 10, by: 7, last: 10, confirmed: map[uint64]int{}}
	pinned := factState{recorded: true, pinned: true, last: 10, confirmed: map[uint64]int{}}
	pinnedEnded := factState{recorded: true, until: 10, pinned: true, last: 10, confirmed: map[uint64]int{}}
	confirmed := factState{recorded: true, last: 10, confirmed: map[uint64]int{4: 1}}
	endedConfirmed := factState{recorded: true, until: 12, last: 12, confirmed: map[uint64]int{4: 1}}
	ev := func(k kv.EventKind, at int64) kv.Event { return kv.Event{Kind: k, At: at} }
	auto := func(e kv.Event) kv.Event { e.Auto = true; return e }
	for _, c := range []struct {
		name    string
		from    factState
		e       kv.Event
		want    factState // when wantErr is nil and bad is false
		wantErr error     // a sentinel the refusal wraps
		bad     bool      // refused, with no sentinel: no write takes it
	}{
		{name: "record", from: factState{}, e: ev(kv.Recorded, 5), want: factState{recorded: true, last: 5}},
		{name: "a step before the recording", from: factState{}, e: ev(kv.Pinned, 5), bad: true},
		{name: "recorded again", from: current, e: ev(kv.Recorded, 11), bad: true},
		{name: "supersede", from: current, e: kv.Event{Kind: kv.Superseded, At: 11, By: 3}, want: factState{recorded: true, until: 11, by: 3, last: 11}},
		{name: "retract", from: current, e: ev(kv.Retracted, 11), want: factState{recorded: true, until: 11, last: 11}},
		{name: "retract names no successor", from: current, e: kv.Event{Kind: kv.Retracted, At: 11, By: 3}, want: factState{recorded: true, until: 11, last: 11}},
		{name: "supersede an ended fact", from: ended, e: kv.Event{Kind: kv.Superseded, At: 11, By: 3}, wantErr: ErrNotCurrent},
		{name: "retract an ended fact", from: ended, e: ev(kv.Retracted, 11), wantErr: ErrNotCurrent},
		{name: "restore", from: ended, e: ev(kv.Restored, 11), want: factState{recorded: true, last: 11}},
		{name: "restore a current fact", from: current, e: ev(kv.Restored, 11), wantErr: ErrAlreadyCurrent},
		{name: "pin", from: current, e: ev(kv.Pinned, 11), want: factState{recorded: true, pinned: true, last: 11}},
		{name: "pin an ended fact", from: ended, e: ev(kv.Pinned, 11), want: factState{recorded: true, until: 10, by: 7, pinned: true, last: 11}},
		{name: "unpin", from: pinned, e: ev(kv.Unpinned, 11), want: factState{recorded: true, last: 11}},
		{name: "a person retracts a pinned fact", from: pinned, e: ev(kv.Retracted, 11), want: factState{recorded: true, until: 11, pinned: true, last: 11}},
		{name: "automation supersedes a pinned fact", from: pinned, e: auto(kv.Event{Kind: kv.Superseded, At: 11, By: 3}), wantErr: ErrPinned},
		{name: "automation retracts a pinned fact", from: pinned, e: auto(ev(kv.Retracted, 11)), wantErr: ErrPinned},
		{name: "automation restores a pinned fact", from: pinnedEnded, e: auto(ev(kv.Restored, 11)), wantErr: ErrPinned},
		{name: "automation confirms a pinned fact", from: pinned, e: auto(kv.Event{Kind: kv.Confirmed, At: 11, Decision: 4}), want: factState{recorded: true, pinned: true, last: 11, confirmed: map[uint64]int{4: 1}}},
		{name: "automation pins", from: current, e: auto(ev(kv.Pinned, 11)), want: factState{recorded: true, pinned: true, last: 11}},
		{name: "confirm", from: current, e: kv.Event{Kind: kv.Confirmed, At: 11, Decision: 4}, want: factState{recorded: true, last: 11, confirmed: map[uint64]int{4: 1}}},
		{name: "confirm an ended fact", from: ended, e: kv.Event{Kind: kv.Confirmed, At: 11, Decision: 4}, wantErr: ErrNotCurrent},
		{name: "cancel a confirmation", from: confirmed, e: kv.Event{Kind: kv.Unconfirmed, At: 11, Undoes: 4}, want: factState{recorded: true, last: 11}},
		{name: "cancel a confirmation of an ended fact", from: endedConfirmed, e: kv.Event{Kind: kv.Unconfirmed, At: 13, Undoes: 4}, want: factState{recorded: true, until: 12, last: 13}},
		{name: "cancel a confirmation of another decision", from: confirmed, e: kv.Event{Kind: kv.Unconfirmed, At: 11, Undoes: 5}, wantErr: errNoConfirmation},
		{name: "cancel a confirmation not read from the log", from: factState{recorded: true, last: 10}, e: kv.Event{Kind: kv.Unconfirmed, At: 11, Undoes: 4}, wantErr: errNoConfirmation},
		{name: "a step before the last", from: current, e: ev(kv.Retracted, 9), wantErr: ErrTimeOrder},
		{name: "a step at the time of the last", from: current, e: ev(kv.Retracted, 10), want: factState{recorded: true, until: 10, last: 10}},
		{name: "a wrong step before the last says what is wrong", from: current, e: ev(kv.Restored, 9), wantErr: ErrAlreadyCurrent},
		{name: "nothing to cancel, before the last", from: current, e: kv.Event{Kind: kv.Unconfirmed, At: 9, Undoes: 4}, wantErr: errNoConfirmation},
		{name: "unknown kind", from: current, e: ev(kv.Unconfirmed+1, 11), bad: true},
		{name: "recorded at record time zero", from: factState{}, e: ev(kv.Recorded, 0), bad: true},
		{name: "retracted at record time zero", from: factState{recorded: true, last: -5}, e: ev(kv.Retracted, 0), bad: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			from := c.from
			from.confirmed = cloneCounts(c.from.confirmed)
			got, err := next(from, &c.e)
			switch {
			case c.wantErr != nil:
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("next: %v, want %v", err, c.wantErr)
				}
			case c.bad:
				if err == nil {
					t.Fatalf("next took it: %+v", got)
				}
				for _, s := range []error{ErrNotCurrent, ErrAlreadyCurrent, ErrPinned, ErrTimeOrder, errNoConfirmation} {
					if errors.Is(err, s) {
						t.Fatalf("next: %v, a refusal no write meets wraps %v", err, s)
					}
				}
			default:
				if err != nil {
					t.Fatalf("next: %v", err)
				}
				if !sameState(got, c.want) {
					t.Fatalf("next: %+v, want %+v", got, c.want)
				}
			}
			if err != nil && !sameState(from, c.from) {
				t.Fatalf("a refused step changed the state: %+v, was %+v", from, c.from)
			}
		})
	}
}

func cloneCounts(m map[uint64]int) map[uint64]int {
	if m == nil {
		return nil
	}
	out := map[uint64]int{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sameState compares two states, an absent confirmation count as zero.
func sameState(a, b factState) bool {
	if a.recorded != b.recorded || a.until != b.until || a.by != b.by || a.pinned != b.pinned || a.last != b.last {
		return false
	}
	for _, m := range []map[uint64]int{a.confirmed, b.confirmed} {
		for k := range m {
			if a.confirmed[k] != b.confirmed[k] {
				return false
			}
		}
	}
	return true
}

// Any log, drawn at random: every state the table passes through is one a
// record can hold (current exactly while not ended, a successor only
// after a supersede and the one it names, confirmations never negative,
// times never going back), and replay ends where the steps end.
func TestReplayProperty(t *testing.T) {
	kinds := []kv.EventKind{kv.Recorded, kv.Superseded, kv.Retracted, kv.Restored, kv.Pinned, kv.Unpinned, kv.Confirmed, kv.Unconfirmed}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "steps")
		evs := make([]kv.Event, n)
		at := int64(1)
		for i := range evs {
			at += rapid.Int64Range(-1, 3).Draw(t, "dt")
			evs[i] = kv.Event{Kind: rapid.SampledFrom(kinds).Draw(t, "kind"), At: at,
				Auto: rapid.Bool().Draw(t, "auto"), By: rapid.Uint64Range(0, 2).Draw(t, "by"),
				Decision: rapid.Uint64Range(0, 2).Draw(t, "decision"), Undoes: rapid.Uint64Range(0, 2).Draw(t, "undoes")}
		}
		if n > 0 && rapid.IntRange(0, 9).Draw(t, "recorded first") > 0 {
			evs[0].Kind = kv.Recorded // most logs get past their first step
		}
		whole, wholeErr := replay(evs)
		st := factState{confirmed: map[uint64]int{}}
		for i := range evs {
			var err error
			prev := st.last
			if st, err = next(st, &evs[i]); err != nil {
				if wholeErr == nil {
					t.Fatalf("replay took the log, next refused step %d: %v", i, err)
				}
				return
			}
			if st.current() != (st.until == 0) || (st.by != 0 && st.until == 0) || st.last < prev {
				t.Fatalf("step %d led to %+v", i, st)
			}
			for d, c := range st.confirmed {
				if c < 0 {
					t.Fatalf("step %d: decision %d has %d confirmations", i, d, c)
				}
			}
			if evs[i].Kind == kv.Superseded && st.by != evs[i].By {
				t.Fatalf("step %d: superseded by %d, state names %d", i, evs[i].By, st.by)
			}
		}
		if wholeErr != nil {
			t.Fatalf("every step taken, replay refused: %v", wholeErr)
		}
		if !sameState(whole, st) {
			t.Fatalf("replay %+v, steps %+v", whole, st)
		}
	})
}

// The log replay takes a confirmed step on a current fact, which moves no
// marker, and refuses one on a fact that is not current: no write makes it.
func TestReplayConfirmed(t *testing.T) {
	r := kv.Record{ID: 1, RecordedAt: 1}
	evs := []kv.Event{{Kind: kv.Recorded, At: 1}, {Kind: kv.Confirmed, At: 2, Auto: true, Decision: 3}}
	if err := replayMatches(&r, evs); err != nil {
		t.Fatalf("confirmed current fact: %v", err)
	}
	r.ValidUntil = 3
	evs = append(evs, kv.Event{Kind: kv.Retracted, At: 3}, kv.Event{Kind: kv.Confirmed, At: 4})
	if err := replayMatches(&r, evs); !errors.Is(err, ErrNotCurrent) {
		t.Fatalf("confirmed retracted fact: %v", err)
	}
	if err := replayMatches(&r, append(evs[:3:3], kv.Event{Kind: kv.Confirmed + 1, At: 4})); err == nil {
		t.Fatal("a step of unknown kind replayed")
	}
}
