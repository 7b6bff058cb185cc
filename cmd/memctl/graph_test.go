package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
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
	want := []string{"event_end", "event_start", "kind", "object", "relation", "state", "subject", "support"}
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
	if st := m["state"]; st != "current" && st != "ended" && st != "retracted" {
		t.Errorf("state = %#v, want current, ended or retracted", st)
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
	for _, k := range []string{"event_start", "event_end"} {
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
