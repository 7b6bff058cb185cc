package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// reconcileFixture writes a few cases and distractors, one case per
// action, and returns the --data and --distractors arguments.
func reconcileFixture(t *testing.T) (data, distractors string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, lines ...any) string { return writeJSONL(t, filepath.Join(dir, name), lines...) }
	data = write("updates.jsonl",
		updateCase{ID: "t-1", Lang: "en", Old: "I work at Contoso.", OldSaid: "2025-01-10", New: "I now work at Fabrikam.", NewSaid: "2025-06-01", Action: "update"},
		updateCase{ID: "t-2", Lang: "en", Old: "I have a dog named Rex.", OldSaid: "2025-01-10", New: "I play the cello.", NewSaid: "2025-06-01", Action: "add"},
		updateCase{ID: "t-3", Lang: "en", Old: "My sister lives in Oslo.", OldSaid: "2025-01-10", New: "My sister lives in Oslo, still.", NewSaid: "2025-06-01", Action: "noop"},
	)
	distractors = write("distractors.jsonl",
		distractor{Lang: "en", Text: "I like green tea in the morning.", Said: "2024-12-01"},
		distractor{Lang: "en", Text: "My favourite film is Alien.", Said: "2024-12-02"},
	)
	return data, distractors
}

// fakeDecisions answers each fixture case as its gold action: the old fact
// is the only candidate with the words of the new one, numbered 1.
func fakeDecisions(prompt string) string {
	switch {
	case strings.Contains(prompt, "Fabrikam"):
		return `{"reasoning":"the job changed","action":"update","target":1,"event_from":null,"grain":null}`
	case strings.Contains(prompt, "still"):
		return `{"reasoning":"a restatement","action":"noop","target":1,"event_from":null,"grain":null}`
	}
	return `{"reasoning":"unrelated","action":"add","target":0,"event_from":null,"grain":null}`
}

// runBench runs bench reconcile in-process; its stderr is kept in
// *stderr when not nil.
func runBench(t *testing.T, stderr *string, args ...string) (string, error) {
	t.Helper()
	c := reconcileCmd()
	var out, errOut bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&errOut)
	c.SetArgs(args)
	err := c.Execute()
	if stderr != nil {
		*stderr = errOut.String()
	}
	return out.String(), err
}

// The ollama decider on a fake Ollama: the model is the one named, every
// case is decided by it, and the score counts its decisions.
func TestReconcileOllama(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Chat = func(r ollamatest.ChatRequest) string { return fakeDecisions(r.Messages[len(r.Messages)-1].Content) }
	t.Setenv("OLLAMA_HOST", srv.URL)
	t.Setenv("MEMCTL_MODEL", "bench-model")
	data, ds := reconcileFixture(t)
	out, err := runBench(t, nil, "--decider", "ollama", "--data", data, "--distractors", ds)
	if err != nil {
		t.Fatalf("bench reconcile: %v\n%s", err, out)
	}
	for _, want := range []string{"decisions of the ollama decider (model bench-model)", "accuracy 1.000 collateral 0.000 n=3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "fallbacks") {
		t.Errorf("a fallback:\n%s", out)
	}
	if ms := srv.Models(); len(ms) != 3 || ms[0] != "bench-model" {
		t.Errorf("models asked: %v", ms)
	}
}

// A server that fails every call: the run says every decision fell back,
// and why.
func TestReconcileAllFallBack(t *testing.T) {
	srv := ollamatest.New(t)
	srv.SetFault(ollamatest.Error500)
	t.Setenv("OLLAMA_HOST", srv.URL)
	data, ds := reconcileFixture(t)
	out, err := runBench(t, nil, "--decider", "ollama", "--model", "m", "--data", data, "--distractors", ds, "--limit", "2")
	if err == nil || !strings.Contains(err.Error(), "every decision fell back") || !strings.Contains(err.Error(), "500") {
		t.Errorf("error = %v", err)
	}
	if !strings.Contains(out, "fallbacks: 2") || !strings.Contains(out, "n=2") {
		t.Errorf("output:\n%s", out)
	}
}

// The openai decider on a fake OpenAI-compatible server, configured as
// memctl is: $OPENAI_BASE_URL, $OPENAI_API_KEY and --model.
func TestReconcileOpenAI(t *testing.T) {
	const key = "sk-bench-key"
	srv := openaitest.New(t)
	srv.Key = key
	srv.Chat = func(r openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Content: fakeDecisions(r.Messages[len(r.Messages)-1].Content)}
	}
	t.Setenv("OPENAI_BASE_URL", srv.BaseURL())
	t.Setenv("OPENAI_API_KEY", key)
	data, ds := reconcileFixture(t)
	var stderr string
	out, err := runBench(t, &stderr, "--decider", "openai", "--model", "gpt-bench", "--data", data, "--distractors", ds)
	if err != nil {
		t.Fatalf("bench reconcile: %v\n%s", err, out)
	}
	if stderr != "bench: 3/3 cases decided\n" {
		t.Errorf("progress on stderr: %q", stderr)
	}
	for _, want := range []string{"decisions of the openai decider (model gpt-bench)", "accuracy 1.000 collateral 0.000 n=3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Errorf("%d requests, want one per case", len(reqs))
	}
	for _, r := range reqs {
		if r.Path != "/v1/chat/completions" || r.Authorization != "Bearer "+key {
			t.Errorf("request %s %s, Authorization %q", r.Method, r.Path, r.Authorization)
		}
	}
	// A wrong key: every decision falls back, the run fails and says why,
	// without the key.
	t.Setenv("OPENAI_API_KEY", "sk-wrong")
	out, err = runBench(t, nil, "--decider", "openai", "--model", "gpt-bench", "--data", data, "--distractors", ds)
	if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error()+out, "sk-wrong") {
		t.Errorf("wrong key: error %v\n%s", err, out)
	}
	t.Setenv("MEMCTL_MODEL", "")
	if _, err := runBench(t, nil, "--decider", "openai", "--data", data, "--distractors", ds); err == nil || !strings.Contains(err.Error(), "--model") {
		t.Errorf("no model: %v", err)
	}
}

// The openai decider on a few cases of the dev set (skipped without it),
// as a user measures their own model: every case reaches the server and
// none falls back.
func TestReconcileOpenAIDevData(t *testing.T) {
	devData(t) // skips without ../shared/data
	srv := openaitest.New(t)
	t.Setenv("OPENAI_BASE_URL", srv.BaseURL())
	t.Setenv("OPENAI_API_KEY", "")
	out, err := runBench(t, nil, "--decider", "openai", "--model", "m", "--limit", "6",
		"--data", dataDir+"/updates.dev.jsonl", "--distractors", dataDir+"/distractors.en.jsonl,"+dataDir+"/distractors.ru.jsonl")
	if err != nil || !strings.Contains(out, "n=6") || strings.Contains(out, "fallbacks") {
		t.Errorf("error %v, output:\n%s", err, out)
	}
	if n := len(srv.ChatRequests()); n != 6 {
		t.Errorf("%d chat requests, want 6", n)
	}
	for _, r := range srv.Requests() {
		if r.Authorization != "" {
			t.Errorf("an Authorization header without a key: %q", r.Authorization)
		}
	}
}

// scripted decides each case as its new text says: "[conflict]" adds with
// a conflict on the old fact, "[update]" and "[noop]" act on it, anything
// else adds. The old fact is found by its text among the candidates.
type scripted struct{ olds map[string]bool }

func (scripted) Name() string { return "scripted" }

func (s scripted) Decide(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
	old := 0
	for _, c := range in.Candidates {
		if s.olds[c.Text] {
			old = c.N
		}
	}
	v := memory.Verdict{Action: memory.ActionAdd, Reason: "scripted"}
	switch {
	case strings.Contains(in.Text, "[conflict]"):
		v.ConflictWith = old
	case strings.Contains(in.Text, "[also]"):
		// Unsure: another candidate first, the old fact second.
		for _, c := range in.Candidates {
			if c.N != old && v.ConflictWith == 0 {
				v.ConflictWith, v.AlsoConflictWith = c.N, []int{old}
			}
		}
	case strings.Contains(in.Text, "[update]"):
		v.Action, v.Target = memory.ActionUpdate, old
	case strings.Contains(in.Text, "[noop]"):
		v.Action, v.Target = memory.ActionNoop, old
	}
	return v, nil
}

// Surfaced counts the update, invalidate and noop cases whose old fact was
// acted on rightly or linked by a conflict; false alarms the add cases
// that raised a conflict; both per language, action and half.
func TestReconcileSurfacedAndFalseAlarms(t *testing.T) {
	cases := []updateCase{
		// update, acted on rightly: surfaced.
		{ID: "s-1", Lang: "en", Old: "I work at Contoso.", New: "Fabrikam hired me [update]", Action: "update"},
		// update, only a conflict: surfaced, but not right.
		{ID: "s-2", Lang: "en", Old: "I live in Lisbon.", New: "Porto is home [conflict]", Action: "update"},
		// invalidate, silently added: not surfaced.
		{ID: "s-3", Lang: "en", Old: "My cat is called Tom.", New: "The cat is Tim", Action: "invalidate"},
		// noop, restated: surfaced and right.
		{ID: "s-4", Lang: "ru", Old: "Я пью кофе.", New: "Пью кофе [noop]", Action: "noop"},
		// add with a conflict: a false alarm, still right.
		{ID: "s-5", Lang: "ru", Old: "У меня есть собака.", New: "У меня есть и кошка, и собака [conflict]", Action: "add"},
		// add, added: no alarm.
		{ID: "s-6", Lang: "ru", Old: "Я живу в Казани.", New: "Я люблю чай", Action: "add"},
	}
	olds := map[string]bool{}
	for i := range cases {
		cases[i].OldSaid, cases[i].NewSaid = "2025-01-10", "2025-06-01"
		olds[cases[i].Old] = true
	}
	ds := []distractor{{Lang: "en", Text: "I like green tea.", Said: "2024-12-01"}, {Lang: "ru", Text: "Я люблю зелёный чай.", Said: "2024-12-01"}}
	var outs []caseOutcome
	res, err := evalReconcile(context.Background(), cases, ds, memory.Options{Decider: scripted{olds}}, nil,
		func(o caseOutcome) { outs = append(outs, o) })
	if err != nil {
		t.Fatal(err)
	}
	// --cases writes each case as scored: right and surfaced agree with the
	// tallies, and the old fact is among the candidates of each decision
	// but the last, whose new fact shares nothing with it.
	var gotCases []string
	for _, o := range outs {
		gotCases = append(gotCases, fmt.Sprintf("%s %s→%s right=%v surfaced=%v", o.ID, o.Gold, o.Got, o.Right, o.Surfaced))
		if (o.OldRank < 1) != (o.ID == "s-6") {
			t.Errorf("%s: old rank %d, want the old fact among the candidates", o.ID, o.OldRank)
		}
	}
	wantCases := []string{"s-1 update→update right=true surfaced=true", "s-2 update→add right=false surfaced=true",
		"s-3 invalidate→add right=false surfaced=false", "s-4 noop→noop right=true surfaced=true",
		"s-5 add→add right=true surfaced=false", "s-6 add→add right=true surfaced=false"}
	if !slices.Equal(gotCases, wantCases) {
		t.Errorf("outcomes:\n%s\nwant:\n%s", strings.Join(gotCases, "\n"), strings.Join(wantCases, "\n"))
	}
	path := filepath.Join(t.TempDir(), "cases.jsonl")
	if err := writeOutcomes(path, outs); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || bytes.Count(b, []byte("\n")) != len(cases) || !bytes.Contains(b, []byte(`"id":"s-3","gold":"invalidate","got":"add"`)) {
		t.Errorf("cases file %q, %v", b, err)
	}
	check := func(name string, got tally, want tally) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	check("all", res.total, tally{n: 6, right: 4, changed: 4, surfaced: 3, adds: 2, alarms: 1})
	check("lang en", *res.groups["lang en"], tally{n: 3, right: 1, changed: 3, surfaced: 2})
	check("lang ru", *res.groups["lang ru"], tally{n: 3, right: 3, changed: 1, surfaced: 1, adds: 2, alarms: 1})
	check("action update", *res.groups["action update"], tally{n: 2, right: 1, changed: 2, surfaced: 2})
	check("half odd", *res.groups["half odd"], tally{n: 3, right: 2, changed: 2, surfaced: 1, adds: 1, alarms: 1})
	if s, f := res.total.surfacedRate(), res.total.falseAlarms(); s != 0.75 || f != 0.5 {
		t.Errorf("surfaced %.3f, false alarms %.3f; want 0.750, 0.500", s, f)
	}
	var b bytes.Buffer
	res.print(&b)
	for _, want := range []string{"surfaced 0.750 false alarms 0.500", "accuracy 0.667 collateral 0.000 n=6", "half even"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}

// A decision that names several candidates surfaces the old fact when any
// of its conflicts names it, not only the first.
func TestReconcileSurfacedByAnyConflict(t *testing.T) {
	cases := []updateCase{{ID: "s-1", Lang: "en", Old: "I drink green tea at work.", New: "I drink green tea at home now [also]",
		Action: "update", OldSaid: "2025-01-10", NewSaid: "2025-06-01"}}
	ds := []distractor{{Lang: "en", Text: "I like green tea.", Said: "2024-12-01"}}
	res, err := evalReconcile(context.Background(), cases, ds, memory.Options{Decider: scripted{map[string]bool{cases[0].Old: true}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (tally{n: 1, changed: 1, surfaced: 1}); res.total != want {
		t.Errorf("%+v, want %+v", res.total, want)
	}
}

// The rules decider's figures on the dev set: the aims it meets
// (accuracy ≥ 0.45, collateral ≤ 0.03, false alarms ≤ 0.15) and a floor
// just under what it reaches for surfaced (the aim, 0.80, it does not), so
// that a change that loses them fails.
func TestReconcileRulesTargets(t *testing.T) {
	cases, ds := devData(t)
	res, err := evalReconcile(context.Background(), cases, ds, memory.Options{Lookup: memory.LookupTopics}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := res.total.accuracy(); a < 0.45 {
		t.Errorf("accuracy %.3f, want ≥ 0.45 (0.287 before conflicts, 0.417 before other numbers acted on and each word's topic tags weighed together)", a)
	}
	if s := res.total.surfacedRate(); s < 0.65 {
		t.Errorf("surfaced %.3f, want ≥ 0.65 (0.281 before conflicts, 0.479 with one conflict a decision, 0.547 before a time it begins raised one, the most specific candidate was named and each word's topic tags weighed together, 0.609 before a time it happened raised one and lone words without a shared frame weighed less)", s)
	}
	if c := res.total.collateralRate(); c > 0.03 {
		t.Errorf("collateral %.3f, want ≤ 0.03", c)
	}
	if f := res.total.falseAlarms(); f > 0.15 {
		t.Errorf("false alarms %.3f, want ≤ 0.15", f)
	}
	if n := res.groups["action noop"]; n == nil || ratio(n.right, n.n) < 0.35 {
		t.Errorf("noop recall %+v, want ≥ 0.35 (0.028 before)", n)
	}
}

// writeJSONL writes lines, one JSON value each, to path and returns it.
func writeJSONL(t *testing.T, path string, lines ...any) string {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		j, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
