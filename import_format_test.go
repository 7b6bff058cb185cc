package memory_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Import reads whatever Export writes, however long a line: here one fact
// whose log of 1,800 retractions and restores, each with a reason of 600
// three-byte runes, makes its line about 6.7 MB.
func TestImportReadsLinesPastFourMiB(t *testing.T) {
	c := newClock("2026-01-01")
	src, _ := open(t, c, nil)
	f := must[memory.Fact](t)(src.Add(ctx, memory.Note{Text: "I keep changing my mind."}))
	reason := strings.Repeat("語", memory.DefaultMaxTextRunes)
	for range 1800 {
		must[memory.Fact](t)(src.Invalidate(ctx, "", f.ID, memory.Change{Reason: reason}))
		must[memory.Fact](t)(src.Restore(ctx, "", f.ID, memory.Change{Reason: reason}))
	}
	must[memory.Fact](t)(src.Add(ctx, memory.Note{Text: "A short fact after the long line."}))
	exported := snapshot(t, src)
	if lines := strings.Split(exported, "\n"); len(lines[2]) <= 4<<20 {
		t.Fatalf("the fact's line is %d bytes, the test needs more than 4 MiB", len(lines[2]))
	}
	dst, _ := open(t, c, nil)
	var last int64
	n, err := dst.Import(ctx, strings.NewReader(exported), &memory.ImportOptions{Progress: func(_ int, b int64) { last = b }})
	if err != nil {
		t.Fatalf("import of the store's own export: %v", err)
	}
	if n != 2 || last != int64(len(exported)) {
		t.Errorf("imported %d facts, progress at %d of %d bytes", n, last, len(exported))
	}
	if again := snapshot(t, dst); again != exported {
		t.Error("export after import differs")
	}
	// A bad line after the long one is still named.
	bad := strings.Replace(exported, `"text":"A short fact`, `"text":" A short fact`, 1)
	other, _ := open(t, c, nil)
	if _, err := other.Import(ctx, strings.NewReader(bad), nil); err == nil || !strings.Contains(err.Error(), "line 4:") {
		t.Errorf("a bad line after the long one (the fourth, after the header and the counters): %v", err)
	}
}

// withBobsConflict is the export of testdata/export-v1.jsonl as imported
// on 2026-06-01: Bob's two cities, both current and neither ended,
// contradict each other, and the import keeps the conflicts as every
// write does, so it derives the one the file lacked.
func withBobsConflict(export string) string {
	return strings.Replace(export, `"last_decision":7,"last_conflict":1}`, `"last_decision":7,"last_conflict":2}`, 1) +
		`{"conflict":{"id":2,"at":"2026-06-01T00:00:00Z","user":"bob","new":12,"existing":10,"decision":0,` +
		`"reason":"fact 12 and fact 10 claim two values of lives_in for \"bob\", which holds one: \"Paris\" and \"Oslo\"","relation":"lives_in"}}` + "\n"
}

// testdata/export-v1.jsonl was written by version 1 of the format, before
// any later change: every later version imports it and exports it again
// byte for byte but for the header's version (a new field would have to
// leave an old line's export as it was, or this file gets a sibling with
// the new version's expected export). Version 2 added the log steps'
// decision references, which none of its steps has.
func TestImportReadsVersion1Export(t *testing.T) {
	old, err := os.ReadFile("testdata/export-v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := open(t, newClock("2026-06-01"), nil)
	n, err := s.Import(ctx, strings.NewReader(string(old)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != 14 {
		t.Errorf("imported %d facts, want 14", n)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	want := givenEnds(strings.Replace(string(old), `{"format":"palimpsest-memory","version":1,`, `{"format":"palimpsest-memory","version":9,`, 1))
	if want == string(old) {
		t.Fatal("the header did not change")
	}
	want = withBobsConflict(want)
	if again := shared(t, withoutClaims(snapshot(t, s)), 9); !sameLines(again, want) {
		t.Errorf("export after import differs:\n%s\nwant:\n%s", again, want)
	}
	// The imported history answers as it did.
	wantAt(t, s, "", "2025-12-01", "", 1, 9)
	wantAt(t, s, "", "2026-01-20", "", 4, 9)
	wantAt(t, s, "bob", "2026-06-01", "", 2, 10, 12)
}

// testdata/export-v1-undo.jsonl was written by version 1 of the format: a
// decision that retracted a fact and another whose undo is done. Version 1
// kept the decisions' references in the steps' causes; they import as the
// references, so the decision still undoes, and export as fields.
func TestImportReadsVersion1DecisionReferences(t *testing.T) {
	old := string(must[[]byte](t)(os.ReadFile("testdata/export-v1-undo.jsonl")))
	s, _ := open(t, newClock("2026-07-01"), nil)
	if n, err := s.Import(ctx, strings.NewReader(old), nil); err != nil || n != 4 {
		t.Fatalf("import: %d facts, %v", n, err)
	}
	type ref struct {
		kind             memory.EventKind
		decision, undoes uint64
	}
	steps := func(user string, id uint64) []ref {
		var out []ref
		for _, e := range must[[]memory.Event](t)(s.Events(ctx, user, id)) {
			out = append(out, ref{e.Kind, e.Decision, e.Undoes})
		}
		return out
	}
	for _, c := range []struct {
		user string
		id   uint64
		want []ref
	}{
		{"", 1, []ref{{memory.EventRecorded, 0, 0}, {memory.EventRetracted, 2, 0}}},
		{"", 2, []ref{{memory.EventRecorded, 0, 0}}},
		{"bob", 3, []ref{{memory.EventRecorded, 0, 0}, {memory.EventRetracted, 4, 0}, {memory.EventRestored, 0, 4}}},
		{"bob", 4, []ref{{memory.EventRecorded, 0, 0}, {memory.EventRetracted, 0, 4}}},
	} {
		if got := steps(c.user, c.id); !slices.Equal(got, c.want) {
			t.Errorf("steps of fact %d: %v, want %v", c.id, got, c.want)
		}
	}
	want := strings.NewReplacer(`"version":1,`, `"version":9,`,
		`"cause":"decision 2"}`, `"cause":"decision 2","decision":2}`,
		`"cause":"decision 4"}`, `"cause":"decision 4","decision":4}`,
		`"cause":"undo of decision 4"}`, `"cause":"undo of decision 4","undoes":4}`).Replace(old)
	if again := shared(t, withoutClaims(snapshot(t, s)), 9); !sameLines(again, want) {
		t.Errorf("export after import differs:\n%s\nwant:\n%s", again, want)
	}
	d := must[memory.Decision](t)(s.Undo(ctx, "", 2))
	if d.UndoneAt == nil {
		t.Errorf("undo: %+v", d)
	}
	if f := getFact(t, s, "", 1); f.State() != memory.Current {
		t.Errorf("the retracted target after the undo: %s", f.State())
	}
	if f := getFact(t, s, "", 2); f.State() != memory.Retracted {
		t.Errorf("the added fact after the undo: %s", f.State())
	}
	if _, err := s.Undo(ctx, "bob", 4); !errors.Is(err, memory.ErrAlreadyUndone) {
		t.Errorf("undo of the decision undone before the export: %v", err)
	}
	checkClean(t, s)
}

// The references are checked like the rest of an import: a version 1
// export has none as fields, and a version 2 one names only decisions it
// holds. A version 1 cause that reads like a reference to a decision the
// export does not hold was a person's words.
func TestImportChecksDecisionReferences(t *testing.T) {
	old := string(must[[]byte](t)(os.ReadFile("testdata/export-v1-undo.jsonl")))
	v2 := strings.Replace(old, `"version":1,`, `"version":2,`, 1)
	for name, c := range map[string]struct {
		from, to, in string
	}{
		"a field in version 1":            {`"cause":"decision 2"}`, `"cause":"decision 2","decision":2}`, old},
		"past last_decision":              {`"cause":"decision 2"}`, `"cause":"decision 2","decision":5}`, v2},
		"an undo past last_decision":      {`"cause":"decision 2"}`, `"undoes":9}`, v2},
		"a version this program precedes": {`"version":2,`, `"version":10,`, v2},
	} {
		t.Run(name, func(t *testing.T) {
			bad := strings.Replace(c.in, c.from, c.to, 1)
			if bad == c.in {
				t.Fatal("the mutation did not apply")
			}
			s, _ := open(t, nil, nil)
			if _, err := s.Import(ctx, strings.NewReader(bad), nil); !errors.Is(err, memory.ErrBadImport) {
				t.Errorf("import: %v, want ErrBadImport", err)
			}
			if n := len(allFacts(t, s, "")); n != 0 {
				t.Errorf("a refused import left %d facts", n)
			}
		})
	}
	words := strings.Replace(old, `"cause":"decision 2"}`, `"cause":"decision 9"}`, 1)
	s, _ := open(t, newClock("2026-07-01"), nil)
	must[int](t)(s.Import(ctx, strings.NewReader(words), nil))
	if evs := must[[]memory.Event](t)(s.Events(ctx, "", 1)); evs[1].Decision != 0 || evs[1].Cause != "decision 9" {
		t.Errorf("a cause naming no decision of the export: %+v", evs[1])
	}
}
