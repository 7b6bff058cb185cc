package memory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// exportLine is one hand-written fact line of an export.
type exportLine struct {
	id, supersedes, supersededBy uint64
	text, user                   string
	superseded                   bool // its log ends in a supersede by supersededBy
}

func (l exportLine) String() string {
	log := []map[string]any{{"kind": "recorded", "at": "2026-01-01T00:00:00Z", "origin": "user"}}
	var until any
	if l.superseded {
		log = append(log, map[string]any{"kind": "superseded", "at": "2026-02-01T00:00:00Z", "origin": "user",
			"by": l.supersededBy, "event_end": "2026-02-01T00:00:00Z"})
		until = "2026-02-01T00:00:00Z"
	}
	text := l.text
	if text == "" {
		text = fmt.Sprintf("fact %d", l.id)
	}
	b, err := json.Marshal(map[string]any{"id": l.id, "user": l.user, "text": text, "pinned": false, "origin": "user",
		"source": map[string]any{}, "recorded_at": "2026-01-01T00:00:00Z", "valid_until": until,
		"superseded_by": l.supersededBy, "supersedes": l.supersedes, "event_from": nil, "event_until": nil, "log": log})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func exportOfLines(lines ...string) string {
	return `{"format":"palimpsest-memory","version":1,"next_id":10}` + "\n" + strings.Join(lines, "\n") + "\n"
}

// wantRefused imports text into a new store and wants it refused, naming
// the line and saying what; the store stays empty.
func wantRefused(t *testing.T, text, line, what string) {
	t.Helper()
	s, _ := open(t, newClock("2026-06-01"), nil)
	_, err := s.Import(ctx, strings.NewReader(text), nil)
	if !errors.Is(err, memory.ErrBadImport) || !strings.Contains(err.Error(), line+":") || !strings.Contains(err.Error(), what) {
		t.Errorf("import: %v, want ErrBadImport naming %s and %q", err, line, what)
	}
	if fs := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true})); len(fs) != 0 {
		t.Errorf("a refused import left %d facts", len(fs))
	}
}

// A chain that loops has no first version and often no current one: no
// sequence of writes makes it, and Import refuses it, naming the line of
// the loop's lowest id.
func TestImportRefusesSupersessionCycles(t *testing.T) {
	ok := exportLine{id: 1, text: "a fact before the loop"}.String()
	for name, lines := range map[string][]exportLine{
		"superseded by itself": {{id: 2, supersedes: 2, supersededBy: 2, superseded: true}},
		"A↔B": {{id: 2, supersedes: 3, supersededBy: 3, superseded: true},
			{id: 3, supersedes: 2, supersededBy: 2, superseded: true}},
		"A→B→C→A": {{id: 2, supersedes: 4, supersededBy: 3, superseded: true},
			{id: 3, supersedes: 2, supersededBy: 4, superseded: true},
			{id: 4, supersedes: 3, supersededBy: 2, superseded: true}},
	} {
		t.Run(name, func(t *testing.T) {
			all := []string{ok}
			for _, l := range lines {
				all = append(all, l.String())
			}
			wantRefused(t, exportOfLines(all...), "line 3", "supersession cycle 2 → ")
		})
	}
}

// Invalid UTF-8 is refused as Add refuses it, wherever it is: raw bytes,
// and the escapes of lone surrogates that encoding/json would turn into
// U+FFFD without a word.
func TestImportRefusesInvalidUTF8(t *testing.T) {
	base := exportOfLines(exportLine{id: 1}.String(),
		`{"id":2,"user":"bob","text":"Bob works here.","pinned":false,"origin":"user","source":{"quote":"I work here"},"recorded_at":"2026-01-01T00:00:00Z","valid_until":"2026-01-02T00:00:00Z","superseded_by":0,"supersedes":0,"event_from":null,"event_until":null,"log":[{"kind":"recorded","at":"2026-01-01T00:00:00Z","origin":"user"},{"kind":"retracted","at":"2026-01-02T00:00:00Z","origin":"user","cause":"wrong"}]}`)
	s, _ := open(t, newClock("2026-06-01"), nil)
	if _, err := s.Import(ctx, strings.NewReader(base), nil); err != nil {
		t.Fatalf("the unmodified import: %v", err)
	}
	for name, c := range map[string]struct{ old, new string }{
		"text byte":              {"Bob works here.", "Bob works \xffhere."},
		"user byte":              {`"user":"bob"`, "\"user\":\"b\xc3ob\""},
		"quote byte":             {"I work here", "I work \xed\xa0\x80here"},
		"reason byte":            {`"cause":"wrong"`, "\"cause\":\"wr\xe2\x82ong\""},
		"text lone high":         {"Bob works here.", `Bob works \ud800here.`},
		"user lone low":          {`"user":"bob"`, `"user":"b\uDC00ob"`},
		"quote high, no low":     {"I work here", `I work \ud83d\u0041here`},
		"reason high at the end": {`"cause":"wrong"`, `"cause":"wrong\ud83d"`},
	} {
		t.Run(name, func(t *testing.T) {
			bad := strings.Replace(base, c.old, c.new, 1)
			if bad == base {
				t.Fatal("the mutation did not apply")
			}
			wantRefused(t, bad, "line 3", "UTF-8")
		})
	}
	// What is valid stays accepted: a surrogate pair, U+FFFD itself, and
	// an escaped backslash before a u.
	for _, text := range []string{`smile \ud83d\ude00`, "a literal \ufffd", `a \ufffd escape`, `not an escape: \\ud800`} {
		good := strings.Replace(base, "Bob works here.", text, 1)
		s, _ := open(t, newClock("2026-06-01"), nil)
		if _, err := s.Import(ctx, strings.NewReader(good), nil); err != nil {
			t.Errorf("import of %s: %v", text, err)
		}
	}
}

// A supersede step that ends a fact before its explicit start is refused by
// every write now, but earlier versions wrote it (a plan superseded before it
// began): their exports still import, and such a version was never true.
func TestImportKeepsEndBeforeExplicitStart(t *testing.T) {
	ctx := context.Background()
	old := string(must[[]byte](t)(os.ReadFile("testdata/export-v1.jsonl")))
	early := strings.Replace(old, `"by":5,"event_end":"2026-02-01T00:00:00Z"`, `"by":5,"event_end":"2025-12-01T00:00:00Z"`, 1)
	if early == old {
		t.Fatal("the mutation did not apply")
	}
	s, _ := open(t, newClock("2026-06-01"), nil)
	if _, err := s.Import(ctx, strings.NewReader(early), nil); err != nil {
		t.Fatalf("import: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("check: %v", err)
	}
	has4 := func(event, known string) bool {
		var k time.Time
		if known != "" {
			k = day(known)
		}
		facts, err := s.At(ctx, "", day(event), k)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(facts, func(f memory.Fact) bool { return f.ID == 4 })
	}
	if !has4("2026-01-06", "2026-01-20") {
		t.Error("as known on 20 January, before its supersede, fact 4 was true on 6 January")
	}
	if has4("2026-01-06", "") || has4("2025-11-01", "") {
		t.Error("as known now, fact 4 (superseded before it began) was never true")
	}
	var out bytes.Buffer
	if err := s.Export(ctx, &out); err != nil {
		t.Fatal(err)
	}
	// Exported again in the current version, as it was otherwise.
	if want := withBobsConflict(givenEnds(strings.Replace(early, `"version":1,`, `"version":9,`, 1))); !sameLines(shared(t, withoutClaims(out.String()), 9), want) {
		t.Error("re-export differs from the import")
	}
}

// A step at the record time zero (the Unix epoch, which a write records a
// nanosecond later) cannot be told from no end in a record: an import of
// a fact retracted then, with no valid_until, would show it current.
func TestImportRefusesAStepAtRecordTimeZero(t *testing.T) {
	line := `{"id":2,"user":"","text":"Bob works here.","pinned":false,"origin":"user","source":{},"recorded_at":"1969-12-31T23:00:00Z","valid_until":null,"superseded_by":0,"supersedes":0,"event_from":null,"event_until":null,"log":[{"kind":"recorded","at":"1969-12-31T23:00:00Z","origin":"user"},{"kind":"retracted","at":"1970-01-01T00:00:00Z","origin":"user"}]}`
	wantRefused(t, exportOfLines(exportLine{id: 1}.String(), line), "line 3", "record time zero")
	// A nanosecond later it is a retraction like any other.
	later := strings.ReplaceAll(line, `"valid_until":null`, `"valid_until":"1970-01-01T00:00:00.000000001Z"`)
	later = strings.Replace(later, `"at":"1970-01-01T00:00:00Z"`, `"at":"1970-01-01T00:00:00.000000001Z"`, 1)
	s, _ := open(t, newClock("2026-06-01"), nil)
	if _, err := s.Import(ctx, strings.NewReader(exportOfLines(exportLine{id: 1}.String(), later)), nil); err != nil {
		t.Fatalf("a retraction a nanosecond after the epoch: %v", err)
	}
	if f := must[memory.Fact](t)(s.Get(ctx, "", 2)); f.State() == memory.Current {
		t.Errorf("fact 2 after import: %+v", f)
	}
}
