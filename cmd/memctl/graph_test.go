package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/claims"
)

// edges decodes graph --json and checks every edge object's shape.
func edges(t *testing.T, s string) []map[string]any {
	t.Helper()
	if strings.TrimSpace(s) == "null" {
		t.Fatalf("got null, want an array")
	}
	es := decode[[]map[string]any](t, s)
	for _, e := range es {
		checkEdgeObject(t, e)
	}
	return es
}

// checkEdgeObject holds an edge object to the documented contract.
func checkEdgeObject(t *testing.T, m map[string]any) {
	t.Helper()
	want := []string{"event_end", "event_start", "kind", "known_from", "known_until", "object", "object_aliases", "relation", "state", "subject",
		"subject_aliases", "support"}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, want) {
		t.Fatalf("edge keys %v, want %v", keys, want)
	}
	for _, k := range []string{"subject", "relation", "object", "kind"} {
		if _, isStr := m[k].(string); !isStr {
			t.Errorf("%s = %#v, want a string", k, m[k])
		}
	}
	for _, k := range []string{"subject_aliases", "object_aliases"} {
		as, isArr := m[k].([]any)
		if !isArr {
			t.Errorf("%s = %#v, want an array", k, m[k])
		}
		for _, v := range as {
			if _, isStr := v.(string); !isStr {
				t.Errorf("%s holds %#v, want names", k, v)
			}
		}
	}
	if st := m["state"]; st != "current" && st != "ended" && st != "upcoming" && st != "retracted" {
		t.Errorf("state = %#v, want current, ended, upcoming or retracted", st)
	}
	sup, isArr := m["support"].([]any)
	if !isArr || len(sup) == 0 {
		t.Errorf("support = %#v, want a non-empty array of fact ids", m["support"])
	}
	for _, v := range sup {
		if n, isNum := v.(float64); !isNum || n < 1 || n != float64(uint64(n)) {
			t.Errorf("support holds %#v, want fact ids", v)
		}
	}
	for _, k := range []string{"event_start", "event_end", "known_from", "known_until"} {
		if m[k] == nil {
			continue
		}
		s, isStr := m[k].(string)
		if _, err := time.Parse(time.RFC3339Nano, s); !isStr || err != nil || !strings.HasSuffix(s, "Z") {
			t.Errorf("%s = %#v, want null or an RFC 3339 UTC time", k, m[k])
		}
	}
}

func objects(es []map[string]any) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e["object"].(string))
	}
	return out
}

func supportIDs(e map[string]any) []int {
	out := []int{}
	for _, v := range e["support"].([]any) {
		out = append(out, int(v.(float64)))
	}
	return out
}

// TestGraphCompanyStory is the README's story asked of the graph: where
// did I work in May, in July, and in July as believed on 1 August.
func TestGraphCompanyStory(t *testing.T) {
	t.Parallel()
	// The graph is made of what the rules read: say so when they read
	// nothing in the story's words, rather than only that May is empty.
	for _, text := range []string{"I work at company A.", "I work at company B."} {
		if len(claims.Extract(text)) == 0 {
			t.Errorf("the rules find no claim in %q: the story's graph is empty", text)
		}
	}
	db := tempDB(t)
	a := id(fact(t, ok(t, "--db", db, "--json", "--now", "2026-03-10", "add", "I work at company A.")))
	b := id(fact(t, ok(t, "--db", db, "--json", "--now", "2026-08-20", "supersede", fmt.Sprint(a),
		"I work at company B.", "--from", "2026-06-01")))
	for _, tc := range []struct {
		name    string
		flags   []string
		object  string
		support int
	}{
		{"May", []string{"--event", "2026-05-15"}, "company A", a},
		{"July", []string{"--event", "2026-07-15"}, "company B", b},
		{"July as believed on 1 August", []string{"--event", "2026-07-15", "--known", "2026-08-01"}, "company A", a},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--db", db, "--json", "--now", "2026-09-01", "graph", "--relation", "works_at"}, tc.flags...)
			es := edges(t, ok(t, args...))
			if got := objects(es); len(got) != 1 || !strings.EqualFold(got[0], tc.object) {
				t.Fatalf("graph %v = objects %v, want [%s]", tc.flags, got, tc.object)
			}
			if got := supportIDs(es[0]); !slices.Equal(got, []int{tc.support}) {
				t.Errorf("graph %v: support %v, want [%d]", tc.flags, got, tc.support)
			}
			if es[0]["relation"] != "works_at" {
				t.Errorf("relation = %v", es[0]["relation"])
			}
		})
	}
}

// An empty graph is [], not null, and the table says so.
func TestGraphEmpty(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "The offsite is on Tuesday.")
	if out := ok(t, "--db", db, "--json", "graph"); strings.TrimSpace(out) != "[]" {
		t.Errorf("graph --json of a store without claims = %q, want []", out)
	}
	if out := ok(t, "--db", db, "graph"); out != "no edges\n" {
		t.Errorf("graph = %q, want %q", out, "no edges\n")
	}
}

func TestGraphUsageErrors(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Kazan.")
	for _, tc := range []struct {
		name string
		args []string
		msg  []string
	}{
		{"unknown relation", []string{"graph", "--relation", "lives_at"},
			[]string{`unknown relation "lives_at"`, "works_at", "lives_in", "allergic_to", "dislikes"}},
		{"unknown relation with an entity", []string{"graph", "--entity", "Kazan", "--relation", "Lives_In"}, []string{"unknown relation"}},
		{"timeline with --event", []string{"graph", "--entity", "Kazan", "--all", "--event", "2026-01-01"}, []string{"--all", "--event"}},
		{"--all with --known", []string{"graph", "--entity", "Kazan", "--all", "--known", "2026-01-01"}, []string{"--all", "--known"}},
		{"an argument", []string{"graph", "Kazan"}, []string{"no arguments"}},
		{"an empty entity", []string{"graph", "--entity", " "}, []string{"--entity takes a name"}},
		{"bad time", []string{"graph", "--event", "May"}, []string{"YYYY-MM-DD"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := fails(t, 2, append([]string{"--db", db}, tc.args...)...)
			for _, m := range tc.msg {
				if !strings.Contains(e, m) {
					t.Errorf("stderr %q does not mention %q", e, m)
				}
			}
		})
	}
	// A usage mistake is found before the store is looked for.
	missing := tempDB(t)
	fails(t, 2, "--db", missing, "graph", "--relation", "nope")
	if e := fails(t, 1, "--db", missing, "graph"); !strings.Contains(e, "no store at") {
		t.Errorf("graph of a missing store: %q", e)
	}
}

// --entity is the entity's neighbours at --event/--known; with --all its
// timeline, which says when the store believed each interval.
func TestGraphEntity(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	kazan := id(fact(t, ok(t, "--db", db, "--json", "--now", "2026-03-10", "add", "I live in Kazan.")))
	ok(t, "--db", db, "--now", "2026-03-11", "add", "I work at Contoso.")
	porto := id(fact(t, ok(t, "--db", db, "--json", "--now", "2026-08-20", "supersede", fmt.Sprint(kazan),
		"I live in Porto.", "--from", "2026-06-01")))

	es := edges(t, ok(t, "--db", db, "--json", "--now", "2026-09-01", "graph", "--entity", "kazan", "--event", "2026-05-01"))
	if len(es) != 1 || es[0]["object"] != "Kazan" || es[0]["relation"] != "lives_in" || es[0]["subject"] != "" ||
		es[0]["state"] != "current" || !slices.Equal(supportIDs(es[0]), []int{kazan}) {
		t.Fatalf("graph --entity kazan in May = %v, want the user's lives_in Kazan from #%d", es, kazan)
	}
	if es[0]["known_from"] != nil || es[0]["known_until"] != nil {
		t.Errorf("neighbours carry known_from/known_until %v %v, want null (the timeline's)", es[0]["known_from"], es[0]["known_until"])
	}
	if es := edges(t, ok(t, "--db", db, "--json", "--now", "2026-09-01", "graph", "--entity", "Kazan")); len(es) != 0 {
		t.Errorf("graph --entity Kazan now = %v, want none: the user lives in Porto since June", es)
	}
	// --relation narrows the entity's edges.
	if es := edges(t, ok(t, "--db", db, "--json", "--now", "2026-09-01", "graph", "--entity", "Kazan", "--event", "2026-05-01",
		"--relation", "works_at")); len(es) != 0 {
		t.Errorf("graph --entity Kazan --relation works_at = %v, want none", es)
	}

	tl := edges(t, ok(t, "--db", db, "--json", "--now", "2026-09-01", "graph", "--entity", "Kazan", "--all"))
	if len(tl) == 0 {
		t.Fatal("the timeline of Kazan is empty")
	}
	for _, e := range tl {
		if e["object"] != "Kazan" || e["known_from"] == nil {
			t.Errorf("timeline edge %v, want Kazan with known_from", e)
		}
	}
	table := ok(t, "--db", db, "--now", "2026-09-01", "graph", "--entity", "Kazan", "--all")
	for _, want := range []string{"KNOWN", "(user)", "lives_in", "Kazan", fmt.Sprint(kazan)} {
		if !strings.Contains(table, want) {
			t.Errorf("timeline table lacks %q:\n%s", want, table)
		}
	}
	if es := edges(t, ok(t, "--db", db, "--json", "--now", "2026-09-01", "graph", "--entity", "Porto")); len(es) != 1 ||
		!slices.Equal(supportIDs(es[0]), []int{porto}) {
		t.Errorf("graph --entity Porto = %v, want the edge of #%d", es, porto)
	}
}

// The table names every column and shows the event interval in the
// facts' notation; --all keeps ended edges.
func TestGraphTable(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "add", "I work at Contoso.")
	ok(t, "--db", db, "--now", "2026-08-20", "supersede", "1", "I work at Fabrikam.", "--from", "2026-06-01")
	table := ok(t, "--db", db, "--now", "2026-09-01", "graph", "--all")
	for _, want := range []string{"SUBJECT", "RELATION", "OBJECT", "STATE", "EVENT", "SUPPORT",
		"(user)", "works_at", "ended", "current", "→ 2026-06-01", "2026-06-01 → open"} {
		if !strings.Contains(table, want) {
			t.Errorf("graph --all table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "KNOWN") {
		t.Errorf("a table of edges, not the timeline, has a KNOWN column:\n%s", table)
	}
	now := ok(t, "--db", db, "--now", "2026-09-01", "graph")
	if strings.Contains(now, "ended") || !strings.Contains(now, "Fabrikam") {
		t.Errorf("graph now:\n%s\nwant Fabrikam alone", now)
	}
}

// A hard delete takes the fact's edge with it: not ended, gone.
func TestGraphAfterDelete(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Kazan.")
	ok(t, "--db", db, "add", "I have a dog named Rex.")
	ok(t, "--db", db, "delete", "1")
	for _, args := range [][]string{{"graph", "--all"}, {"graph", "--entity", "Kazan", "--all"}, {"graph", "--relation", "lives_in", "--all"}} {
		out := ok(t, append([]string{"--db", db, "--json"}, args...)...)
		if strings.Contains(out, "Kazan") {
			t.Errorf("%v after the delete = %s", args, out)
		}
	}
	if es := edges(t, ok(t, "--db", db, "--json", "graph")); len(es) != 1 || es[0]["relation"] != "has_pet" {
		t.Errorf("graph after the delete = %v, want Rex's edge alone", es)
	}
}

// get shows what a fact claims, in its table and its JSON.
func TestGetShowsClaims(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Kazan.")
	ok(t, "--db", db, "add", "The offsite is on Tuesday.")
	detail := ok(t, "--db", db, "get", "1")
	if !strings.Contains(detail, "claims") || !strings.Contains(detail, "(user) lives_in Kazan") {
		t.Errorf("get lacks the claim:\n%s", detail)
	}
	f := fact(t, ok(t, "--db", db, "--json", "get", "1"))
	cs, _ := f["claims"].([]any)
	if len(cs) != 1 {
		t.Fatalf("claims = %#v, want one", f["claims"])
	}
	c := cs[0].(map[string]any)
	if c["subject"] != "" || c["relation"] != "lives_in" || c["object"] != "Kazan" || len(c) != 4 {
		t.Errorf("claim = %v, want subject \"\", lives_in, Kazan and a kind", c)
	}
	if f := fact(t, ok(t, "--db", db, "--json", "get", "2")); f["claims"] == nil {
		t.Errorf("a fact without claims has claims null, want []")
	}
	if detail := ok(t, "--db", db, "get", "2"); !strings.Contains(detail, "claims       -") {
		t.Errorf("get of a fact without claims:\n%s", detail)
	}
}
