package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// A model's reasoning and a provider's error reach memctl's output with
// everything a terminal would act on escaped, in the table and in --json,
// whose values still decode to what was sent. (Sets the environment: not
// parallel.)
func TestModelOutputReachesNoTerminalRaw(t *testing.T) {
	srv := openAIServer(t)
	reasoning, _ := json.Marshal(hostile)
	srv.Chat = func(req openaitest.ChatRequest) openaitest.Reply {
		switch p := lastUser(req); {
		case strings.Contains(p, "refuse me"):
			return openaitest.Reply{Status: http.StatusBadRequest,
				Body: openaitest.ErrorBody("flagged: "+hostile, "invalid_request_error", hostile)}
		case strings.Contains(p, "refuse politely"):
			return openaitest.Reply{Refusal: hostile}
		}
		return openaitest.Reply{Content: `{"reasoning":` + string(reasoning) +
			`,"action":"add","target":0,"event_from":null,"grain":null,"claims":[]}`}
	}
	db := tempDB(t)
	model := []string{"--db", db, "--decider", "openai", "--model", "gpt-test"}
	var outs []result
	run := func(args ...string) result {
		t.Helper()
		r := memctl(t, "", args...)
		outs = append(outs, r)
		return r
	}
	// The decision log keeps no control character (the store puts U+FFFD
	// for each); what is left that a terminal acts on, a bidi override,
	// is shown escaped.
	r := run(append(model, "remember", "I like jazz.")...)
	if r.code != 0 || !strings.Contains(r.stdout, `\u202eevil`) || !strings.Contains(r.stdout, "]52;c;") {
		t.Errorf("remember: exit %d, stdout %q, stderr %q; want the reasoning shown escaped", r.code, r.stdout, r.stderr)
	}
	r = run(append(model, "--json", "remember", "I like blues.")...)
	if d, _ := outcome(t, r.stdout); !strings.Contains(d["reason"].(string), "\uFFFD]52;c;") || !strings.Contains(d["reason"].(string), "\u202eevil") {
		t.Errorf("remember --json: the reason %q is not the model's reasoning as the log keeps it", d["reason"])
	}
	run(append(model, "remember", "Please refuse me.")...)
	run(append(model, "remember", "Please refuse me.", "--fallback", "error")...)
	run(append(model, "--json", "remember", "Please refuse me.", "--fallback", "error")...)
	run(append(model, "remember", "Please refuse politely.")...)
	run("--db", db, "decisions")
	run("--db", db, "--json", "decisions")
	run("--db", db, "get", "1")
	run("--db", db, "export")
	for _, r := range outs {
		clean(t, "stdout", r.stdout)
		clean(t, "stderr", r.stderr)
	}
}

// An import file whose reasons and texts hold escapes: whether import takes
// it or refuses it, nothing memctl prints of it holds them raw.
func TestImportedEscapesReachNoTerminalRaw(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "add", "My name is Maria Keller.", "--pin")
	ok(t, "--db", db, "--now", "2026-03-11", "remember", "My name is Maria Schmidt now.")
	ok(t, "--db", db, "--now", "2026-03-12", "add", "An override \u202eright to left\u202c in a text.")
	export := ok(t, "--db", db, "export")
	h, _ := json.Marshal(hostile)
	// (A fact's text and a step's cause refuse control characters at import.)
	for _, field := range []string{`"reason":"change marker`, `"reason":"fact 2 seems`} {
		key := field[:strings.Index(field, ":")]
		if !strings.Contains(export, field) {
			t.Fatalf("test is void: the export has no %s:\n%s", field, export)
		}
		export = strings.Replace(export, field, key+":"+string(h)[:len(h)-1]+strings.TrimPrefix(field, key+`:"`), 1)
	}
	file := filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(file, []byte(export), 0o600); err != nil {
		t.Fatal(err)
	}
	into := tempDB(t)
	var outs []result
	r := memctl(t, "", "--db", into, "import", file)
	outs = append(outs, r)
	if r.code == 0 {
		for _, args := range [][]string{
			{"conflicts", "--all"}, {"--json", "conflicts", "--all"}, {"decisions"}, {"--json", "decisions"},
			{"get", "3"}, {"list", "--all"}, {"prompt"}, {"export"},
		} {
			outs = append(outs, memctl(t, "", append([]string{"--db", into}, args...)...))
		}
		if !strings.Contains(outs[1].stdout, `\u001b]52`) || !strings.Contains(outs[7].stdout, `\u202e`) {
			t.Errorf("conflicts and list do not show the escapes as such:\n%s\n%s", outs[1].stdout, outs[7].stdout)
		}
	}
	for _, r := range outs {
		clean(t, "stdout", r.stdout)
		clean(t, "stderr", r.stderr)
	}
}
