package main

import (
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
)

// outcome decodes remember --json: one object with a decision and a fact
// (null when none was stored or kept).
func outcome(t *testing.T, s string) (decision, fct map[string]any) {
	t.Helper()
	m := decode[map[string]any](t, s)
	if len(m) != 2 {
		t.Fatalf("remember --json has keys %v, want decision and fact", m)
	}
	d, isObj := m["decision"].(map[string]any)
	if !isObj {
		t.Fatalf("decision = %#v, want an object", m["decision"])
	}
	for _, k := range []string{"id", "action", "proposed", "target", "added", "decider", "fallback", "reason", "text", "at"} {
		if _, has := d[k]; !has {
			t.Errorf("decision lacks %q: %v", k, d)
		}
	}
	f, has := m["fact"]
	if !has {
		t.Fatalf("remember --json lacks fact: %s", s)
	}
	if f == nil {
		return d, nil
	}
	fm, isObj := f.(map[string]any)
	if !isObj {
		t.Fatalf("fact = %#v, want an object or null", f)
	}
	checkFactObject(t, fm)
	return d, fm
}

func num(v any) int {
	n, _ := v.(float64)
	return int(n)
}

// states maps fact id to state, from list --all.
func states(t *testing.T, db string) map[int]string {
	t.Helper()
	out := map[int]string{}
	for _, f := range facts(t, ok(t, "--db", db, "--json", "list", "--all")) {
		out[id(f)] = f["state"].(string)
	}
	return out
}

// closedPort is a loopback URL where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr
}

const (
	contoso  = "I work at Contoso."
	fabrikam = "I now work at Fabrikam; I moved from Contoso."
)

func TestRememberUpdateAndUndo(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	d, f := outcome(t, ok(t, "--db", db, "--json", "--now", "2026-03-10", "remember", contoso))
	if d["action"] != "add" || num(d["target"]) != 0 || f == nil || id(f) != 1 || num(d["added"]) != 1 {
		t.Fatalf("first remember: decision %v, fact %v", d, f)
	}

	d, f = outcome(t, ok(t, "--db", db, "--json", "--now", "2026-08-20", "remember", fabrikam, "--source", "msg-2"))
	if d["action"] != "update" || d["proposed"] != "update" || num(d["target"]) != 1 || d["decider"] != "rules" ||
		d["fallback"] != "" || d["reason"] == "" || num(d["id"]) != 2 {
		t.Errorf("decision = %v", d)
	}
	if f == nil || id(f) != 2 || f["state"] != "current" || f["text"] != fabrikam || f["source"] != "msg-2" ||
		f["recorded_at"] != "2026-08-20T00:00:00Z" || num(d["added"]) != 2 {
		t.Errorf("fact = %v", f)
	}
	if got := states(t, db); got[1] != "superseded" || got[2] != "current" {
		t.Errorf("after update: %v", got)
	}
	if table := ok(t, "--db", db, "list", "--all"); !strings.Contains(table, "superseded") {
		t.Errorf("list --all:\n%s", table)
	}

	ds := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "decisions"))
	if len(ds) != 2 || num(ds[0]["id"]) != 2 || ds[0]["action"] != "update" || num(ds[1]["id"]) != 1 {
		t.Errorf("decisions = %v", ds)
	}
	if ds := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "decisions", "--limit", "1")); len(ds) != 1 {
		t.Errorf("decisions --limit 1 = %v", ds)
	}
	table := ok(t, "--db", db, "decisions")
	for _, want := range []string{"ID", "AT", "ACTION", "TARGET", "ADDED", "DECIDER", "FALLBACK", "UNDONE", "TEXT",
		"update", "rules", fabrikam, "2026-08-20"} {
		if !strings.Contains(table, want) {
			t.Errorf("decisions table lacks %q:\n%s", want, table)
		}
	}

	if out := ok(t, "--db", db, "undo", "2"); out != "undid decision 2 (update): retracted fact 2, restored fact 1\n" {
		t.Errorf("undo printed %q", out)
	}
	// The log names the decision each step carried out or undid.
	logOf := func(id string) string {
		_, log, _ := strings.Cut(ok(t, "--db", db, "get", id), "\nlog:\n")
		var lines []string
		for l := range strings.Lines(log) {
			lines = append(lines, strings.Join(strings.Fields(l), " "))
		}
		return strings.Join(lines, "\n")
	}
	for id, want := range map[string][]string{
		"1": {"superseded auto by fact 2; event end 2026-08-20; decision 2", "restored user undo of decision 2"},
		"2": {"retracted user undo of decision 2"},
	} {
		log := logOf(id)
		for _, w := range want {
			if !strings.Contains(log, w) {
				t.Errorf("log of fact %s lacks %q:\n%s", id, w, log)
			}
		}
		if strings.Contains(log, "reason: ") {
			t.Errorf("log of fact %s repeats a reference as a reason:\n%s", id, log)
		}
	}
	if got := states(t, db); got[1] != "current" || got[2] != "retracted" {
		t.Errorf("after undo: %v", got)
	}
	if e := fails(t, 1, "--db", db, "undo", "2"); !strings.Contains(e, "already undone") {
		t.Errorf("second undo: %q", e)
	}
	ds = decode[[]map[string]any](t, ok(t, "--db", db, "--json", "decisions"))
	if ds[0]["undone_at"] == nil || ds[1]["undone_at"] != nil {
		t.Errorf("decisions after undo = %v", ds)
	}
	// --json undo prints the decision object.
	u := decode[map[string]any](t, ok(t, "--db", db, "--json", "undo", "1"))
	if num(u["id"]) != 1 || u["action"] != "add" || u["undone_at"] == nil {
		t.Errorf("undo --json = %v", u)
	}
	if got := states(t, db); got[1] != "retracted" {
		t.Errorf("after undo of the add: %v", got)
	}
}

func TestRememberText(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "remember", contoso)
	out := ok(t, "--db", db, "remember", fabrikam)
	for _, want := range []string{"action:", "update fact 1: " + contoso, "reason:", "decider:", "rules",
		"decision:", "fact:", "2 (current): " + fabrikam} {
		if !strings.Contains(out, want) {
			t.Errorf("remember output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "fallback") || strings.Contains(out, "proposed") {
		t.Errorf("remember output has a fallback or proposed line:\n%s", out)
	}
	// A restatement stores nothing and shows the fact it restates.
	d, f := outcome(t, ok(t, "--db", db, "--json", "remember", fabrikam))
	if d["action"] != "noop" || num(d["added"]) != 0 || f == nil || id(f) != 2 {
		t.Errorf("restatement: decision %v, fact %v", d, f)
	}
	if got := states(t, db); len(got) != 2 {
		t.Errorf("a noop stored a fact: %v", got)
	}
}

func TestRememberAddDecider(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "remember", contoso, "--decider", "add")
	d, f := outcome(t, ok(t, "--db", db, "--json", "remember", fabrikam, "--decider", "add"))
	if d["action"] != "add" || num(d["target"]) != 0 || d["decider"] != "add" || f == nil || f["state"] != "current" {
		t.Errorf("decider add: decision %v, fact %v", d, f)
	}
	if got := states(t, db); got[1] != "current" || got[2] != "current" {
		t.Errorf("decider add: %v", got)
	}
}

// TestRememberEnvironment sets $MEMCTL_DECIDER, so it cannot run in parallel.
func TestRememberEnvironment(t *testing.T) {
	db := tempDB(t)
	t.Setenv("MEMCTL_DECIDER", "add")
	ok(t, "--db", db, "remember", contoso)
	d, _ := outcome(t, ok(t, "--db", db, "--json", "remember", fabrikam))
	if d["decider"] != "add" || d["action"] != "add" {
		t.Errorf("$MEMCTL_DECIDER=add: %v", d)
	}
	// The flag wins over the environment.
	other := tempDB(t)
	ok(t, "--db", other, "remember", contoso, "--decider", "rules")
	d, _ = outcome(t, ok(t, "--db", other, "--json", "remember", fabrikam, "--decider", "rules"))
	if d["decider"] != "rules" || d["action"] != "update" {
		t.Errorf("--decider rules over $MEMCTL_DECIDER: %v", d)
	}
	t.Setenv("MEMCTL_DECIDER", "telepathy")
	if e := fails(t, 2, "--db", db, "remember", "x"); !strings.Contains(e, "telepathy") {
		t.Errorf("bad $MEMCTL_DECIDER: %q", e)
	}
}

// TestRememberOllamaUnreachable points OLLAMA_HOST at a closed port: the
// fallback policy decides, and says so.
func TestRememberOllamaUnreachable(t *testing.T) {
	db := tempDB(t)
	t.Setenv("OLLAMA_HOST", closedPort(t))
	ok(t, "--db", db, "remember", contoso)

	out := ok(t, "--db", db, "remember", fabrikam, "--decider", "ollama", "--model", "m")
	for _, want := range []string{"action:", "add", "fallback:", "ollama", "--fallback add", "fact:", "2 (current)"} {
		if !strings.Contains(out, want) {
			t.Errorf("fallback add output lacks %q:\n%s", want, out)
		}
	}
	if got := states(t, db); got[1] != "current" || got[2] != "current" {
		t.Errorf("after fallback add: %v", got)
	}

	// The model may come from $MEMCTL_MODEL and the decider from $MEMCTL_DECIDER.
	t.Setenv("MEMCTL_MODEL", "m")
	t.Setenv("MEMCTL_DECIDER", "ollama")
	d, f := outcome(t, ok(t, "--db", db, "--json", "remember", "I now live in Oslo."))
	if d["action"] != "add" || d["decider"] != "ollama" || d["model"] != "m" || d["fallback"] == "" || f == nil {
		t.Errorf("fallback add --json: decision %v, fact %v", d, f)
	}

	r := memctl(t, "", "--db", db, "--json", "remember", "I now live in Bergen.", "--fallback", "error")
	if r.code != 1 || !strings.HasPrefix(r.stderr, "memctl: ") || strings.Count(r.stderr, "\n") != 1 ||
		!strings.Contains(r.stderr, "decider failed") {
		t.Errorf("fallback error: exit %d, stderr %q", r.code, r.stderr)
	}
	d, f = outcome(t, r.stdout)
	if d["action"] != "refused" || d["fallback"] == "" || num(d["added"]) != 0 || f != nil {
		t.Errorf("fallback error printed decision %v, fact %v", d, f)
	}
	if got := states(t, db); len(got) != 3 {
		t.Errorf("a refused fact was stored: %v", got)
	}

	r = memctl(t, "", "--db", db, "remember", "I now live in Tromsø.", "--fallback", "error")
	if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stdout, "fallback:") ||
		!strings.Contains(r.stdout, "nothing was stored") || !strings.Contains(r.stdout, "none stored") {
		t.Errorf("fallback error, text: %+v", r)
	}
	ds := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "decisions"))
	if len(ds) != 5 || ds[0]["fallback"] == "" || ds[0]["action"] != "refused" || ds[4]["fallback"] != "" {
		t.Errorf("decisions = %v", ds)
	}
	if table := ok(t, "--db", db, "decisions", "--limit", "1"); !strings.Contains(table, "refused") || !strings.Contains(table, "yes") {
		t.Errorf("decisions table:\n%s", table)
	}
	// A refused decision holds no fact: it can be erased for good; one that
	// added a fact goes with the fact.
	refused := num(ds[0]["id"])
	if out := ok(t, "--db", db, "delete-decision", fmt.Sprint(refused)); out != fmt.Sprintf("deleted decision %d\n", refused) {
		t.Errorf("delete-decision: %q", out)
	}
	if ds := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "decisions")); len(ds) != 4 {
		t.Errorf("decisions after delete-decision: %v", ds)
	}
	if e := fails(t, 1, "--db", db, "delete-decision", fmt.Sprint(num(ds[4]["id"]))); !strings.Contains(e, "holds") && !strings.Contains(e, "fact") {
		t.Errorf("delete-decision of a decision with a fact: %q", e)
	}

	// No model at all is a usage mistake, found before the store is touched.
	t.Setenv("MEMCTL_MODEL", "")
	if e := fails(t, 2, "--db", db, "remember", "x"); !strings.Contains(e, "model") {
		t.Errorf("ollama without a model: %q", e)
	}
}

// TestRememberPinned: a pinned fact is never changed by remember. The
// issue asks for a conflict linking the two; when the library records one,
// conflicts and resolve are exercised on it.
func TestRememberPinned(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", contoso, "--pin")
	d, f := outcome(t, ok(t, "--db", db, "--json", "remember", fabrikam))
	if d["action"] != "add" || f == nil || id(f) != 2 || f["state"] != "current" {
		t.Errorf("remember over a pinned fact: decision %v, fact %v", d, f)
	}
	if got := states(t, db); got[1] != "current" || got[2] != "current" {
		t.Errorf("after remember over a pinned fact: %v", got)
	}
	if g := fact(t, ok(t, "--db", db, "--json", "get", "1")); g["pinned"] != true {
		t.Errorf("pinned fact = %v", g)
	}

	cs := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "conflicts"))
	if len(cs) == 0 {
		if out := ok(t, "--db", db, "conflicts"); out != "no open conflicts\n" {
			t.Errorf("conflicts = %q", out)
		}
		t.Skip("the library recorded no conflict for a change aimed at a pinned fact (rules skip pinned candidates)")
	}
	c := cs[0]
	if len(cs) != 1 || num(c["new"]) != 2 || num(c["existing"]) != 1 || num(c["decision"]) != num(d["id"]) ||
		num(d["conflict"]) != num(c["id"]) {
		t.Fatalf("conflicts = %v (decision %v)", cs, d)
	}
	cid := fmt.Sprint(num(c["id"]))
	if table := ok(t, "--db", db, "conflicts"); !strings.Contains(table, "open") {
		t.Errorf("conflicts table:\n%s", table)
	}
	if out := ok(t, "--db", db, "resolve", cid, "both"); !strings.Contains(out, "resolved conflict "+cid) {
		t.Errorf("resolve printed %q", out)
	}
	if out := ok(t, "--db", db, "--json", "conflicts"); strings.TrimSpace(out) != "[]" {
		t.Errorf("conflicts after resolve = %q", out)
	}
	all := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "conflicts", "--all"))
	if len(all) != 1 || all[0]["resolution"] != "both" || all[0]["resolved_at"] == nil {
		t.Errorf("conflicts --all = %v", all)
	}
	if got := states(t, db); got[1] != "current" || got[2] != "current" {
		t.Errorf("after keep both: %v", got)
	}
	if e := fails(t, 1, "--db", db, "resolve", cid, "new"); !strings.Contains(e, "resolved") {
		t.Errorf("second resolve: %q", e)
	}
}

func TestRememberErrors(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "remember", contoso)
	for _, tc := range []struct {
		name string
		code int
		args []string
		msg  string
	}{
		{"empty text", 1, []string{"remember", ""}, "empty"},
		{"blank text", 1, []string{"remember", "  \t "}, "empty"},
		{"no text", 2, []string{"remember"}, "TEXT"},
		{"unknown decider", 2, []string{"remember", "x", "--decider", "oracle"}, "oracle"},
		{"unknown fallback", 2, []string{"remember", "x", "--fallback", "pray"}, "pray"},
		{"bad said", 2, []string{"remember", "x", "--said", "yesterday"}, "yesterday"},
		{"bad lookup", 2, []string{"--lookup", "telepathy", "remember", "x"}, "telepathy"},
		{"undo of an unknown decision", 1, []string{"undo", "99"}, "not found"},
		{"undo of a bad id", 2, []string{"undo", "abc"}, "bad decision id"},
		{"undo without an id", 2, []string{"undo"}, "DECISION_ID"},
		{"bad limit", 2, []string{"decisions", "--limit", "-1"}, "limit"},
		{"resolve of an unknown conflict", 1, []string{"resolve", "7", "both"}, "not found"},
		{"resolve with a bad choice", 2, []string{"resolve", "1", "neither"}, "neither"},
		{"resolve of a bad id", 2, []string{"resolve", "x", "both"}, "bad conflict id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := fails(t, tc.code, append([]string{"--db", db}, tc.args...)...)
			if !strings.Contains(e, tc.msg) {
				t.Errorf("stderr %q does not mention %q", e, tc.msg)
			}
		})
	}
	// Failed commands changed nothing.
	if got := ids(facts(t, ok(t, "--db", db, "--json", "list", "--all"))); !slices.Equal(got, []int{1}) {
		t.Errorf("facts after failed commands = %v, want [1]", got)
	}
	if ds := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "decisions")); len(ds) != 1 {
		t.Errorf("decisions after failed commands = %v", ds)
	}

	// Empty lists are arrays, and read-only commands need a store.
	fresh := tempDB(t)
	ok(t, "--db", fresh, "add", "A fact.")
	for _, cmd := range []string{"decisions", "conflicts"} {
		if out := ok(t, "--db", fresh, "--json", cmd); out != "[]\n" {
			t.Errorf("%s --json on a store without any = %q", cmd, out)
		}
	}
	if out := ok(t, "--db", fresh, "decisions"); out != "no decisions\n" {
		t.Errorf("decisions = %q", out)
	}
	if e := fails(t, 1, "--db", tempDB(t), "decisions"); !strings.Contains(e, "no store") {
		t.Errorf("decisions without a store: %q", e)
	}
}

func TestRememberHelp(t *testing.T) {
	t.Parallel()
	out := ok(t, "--help")
	for _, cmd := range []string{"remember", "decisions", "undo", "conflicts", "resolve"} {
		if !strings.Contains(out, "\n  "+cmd+" ") {
			t.Errorf("help lacks command %q", cmd)
		}
	}
	if out := ok(t, "remember", "--help"); !strings.Contains(out, "topics") || !strings.Contains(out, "fallback") {
		t.Errorf("remember --help:\n%s", out)
	}
}

// A decision that changed nothing offers no undo, and --json names a
// refusal as the table does.
func TestRememberNothingToUndo(t *testing.T) {
	db := tempDB(t)
	t.Setenv("OLLAMA_HOST", closedPort(t))
	out := ok(t, "--db", db, "remember", contoso)
	if !strings.Contains(out, "undo with: memctl undo 1") {
		t.Errorf("an add offers no undo:\n%s", out)
	}

	r := memctl(t, "", "--db", db, "remember", fabrikam, "--decider", "ollama", "--model", "m", "--fallback", "error")
	if r.code != 1 || !strings.Contains(r.stdout, "action:") || !strings.Contains(r.stdout, "refused") {
		t.Fatalf("fallback error: %+v", r)
	}
	if strings.Contains(r.stdout, "memctl undo") {
		t.Errorf("a refusal offers an undo:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "decision:") || !strings.Contains(r.stdout, "2 (nothing to undo)") {
		t.Errorf("a refusal does not say its decision changed nothing:\n%s", r.stdout)
	}

	r = memctl(t, "", "--db", db, "--json", "remember", fabrikam, "--decider", "ollama", "--model", "m", "--fallback", "error")
	d, f := outcome(t, r.stdout)
	if r.code != 1 || d["action"] != "refused" || d["proposed"] != "" || f != nil {
		t.Errorf("fallback error --json: exit %d, decision %v, fact %v", r.code, d, f)
	}
	ds := decode[[]map[string]any](t, ok(t, "--db", db, "--json", "decisions"))
	if len(ds) != 3 || ds[0]["action"] != "refused" || ds[1]["action"] != "refused" || ds[2]["action"] != "add" {
		t.Errorf("decisions --json = %v", ds)
	}
	u := decode[map[string]any](t, ok(t, "--db", db, "--json", "undo", "3"))
	if u["action"] != "refused" || u["undone_at"] == nil {
		t.Errorf("undo --json of a refusal = %v", u)
	}

	// A restatement changes nothing either.
	out = ok(t, "--db", db, "remember", contoso)
	if strings.Contains(out, "memctl undo") || !strings.Contains(out, "noop") || !strings.Contains(out, "(nothing to undo)") {
		t.Errorf("a noop offers an undo:\n%s", out)
	}
}

// A change unsure which of two facts it replaces names a conflict with
// each, and the prompt asks about both.
func TestRememberTwoConflicts(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-01", "add", "I swim at the city pool on Mondays.")
	ok(t, "--db", db, "--now", "2026-03-02", "add", "I swim in the lake at weekends.")
	out := ok(t, "--db", db, "--now", "2026-04-01", "remember", "These days I swim at the lido.")
	for _, want := range []string{
		"conflict:  1: fact 3 may replace fact 2 (current): I swim in the lake at weekends.\n",
		"settle:    memctl resolve 1 new (fact 3 replaces fact 2), existing (fact 3 is retracted) or both (both stay)\n",
		"conflict:  2: fact 3 may replace fact 1 (current): I swim at the city pool on Mondays.\n",
		"settle:    memctl resolve 2 new (fact 3 replaces fact 1)",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("remember:\n%s\nwant the line %q", out, want)
		}
	}
	p := ok(t, "--db", db, "--now", "2026-04-01", "prompt")
	want := `- These days I swim at the lido. (unconfirmed: may replace "I swim in the lake at weekends.", told 2026-03-02, or "I swim at the city pool on Mondays.", told 2026-03-01 — ask)`
	if !strings.Contains(p, want+"\n") {
		t.Fatalf("prompt:\n%s\nwant the line %q", p, want)
	}
}

// --from and --until give the fact's event interval over what its words
// say (Note.EventFrom, EventUntil); a malformed or out-of-range one is a
// usage error and an interval that ends before it starts is refused, each
// storing nothing.
func TestRememberFromUntil(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	_, words := outcome(t, ok(t, "--db", db, "--now", "2026-03-10", "--json", "remember", "I moved to Berlin last week."))
	if words["event_source"] != "words" || words["event_from"] == "2026-01-05T00:00:00Z" {
		t.Fatalf("test is void: the words gave %v (%v)", words["event_from"], words["event_source"])
	}
	_, f := outcome(t, ok(t, "--db", db, "--now", "2026-03-10", "--json", "remember", "I moved to Lyon last week.",
		"--from", "2026-01-05"))
	if f["event_from"] != "2026-01-05T00:00:00Z" || f["event_source"] != "given" {
		t.Errorf("--from: event_from %v (%v), want 2026-01-05 (given)", f["event_from"], f["event_source"])
	}
	_, f = outcome(t, ok(t, "--db", db, "--now", "2026-03-10", "--json", "remember", "I am in Paris until Friday.",
		"--until", "2026-04-01T12:00:00Z"))
	if f["event_until"] != "2026-04-01T12:00:00Z" || f["event_until_source"] != "given" {
		t.Errorf("--until: event_until %v (%v), want 2026-04-01T12:00:00Z (given)", f["event_until"], f["event_until_source"])
	}
	out := ok(t, "--db", db, "--now", "2026-03-10", "remember", "I study French.", "--from", "2026-02-01", "--until", "2026-07-01")
	if !strings.Contains(out, "true from:   2026-02-01 (given)\n") || !strings.Contains(out, "true until:  2026-07-01 (given, not included)\n") {
		t.Errorf("remember with both:\n%s", out)
	}

	facts := len(decode[[]map[string]any](t, ok(t, "--db", db, "--json", "list", "--all")))
	for _, tc := range []struct {
		code int
		args []string
		msg  string
	}{
		{2, []string{"--from", "yesterday"}, "yesterday"},
		{2, []string{"--from", "1800-01-01"}, "1900 to 2199"},
		{2, []string{"--until", "2300-01-01"}, "1900 to 2199"},
		{2, []string{"--from", "0001-01-01"}, "1900 to 2199"},
		{1, []string{"--from", "2026-05-01", "--until", "2026-04-01"}, "ends before it starts"},
	} {
		e := fails(t, tc.code, append([]string{"--db", db, "--now", "2026-03-10", "remember", "I like chess."}, tc.args...)...)
		if !strings.Contains(e, tc.msg) {
			t.Errorf("remember %q: stderr %q does not mention %q", tc.args, e, tc.msg)
		}
	}
	if n := len(decode[[]map[string]any](t, ok(t, "--db", db, "--json", "list", "--all"))); n != facts {
		t.Errorf("refused remembers stored facts: %d, want %d", n, facts)
	}
}
