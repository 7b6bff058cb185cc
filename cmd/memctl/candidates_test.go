package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCandidates(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "add", "I take piano lessons every Saturday.")
	ok(t, "--db", db, "add", "My sister lives in Oslo.")
	ok(t, "--db", db, "--user", "bob", "add", "I take piano lessons too.")

	var got struct {
		Mode       string `json:"mode"`
		Candidates []struct {
			Fact struct {
				ID uint64 `json:"id"`
			} `json:"fact"`
			Score float64  `json:"score"`
			Terms []string `json:"terms"`
		} `json:"candidates"`
	}
	out := ok(t, "--db", db, "--lookup", "stems", "--json", "candidates", "The pianist retired.")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Mode != "stems" || len(got.Candidates) != 1 || got.Candidates[0].Fact.ID != 1 ||
		strings.Join(got.Candidates[0].Terms, ",") != "pian…" || got.Candidates[0].Score <= 0 {
		t.Errorf("candidates: %s", out)
	}
	// keywords4 needs a shared word of four letters.
	if out := ok(t, "--db", db, "--lookup", "keywords4", "candidates", "The pianist retired."); !strings.Contains(out, "no candidates (lookup keywords4)") {
		t.Errorf("keywords4: %q", out)
	}
	// topics, the default of every command as of the library, finds it.
	if out := ok(t, "--db", db, "candidates", "The pianist retired."); !strings.Contains(out, "topic #piano") || !strings.Contains(out, "I take piano lessons every Saturday.") {
		t.Errorf("default lookup: %q", out)
	}
	if out := ok(t, "--db", db, "candidates", "piano on saturday"); !strings.Contains(out, "piano,saturday") {
		t.Errorf("table: %q", out)
	}
	fails(t, 2, "--db", db, "--lookup", "telepathy", "candidates", "x")
	fails(t, 1, "--db", db, "candidates", "piano", "--k", "0")
}

// TestCandidatesTermForms checks that terms of every kind print as the
// marked strings, in the table and in JSON alike, so that scripts reading
// either see what they always saw.
func TestCandidatesTermForms(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "add", "Mother was a pianist; Saturdays were hers.")
	const q = "My mum gave me piano lessons every Saturday."
	if out := ok(t, "--db", db, "candidates", q); !strings.Contains(out, "saturday,≈mother,≈piano,pian…; topic ") {
		t.Errorf("table: %q", out)
	}
	out := ok(t, "--db", db, "--json", "candidates", q)
	if !strings.Contains(out, `"terms":["saturday","≈mother","≈piano","pian…"]`) {
		t.Fatalf("json: %s", out)
	}
	var got struct {
		Candidates []struct {
			Terms []string `json:"terms"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Candidates) != 1 ||
		strings.Join(got.Candidates[0].Terms, ",") != "saturday,≈mother,≈piano,pian…" {
		t.Errorf("json: %v: %s", err, out)
	}
}
