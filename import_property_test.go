package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/palimpsest-mem/memory"
)

// The property of issue 24's section D: no import can break the store. A
// store is built from a story (facts with claims of kinds, supersedes,
// retractions, pins, Remember with the verdicts rapid draws — updates,
// retractions, restatements, adds in conflict with one fact or several —,
// undo, resolutions, merges, deletes), exported, and the export mutated at
// random fields (ids, references, counters, kinds, times, actions, users,
// texts, whole lines duplicated, dropped or moved). What Import refuses
// must be refused with ErrBadImport, leaving the store empty; what it
// accepts must check clean, and stay clean through random operations of
// every kind, Check after each: an operation may fail, never with
// ErrCorrupt, and never leave Check failing; the store's export after
// them imports again.
//
// It runs a few seconds by default; -rapid.checks=N runs more.
func TestImportThenOperationsKeepCheckClean(t *testing.T) {
	stats := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		dir, err := os.MkdirTemp("", "memory-import-prop-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		c := &modelClock{t: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
		w := &propWorld{t: t, c: c}
		openIn := func(name string) *memory.Store {
			s, err := memory.Open(filepath.Join(dir, name), 0, &memory.Options{NoSync: true, Clock: c.Now,
				Decider: &funcDecider{name: "drawn", fn: w.decide}, Lookup: memory.LookupKeywords4})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		src := openIn("a.db")
		defer src.Close()
		w.s = src
		for range rapid.IntRange(2, 10).Draw(t, "story length") {
			w.op("story", nil)
		}
		if err := src.Check(ctx); err != nil {
			t.Fatalf("the story itself: %v", err)
		}
		var exp strings.Builder
		if err := src.Export(ctx, &exp); err != nil {
			t.Fatal(err)
		}
		lines := decodeLines(t, exp.String())
		mutations := rapid.IntRange(0, 3).Draw(t, "mutations")
		for range mutations {
			lines = mutate(t, lines)
		}
		text := encodeLines(t, lines)
		dst := openIn("b.db")
		defer dst.Close()
		if _, err := dst.Import(ctx, strings.NewReader(text), nil); err != nil {
			if !errors.Is(err, memory.ErrBadImport) {
				t.Fatalf("import refused with %v, want ErrBadImport\n%s", err, text)
			}
			for _, u := range propUsers {
				if fs, err := dst.List(ctx, u, &memory.ListOptions{All: true}); err != nil || len(fs) != 0 {
					t.Fatalf("a refused import left %d facts of %q (%v)", len(fs), u, err)
				}
			}
			stats["refused"]++
			return
		}
		stats[fmt.Sprintf("accepted after %d mutations", mutations)]++
		if err := dst.Check(ctx); err != nil {
			t.Fatalf("Check after an accepted import: %v\n%s", err, text)
		}
		w.s = dst
		for i := range rapid.IntRange(1, 8).Draw(t, "operations") {
			op := w.op("after", stats)
			if err := dst.Check(ctx); err != nil {
				t.Fatalf("Check after operation %d (%s) on the import:\n%v\nimported:\n%s", i, op, err, text)
			}
		}
		// And what they made is what Import reads back.
		var again strings.Builder
		if err := dst.Export(ctx, &again); err != nil {
			t.Fatal(err)
		}
		back := openIn("c.db")
		defer back.Close()
		if _, err := back.Import(ctx, strings.NewReader(again.String()), nil); err != nil {
			t.Fatalf("import of the export after the operations: %v\n%s", err, again.String())
		}
	})
	t.Logf("%v", stats)
}

// propUsers are the users of the story, and the names a mutation gives.
var propUsers = []string{"", "bob", "alice"}

// propNames are the entities the claims name, of kinds that clash.
var propNames = []struct {
	name string
	kind memory.EntityKind
	rel  memory.Relation
}{
	{"Lyon", "city", memory.RelLivesIn}, {"Paris", "city", memory.RelLivesIn}, {"Jordan", "country", memory.RelLivesIn},
	{"Acme", "company", memory.RelWorksAt}, {"Jordan", "company", memory.RelWorksAt}, {"Globex", "company", memory.RelWorksAt},
	{"jazz", "", memory.RelLikes}, {"Luna", "pet", memory.RelHasPet},
}

// propWords make texts that share words, so that facts are each other's
// candidates.
var propWords = []string{"garden", "coffee", "river", "piano", "quartet", "office"}

type propWorld struct {
	t *rapid.T
	c *modelClock
	s *memory.Store
}

// decide is the decider: a verdict rapid draws over the candidates shown.
func (w *propWorld) decide(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
	t, n := w.t, len(in.Candidates)
	v := memory.Verdict{Reason: "drawn", Decider: "drawn"}
	action := rapid.SampledFrom([]memory.Action{memory.ActionAdd, memory.ActionAdd, memory.ActionUpdate,
		memory.ActionInvalidate, memory.ActionNoop}).Draw(t, "verdict")
	if n == 0 {
		action = memory.ActionAdd
	}
	v.Action = action
	switch action {
	case memory.ActionAdd:
		if n > 0 && rapid.Bool().Draw(t, "in conflict") {
			v.ConflictWith = rapid.IntRange(1, n).Draw(t, "conflict with")
			for range rapid.IntRange(0, n-1).Draw(t, "further conflicts") {
				k := rapid.IntRange(1, n).Draw(t, "also conflict with")
				if k != v.ConflictWith && !slices.Contains(v.AlsoConflictWith, k) {
					v.AlsoConflictWith = append(v.AlsoConflictWith, k)
				}
			}
		}
	default:
		// Never a pinned one for an update or invalidate: judge makes
		// that an add in conflict, which "in conflict" draws anyway.
		v.Target = rapid.IntRange(1, n).Draw(t, "target")
		if in.Candidates[v.Target-1].Pinned && action != memory.ActionNoop {
			v = memory.Verdict{Action: memory.ActionAdd, ConflictWith: v.Target, Reason: "pinned", Decider: "drawn"}
		}
	}
	return v, nil
}

func (w *propWorld) note() memory.Note {
	t := w.t
	n := memory.Note{User: rapid.SampledFrom(propUsers[:2]).Draw(t, "user"),
		Text: fmt.Sprintf("My %s %s note %d.", rapid.SampledFrom(propWords).Draw(t, "word"),
			rapid.SampledFrom(propWords).Draw(t, "word 2"), rapid.IntRange(0, 3).Draw(t, "nonce")),
		Claims: []memory.Claim{}}
	for range rapid.IntRange(1, 2).Draw(t, "claims") {
		p := rapid.SampledFrom(propNames).Draw(t, "claim")
		n.Claims = append(n.Claims, memory.Claim{Relation: p.rel, Object: p.name, Kind: p.kind})
	}
	n.Pinned = rapid.IntRange(0, 5).Draw(t, "pinned") == 0
	return n
}

// pick draws the user and id of an entry of kind ("fact", "decision",
// "conflict", "merge"): mostly one the store holds, else any small id of
// any user, which may be none or another user's.
func (w *propWorld) pick(kind string) (string, uint64) {
	t := w.t
	type entry struct {
		user string
		id   uint64
	}
	var held []entry
	for _, u := range propUsers {
		switch kind {
		case "fact":
			fs, _ := w.s.List(ctx, u, &memory.ListOptions{All: true})
			for _, f := range fs {
				held = append(held, entry{u, f.ID})
			}
		case "decision":
			ds, _ := w.s.Decisions(ctx, u, 0)
			for _, d := range ds {
				held = append(held, entry{u, d.ID})
			}
		case "conflict":
			cs, _ := w.s.Conflicts(ctx, u, &memory.ConflictOptions{All: true})
			for _, c := range cs {
				held = append(held, entry{u, c.ID})
			}
		case "merge":
			ms, _ := w.s.Merges(ctx, u)
			for _, m := range ms {
				held = append(held, entry{u, m.ID})
			}
		}
	}
	if len(held) > 0 && rapid.IntRange(0, 4).Draw(t, kind+" held") > 0 {
		e := rapid.SampledFrom(held).Draw(t, kind)
		return e.user, e.id
	}
	return rapid.SampledFrom(propUsers).Draw(t, kind+" user"), uint64(rapid.IntRange(1, 12).Draw(t, kind+" id"))
}

// op draws an operation and runs it; phase labels the draws. An error of
// an operation is no failure, but ErrCorrupt is: the store was broken.
func (w *propWorld) op(phase string, stats map[string]int) string {
	t, s := w.t, w.s
	w.c.advance(time.Duration(rapid.IntRange(1, 72).Draw(t, "hours")) * time.Hour)
	ops := []string{"Add", "Supersede", "Invalidate", "Restore", "Pin", "Unpin", "Remember", "Remember",
		"Undo", "Resolve", "Resolve", "Delete", "Merge", "Merge", "UndoMerge"}
	if phase == "story" { // mostly what makes decisions, conflicts and merges
		ops = []string{"Add", "Add", "Remember", "Remember", "Remember", "Remember", "Supersede", "Invalidate",
			"Pin", "Undo", "Resolve", "Merge", "Merge", "Delete"}
	}
	name := rapid.SampledFrom(ops).Draw(t, phase+" op")
	var err error
	switch name {
	case "Add":
		_, err = s.Add(ctx, w.note())
	case "Supersede":
		n := w.note()
		user, id := w.pick("fact")
		n.User = user
		_, err = s.Supersede(ctx, user, id, n)
	case "Invalidate":
		user, id := w.pick("fact")
		_, err = s.Invalidate(ctx, user, id, memory.Change{Reason: "wrong"})
	case "Restore":
		user, id := w.pick("fact")
		_, err = s.Restore(ctx, user, id, memory.Change{Reason: "right after all"})
	case "Pin":
		user, id := w.pick("fact")
		_, err = s.Pin(ctx, user, id)
	case "Unpin":
		user, id := w.pick("fact")
		_, err = s.Unpin(ctx, user, id)
	case "Remember":
		_, err = s.Remember(ctx, w.note())
	case "Undo":
		user, id := w.pick("decision")
		_, err = s.Undo(ctx, user, id)
	case "Resolve":
		user, id := w.pick("conflict")
		keep := rapid.SampledFrom([]memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth}).Draw(t, "keep")
		_, err = s.ResolveConflict(ctx, user, id, keep)
	case "Delete":
		user, id := w.pick("fact")
		_, err = s.Delete(ctx, user, id, &memory.DeleteOptions{Chain: rapid.Bool().Draw(t, "chain")})
	case "Merge":
		user, _ := w.pick("fact")
		from := rapid.SampledFrom(propNames).Draw(t, "from").name
		into := rapid.SampledFrom(propNames).Draw(t, "into").name
		_, err = s.MergeEntities(ctx, user, from, into, "the same")
	case "UndoMerge":
		user, id := w.pick("merge")
		_, err = s.UndoMerge(ctx, user, id, "not the same")
	}
	if errors.Is(err, memory.ErrCorrupt) {
		t.Fatalf("%s %s: %v", phase, name, err)
	}
	if stats != nil {
		stats[name+" "+map[bool]string{true: "ok", false: "refused"}[err == nil]]++
	}
	return name
}

// mutate changes one thing of an export: a field of a line (a log entry's
// or a fact's, or a step of a fact's log, or the header), or a whole line
// duplicated, dropped or moved.
func mutate(t *rapid.T, ls []jsonLine) []jsonLine {
	if len(ls) < 2 {
		return ls
	}
	i := rapid.IntRange(0, len(ls)-1).Draw(t, "line")
	switch rapid.IntRange(0, 9).Draw(t, "mutation") {
	case 0:
		j := rapid.IntRange(1, len(ls)).Draw(t, "at")
		return slices.Insert(ls, j, decodeLines(t, encodeLines(t, ls[i:i+1]))[0])
	case 1:
		if i > 0 {
			return slices.Delete(ls, i, i+1)
		}
	case 2:
		j := rapid.IntRange(1, len(ls)-1).Draw(t, "swap with")
		if i > 0 {
			ls[i], ls[j] = ls[j], ls[i]
		}
		return ls
	}
	obj := map[string]any(ls[i])
	for _, k := range []string{"decision", "conflict", "merge"} {
		if m, ok := obj[k].(map[string]any); ok {
			obj = m
		}
	}
	if steps, ok := obj["log"].([]any); ok && len(steps) > 0 && rapid.Bool().Draw(t, "a step") {
		if step, ok := steps[rapid.IntRange(0, len(steps)-1).Draw(t, "step")].(map[string]any); ok {
			obj = step // not when an earlier mutation made it a number
		}
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range obj {
			if !yield(k) {
				return
			}
		}
	})
	// A field the line lacks can be given too (omitted when empty).
	keys = append(keys, "conflict", "also_conflicts", "undone_at", "resolved_at", "resolution", "event_from")
	key := rapid.SampledFrom(keys).Draw(t, "field")
	obj[key] = mutant(t, obj[key])
	return ls
}

// mutant is a value for a field that held v: mostly of v's type, near the
// values a story holds and at the edges, sometimes of another type.
func mutant(t *rapid.T, v any) any {
	ids := []any{json.Number("0"), json.Number("1"), json.Number("2"), json.Number("3"), json.Number("4"),
		json.Number("5"), json.Number("7"), json.Number("9"), json.Number("13"),
		json.Number("9007199254740990"), json.Number("9007199254740991"), json.Number("18446744073709551615")}
	times := []any{"0001-01-01T00:00:00Z", "1899-12-31T23:59:59Z", "1900-01-01T00:00:00Z", "1970-01-01T00:00:00Z",
		"2026-01-01T09:00:00Z", "2026-01-03T10:00:00Z", "2026-03-01T00:00:00Z", "2199-12-31T23:59:59Z", "2200-01-01T00:00:00Z", nil}
	strs := []any{"", "bob", "alice", "add", "update", "invalidate", "noop", "bogus", "new", "existing", "both",
		"recorded", "superseded", "retracted", "restored", "pinned", "confirmed", "user", "auto", "Lyon", "Jordan", "Acme",
		"city", "company", "country", "words", "given", "caller", "rules", "why\x1b]52;c;aGk=\x07", "[deleted]"}
	switch x := v.(type) {
	case json.Number:
		if rapid.IntRange(0, 5).Draw(t, "other type") > 0 {
			return rapid.SampledFrom(ids).Draw(t, "id")
		}
	case string:
		if _, err := time.Parse(time.RFC3339, x); err == nil {
			return rapid.SampledFrom(times).Draw(t, "time")
		}
		if rapid.IntRange(0, 5).Draw(t, "other type") > 0 {
			return rapid.SampledFrom(strs).Draw(t, "string")
		}
	case bool:
		return !x
	case []any:
		out := []any{}
		for range rapid.IntRange(0, 3).Draw(t, "items") {
			out = append(out, rapid.SampledFrom(ids[:9]).Draw(t, "item"))
		}
		return out
	case nil:
		return rapid.SampledFrom(append(append([]any{}, times...), ids...)).Draw(t, "value")
	}
	return rapid.SampledFrom(append(append(append([]any{}, ids...), times...), strs...)).Draw(t, "any")
}
