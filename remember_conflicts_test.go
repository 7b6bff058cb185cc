package memory_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// unsureStore holds two facts the new one may replace, and a decider unsure
// which: it names both. out is the Remember of the new fact.
func unsureStore(t *testing.T) (s *memory.Store, cello, piano memory.Fact, out memory.Outcome) {
	t.Helper()
	c := newClock("2026-03-01")
	dec := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		if len(in.Candidates) < 2 {
			return memory.Verdict{Action: memory.ActionAdd, Reason: "new", Decider: "custom"}, nil
		}
		// The candidate told first is named first, whatever the lookup's order.
		first, second := 1, 2
		if in.Candidates[0].Text != "I play the cello in a quartet." {
			first, second = 2, 1
		}
		return memory.Verdict{Action: memory.ActionAdd, ConflictWith: first, AlsoConflictWith: []int{second},
			Reason: "unsure which", Decider: "custom"}, nil
	}}
	s, _ = open(t, c, &memory.Options{NoSync: true, Decider: dec})
	cello = must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I play the cello in a quartet.", Source: memory.Source{SaidAt: date("2026-03-01")}}))
	piano = must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I play the piano at home.", Source: memory.Source{SaidAt: date("2026-03-02")}}))
	c.set("2026-04-01")
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin these days."}))
	return s, cello, piano, out
}

// A decision unsure which of two facts the new one replaces records a
// conflict with each, and the prompt asks about both on the new fact's line.
func TestRememberConflictsWithTwo(t *testing.T) {
	s, cello, piano, out := unsureStore(t)
	d := out.Decision
	if d.Action != memory.ActionAdd || d.Target != cello.ID || d.Conflict == 0 || len(d.AlsoConflicts) != 1 || d.Added != out.Fact.ID {
		t.Fatalf("decision %+v", d)
	}
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 2 {
		t.Fatalf("conflicts %+v, want two", cs)
	}
	slices.SortFunc(cs, func(a, b memory.Conflict) int { return int(a.ID) - int(b.ID) })
	for i, want := range []struct{ id, existing uint64 }{{d.Conflict, cello.ID}, {d.AlsoConflicts[0], piano.ID}} {
		if c := cs[i]; c.ID != want.id || c.Existing != want.existing || c.New != out.Fact.ID || c.Decision != d.ID || c.ResolvedAt != nil {
			t.Errorf("conflict %+v, want id %d with fact %d", c, want.id, want.existing)
		}
	}
	for _, f := range []memory.Fact{cello, piano} {
		if g := getFact(t, s, "", f.ID); g.State() != memory.Current {
			t.Errorf("fact %d is %s, want current", f.ID, g.State())
		}
	}
	p := must[string](t)(s.Prompt(ctx, "", nil))
	want := `- I play the violin these days. (unconfirmed: may replace "I play the cello in a quartet.", told 2026-03-01, or "I play the piano at home.", told 2026-03-02 — ask)`
	if !slices.Contains(promptLines(p), want) {
		t.Fatalf("prompt:\n%s\nwant the line %q", p, want)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// Each conflict of such a decision is resolved on its own: the note keeps
// asking about the other until it is settled too.
func TestRememberConflictsResolveEach(t *testing.T) {
	s, cello, piano, out := unsureStore(t)
	d := out.Decision
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", d.Conflict, memory.KeepNew))
	if g := getFact(t, s, "", cello.ID); g.State() == memory.Current {
		t.Fatalf("the cello is still current after keeping the violin")
	}
	p := must[string](t)(s.Prompt(ctx, "", nil))
	want := `- I play the violin these days. (unconfirmed: may replace "I play the piano at home.", told 2026-03-02 — ask)`
	if !slices.Contains(promptLines(p), want) || strings.Contains(p, "cello") {
		t.Fatalf("after keeping the violin over the cello:\n%s\nwant the line %q", p, want)
	}
	// The violin replaces one fact already, and may replace the piano
	// too: keeping it over the piano supersedes the piano as well.
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", d.AlsoConflicts[0], memory.KeepNew))
	if g := getFact(t, s, "", piano.ID); g.State() != memory.Superseded || g.SupersededBy != out.Fact.ID {
		t.Fatalf("the piano is %s (by %d) after keeping the violin over it too", g.State(), g.SupersededBy)
	}
	v := getFact(t, s, "", out.Fact.ID)
	if v.Supersedes != cello.ID || !slices.Equal(v.AlsoSupersedes, []uint64{piano.ID}) {
		t.Errorf("the violin supersedes %d and %v, want %d and [%d]", v.Supersedes, v.AlsoSupersedes, cello.ID, piano.ID)
	}
	p = must[string](t)(s.Prompt(ctx, "", nil))
	if strings.Contains(p, "unconfirmed") || strings.Contains(p, "piano") || !promptHas(p, "I play the violin these days.") {
		t.Fatalf("after keeping the violin over both:\n%s", p)
	}
	if n := len(must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))); n != 0 {
		t.Errorf("%d conflicts open", n)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	// The undo of the decision is stale now, and changes nothing.
	if _, err := s.Undo(ctx, "", d.ID); !errors.Is(err, memory.ErrUndoStale) {
		t.Errorf("undo after both resolutions: %v, want ErrUndoStale", err)
	}
}

// Undo of such a decision retracts the new fact; both old facts stay, and
// the prompt has nothing to ask.
func TestRememberConflictsUndo(t *testing.T) {
	s, cello, piano, out := unsureStore(t)
	must[memory.Decision](t)(s.Undo(ctx, "", out.Decision.ID))
	if g := getFact(t, s, "", out.Fact.ID); g.State() == memory.Current {
		t.Fatalf("the new fact is still current after undo")
	}
	for _, f := range []memory.Fact{cello, piano} {
		if g := getFact(t, s, "", f.ID); g.State() != memory.Current {
			t.Errorf("fact %d is %s after undo, want current", f.ID, g.State())
		}
	}
	p := must[string](t)(s.Prompt(ctx, "", nil))
	if strings.Contains(p, "unconfirmed") || strings.Contains(p, "violin") {
		t.Fatalf("after undo:\n%s", p)
	}
	if _, err := s.Undo(ctx, "", out.Decision.ID); !errors.Is(err, memory.ErrAlreadyUndone) {
		t.Errorf("second undo: %v, want ErrAlreadyUndone", err)
	}
}

// A decider naming the same candidate twice, or a second one with no
// first, is refused as any invalid answer is: the fallback adds, with no
// conflict.
func TestRememberConflictsRefusesBadNames(t *testing.T) {
	for name, v := range map[string]memory.Verdict{
		"twice":        {Action: memory.ActionAdd, ConflictWith: 1, AlsoConflictWith: []int{1}},
		"no first":     {Action: memory.ActionAdd, AlsoConflictWith: []int{1}},
		"out of range": {Action: memory.ActionAdd, ConflictWith: 1, AlsoConflictWith: []int{9}},
		"on an update": {Action: memory.ActionUpdate, Target: 1, AlsoConflictWith: []int{1}},
	} {
		t.Run(name, func(t *testing.T) {
			dec := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
				if len(in.Candidates) == 0 {
					return memory.Verdict{Action: memory.ActionAdd, Reason: "new"}, nil
				}
				return v, nil
			}}
			s, _ := open(t, newClock("2026-03-01"), &memory.Options{NoSync: true, Decider: dec})
			must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I play the cello in a quartet."}))
			out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin in a quartet."}))
			if out.Decision.Fallback == "" || out.Decision.Conflict != 0 || len(out.Decision.AlsoConflicts) != 0 {
				t.Fatalf("decision %+v, want the fallback's add", out.Decision)
			}
			if n := len(must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))); n != 0 {
				t.Errorf("%d conflicts", n)
			}
		})
	}
}

// Export keeps a decision's further conflicts, and Import restores them;
// a version 5 export, which had none, is refused if it names one.
func TestRememberConflictsExport(t *testing.T) {
	s, _, _, out := unsureStore(t)
	var b bytes.Buffer
	if err := s.Export(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), fmt.Sprintf(`"also_conflicts":[%d]`, out.Decision.AlsoConflicts[0])) {
		t.Fatalf("export lacks the further conflict:\n%s", b.String())
	}
	back, _ := open(t, newClock("2026-05-01"), &memory.Options{NoSync: true})
	must[int](t)(back.Import(ctx, bytes.NewReader(b.Bytes()), nil))
	if n := len(must[[]memory.Conflict](t)(back.Conflicts(ctx, "", nil))); n != 2 {
		t.Errorf("%d conflicts imported, want 2", n)
	}
	ds := must[[]memory.Decision](t)(back.Decisions(ctx, "", 0))
	if i := slices.IndexFunc(ds, func(d memory.Decision) bool { return d.ID == out.Decision.ID }); i < 0 ||
		!slices.Equal(ds[i].AlsoConflicts, out.Decision.AlsoConflicts) {
		t.Errorf("imported decisions %+v", ds)
	}
	old := shared(t, b.String(), 5)
	fresh, _ := open(t, newClock("2026-05-01"), &memory.Options{NoSync: true})
	if _, err := fresh.Import(ctx, strings.NewReader(old), nil); !errors.Is(err, memory.ErrBadImport) || !strings.Contains(err.Error(), "version 5") {
		t.Errorf("version 5 import with further conflicts: %v, want ErrBadImport naming the version", err)
	}
	if n := len(must[[]memory.Fact](t)(fresh.List(ctx, "", nil))); n != 0 {
		t.Errorf("a refused import left %d facts", n)
	}
}
