package main

import (
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// remember says where the claims stored with the fact came from, in its
// table and its JSON, and decisions --json keeps it.
func TestRememberShowsClaimsSource(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Chat = func(ollamatest.ChatRequest) string {
		return `{"reasoning":"new","action":"add","target":0,"event_from":null,"grain":null,"claims":[` +
			`{"subject":"","relation":"works_at","object":"Contoso Ltd","kind":"company"},` +
			`{"subject":"","relation":"boss_of","object":"Bob","kind":"person"}]}`
	}
	t.Setenv("OLLAMA_HOST", srv.URL)
	db := tempDB(t)

	d, f := outcome(t, ok(t, "--db", db, "--json", "remember", contoso, "--decider", "ollama", "--model", "m"))
	if d["claims_from"] != "model" || !strings.Contains(d["claims_note"].(string), `unknown relation "boss_of"`) {
		t.Errorf("decision %v", d)
	}
	cs, _ := f["claims"].([]any)
	if len(cs) != 1 || cs[0].(map[string]any)["object"] != "Contoso Ltd" {
		t.Errorf("fact claims %v, want the model's", f["claims"])
	}

	out := ok(t, "--db", db, "remember", "I live in Porto.")
	if !strings.Contains(out, "claims:    from the rules\n") {
		t.Errorf("rules decider: table\n%s", out)
	}
	out = ok(t, "--db", db, "remember", "I have a dog named Rex.", "--decider", "ollama", "--model", "m")
	if !strings.Contains(out, `claims:    from the model; dropped claim 2 of 2: unknown relation "boss_of"`) {
		t.Errorf("model decider: table\n%s", out)
	}
	ds := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "decisions"))
	if len(ds) != 3 || ds[0]["claims_from"] != "model" || ds[1]["claims_from"] != "rules" {
		t.Errorf("decisions %v", ds)
	}
}
