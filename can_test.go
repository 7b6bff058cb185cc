package memory_test

import (
	"errors"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// sameAnswer holds a dry run to the write it stands for: CanX must answer
// what X then does, refusing with the same error or letting it through,
// and change nothing itself.
func sameAnswer(t *testing.T, s *memory.Store, want error, can func() error, do func() error) {
	t.Helper()
	before := snapshot(t, s)
	got := can()
	if snapshot(t, s) != before {
		t.Fatal("the dry run changed the store")
	}
	if !errors.Is(got, want) || (want == nil) != (got == nil) {
		t.Errorf("dry run: %v, want %v", got, want)
	}
	done := do()
	switch {
	case (got == nil) != (done == nil):
		t.Errorf("dry run %v, the write %v", got, done)
	case got != nil && got.Error() != done.Error():
		t.Errorf("dry run %q, the write %q", got, done)
	}
}

// CanUndo answers, for a decision in each state, what Undo then does.
func TestCanUndoAnswersAsUndo(t *testing.T) {
	for _, tc := range []struct {
		name  string
		since func(t *testing.T, s *memory.Store, d memory.Decision) // what happened after the decision
		want  error
	}{
		{name: "an update, untouched", want: nil},
		{name: "undone before", want: memory.ErrAlreadyUndone,
			since: func(t *testing.T, s *memory.Store, d memory.Decision) {
				must[memory.Decision](t)(s.Undo(ctx, "", d.ID))
			}},
		{name: "its new fact retracted since", want: memory.ErrUndoStale,
			since: func(t *testing.T, s *memory.Store, d memory.Decision) {
				must[memory.Fact](t)(s.Invalidate(ctx, "", d.Added, memory.Change{Reason: "not so"}))
			}},
		{name: "its new fact superseded since", want: memory.ErrUndoStale,
			since: func(t *testing.T, s *memory.Store, d memory.Decision) {
				must[memory.Fact](t)(s.Supersede(ctx, "", d.Added, memory.Note{Text: "I live in Rome now."}))
			}},
		{name: "its old fact restored since", want: memory.ErrUndoStale,
			since: func(t *testing.T, s *memory.Store, d memory.Decision) {
				must[memory.Fact](t)(s.Restore(ctx, "", d.Target, memory.Change{Reason: "both"}))
			}},
		{name: "no such decision", want: memory.ErrNotFound,
			since: func(t *testing.T, s *memory.Store, d memory.Decision) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock("2026-01-01")
			s, _ := open(t, c, &memory.Options{Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
			must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
			c.set("2026-02-01")
			d := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."})).Decision
			if d.Action != memory.ActionUpdate {
				t.Fatalf("setup: %+v", d)
			}
			id := d.ID
			c.set("2026-03-01")
			if tc.since != nil {
				tc.since(t, s, d)
			}
			if tc.want == memory.ErrNotFound {
				id = 99
			}
			c.set("2026-04-01")
			sameAnswer(t, s, tc.want, func() error { return s.CanUndo(ctx, "", id) },
				func() error { return second(s.Undo(ctx, "", id)) })
		})
	}
}

// CanResolve answers, for a conflict in each state and each choice, what
// ResolveConflict then does.
func TestCanResolveAnswersAsResolve(t *testing.T) {
	for _, tc := range []struct {
		name string
		keep memory.Keep
		// existingFrom is the explicit start of the pinned fact, newFrom
		// the new one's; zero: none.
		existingFrom, newFrom string
		since                 func(t *testing.T, s *memory.Store, c memory.Conflict)
		want                  error
	}{
		{name: "open, keep new", keep: memory.KeepNew},
		{name: "open, keep existing", keep: memory.KeepExisting},
		{name: "open, keep both", keep: memory.KeepBoth},
		{name: "resolved before", keep: memory.KeepNew, want: memory.ErrResolved,
			since: func(t *testing.T, s *memory.Store, c memory.Conflict) {
				must[memory.Conflict](t)(s.ResolveConflict(ctx, "", c.ID, memory.KeepBoth))
			}},
		{name: "moot: the existing fact retracted since", keep: memory.KeepBoth, want: memory.ErrMoot,
			since: func(t *testing.T, s *memory.Store, c memory.Conflict) {
				must[memory.Fact](t)(s.Invalidate(ctx, "", c.Existing, memory.Change{Reason: "never true"}))
			}},
		{name: "keep new over a fact that starts after it", keep: memory.KeepNew, existingFrom: "2026-06-01", newFrom: "2026-03-01",
			want: memory.ErrInvalidInterval},
		{name: "keep existing there", keep: memory.KeepExisting, existingFrom: "2026-06-01", newFrom: "2026-03-01"},
		{name: "an unknown choice", keep: "neither", want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock("2026-01-01")
			s, _ := open(t, c, &memory.Options{Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
			old := memory.Note{Text: "I live in Lyon.", Pinned: true}
			if tc.existingFrom != "" {
				old.EventFrom = date(tc.existingFrom)
			}
			must[memory.Fact](t)(s.Add(ctx, old))
			c.set("2026-02-01")
			n := memory.Note{Text: "I live in Paris now."}
			if tc.newFrom != "" {
				n.EventFrom = date(tc.newFrom)
			}
			d := must[memory.Outcome](t)(s.Remember(ctx, n)).Decision
			if d.Conflict == 0 {
				t.Fatalf("setup: no conflict: %+v", d)
			}
			cf := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))[0]
			c.set("2026-03-01")
			if tc.since != nil {
				tc.since(t, s, cf)
			}
			c.set("2026-04-01")
			can := func() error { return s.CanResolve(ctx, "", cf.ID, tc.keep) }
			do := func() error { return second(s.ResolveConflict(ctx, "", cf.ID, tc.keep)) }
			if tc.keep == "neither" {
				// Refused by both, with the same words, before any read.
				if err, done := can(), do(); err == nil || done == nil || err.Error() != done.Error() {
					t.Errorf("keep %q: dry run %v, the write %v", tc.keep, err, done)
				}
				return
			}
			sameAnswer(t, s, tc.want, can, do)
		})
	}
}

// A store opened read-only offers nothing: both dry runs say so.
func TestCanOnAReadOnlyStore(t *testing.T) {
	c := newClock("2026-01-01")
	s, path := open(t, c, &memory.Options{Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon.", Pinned: true}))
	c.set("2026-02-01")
	d := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."})).Decision
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true, Clock: c.Now}))
	t.Cleanup(func() { ro.Close() })
	if err := ro.CanUndo(ctx, "", d.ID); !errors.Is(err, memory.ErrReadOnly) {
		t.Errorf("CanUndo: %v", err)
	}
	if err := ro.CanResolve(ctx, "", d.Conflict, memory.KeepBoth); !errors.Is(err, memory.ErrReadOnly) {
		t.Errorf("CanResolve: %v", err)
	}
}
