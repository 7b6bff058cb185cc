package main

import (
	"strings"
	"testing"
)

// prompt --budget, --for, --half-life, --no-notes and --explain, and the
// note of an open conflict gone once it is resolved.
func TestPromptFlags(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2025-01-10", "add", "I have a dog named Rex.")
	ok(t, "--db", db, "--now", "2025-01-10", "pin", "1")
	ok(t, "--db", db, "--now", "2025-02-01", "add", "I live in Lisbon near the river.")
	ok(t, "--db", db, "--now", "2026-08-01", "add", "I had pasta for lunch.")
	ok(t, "--db", db, "--now", "2026-08-20", "remember", "I no longer have a dog.")
	now := []string{"--db", db, "--now", "2026-09-01"}
	at := func(args ...string) string { return ok(t, append(now, args...)...) }

	full := at("prompt")
	note := `- I no longer have a dog. (unconfirmed: contradicts "I have a dog named Rex.", told 2025-01-10, which is pinned and stands — ask)`
	if !strings.Contains(full, note+"\n") || !strings.Contains(full, "- I live in Lisbon near the river.\n") {
		t.Fatalf("prompt:\n%s", full)
	}
	if p := at("prompt", "--no-notes"); strings.Contains(p, "unconfirmed") || !strings.Contains(p, "- I no longer have a dog.\n") {
		t.Errorf("prompt --no-notes:\n%s", p)
	}
	// Room for the pinned dog and one more short line.
	p := at("prompt", "--budget", "62", "--no-notes")
	if !strings.Contains(p, "Rex") || !strings.Contains(p, "no longer") || strings.Contains(p, "Lisbon") || strings.Contains(p, "pasta") {
		t.Errorf("prompt --budget 62:\n%s", p)
	}
	p = at("prompt", "--budget", "62", "--no-notes", "--for", "Which city do I live in?")
	if !strings.Contains(p, "Rex") || !strings.Contains(p, "Lisbon") || strings.Contains(p, "no longer") || strings.Contains(p, "pasta") {
		t.Errorf("prompt --budget 62 --for:\n%s", p)
	}
	ex := at("prompt", "--budget", "62", "--no-notes", "--for", "Which city do I live in?", "--explain")
	lines := strings.Split(strings.TrimSpace(ex), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[1], "in   #1") || !strings.Contains(lines[1], "pinned") ||
		!strings.HasPrefix(lines[2], "in   #2") || !strings.Contains(lines[2], "relevant 1.00") ||
		!strings.Contains(ex, "over budget") {
		t.Errorf("prompt --explain:\n%s", ex)
	}
	js := decode[map[string][]map[string]any](t, at("prompt", "--explain", "--json", "--budget", "62"))
	if fs := js["facts"]; len(fs) != 4 || fs[0]["id"] != 1.0 || fs[0]["in"] != true || fs[0]["pinned"] != true || fs[3]["in"] != false {
		t.Errorf("prompt --explain --json: %v", js)
	}
	// A short half-life makes the old Lisbon fact fade faster than the
	// lunch of August, a long one keeps them near.
	ex = at("prompt", "--explain", "--half-life", "7d")
	if !strings.Contains(ex, "freshness 0.00 (recorded 2025-02-01)") {
		t.Errorf("prompt --explain --half-life 7d:\n%s", ex)
	}
	for _, bad := range [][]string{{"--budget", "-1"}, {"--half-life", "0d"}, {"--half-life", "soon"}} {
		fails(t, 2, append(append(now, "prompt"), bad...)...)
	}
	at("resolve", "1", "both")
	if p := at("prompt"); strings.Contains(p, "unconfirmed") || !strings.Contains(p, "- I no longer have a dog.\n") {
		t.Errorf("prompt after resolve:\n%s", p)
	}
}
