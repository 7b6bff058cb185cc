package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// remember takes the event time from the words and shows it; at answers
// with it.
func TestRememberEventTimeFromWords(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "remember", "I work at company A.")
	out := ok(t, "--db", db, "--now", "2026-08-20", "remember", "I moved to company B back in June.")
	if !strings.Contains(out, "true from:  2026-06-01 (words)") {
		t.Errorf("remember output:\n%s", out)
	}
	var facts []struct {
		ID        uint64  `json:"id"`
		EventFrom *string `json:"event_from"`
	}
	at := ok(t, "--db", db, "--json", "at", "--event", "2026-07-01", "--known", "2026-09-01")
	if err := json.Unmarshal([]byte(at), &facts); err != nil || len(facts) != 1 || facts[0].ID != 2 ||
		facts[0].EventFrom == nil || *facts[0].EventFrom != "2026-06-01T00:00:00Z" {
		t.Errorf("at in July: %s", at)
	}
	if at := ok(t, "--db", db, "--json", "at", "--event", "2026-05-15", "--known", "2026-09-01"); !strings.Contains(at, `"id":1`) {
		t.Errorf("at in May: %s", at)
	}
}

// An interval in the words is stored whole: remember shows the end, get
// where each end came from, at answers inside it and not after.
func TestRememberIntervalFromWords(t *testing.T) {
	db := tempDB(t)
	out := ok(t, "--db", db, "--now", "2026-07-01", "remember", "I'll be in Rome from 13 to 15 July.")
	if !strings.Contains(out, "true from:   2026-07-13 (words)") || !strings.Contains(out, "true until:  2026-07-16 (words, not included)") {
		t.Errorf("remember output:\n%s", out)
	}
	if get := ok(t, "--db", db, "get", "1"); !strings.Contains(get, "2026-07-13 → 2026-07-16") || !strings.Contains(get, "event source  start: words, end: words") {
		t.Errorf("get:\n%s", get)
	}
	var facts []struct {
		EventUntilSource string `json:"event_until_source"`
	}
	at := ok(t, "--db", db, "--json", "at", "--event", "2026-07-14")
	if err := json.Unmarshal([]byte(at), &facts); err != nil || len(facts) != 1 || facts[0].EventUntilSource != "words" {
		t.Errorf("at on 14 July: %s", at)
	}
	if at := ok(t, "--db", db, "--json", "at", "--event", "2026-07-16"); strings.Contains(at, "Rome") {
		t.Errorf("at on 16 July: %s", at)
	}
}
