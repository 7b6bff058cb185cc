package memory_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// conflictByID finds conflict id among all of user's.
func conflictByID(t testing.TB, s *memory.Store, user string, id uint64) memory.Conflict {
	t.Helper()
	for _, c := range must[[]memory.Conflict](t)(s.Conflicts(ctx, user, &memory.ConflictOptions{All: true})) {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no conflict %d", id)
	return memory.Conflict{}
}

func openIDs(t testing.TB, s *memory.Store, user string) []uint64 {
	t.Helper()
	var out []uint64
	for _, c := range must[[]memory.Conflict](t)(s.Conflicts(ctx, user, nil)) {
		out = append(out, c.ID)
	}
	slices.Sort(out)
	return out
}

// A conflict whose fact changes by another path becomes moot in that
// change's transaction, with the cause; it is no longer offered, and
// resolving it is refused with ErrMoot, changing nothing. Before, "keep
// existing" on a conflict whose existing fact had been retracted retracted
// the new fact, the only current one left.
func TestConflictBecomesMootByEveryPath(t *testing.T) {
	for name, tc := range map[string]struct {
		change func(t *testing.T, s *memory.Store, cello, piano memory.Fact, out memory.Outcome)
		cause  string // of the conflict with the cello
		both   bool   // the conflict with the piano is moot too
	}{
		"existing retracted": {func(t *testing.T, s *memory.Store, cello, _ memory.Fact, _ memory.Outcome) {
			must[memory.Fact](t)(s.Invalidate(ctx, "", cello.ID, memory.Change{Reason: "never played it"}))
		}, "fact 1 was retracted (never played it)", false},
		"existing superseded": {func(t *testing.T, s *memory.Store, cello, _ memory.Fact, _ memory.Outcome) {
			must[memory.Fact](t)(s.Supersede(ctx, "", cello.ID, memory.Note{Text: "I play the cello in an orchestra."}))
		}, "fact 1 was superseded by fact 4", false},
		"new retracted": {func(t *testing.T, s *memory.Store, _, _ memory.Fact, out memory.Outcome) {
			must[memory.Fact](t)(s.Invalidate(ctx, "", out.Fact.ID, memory.Change{}))
		}, "fact 3 was retracted", true},
		"new superseded": {func(t *testing.T, s *memory.Store, _, _ memory.Fact, out memory.Outcome) {
			must[memory.Fact](t)(s.Supersede(ctx, "", out.Fact.ID, memory.Note{Text: "I play the viola these days."}))
		}, "fact 3 was superseded by fact 4", true},
		"the decision undone": {func(t *testing.T, s *memory.Store, _, _ memory.Fact, out memory.Outcome) {
			must[memory.Decision](t)(s.Undo(ctx, "", out.Decision.ID))
		}, "fact 3 was retracted (undo of decision 1)", true},
		"the other conflict resolved keeping the existing fact": {func(t *testing.T, s *memory.Store, _, _ memory.Fact, out memory.Outcome) {
			must[memory.Conflict](t)(s.ResolveConflict(ctx, "", out.Decision.AlsoConflicts[0], memory.KeepExisting))
		}, "fact 3 was retracted (conflict 2 resolved: keep existing)", false},
	} {
		t.Run(name, func(t *testing.T) {
			s, cello, piano, out := unsureStore(t)
			d := out.Decision
			tc.change(t, s, cello, piano, out)
			c := conflictByID(t, s, "", d.Conflict)
			if c.MootAt == nil || c.Moot != tc.cause || c.ResolvedAt != nil {
				t.Fatalf("conflict %+v, want moot: %q", c, tc.cause)
			}
			if slices.Contains(openIDs(t, s, ""), d.Conflict) {
				t.Errorf("a moot conflict is still offered")
			}
			if other := conflictByID(t, s, "", d.AlsoConflicts[0]); tc.both != (other.MootAt != nil) && other.ResolvedAt == nil {
				t.Errorf("the conflict with the piano: %+v, moot %v expected", other, tc.both)
			}
			before := snapshot(t, s)
			for _, keep := range []memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth} {
				if _, err := s.ResolveConflict(ctx, "", d.Conflict, keep); !errors.Is(err, memory.ErrMoot) || !strings.Contains(err.Error(), tc.cause) {
					t.Errorf("resolve %s: %v, want ErrMoot naming %q", keep, err, tc.cause)
				}
			}
			if snapshot(t, s) != before {
				t.Error("a refused resolve changed the store")
			}
			if p := must[string](t)(s.Prompt(ctx, "", nil)); strings.Contains(p, "cello\", told") {
				t.Errorf("the prompt still asks about the cello:\n%s", p)
			}
			checkClean(t, s)
		})
	}
}

// A hard delete of a conflict's fact erases the conflict with it.
func TestConflictGoesWithADeletedFact(t *testing.T) {
	s, cello, _, out := unsureStore(t)
	must[[]uint64](t)(s.Delete(ctx, "", cello.ID, nil))
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", &memory.ConflictOptions{All: true}))
	if len(cs) != 1 || cs[0].ID != out.Decision.AlsoConflicts[0] {
		t.Fatalf("conflicts after the delete: %+v", cs)
	}
	if _, err := s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepNew); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("resolve of the erased conflict: %v", err)
	}
	checkClean(t, s)
}

// threeWayExport is the export of a store where a decision unsure which
// of three facts the new one replaces raised a conflict with each.
func threeWayExport(t *testing.T) string {
	t.Helper()
	c := newClock("2026-03-01")
	texts := []string{"I play the cello in a quartet.", "I play the piano at home.", "I play the flute on Sundays."}
	dec := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		if len(in.Candidates) < len(texts) {
			return memory.Verdict{Action: memory.ActionAdd, Reason: "new", Decider: "custom"}, nil
		}
		var ns []int // the candidates in the order they were told
		for _, text := range texts {
			ns = append(ns, slices.IndexFunc(in.Candidates, func(c memory.DecideCandidate) bool { return c.Text == text })+1)
		}
		return memory.Verdict{Action: memory.ActionAdd, ConflictWith: ns[0], AlsoConflictWith: ns[1:], Reason: "unsure which", Decider: "custom"}, nil
	}}
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: dec})
	for _, text := range texts {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: text}))
	}
	c.set("2026-04-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin these days."}))
	if len(out.Decision.AlsoConflicts) != 2 {
		t.Fatalf("decision %+v", out.Decision)
	}
	return snapshot(t, s)
}

// permutations lists every order of xs.
func permutations(xs []uint64) [][]uint64 {
	if len(xs) <= 1 {
		return [][]uint64{slices.Clone(xs)}
	}
	var out [][]uint64
	for i := range xs {
		rest := slices.Concat(xs[:i:i], xs[i+1:])
		for _, p := range permutations(rest) {
			out = append(out, append([]uint64{xs[i]}, p...))
		}
	}
	return out
}

// For every order in which a person resolves the conflicts of one
// decision, and every choice at each, each resolution ends in the state
// chosen — or, once an earlier one retracted the new fact, is refused as
// moot, changing nothing — and Check stays clean after each step. Before,
// keeping the new fact over a second fact failed ("fact already replaces
// another"), and that fact could never be replaced. The space is small
// (3! orders × 3³ choices), so every case is run.
func TestResolveConflictsOfOneDecisionInAnyOrder(t *testing.T) {
	export := threeWayExport(t)
	keeps := []memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth}
	base, _ := open(t, newClock("2026-05-01"), &memory.Options{NoSync: true})
	must[int](t)(base.Import(ctx, strings.NewReader(export), nil))
	var ids []uint64
	for _, c := range must[[]memory.Conflict](t)(base.Conflicts(ctx, "", nil)) {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	if len(ids) != 3 {
		t.Fatalf("conflicts %v", ids)
	}
	for _, order := range permutations(ids) {
		for choice := range 27 {
			name := fmt.Sprint(order, choice)
			s, _ := open(t, newClock("2026-05-01"), &memory.Options{NoSync: true})
			must[int](t)(s.Import(ctx, strings.NewReader(export), nil))
			retracted := false
			for i, id := range order {
				keep := keeps[choice/[]int{1, 3, 9}[i]%3]
				c := conflictByID(t, s, "", id)
				before := snapshot(t, s)
				got, err := s.ResolveConflict(ctx, "", id, keep)
				newFact := getFact(t, s, "", c.New)
				existing := getFact(t, s, "", c.Existing)
				switch {
				case retracted:
					if !errors.Is(err, memory.ErrMoot) || snapshot(t, s) != before {
						t.Fatalf("%s: keep %s after the new fact was retracted: %v", name, keep, err)
					}
				case err != nil:
					t.Fatalf("%s: keep %s on conflict %d: %v", name, keep, id, err)
				case got.Resolution != keep || got.ResolvedAt == nil:
					t.Fatalf("%s: resolved %+v", name, got)
				case keep == memory.KeepNew:
					if newFact.State() != memory.Current || existing.State() != memory.Superseded || existing.SupersededBy != c.New ||
						!slices.Contains(append([]uint64{newFact.Supersedes}, newFact.AlsoSupersedes...), c.Existing) {
						t.Fatalf("%s: keep new: new %+v, existing %+v", name, newFact, existing)
					}
				case keep == memory.KeepExisting:
					if newFact.State() != memory.Retracted || existing.State() != memory.Current {
						t.Fatalf("%s: keep existing: new %s, existing %s", name, newFact.State(), existing.State())
					}
					retracted = true
				case keep == memory.KeepBoth:
					if newFact.State() != memory.Current || existing.State() != memory.Current {
						t.Fatalf("%s: keep both: new %s, existing %s", name, newFact.State(), existing.State())
					}
				}
				if err := s.Check(ctx); err != nil {
					t.Fatalf("%s: check after keep %s: %v", name, keep, err)
				}
			}
			if open := openIDs(t, s, ""); len(open) != 0 {
				t.Fatalf("%s: conflicts still open: %v", name, open)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// promptLine is the line of the prompt that begins with text.
func promptLine(p, text string) string {
	for _, l := range promptLines(p) {
		if strings.HasPrefix(l, "- "+text) {
			return l
		}
	}
	return ""
}

// Two current claims of one single-valued relation of the same subject
// with different objects are an open conflict, however they came to be:
// here, two languages. Both lines of the prompt carry the note.
func TestDerivedConflictTwoLanguages(t *testing.T) {
	c := newClock("2026-03-01")
	s, _ := open(t, c, nil)
	berlin := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Berlin."}))
	c.set("2026-03-02")
	munich := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Кстати, я живу в Мюнхене."}))
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 1 || cs[0].Relation != memory.RelLivesIn || cs[0].New != munich.ID || cs[0].Existing != berlin.ID || cs[0].Decision != 0 {
		t.Fatalf("conflicts %+v", cs)
	}
	p := must[string](t)(s.Prompt(ctx, "", nil))
	for _, want := range []string{
		`- I live in Berlin. (unconfirmed: contradicts "Кстати, я живу в Мюнхене.", told 2026-03-02 — ask)`,
		`- Кстати, я живу в Мюнхене. (unconfirmed: contradicts "I live in Berlin.", told 2026-03-01 — ask)`,
	} {
		if !slices.Contains(promptLines(p), want) {
			t.Errorf("prompt:\n%s\nwant the line %q", p, want)
		}
	}
	// Kept both: the user said so, and no later write asks again.
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", cs[0].ID, memory.KeepBoth))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in a flat with a balcony."}))
	must[memory.Fact](t)(s.Pin(ctx, "", berlin.ID))
	if open := openIDs(t, s, ""); len(open) != 0 {
		t.Errorf("open after keeping both: %v", open)
	}
	if p := must[string](t)(s.Prompt(ctx, "", nil)); strings.Contains(p, "unconfirmed") {
		t.Errorf("prompt after keeping both:\n%s", p)
	}
	checkClean(t, s)
}

// A restore (here by the undo of an update) that leaves two values
// current raises the conflict in its own transaction; the conflict ends
// when either fact stops being current.
func TestDerivedConflictAfterUndoAndRestore(t *testing.T) {
	c := newClock("2026-03-01")
	s, _ := open(t, c, &memory.Options{Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
	berlin := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Berlin."}))
	c.set("2026-04-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Munich now."}))
	if out.Decision.Action != memory.ActionUpdate {
		t.Fatalf("decision %+v", out.Decision)
	}
	// Munich told again in Russian, added beside it with no decision.
	c.set("2026-04-02")
	ru := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Я живу в Мюнхене."}))
	if open := openIDs(t, s, ""); len(open) != 1 {
		t.Fatalf("Munich and Мюнхен name two cities until merged: %v", open)
	}
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Мюнхен", "Munich", ""))
	if open := openIDs(t, s, ""); len(open) != 0 {
		t.Fatalf("after the merge: %v", open)
	}
	// The undo restores Berlin beside the Russian Munich.
	c.set("2026-04-03")
	must[memory.Decision](t)(s.Undo(ctx, "", out.Decision.ID))
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 1 || cs[0].New != ru.ID || cs[0].Existing != berlin.ID || cs[0].Relation != memory.RelLivesIn {
		t.Fatalf("after the undo: %+v", cs)
	}
	p := must[string](t)(s.Prompt(ctx, "", nil))
	if !strings.Contains(promptLine(p, "I live in Berlin."), "contradicts") || !strings.Contains(promptLine(p, "Я живу в Мюнхене."), "contradicts") {
		t.Errorf("prompt:\n%s", p)
	}
	checkClean(t, s)
	// Retracting Berlin ends it.
	must[memory.Fact](t)(s.Invalidate(ctx, "", berlin.ID, memory.Change{}))
	if k := conflictByID(t, s, "", cs[0].ID); k.MootAt == nil || !strings.Contains(k.Moot, fmt.Sprintf("fact %d was retracted", berlin.ID)) {
		t.Errorf("after the retraction: %+v", k)
	}
	// Restoring it raises a new one.
	must[memory.Fact](t)(s.Restore(ctx, "", berlin.ID, memory.Change{}))
	if open := openIDs(t, s, ""); len(open) != 1 || open[0] == cs[0].ID {
		t.Errorf("after the restore: %v", open)
	}
	checkClean(t, s)
}

// A merge of the two objects into one entity makes their conflict moot;
// its undo raises it again.
func TestDerivedConflictEndsWithAMerge(t *testing.T) {
	s, _, _ := mergeStore(t)
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 1 || cs[0].Relation != memory.RelWorksAt {
		t.Fatalf("two employers: %+v", cs)
	}
	m := must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""))
	if k := conflictByID(t, s, "", cs[0].ID); k.MootAt == nil || !strings.Contains(k.Moot, "one entity") {
		t.Fatalf("after the merge: %+v", k)
	}
	checkClean(t, s)
	must[memory.Merge](t)(s.UndoMerge(ctx, "", m.ID, ""))
	if open := openIDs(t, s, ""); len(open) != 1 || open[0] == cs[0].ID {
		t.Fatalf("after the undo of the merge: %v", open)
	}
	checkClean(t, s)
}

// Values whose event intervals do not overlap do not contradict: one
// ended before the other began.
func TestDerivedConflictNeedsOverlap(t *testing.T) {
	c := newClock("2026-03-01")
	s, _ := open(t, c, nil)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I lived in Paris.", EventFrom: date("2015-01-01"), EventUntil: date("2020-01-01"),
		Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: "Paris", Kind: "city"}}}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Berlin.", EventFrom: date("2021-01-01")}))
	if open := openIDs(t, s, ""); len(open) != 0 {
		t.Errorf("open: %v", open)
	}
	// A third value that overlaps both contradicts both.
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Rome.", EventFrom: date("2019-01-01")}))
	if open := openIDs(t, s, ""); len(open) != 2 {
		t.Errorf("open: %v", open)
	}
	checkClean(t, s)
}

// A store of format 4, written by the previous release, held an open
// conflict with a fact retracted since and two current cities with no
// conflict. A read-only Open offers only the conflict that still holds;
// the writable Open that makes the file current settles both, in its
// upgrade's commit.
func TestUpgradeSettlesConflicts(t *testing.T) {
	old, err := os.ReadFile("testdata/store-format4.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	ro, err := memory.Open(path, 0, &memory.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if cs := must[[]memory.Conflict](t)(ro.Conflicts(ctx, "", nil)); len(cs) != 1 || cs[0].Existing != 2 {
		t.Errorf("read-only, open: %+v", cs)
	}
	if err := ro.Check(ctx); err != nil {
		t.Errorf("read-only check: %v", err)
	}
	ro.Close()
	s, err := memory.Open(path, 0, &memory.Options{Clock: newClock("2026-05-01").Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if k := conflictByID(t, s, "", 1); k.MootAt == nil || k.Moot != "fact 1 was retracted (never played it)" {
		t.Errorf("the stale conflict after the upgrade: %+v", k)
	}
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 2 || cs[0].Relation != memory.RelLivesIn || cs[0].New != 5 || cs[0].Existing != 4 || cs[1].ID != 2 {
		t.Errorf("open after the upgrade: %+v", cs)
	}
	checkClean(t, s)
}

// A resolution that keeps the existing fact ends the one conflict that
// fact stood in; if it still contradicts a later fact, which stands in a
// conflict with another, the upkeep raises one for it in the same
// transaction: every current fact that contradicts another stands in a
// conflict with one it contradicts.
func TestResolveKeepsTheKeptFactInAConflict(t *testing.T) {
	c := newClock("2026-03-01")
	s, _ := open(t, c, nil)
	days := []string{"2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"}
	add := func(text, city string) memory.Fact {
		c.set(days[0])
		days = days[1:]
		return must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: text, Claims: livesIn(city)}))
	}
	lyon := add("Home is Lyon.", "Lyon")
	paris := add("Home is Paris.", "Paris")        // against Lyon
	add("Home is Lyon again.", "Lyon")             // against Paris
	paris2 := add("Home is Paris again.", "Paris") // against the newest Lyon: lyon2
	var first memory.Conflict
	for _, k := range must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil)) {
		if k.New == paris.ID && k.Existing == lyon.ID {
			first = k
		}
	}
	if first.ID == 0 {
		t.Fatalf("no conflict of %d against %d: %+v", paris.ID, lyon.ID, must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil)))
	}
	checkClean(t, s)
	c.set("2026-03-06")
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", first.ID, memory.KeepExisting))
	checkClean(t, s)
	found := false
	for _, k := range must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil)) {
		found = found || (k.Existing == lyon.ID || k.New == lyon.ID) && (k.New == paris2.ID || k.Existing == paris2.ID)
	}
	if !found {
		t.Errorf("fact %d (kept, Lyon) stands in no conflict with fact %d (Paris): %+v", lyon.ID, paris2.ID,
			must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil)))
	}
}
