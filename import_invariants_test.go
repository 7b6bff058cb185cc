package memory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// scriptVerdict is a verdict a scripted decider gives, naming candidates by
// their texts: the lookup's order is not the test's business.
type scriptVerdict struct {
	action       memory.Action
	target       string   // update, invalidate, noop: the candidate's text
	conflictWith string   // add: the candidate it seems to contradict
	also         []string // add: further candidates it may contradict
}

// scriptDecider answers each Remember with the next verdict of its script,
// then adds; a text it names that is not among the candidates makes it add.
func scriptDecider(script *[]scriptVerdict) *funcDecider {
	return &funcDecider{name: "script", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		if len(*script) == 0 {
			return memory.Verdict{Action: memory.ActionAdd, Reason: "no script", Decider: "script"}, nil
		}
		v := (*script)[0]
		*script = (*script)[1:]
		return scriptedVerdict(v, in), nil
	}}
}

func scriptedVerdict(v scriptVerdict, in memory.DecideInput) memory.Verdict {
	n := func(text string) int {
		for _, c := range in.Candidates {
			if c.Text == text {
				return c.N
			}
		}
		return 0
	}
	out := memory.Verdict{Action: v.action, Reason: "scripted " + string(v.action), Decider: "script"}
	switch v.action {
	case memory.ActionUpdate, memory.ActionInvalidate, memory.ActionNoop:
		if out.Target = n(v.target); out.Target == 0 {
			return memory.Verdict{Action: memory.ActionAdd, Reason: "scripted target missing", Decider: "script"}
		}
	case memory.ActionAdd:
		out.ConflictWith = n(v.conflictWith)
		for _, a := range v.also {
			if k := n(a); k != 0 && out.ConflictWith != 0 && k != out.ConflictWith {
				out.AlsoConflictWith = append(out.AlsoConflictWith, k)
			}
		}
	}
	return out
}

func livesIn(city string) []memory.Claim {
	return []memory.Claim{{Relation: memory.RelLivesIn, Object: city, Kind: "city"}}
}

// storyExport is the export of a store holding every kind of line: facts
// with claims of kinds, a pinned fact's conflict, a decision with two
// conflicts, an update undone, a merge, and a second user.
func storyExport(t *testing.T) string {
	t.Helper()
	c := newClock("2026-01-01")
	script := []scriptVerdict{
		{action: memory.ActionUpdate, target: "I live in Lyon."},
		{action: memory.ActionAdd},
		{action: memory.ActionUpdate, target: "I play the cello in a quartet."},
		{action: memory.ActionAdd, conflictWith: "I work at Acme.", also: []string{"I work at ACME Corp."}},
		{action: memory.ActionAdd},
	}
	s, _ := open(t, c, &memory.Options{Decider: scriptDecider(&script)})
	lyon := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon.", Claims: livesIn("Lyon")}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Acme.", Claims: worksAt("Acme")}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at ACME Corp.", Claims: worksAt("ACME Corp")}))
	must[memory.Fact](t)(s.Pin(ctx, "", lyon.ID))
	c.set("2026-02-01")
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now.", Claims: livesIn("Paris")}))
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the cello in a quartet."}))
	c.set("2026-03-01")
	upd := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin in a quartet now."}))
	c.set("2026-03-02")
	must[memory.Decision](t)(s.Undo(ctx, "", upd.Decision.ID))
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "ACME Corp", "Acme", "one company"))
	c.set("2026-04-01")
	both := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I work at Globex now.", Claims: worksAt("Globex")}))
	if len(both.Decision.AlsoConflicts) != 1 {
		t.Fatalf("the story needs a decision with two conflicts: %+v", both.Decision)
	}
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{User: "bob", Text: "Bob lives in Oslo.", Claims: livesIn("Oslo")}))
	checkClean(t, s)
	return snapshot(t, s)
}

// jsonLine is one line of an export, decoded with its numbers kept exact.
type jsonLine map[string]any

// fataler is what the helpers need of a test: a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func decodeLines(t fataler, exp string) []jsonLine {
	t.Helper()
	var out []jsonLine
	for _, l := range strings.Split(strings.TrimSuffix(exp, "\n"), "\n") {
		dec := json.NewDecoder(strings.NewReader(l))
		dec.UseNumber()
		var m jsonLine
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		out = append(out, m)
	}
	return out
}

func encodeLines(t fataler, ls []jsonLine) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, l := range ls {
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// logLine returns the body of the log line of kind ("decision", "conflict",
// "merge") with id, or nil.
func logLine(ls []jsonLine, kind string, id int) map[string]any {
	for _, l := range ls {
		if m, ok := l[kind].(map[string]any); ok && m["id"] == json.Number(fmt.Sprint(id)) {
			return m
		}
	}
	return nil
}

// A valid story, edited one field or line at a time into what no sequence
// of writes makes, is refused naming the line, and the store stays empty.
// Each case was accepted before: then Remember wrapped an id counter and
// overwrote imported entries, resolve made a cycle, undo "carried out" an
// unknown action.
func TestImportRefusesWhatNoWriteMakes(t *testing.T) {
	exp := shared(t, storyExport(t), 9) // the cases edit the header's counters
	base := decodeLines(t, exp)
	if logLine(base, "conflict", 3) == nil || logLine(base, "merge", 1) == nil || logLine(base, "decision", 4) == nil {
		t.Fatalf("the story lacks a line the cases edit:\n%s", exp)
	}
	for name, c := range map[string]struct {
		edit func(ls []jsonLine) []jsonLine
		want string
	}{
		"last_decision 2^64-1": {func(ls []jsonLine) []jsonLine {
			ls[0]["last_decision"] = json.Number("18446744073709551615")
			return ls
		}, "line 1: last_decision"},
		"last_conflict 2^53": {func(ls []jsonLine) []jsonLine {
			ls[0]["last_conflict"] = json.Number("9007199254740992")
			return ls
		}, "line 1: last_conflict"},
		"last_merge 2^53": {func(ls []jsonLine) []jsonLine {
			ls[0]["last_merge"] = json.Number("9007199254740992")
			return ls
		}, "line 1: last_merge"},
		"next_id 2^53+1": {func(ls []jsonLine) []jsonLine {
			ls[0]["next_id"] = json.Number("9007199254740993")
			return ls
		}, "line 1: next_id"},
		"next_id 2^62-1": {func(ls []jsonLine) []jsonLine {
			ls[0]["next_id"] = json.Number("4611686018427387903")
			return ls
		}, "line 1: next_id"},
		"a conflict of a fact with itself": {func(ls []jsonLine) []jsonLine {
			c := logLine(ls, "conflict", 1)
			c["existing"] = c["new"]
			return ls
		}, "conflict 1"},
		"a merge of a city into a company": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "merge", 1)["from"] = "Lyon"
			return ls
		}, "entities of different kinds"},
		"a decision id twice": {func(ls []jsonLine) []jsonLine {
			i := slices.IndexFunc(ls, func(l jsonLine) bool { return l["decision"] != nil })
			dup := decodeLines(t, encodeLines(t, ls[i:i+1]))[0]
			dup["decision"].(map[string]any)["reason"] = "the second of the same id"
			return slices.Insert(ls, i+1, dup)
		}, "decision id 1 is duplicated"},
		"a conflict id twice": {func(ls []jsonLine) []jsonLine {
			i := slices.IndexFunc(ls, func(l jsonLine) bool { return l["conflict"] != nil })
			return slices.Insert(ls, i+1, ls[i])
		}, "conflict id 1 is duplicated"},
		"an unknown action": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "decision", 3)["action"] = "erase everything"
			return ls
		}, "unknown action"},
		"a decision naming another decision's conflict": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "decision", 2)["conflict"] = json.Number("1")
			return ls
		}, "decision 2"},
		"a decision naming no conflict": {func(ls []jsonLine) []jsonLine {
			return slices.DeleteFunc(ls, func(l jsonLine) bool { return logLine([]jsonLine{l}, "conflict", 3) != nil })
		}, "decision 4"},
		"a conflict naming no decision": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "conflict", 1)["decision"] = json.Number("99")
			return ls
		}, "conflict 1"},
		"a conflict naming a decision that does not name it": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "conflict", 1)["decision"] = json.Number("2")
			return ls
		}, "conflict 1"},
		"a conflict of another user's": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "conflict", 1)["user"] = "bob"
			return ls
		}, "conflict 1"},
		"a control character in a decision's reason": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "decision", 2)["reason"] = "sure\x1b]52;c;aGk=\x07"
			return ls
		}, "control character"},
		"a control character in a conflict's reason": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "conflict", 2)["reason"] = "why\x00"
			return ls
		}, "control character"},
		"a decision of year 1": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "decision", 2)["at"] = "0001-01-01T00:00:00Z"
			return ls
		}, "decision 2"},
		"a decision's event start of year 1": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "decision", 2)["event_from"] = "0001-01-01T00:00:00Z"
			return ls
		}, "decision 2"},
		"an undo of year 1": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "decision", 3)["undone_at"] = "0001-01-01T00:00:00Z"
			return ls
		}, "decision 3"},
		"a conflict resolved in year 1": {func(ls []jsonLine) []jsonLine {
			c := logLine(ls, "conflict", 2)
			c["resolved_at"], c["resolution"] = "0001-01-01T00:00:00Z", "both"
			return ls
		}, "conflict 2"},
		"a conflict resolved with no choice": {func(ls []jsonLine) []jsonLine {
			logLine(ls, "conflict", 2)["resolved_at"] = "2026-05-01T00:00:00Z"
			return ls
		}, "conflict 2"},
		"a decision that added a fact older than its target": {func(ls []jsonLine) []jsonLine {
			d, c := logLine(ls, "decision", 1), logLine(ls, "conflict", 1)
			d["added"], d["target"], d["candidates"] = json.Number("1"), json.Number("4"), []any{json.Number("4")}
			c["new"], c["existing"] = json.Number("1"), json.Number("4")
			return ls
		}, "decision 1: added fact 1 is not newer than fact 4"},
		"a blank line between records": {func(ls []jsonLine) []jsonLine {
			return slices.Insert(ls, 3, nil)
		}, "line 4: a blank line"},
	} {
		t.Run(name, func(t *testing.T) {
			ls := c.edit(decodeLines(t, exp))
			text := strings.ReplaceAll(encodeLines(t, ls), "null\n", "\n")
			if text == encodeLines(t, base) {
				t.Fatal("the edit changed nothing")
			}
			s, _ := open(t, newClock("2026-06-01"), nil)
			_, err := s.Import(ctx, strings.NewReader(text), nil)
			if !errors.Is(err, memory.ErrBadImport) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("import: %v\nwant ErrBadImport saying %q", err, c.want)
			}
			if n := len(allFacts(t, s, "")); n != 0 {
				t.Errorf("a refused import left %d facts", n)
			}
		})
	}
	// The story itself imports, re-exports as it was, and checks clean.
	s, _ := open(t, newClock("2026-06-01"), nil)
	must[int](t)(s.Import(ctx, strings.NewReader(encodeLines(t, base)), nil))
	checkClean(t, s)
}

// A store whose counters are at their bound, 2^53−1, the largest id it
// gives, imports and checks clean; a write that needs another id fails
// with ErrIDsExhausted and changes nothing, where it used to wrap to 0 and
// overwrite.
func TestImportOfCountersAtTheirBound(t *testing.T) {
	ls := decodeLines(t, shared(t, storyExport(t), 9))
	for _, k := range []string{"last_decision", "last_conflict", "last_merge"} {
		ls[0][k] = json.Number("9007199254740991")
	}
	ls[0]["next_id"] = json.Number("9007199254740992")
	c := newClock("2026-06-01")
	s, _ := open(t, c, &memory.Options{Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
	must[int](t)(s.Import(ctx, strings.NewReader(encodeLines(t, ls)), nil))
	checkClean(t, s)
	before := snapshot(t, s)
	for name, write := range map[string]func() error{
		"Add":      func() error { return second(s.Add(ctx, memory.Note{Text: "One fact too many."})) },
		"Remember": func() error { return second(s.Remember(ctx, memory.Note{Text: "I live in Rome now."})) },
		"Merge":    func() error { return second(s.MergeEntities(ctx, "", "Lyon", "Paris", "")) },
	} {
		if err := write(); !errors.Is(err, memory.ErrIDsExhausted) || errors.Is(err, memory.ErrCorrupt) {
			t.Errorf("%s at the bound: %v, want ErrIDsExhausted", name, err)
		}
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused write changed the store:\n%s\nwas:\n%s", after, before)
	}
	checkClean(t, s)
}

// A successor is always a later fact than the one it replaces (Supersede
// adds it, a resolve keeps a conflict's newer fact): so no resolve or
// restore can ever close a cycle. A chain that runs back is refused.
func TestImportRefusesASuccessorOlderThanItsPredecessor(t *testing.T) {
	wantRefused(t, exportOfLines(exportLine{id: 1}.String(),
		exportLine{id: 2, supersedes: 3}.String(),
		exportLine{id: 3, supersededBy: 2, superseded: true}.String()), "line 3", "fact 2: replaces fact 3, which is not older")
}

// A file may end in blank lines (an editor's, a shell's echo): they are no
// record. A blank line between records is refused (above): it is not what
// Export writes, and may hide a lost line.
func TestImportAcceptsTrailingBlankLines(t *testing.T) {
	exp := storyExport(t)
	for _, tail := range []string{"\n", "\n\n\n", "\r\n", " \n"} {
		s, _ := open(t, newClock("2026-06-01"), nil)
		if _, err := s.Import(ctx, strings.NewReader(exp+tail), nil); err != nil {
			t.Errorf("import ending in %q: %v", exp[len(exp)-1:]+tail, err)
			continue
		}
		if again := snapshot(t, s); again != exp {
			t.Errorf("re-export of an import ending in %q differs", tail)
		}
	}
}

// A merge is judged by the kinds its entities had when it was made, and a
// hard delete of the claim that gave one of them that kind leaves a merge
// no write would make: the delete erases it, as it erases a merge whose
// name went with the fact, so that Check stays clean and the export
// imports.
func TestDeleteErasesAMergeItsKindsNoLongerAllow(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I lived in Jordan.", Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: "Jordan", Kind: "country"}}}))
	c.set("2026-01-02")
	job := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Jordan.", Claims: worksAt("Jordan")}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Jordan Ltd.", Claims: worksAt("Jordan Ltd")}))
	c.set("2026-01-03")
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Jordan", "Jordan Ltd", "one company"))
	checkClean(t, s)
	c.set("2026-01-04")
	must[[]uint64](t)(s.Delete(ctx, "", job.ID, nil))
	checkClean(t, s)
	if ms := must[[]memory.Merge](t)(s.Merges(ctx, "")); len(ms) != 0 {
		t.Errorf("merges after the delete: %+v", ms)
	}
	dst, _ := open(t, c, nil)
	must[int](t)(dst.Import(ctx, strings.NewReader(snapshot(t, s)), nil))
	checkClean(t, dst)
}

// MergeEntities judges kinds as Check replays them: by the claims recorded
// by the merge's time. A claim recorded later (a clock set back, or an
// import from a clock ahead) gives no kind yet, so the merge it would
// have allowed is refused rather than left for Check to call corrupt.
func TestMergeJudgesKindsAsOfItsTime(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I lived in Jordan.", Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: "Jordan", Kind: "country"}}}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Acme.", Claims: worksAt("Acme")}))
	c.set("2030-01-01")
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Jordan.", Claims: worksAt("Jordan")}))
	c.set("2026-02-01")
	if _, err := s.MergeEntities(ctx, "", "Jordan", "Acme", ""); !errors.Is(err, memory.ErrKindMismatch) {
		t.Errorf("merge of what is a country as of its time into a company: %v", err)
	}
	checkClean(t, s)
	c.set("2030-02-01")
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Jordan", "Acme", "a company by then"))
	checkClean(t, s)
}
