package main

import (
	"slices"
	"strings"
	"testing"
)

func merges(t *testing.T, s string) []map[string]any {
	t.Helper()
	ms := decode[[]map[string]any](t, s)
	for _, m := range ms {
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"at", "from", "id", "into", "reason", "state", "undo_reason", "undone_at"}; !slices.Equal(keys, want) {
			t.Fatalf("merge keys %v, want %v", keys, want)
		}
	}
	return ms
}

func aliasesOf(e map[string]any, key string) []string {
	out := []string{}
	for _, v := range e[key].([]any) {
		out = append(out, v.(string))
	}
	return out
}

// A company told in two languages: graph merge makes one edge of two,
// shown with its alias; the graph as known before the merge shows two;
// graph unmerge parts them again, and graph merges keeps both steps.
func TestGraphMerge(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "add", "I work at Yandex.")
	ok(t, "--db", db, "--now", "2026-03-11", "add", "Я работаю в Яндексе.")
	if es := edges(t, ok(t, "--db", db, "--json", "graph")); len(es) != 2 {
		t.Fatalf("test is void: the rules read %v, want two works_at edges", objects(es))
	}
	out := ok(t, "--db", db, "--now", "2026-03-12", "graph", "merge", "Яндекс", "yandex", "--reason", "the same company")
	if !strings.Contains(out, "merge 1: Яндекс is now an alias of yandex") {
		t.Errorf("merge printed %q", out)
	}
	es := edges(t, ok(t, "--db", db, "--json", "graph"))
	if len(es) != 1 || es[0]["object"] != "Yandex" || !slices.Equal(supportIDs(es[0]), []int{1, 2}) ||
		!slices.Equal(aliasesOf(es[0], "object_aliases"), []string{"Яндекс"}) {
		t.Fatalf("graph after the merge: %v", es)
	}
	if table := ok(t, "--db", db, "graph"); !strings.Contains(table, "Yandex (also Яндекс)") {
		t.Errorf("graph's table does not show the alias:\n%s", table)
	}
	before := edges(t, ok(t, "--db", db, "--json", "graph", "--known", "2026-03-11"))
	if got := objects(before); !slices.Equal(got, []string{"Yandex", "Яндекс"}) || len(aliasesOf(before[0], "object_aliases")) != 0 {
		t.Errorf("graph --known before the merge: %v", before)
	}
	nb := edges(t, ok(t, "--db", db, "--json", "graph", "--entity", "яндекс"))
	if len(nb) != 1 || nb[0]["object"] != "Yandex" {
		t.Errorf("graph --entity by the alias: %v", nb)
	}
	ms := merges(t, ok(t, "--db", db, "--json", "graph", "merges"))
	if len(ms) != 1 || ms[0]["state"] != "active" || ms[0]["from"] != "Яндекс" || ms[0]["reason"] != "the same company" || ms[0]["undone_at"] != nil {
		t.Errorf("merges: %v", ms)
	}
	out = ok(t, "--db", db, "--now", "2026-03-13", "graph", "unmerge", "1", "--reason", "two companies")
	if !strings.Contains(out, "undid merge 1") {
		t.Errorf("unmerge printed %q", out)
	}
	if got := objects(edges(t, ok(t, "--db", db, "--json", "graph"))); !slices.Equal(got, []string{"Yandex", "Яндекс"}) {
		t.Errorf("graph after the unmerge: %v", got)
	}
	if got := objects(edges(t, ok(t, "--db", db, "--json", "graph", "--known", "2026-03-12"))); !slices.Equal(got, []string{"Yandex"}) {
		t.Errorf("graph as known while merged: %v", got)
	}
	ms = merges(t, ok(t, "--db", db, "--json", "graph", "merges"))
	if len(ms) != 1 || ms[0]["state"] != "undone" || ms[0]["undone_at"] != "2026-03-13T00:00:00Z" || ms[0]["undo_reason"] != "two companies" {
		t.Errorf("merges after the unmerge: %v", ms)
	}
	if table := ok(t, "--db", db, "graph", "merges"); !strings.Contains(table, "undone") || !strings.Contains(table, "2026-03-13") {
		t.Errorf("merges table:\n%s", table)
	}
	if e := fails(t, 1, "--db", db, "graph", "unmerge", "1"); !strings.Contains(e, "already undone") {
		t.Errorf("second unmerge: %q", e)
	}
}

// A refused merge says why on one line and writes nothing; usage mistakes
// exit 2.
func TestGraphMergeRefused(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "I work at Yandex.")
	ok(t, "--db", db, "add", "I live in Kazan.")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"graph", "merge", "Google", "Yandex"}, 1, "no claim of the user names it"},
		{[]string{"graph", "merge", "yandex", "Yandex"}, 1, "same entity"},
		{[]string{"graph", "merge", "Kazan", "Yandex"}, 1, "different kinds"},
		{[]string{"graph", "merge", "Kazan"}, 2, "takes FROM INTO"},
		{[]string{"graph", "unmerge", "x"}, 2, "bad merge id"},
		{[]string{"graph", "unmerge", "7"}, 1, "not found"},
		{[]string{"graph", "merges", "x"}, 2, "no arguments"},
	} {
		if e := fails(t, tc.code, append([]string{"--db", db}, tc.args...)...); !strings.Contains(e, tc.msg) {
			t.Errorf("%v: stderr %q, want %q", tc.args, e, tc.msg)
		}
	}
	if out := ok(t, "--db", db, "graph", "merges"); out != "no merges\n" {
		t.Errorf("merges after refusals: %q", out)
	}
	if out := ok(t, "--db", db, "--json", "graph", "merges"); strings.TrimSpace(out) != "[]" {
		t.Errorf("merges --json: %q", out)
	}
}
