package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

type result struct {
	code           int
	stdout, stderr string
}

// memctl runs the command in-process with stdin as its input.
func memctl(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// ok runs the command and fails the test unless it succeeded quietly.
func ok(t *testing.T, args ...string) string {
	t.Helper()
	r := memctl(t, "", args...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("memctl %q: exit %d, stderr %q", args, r.code, r.stderr)
	}
	return r.stdout
}

// fails runs the command and checks the error contract: the exit code, no
// output, and exactly one stderr line starting "memctl: ".
func fails(t *testing.T, code int, args ...string) string {
	t.Helper()
	r := memctl(t, "", args...)
	if r.code != code {
		t.Errorf("memctl %q: exit %d, want %d (stderr %q)", args, r.code, code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("memctl %q: stdout %q, want none", args, r.stdout)
	}
	if !strings.HasPrefix(r.stderr, "memctl: ") || !strings.HasSuffix(r.stderr, "\n") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("memctl %q: stderr %q, want one line starting %q", args, r.stderr, "memctl: ")
	}
	return r.stderr
}

func tempDB(t *testing.T) string { return filepath.Join(t.TempDir(), "memory.db") }

func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("output %q is not the JSON expected: %v", s, err)
	}
	return v
}

// fact decodes one fact object and checks its shape.
func fact(t *testing.T, s string) map[string]any {
	t.Helper()
	m := decode[map[string]any](t, s)
	checkFactObject(t, m)
	return m
}

func facts(t *testing.T, s string) []map[string]any {
	t.Helper()
	if strings.TrimSpace(s) == "null" {
		t.Fatalf("got null, want an array")
	}
	fs := decode[[]map[string]any](t, s)
	for _, m := range fs {
		checkFactObject(t, m)
	}
	return fs
}

func id(m map[string]any) int { return int(m["id"].(float64)) }

func ids(fs []map[string]any) []int {
	out := []int{}
	for _, m := range fs {
		out = append(out, id(m))
	}
	return out
}

// checkFactObject holds a fact object to the documented contract: exactly
// these keys, with these JSON types.
func checkFactObject(t *testing.T, m map[string]any) {
	t.Helper()
	want := []string{"claims", "event_end", "event_from", "event_source", "event_start", "event_until", "event_until_source",
		"id", "pinned", "recorded_at", "source", "state", "superseded_by", "text", "user", "valid_until"}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, want) {
		t.Fatalf("fact keys %v, want %v", keys, want)
	}
	for _, k := range []string{"id", "superseded_by"} {
		if n, isNum := m[k].(float64); !isNum || n != float64(uint64(n)) {
			t.Errorf("%s = %#v, want a whole number", k, m[k])
		}
	}
	for _, k := range []string{"user", "text"} {
		if _, isStr := m[k].(string); !isStr {
			t.Errorf("%s = %#v, want a string", k, m[k])
		}
	}
	if st := m["state"]; st != "current" && st != "superseded" && st != "retracted" {
		t.Errorf("state = %#v", st)
	}
	if _, isBool := m["pinned"].(bool); !isBool {
		t.Errorf("pinned = %#v, want a bool", m["pinned"])
	}
	for _, k := range []string{"recorded_at", "valid_until", "event_from", "event_until", "event_start", "event_end"} {
		if m[k] == nil && k != "recorded_at" {
			continue
		}
		s, isStr := m[k].(string)
		if _, err := time.Parse(time.RFC3339Nano, s); !isStr || err != nil || !strings.HasSuffix(s, "Z") {
			t.Errorf("%s = %#v, want an RFC 3339 UTC time", k, m[k])
		}
	}
	if s, isStr := m["source"].(string); m["source"] != nil && (!isStr || s == "") {
		t.Errorf("source = %#v, want null or a non-empty string", m["source"])
	}
	for _, k := range []string{"event_source", "event_until_source"} {
		if s, isStr := m[k].(string); m[k] != nil && (!isStr || s != "given" && s != "model" && s != "words") {
			t.Errorf("%s = %#v, want null, given, model or words", k, m[k])
		}
	}
	for _, p := range [][2]string{{"event_from", "event_source"}, {"event_until", "event_until_source"}} {
		if (m[p[0]] == nil) != (m[p[1]] == nil) && m[p[1]] != nil {
			t.Errorf("%s = %#v with %s null", p[1], m[p[1]], p[0])
		}
	}
	cs, isArr := m["claims"].([]any)
	if !isArr {
		t.Fatalf("claims = %#v, want an array", m["claims"])
	}
	for _, c := range cs {
		obj, isObj := c.(map[string]any)
		if !isObj || len(obj) != 4 {
			t.Errorf("claim %#v, want an object of subject, relation, object and kind", c)
			continue
		}
		for _, k := range []string{"subject", "relation", "object", "kind"} {
			if _, isStr := obj[k].(string); !isStr {
				t.Errorf("claim %s = %#v, want a string", k, obj[k])
			}
		}
	}
}

func TestFactJSON(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	got := fact(t, ok(t, "--db", db, "--json", "--now", "2026-03-10", "add", "  I work at company A. ",
		"--from", "2026-01-05", "--until", "2026-12-31T18:00:00+01:00", "--source", "msg-7", "--pin"))
	want := map[string]any{
		"id": 1.0, "user": "", "text": "I work at company A.", "state": "current", "pinned": true,
		"recorded_at": "2026-03-10T00:00:00Z", "valid_until": nil, "superseded_by": 0.0,
		"event_from": "2026-01-05T00:00:00Z", "event_until": "2026-12-31T17:00:00Z", "source": "msg-7",
		"event_source": "given", "event_until_source": "given",
		"event_start": "2026-01-05T00:00:00Z", "event_end": "2026-12-31T17:00:00Z",
		"claims": []any{map[string]any{"subject": "", "relation": "works_at", "object": "company A", "kind": "company"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("add --json:\n got %v\nwant %v", got, want)
	}
	if g := fact(t, ok(t, "--db", db, "--json", "get", "1")); !reflect.DeepEqual(g, want) {
		t.Errorf("get --json:\n got %v\nwant %v", g, want)
	}
	list := facts(t, ok(t, "--db", db, "--json", "list"))
	if len(list) != 1 || !reflect.DeepEqual(list[0], want) {
		t.Errorf("list --json = %v, want [%v]", list, want)
	}

	// Unset optional fields are null, not absent or empty.
	bare := fact(t, ok(t, "--db", db, "--json", "--user", "bob", "add", "Bob likes tea."))
	for _, k := range []string{"source", "event_from", "event_until", "valid_until", "event_end"} {
		if bare[k] != nil {
			t.Errorf("%s = %#v, want null", k, bare[k])
		}
	}
	// Told without a time, a fact is true from when it was recorded.
	if bare["event_start"] != bare["recorded_at"] {
		t.Errorf("event_start = %#v, want the record time %#v", bare["event_start"], bare["recorded_at"])
	}
	if bare["user"] != "bob" || bare["pinned"] != false {
		t.Errorf("bare fact = %v", bare)
	}
	if out := ok(t, "--db", db, "--json", "at", "--known", "2020-01-01"); strings.TrimSpace(out) != "[]" {
		t.Errorf("empty at --json = %q, want []", out)
	}
}

// A fact told without a time and superseded by one that started before it
// was told: its start is unknown, its end the successor's start, in the
// JSON as in the table.
func TestFactJSONEffectiveInterval(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	a := id(fact(t, ok(t, "--db", db, "--json", "--now", "2026-12-01", "add", "I work at Acme.")))
	b := id(fact(t, ok(t, "--db", db, "--json", "--now", "2026-12-10", "supersede", fmt.Sprint(a),
		"I moved to Globex back in June.", "--from", "2026-06-01")))
	old := fact(t, ok(t, "--db", db, "--json", "get", fmt.Sprint(a)))
	if _, has := old["event_start"]; !has || old["event_start"] != nil || old["event_end"] != "2026-06-01T00:00:00Z" {
		t.Errorf("superseded fact: event_start %#v event_end %#v, want null and 2026-06-01", old["event_start"], old["event_end"])
	}
	cur := fact(t, ok(t, "--db", db, "--json", "get", fmt.Sprint(b)))
	if _, has := cur["event_end"]; !has || cur["event_start"] != "2026-06-01T00:00:00Z" || cur["event_end"] != nil {
		t.Errorf("successor: event_start %#v event_end %#v", cur["event_start"], cur["event_end"])
	}
	for _, tc := range []struct {
		event string
		want  []int
	}{{"2026-05-01", []int{a}}, {"2026-07-01", []int{b}}} {
		if got := ids(facts(t, ok(t, "--db", db, "--json", "--now", "2026-12-20", "at", "--event", tc.event))); !slices.Equal(got, tc.want) {
			t.Errorf("at %s = %v, want %v", tc.event, got, tc.want)
		}
	}
	if table := ok(t, "--db", db, "list", "--all"); !strings.Contains(table, "? → 2026-06-01") {
		t.Errorf("the table does not show the unknown start:\n%s", table)
	}
}

// TestCompanyStory is the bi-temporal story through the command line: a job
// change told late, with --now as the record time.
func TestCompanyStory(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	a := id(fact(t, ok(t, "--db", db, "--json", "--now", "2026-03-10", "add", "I work at company A.")))
	b := id(fact(t, ok(t, "--db", db, "--json", "--now", "2026-08-20", "supersede", fmt.Sprint(a),
		"I work at company B.", "--from", "2026-06-01")))

	old := fact(t, ok(t, "--db", db, "--json", "get", fmt.Sprint(a)))
	if old["state"] != "superseded" || id(map[string]any{"id": old["superseded_by"]}) != b ||
		old["valid_until"] != "2026-08-20T00:00:00Z" {
		t.Errorf("superseded fact = %v", old)
	}

	for _, tc := range []struct {
		name  string
		flags []string
		want  []int
	}{
		{"May", []string{"--event", "2026-05-15"}, []int{a}},
		{"July", []string{"--event", "2026-07-01"}, []int{b}},
		{"July as believed on 1 August", []string{"--event", "2026-07-01", "--known", "2026-08-01"}, []int{a}},
		{"July as believed on 20 August", []string{"--event", "2026-07-01", "--known", "2026-08-20"}, []int{b}},
		{"now", nil, []int{b}},
		{"before anything was known", []string{"--known", "2026-03-01"}, []int{}},
		{"before the store's first fact began", []string{"--event", "2025-01-01"}, []int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--db", db, "--json", "--now", "2026-09-01", "at"}, tc.flags...)
			if got := ids(facts(t, ok(t, args...))); !slices.Equal(got, tc.want) {
				t.Errorf("at %v = %v, want %v", tc.flags, got, tc.want)
			}
		})
	}

	hist := facts(t, ok(t, "--db", db, "--json", "history", fmt.Sprint(b)))
	if got := ids(hist); !slices.Equal(got, []int{a, b}) || hist[0]["state"] != "superseded" || hist[1]["state"] != "current" {
		t.Errorf("history = %v", hist)
	}
	if got := ids(facts(t, ok(t, "--db", db, "--json", "list"))); !slices.Equal(got, []int{b}) {
		t.Errorf("list = %v, want [%d]", got, b)
	}
	if got := ids(facts(t, ok(t, "--db", db, "--json", "list", "--all"))); !slices.Equal(got, []int{a, b}) {
		t.Errorf("list --all = %v, want [%d %d]", got, a, b)
	}

	// The table shows each fact's event interval as the store now sees it.
	table := ok(t, "--db", db, "list", "--all")
	for _, want := range []string{"ID", "STATE", "PIN", "RECORDED", "EVENT", "TEXT",
		"2026-03-10 → 2026-06-01", "2026-06-01 → open", "superseded", "I work at company B."} {
		if !strings.Contains(table, want) {
			t.Errorf("list table lacks %q:\n%s", want, table)
		}
	}
}

func TestLifecycle(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "The offsite is on Tuesday.")
	get := func() map[string]any { return fact(t, ok(t, "--db", db, "--json", "get", "1")) }

	steps := []struct {
		args  []string
		state string
		pin   bool
	}{
		{[]string{"invalidate", "1", "--reason", "the user corrected it"}, "retracted", false},
		{[]string{"restore", "1", "--reason", "it was right after all"}, "current", false},
		{[]string{"pin", "1"}, "current", true},
		{[]string{"unpin", "1"}, "current", false},
	}
	for _, s := range steps {
		out := fact(t, ok(t, append([]string{"--db", db, "--json"}, s.args...)...))
		if out["state"] != s.state || out["pinned"] != s.pin {
			t.Errorf("%v printed state %v pinned %v, want %s %v", s.args, out["state"], out["pinned"], s.state, s.pin)
		}
		if g := get(); g["state"] != s.state || g["pinned"] != s.pin {
			t.Errorf("after %v get gives state %v pinned %v, want %s %v", s.args, g["state"], g["pinned"], s.state, s.pin)
		}
		if s.state == "retracted" {
			if l := facts(t, ok(t, "--db", db, "--json", "list")); len(l) != 0 {
				t.Errorf("list after invalidate = %v, want []", l)
			}
			if l := facts(t, ok(t, "--db", db, "--json", "list", "--all")); len(l) != 1 {
				t.Errorf("list --all after invalidate = %v, want the retracted fact", l)
			}
		}
	}

	detail := ok(t, "--db", db, "get", "1")
	for _, want := range []string{"The offsite is on Tuesday.", "recorded", "retracted", "reason: the user corrected it",
		"restored", "reason: it was right after all", "pinned", "unpinned", "source       cli"} {
		if !strings.Contains(detail, want) {
			t.Errorf("get lacks %q:\n%s", want, detail)
		}
	}
	if out := ok(t, "--db", db, "invalidate", "1"); out != "retracted fact 1: The offsite is on Tuesday.\n" {
		t.Errorf("invalidate printed %q", out)
	}
	fails(t, 1, "--db", db, "invalidate", "1")
	ok(t, "--db", db, "restore", "1")
	fails(t, 1, "--db", db, "restore", "1")
}

func TestDelete(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "Secret one.")
	ok(t, "--db", db, "add", "Keep me.")
	if out := ok(t, "--db", db, "--json", "delete", "1"); out != "{\"deleted\":[1]}\n" {
		t.Errorf("delete --json = %q", out)
	}
	if e := fails(t, 1, "--db", db, "get", "1"); !strings.Contains(e, "not found") {
		t.Errorf("get of a deleted fact: %q", e)
	}
	if got := ids(facts(t, ok(t, "--db", db, "--json", "list", "--all"))); !slices.Equal(got, []int{2}) {
		t.Errorf("list --all after delete = %v, want [2]", got)
	}

	ok(t, "--db", db, "supersede", "2", "Keep me, version two.")
	if out := ok(t, "--db", db, "delete", "3", "--chain"); out != "deleted facts 2, 3\n" {
		t.Errorf("delete --chain = %q", out)
	}
	if got := facts(t, ok(t, "--db", db, "--json", "list", "--all")); len(got) != 0 {
		t.Errorf("list --all after delete --chain = %v", got)
	}
	if out := ok(t, "--db", db, "check"); out != "ok\n" {
		t.Errorf("check after deletes = %q", out)
	}
}

func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	f := fact(t, ok(t, "add", "I like tea.", "--db", db, "--json", "--now", "2026-02-03T04:05:06Z", "--user", "ann"))
	if f["text"] != "I like tea." || f["user"] != "ann" || f["recorded_at"] != "2026-02-03T04:05:06Z" {
		t.Errorf("add with trailing flags = %v", f)
	}
	if g := fact(t, ok(t, "get", "1", "--json", "--user", "ann", "--db", db)); g["text"] != "I like tea." {
		t.Errorf("get with trailing flags = %v", g)
	}
	// Facts are per user: the default user cannot see ann's.
	fails(t, 1, "get", "1", "--db", db)
}

func TestErrors(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "A fact.")
	missing := filepath.Join(t.TempDir(), "none", "memory.db")
	export := filepath.Join(t.TempDir(), "export.jsonl")
	ok(t, "--db", db, "export", export)

	for _, tc := range []struct {
		name string
		code int
		args []string
		msg  string
	}{
		{"bad date", 2, []string{"add", "x", "--from", "2026-13-45"}, "2026-13-45"},
		{"bad date syntax", 2, []string{"at", "--event", "1 June"}, "YYYY-MM-DD"},
		{"bad now", 2, []string{"--now", "yesterday", "list"}, "yesterday"},
		{"empty text", 1, []string{"add", ""}, "empty"},
		{"blank text", 1, []string{"add", "  \t "}, "empty"},
		{"event interval backwards", 1, []string{"add", "x", "--from", "2026-02-01", "--until", "2026-01-01"}, "interval"},
		{"unknown id", 1, []string{"get", "42"}, "not found"},
		{"unknown id to invalidate", 1, []string{"invalidate", "42"}, "not found"},
		{"unknown id to supersede", 1, []string{"supersede", "42", "y"}, "not found"},
		{"bad id", 2, []string{"get", "abc"}, "bad fact id"},
		{"zero id", 2, []string{"pin", "0"}, "bad fact id"},
		{"unknown command", 2, []string{"frobnicate"}, "unknown command"},
		{"no command", 2, nil, "no command"},
		{"unknown flag", 2, []string{"list", "--bogus"}, "bogus"},
		{"missing argument", 2, []string{"supersede", "1"}, "ID TEXT"},
		{"extra argument", 2, []string{"add", "I", "work"}, "TEXT"},
		{"import into a store with facts", 1, []string{"import", export}, "not empty"},
		{"import of a missing file", 1, []string{"import", filepath.Join(t.TempDir(), "nope")}, "nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := fails(t, tc.code, append([]string{"--db", db}, tc.args...)...)
			if !strings.Contains(e, tc.msg) {
				t.Errorf("stderr %q does not mention %q", e, tc.msg)
			}
		})
	}

	t.Run("no store", func(t *testing.T) {
		for _, cmd := range [][]string{{"list"}, {"get", "1"}, {"at"}, {"prompt"}, {"export"}, {"check"}} {
			if e := fails(t, 1, append([]string{"--db", missing}, cmd...)...); !strings.Contains(e, "no store at "+missing) {
				t.Errorf("%v: %q", cmd, e)
			}
		}
		if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
			t.Errorf("a read-only command created %s", filepath.Dir(missing))
		}
	})
	// Failed writes change nothing.
	if got := ids(facts(t, ok(t, "--db", db, "--json", "list", "--all"))); !slices.Equal(got, []int{1}) {
		t.Errorf("facts after failed commands = %v, want [1]", got)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "add", "I work at company A.", "--source", "msg-1")
	ok(t, "--db", db, "--now", "2026-03-12", "add", "I have a dog named Rex.", "--auto")
	ok(t, "--db", db, "--now", "2026-08-20", "supersede", "1", "I work at company B.", "--from", "2026-06-01")
	ok(t, "--db", db, "--now", "2026-09-10", "invalidate", "2", "--reason", "stale")
	ok(t, "--db", db, "--now", "2026-09-11", "restore", "2")
	ok(t, "--db", db, "--now", "2026-09-11", "pin", "2")
	ok(t, "--db", db, "--user", "bob", "add", "Bob's fact, with \"quotes\" & <tags>\nover two lines.")

	dir := t.TempDir()
	file := filepath.Join(dir, "export.jsonl")
	if out := ok(t, "--db", db, "export", file); out != "" {
		t.Errorf("export FILE printed %q", out)
	}
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("export file mode %v, want 0600", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("export left %d files in its directory, want 1", len(entries))
	}
	if out := ok(t, "--db", db, "export"); out != string(first) {
		t.Errorf("export to stdout differs from export to a file")
	}

	fresh := tempDB(t)
	if out := ok(t, "--db", fresh, "import", file); out != "imported 4 facts\n" {
		t.Errorf("import printed %q", out)
	}
	if again := ok(t, "--db", fresh, "export"); again != string(first) {
		t.Errorf("export after import differs:\n%s\nwant\n%s", again, first)
	}
	if out := ok(t, "--db", fresh, "check"); out != "ok\n" {
		t.Errorf("check after import = %q", out)
	}

	// "-" reads stdin.
	piped := tempDB(t)
	r := memctl(t, string(first), "--db", piped, "--json", "import", "-")
	if r.code != 0 || r.stdout != "{\"imported\":4}\n" || r.stderr != "" {
		t.Errorf("import - = %+v", r)
	}
	if again := ok(t, "--db", piped, "export", "-"); again != string(first) {
		t.Errorf("export after import from stdin differs")
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "A fact.")
	if out := ok(t, "--db", db, "check"); out != "ok\n" {
		t.Errorf("check = %q, want ok", out)
	}
	if out := ok(t, "--db", db, "check", "--json"); out != "{\"ok\":true}\n" {
		t.Errorf("check --json = %q", out)
	}

	bad := filepath.Join(t.TempDir(), "bad.db")
	if err := os.WriteFile(bad, bytes.Repeat([]byte("not a store "), 2000), 0o600); err != nil {
		t.Fatal(err)
	}
	fails(t, 1, "--db", bad, "check")
	r := memctl(t, "", "--db", bad, "check", "--json")
	res := decode[map[string]any](t, r.stdout)
	if r.code != 1 || res["ok"] != false || res["error"] == "" || len(res) != 2 || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("check --json of a damaged file = %+v", r)
	}
}

func TestPrompt(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "add", "I work at company A.")
	ok(t, "--db", db, "--now", "2026-08-20", "supersede", "1", "I work at company B.", "--from", "2026-06-01")
	ok(t, "--db", db, "--now", "2026-08-20", "add", "I start a pottery course.", "--from", "2026-10-01")
	want := "Facts about the user, true as of 2026-09-01:\n" +
		"- I work at company B. (since 2026-06-01)\n" +
		"Upcoming, not yet true:\n" +
		"- I start a pottery course. (from 2026-10-01)\n"
	if out := ok(t, "--db", db, "--now", "2026-09-01", "prompt"); out != want {
		t.Errorf("prompt:\n%s\nwant\n%s", out, want)
	}
	got := decode[map[string]string](t, ok(t, "--db", db, "--now", "2026-09-01", "prompt", "--json"))
	if !reflect.DeepEqual(got, map[string]string{"prompt": want}) {
		t.Errorf("prompt --json = %v", got)
	}
}

func TestDemo(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	out := ok(t, "--db", db, "demo")
	for _, want := range []string{"company A", "company B", "2026-06-01", "Wednesday 16 September",
		"fact is pinned", "Facts about the user", "History of #1", "decider rules",
		"The rules decider needs no model; memctl remember --decider ollama or openai asks one.",
		"claim: (user) works_at company A", "Edges(works_at, event 2026-05-15, known now) returns:",
		"9. The graph", "believed 2026-03-10 → 2026-08-20", "Neighbours(Kazan) returns:", "so it is gone, not ended",
		"10. Two names, one company?", "merge 1 (memctl graph merge Яндекс Yandex)", "Edges(likes, known 2026-09-25) returns:",
		"marked undone on 2026-09-27",
		`(unconfirmed: contradicts "I have a dog named Rex.", told 2026-03-12, which is pinned and stands — ask)`,
		`Prompt(Budget 160, For "Where do I work now?")`, "left out of this prompt only, still current:", "and the note is gone",
		"11. An interval from the words", "(from 2026-10-13, through 2026-10-15)", "(the trip is no longer in the prompt)",
		"12. The inspector", "POST /decisions/3/undo → 303; #11 is now retracted",
		"13. Two things at once", "(unconfirmed: contradicts \"Я живу в Мюнхене.\"", "their names are one entity",
		"conflict 3 is moot in the same commit: fact 14 was retracted", "refused, nothing changed",
		"14. An assistant uses the memory over MCP", "← #15 I play the cello. (evidence: play", "      - I play the cello.",
		"15. One process owns the store", "    $ memctl list\n      ID  STATE", "15  current  -    2026-11-02  2026-11-02 → open  I play the cello.",
		"memctl: the store is held by memctl demo (pid ",
		"16. The candidate index outlives the process", "17. Moving the memory to a new file", "Its export is byte for byte the first one's",
		"18. Asking the memory a question: Search", "#13 Я живу в Мюнхене.  [current;", "#1 I work at company A.  [superseded;",
		"nothing: a question of only function words finds nothing"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("demo touched --db %s", db)
	}
}

// demo --keep leaves the story's store in a new file for the other
// commands (serve among them), and never writes into a file that exists.
func TestDemoKeep(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "demo", "--keep", db)
	if list := ok(t, "--db", db, "list", "--all"); !strings.Contains(list, "I'll be in Rome from 13 to 15 October.") ||
		!strings.Contains(list, "retracted") {
		t.Errorf("the kept store:\n%s", list)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if msg := fails(t, 2, "demo", "--keep", db); !strings.Contains(msg, "the file exists") {
		t.Errorf("demo --keep of an existing file: %q", msg)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("demo --keep changed a file that existed")
	}
}

// TestImportProgress imports a file over 1 MiB and expects a progress bar
// on stderr, and nothing else there.
func TestImportProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a large store")
	}
	t.Parallel()
	db := tempDB(t)
	s, err := memory.Open(db, 0o600, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	const n = 2500
	text := strings.Repeat("x", 500)
	for i := range n {
		if _, err := s.Add(context.Background(), memory.Note{Text: fmt.Sprintf("%d %s", i, text)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "big.jsonl")
	ok(t, "--db", db, "export", file)
	if fi, _ := os.Stat(file); fi.Size() <= progressMin {
		t.Fatalf("export is %d bytes, want over 1 MiB", fi.Size())
	}
	r := memctl(t, "", "--db", tempDB(t), "import", file)
	if r.code != 0 || r.stdout != fmt.Sprintf("imported %d facts\n", n) {
		t.Fatalf("import = exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "importing") || !strings.Contains(r.stderr, "100%") || strings.Contains(r.stderr, "memctl:") {
		t.Errorf("import stderr %q, want a finished progress bar", r.stderr)
	}
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2026-06-01", time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)},
		{"2026-06-01T12:30:00+02:00", time.Date(2026, 6, 1, 10, 30, 0, 0, time.UTC)},
		{"2026-06-01T12:30:00.25Z", time.Date(2026, 6, 1, 12, 30, 0, 250e6, time.UTC)},
	} {
		for _, record := range []bool{false, true} {
			got, err := parseTime(tc.in, record)
			if err != nil || !got.Equal(tc.want) || got.Location() != time.UTC {
				t.Errorf("parseTime(%q, %v) = %v, %v; want %v", tc.in, record, got, err, tc.want)
			}
		}
	}
	for _, in := range []string{"", "2026-13-01", "2026-02-30", "1 June", "2026-06-01 12:00", "2026-06-01T12:00", "0001-01-01", "1600-01-01"} {
		for _, record := range []bool{false, true} {
			if _, err := parseTime(in, record); err == nil {
				t.Errorf("parseTime(%q, %v) succeeded", in, record)
			}
		}
	}
	// Event times keep to the years 1900 to 2199, record times to what
	// Unix nanoseconds hold.
	for _, tc := range []struct {
		in            string
		event, record bool
	}{
		{"1899-12-31", false, true}, {"1900-01-01", true, true}, {"2199-12-31T23:59:59Z", true, true},
		{"2200-01-01", false, true}, {"2262-04-12", false, false},
	} {
		if _, err := parseTime(tc.in, false); (err == nil) != tc.event || (err != nil && !errors.Is(err, memory.ErrInvalidTime)) {
			t.Errorf("parseTime(%q) as an event time: %v", tc.in, err)
		}
		if _, err := parseTime(tc.in, true); (err == nil) != tc.record || (err != nil && !errors.Is(err, memory.ErrInvalidClock)) {
			t.Errorf("parseTime(%q) as a record time: %v", tc.in, err)
		}
	}
}

func TestDefaultDBPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MEMCTL_DB": "/x/m.db", "XDG_DATA_HOME": "/d", "HOME": "/h"}, "/x/m.db"},
		{map[string]string{"XDG_DATA_HOME": "/d", "HOME": "/h"}, "/d/palimpsest/memory.db"},
		{map[string]string{"XDG_DATA_HOME": "relative", "HOME": "/h"}, "/h/.local/share/palimpsest/memory.db"},
		{map[string]string{"HOME": "/h"}, "/h/.local/share/palimpsest/memory.db"},
	} {
		got, err := defaultDBPath(func(k string) string { return tc.env[k] })
		if err != nil || got != filepath.FromSlash(tc.want) {
			t.Errorf("defaultDBPath(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
	}
}

func TestDefaultDBFromEnvironment(t *testing.T) {
	db := filepath.Join(t.TempDir(), "new", "memory.db")
	t.Setenv("MEMCTL_DB", db)
	ok(t, "add", "A fact.")
	fi, err := os.Stat(filepath.Dir(db))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("store directory: %v, %v; want mode 0700", fi, err)
	}
	if fi, err := os.Stat(db); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("store file: %v, %v; want mode 0600", fi, err)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	out := ok(t, "--help")
	for _, cmd := range []string{"add", "supersede", "invalidate", "restore", "pin", "unpin", "delete",
		"get", "history", "list", "at", "prompt", "graph", "export", "import", "check", "demo"} {
		if !strings.Contains(out, "\n  "+cmd+" ") {
			t.Errorf("help lacks command %q", cmd)
		}
	}
}
