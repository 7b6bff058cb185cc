package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// Every row of a small perf run runs and measures something: no row failed,
// ratios and rates are positive, the fresh process reports its memory.
func TestPerfEveryRowRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("perf run skipped in -short")
	}
	cfg := perfConfig{scales: []int{300}, writes: 6, reads: 5, modes: []memory.LookupMode{memory.LookupKeywords4, memory.LookupTopics},
		latFor: 100 * time.Millisecond}
	rows, err := runPerf(context.Background(), sqliteTexts(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Op] = true
		if r.Note == "failed" {
			t.Errorf("%s failed", r.Op)
		}
		if (r.P50 == "" && r.OpsS <= 0) || r.Ratio < 0 {
			t.Errorf("%s measured nothing: %+v", r.Op, r)
		}
		if strings.HasSuffix(r.Op, "per-call latency") && (r.N == 0 || r.Max == "") {
			t.Errorf("%s has no latencies: %+v", r.Op, r)
		}
		if strings.HasPrefix(r.Op, "Open") && (!strings.Contains(r.Note, "heap in use") || strings.Contains(r.Note, "RSS 0.0 MB")) {
			t.Errorf("%s: %s", r.Op, r.Note)
		}
	}
	for _, op := range []string{
		"Add from 64 goroutines for 64 user(s) (group commit)", "Add from 64 goroutines for 1 user(s) (group commit)", "Import (one transaction, durable)",
		"Open + first lookup, index built (keywords4)", "Open + first lookup, index built (topics)",
		"Candidates k=12, keywords4", "Candidates k=12, topics",
		"Candidates k=12, keywords4, while 64 goroutines write other users", "Candidates k=12, topics, while 64 goroutines write other users",
		"Candidates k=12, keywords4, while 64 goroutines write the same user", "Candidates k=12, topics, while 64 goroutines write the same user", "List current of a user (1,000)",
		"At(now, now) of that user", "Add, durable", "Supersede, durable",
		"Remember, rules decider, keywords4 lookup", "Remember, rules decider, topics lookup",
		"SQLite: INSERT + FTS row, own transaction",
		"Add, 32 durable writers at once: per-call latency", "Add, 64 durable writers at once: per-call latency",
	} {
		if !seen[op] {
			t.Errorf("no row %q", op)
		}
	}
}
