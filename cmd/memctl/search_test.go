package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSearch(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Porto.")
	ok(t, "--db", db, "add", "My left knee hurts after long runs.")
	ok(t, "--db", db, "add", "My sister Anna lives in Kazan.")
	ok(t, "--db", db, "supersede", "1", "I moved to Lisbon.")

	out := ok(t, "--db", db, "search", "Remind me what I told you about my knee")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) < 2 || !strings.Contains(lines[1], "My left knee hurts") {
		t.Errorf("search: want the knee first:\n%s", out)
	}
	var got struct {
		Entities []string `json:"entities"`
		Hits     []struct {
			Fact struct {
				ID    uint64 `json:"id"`
				State string `json:"state"`
			} `json:"fact"`
			Ranks []struct {
				Ranker string `json:"ranker"`
				Rank   int    `json:"rank"`
			} `json:"ranks"`
			Current bool `json:"current"`
		} `json:"hits"`
	}
	out = ok(t, "--db", db, "--json", "search", "--all", "Where did I live before?")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	porto := false
	for _, h := range got.Hits {
		porto = porto || h.Fact.ID == 1 && h.Fact.State == "superseded" && !h.Current && len(h.Ranks) > 0
	}
	if !porto {
		t.Errorf("--all: no superseded Porto (1) among %s", out)
	}
	if out := ok(t, "--db", db, "--json", "search", "Where did I live before?"); strings.Contains(out, `"id":1,`) {
		t.Errorf("without --all: Porto found: %s", out)
	}
	if out := ok(t, "--db", db, "search", "--explain", "What about Anna?"); !strings.Contains(out, "graph 1") || !strings.Contains(out, "about Anna") {
		t.Errorf("--explain: %s", out)
	}
	if out := ok(t, "--db", db, "search", "what do you know?"); !strings.Contains(out, "nothing found") {
		t.Errorf("function words: %s", out)
	}
	// Bad input: a clear error, exit 1, and the store unchanged.
	before := ok(t, "--db", db, "--json", "list", "--all")
	for _, args := range [][]string{{"search", ""}, {"search", "a\x01b"}, {"search", strings.Repeat("knee ", 1000)}} {
		fails(t, 1, append([]string{"--db", db}, args...)...)
	}
	for _, args := range [][]string{{"search", "--k", "0", "knee"}, {"search", "--k", "101", "knee"}, {"search", "--event", "1800-01-01", "knee"}} {
		fails(t, 2, append([]string{"--db", db}, args...)...)
	}
	if after := ok(t, "--db", db, "--json", "list", "--all"); after != before {
		t.Error("a refused search changed the store")
	}
}
