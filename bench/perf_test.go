package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
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
	// 1,500 facts: user-0's 1,000, the big user's 400, user-1's 100.
	cfg := perfConfig{scales: []int{1500}, writes: 6, reads: 5, modes: []memory.LookupMode{memory.LookupKeywords4, memory.LookupTopics},
		latFor: 100 * time.Millisecond, bigUser: 400}
	rows, err := runPerf(context.Background(), sqliteTexts(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Op] = true
		if r.Backend != "" { // bbolt alone, as before --backend
			t.Errorf("%s: backend %q", r.Op, r.Backend)
		}
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
		if strings.Contains(r.Op, "import") || strings.HasPrefix(r.Op, "Import") {
			// Both imports ran in a child that reports its peak RSS, and
			// imported every fact (the rate is of the facts it imported).
			if !strings.Contains(r.Note, "peak RSS") || strings.Contains(r.Note, "peak RSS 0.0 MB") || r.OpsS <= 0 || r.Ratio <= 0 {
				t.Errorf("%s: %+v", r.Op, r)
			}
		}
		if strings.Contains(r.Op, "big user") && !strings.HasPrefix(r.Op, "SQLite") && !strings.HasPrefix(r.Note, "400 facts returned") {
			t.Errorf("%s: %s", r.Op, r.Note)
		}
		checkRowFigures(t, r, cfg)
	}
	for _, op := range []string{
		"Add from 64 goroutines for 64 user(s) (group commit)", "Add from 64 goroutines for 1 user(s) (group commit)",
		"Import from a file, fresh process (batches into a new file, durable)", "SQLite: import of the same file, fresh process (one transaction, FTS5)",
		"List current of the big user (400)", "SQLite: SELECT current of the big user",
		"At(now, now) of the big user", "SQLite: SELECT current of the big user, event interval holds now",
		"Open + first lookup, index built (keywords4)", "Open + first lookup, index built (topics)",
		"Open + first lookup, index kept (keywords4)", "Open + first lookup, index kept (topics)", "Delete (hard), index open (keywords4)",
		"Candidates k=12, keywords4", "Candidates k=12, topics",
		"Candidates k=12, keywords4, while 64 goroutines write other users", "Candidates k=12, topics, while 64 goroutines write other users",
		"Candidates k=12, keywords4, while 64 goroutines write the same user", "Candidates k=12, topics, while 64 goroutines write the same user", "List current of a user (1,000)",
		"At(now, now) of that user", "Add, durable", "Supersede, durable",
		"Remember, rules decider, keywords4 lookup", "Remember, rules decider, topics lookup",
		"SQLite: INSERT + FTS row, own transaction",
		"Add, 32 durable writers at once: per-call latency", "Add, 64 durable writers at once: per-call latency",
		"Edges of one relation (works_at) of a user, now", "Neighbours of an entity of a user, now", "Neighbours of the user, now",
	} {
		if !seen[op] {
			t.Errorf("no row %q", op)
		}
	}
}

// The perf store's layout: user-0 keeps its 1,000 facts, the big user holds
// the next ones, and the rest go to users of 1,000 as before; a store
// smaller than the big user has none, and one of exactly its size gives it
// all but user-0's.
func TestPerfLayout(t *testing.T) {
	count := func(n int, l perfLayout) map[string]int {
		m := map[string]int{}
		for i := 1; i <= n; i++ {
			m[l.user(i)]++
		}
		return m
	}
	for _, c := range []struct {
		n    int
		want map[string]int
	}{
		{300, map[string]int{"user-0": 300}},
		{99_999, map[string]int{"user-0": 1000, "user-98": 1000, "user-99": 999}},
		{100_000, map[string]int{"user-0": 1000, bigUser: 99_000}},
		{1_000_000, map[string]int{"user-0": 1000, bigUser: 100_000, "user-1": 1000, "user-899": 1000}},
	} {
		l := newPerfLayout(c.n, 100_000)
		got := count(c.n, l)
		for user, want := range c.want {
			if got[user] != want {
				t.Errorf("%d facts: %s has %d, want %d", c.n, user, got[user], want)
			}
		}
		if got[bigUser] != l.big {
			t.Errorf("%d facts: the big user has %d, the layout says %d", c.n, got[bigUser], l.big)
		}
	}
	// Without a big user, the scale command's layout.
	l := perfLayout{perUser: 1000}
	for _, i := range []int{1, 1000, 1001, 123_456} {
		if got, want := l.user(i), fmt.Sprintf("user-%d", (i-1)/1000); got != want {
			t.Errorf("fact %d: %s, want %s", i, got, want)
		}
	}
}

// checkRowFigures asserts that a row's numbers are measurements, not just
// present: every duration parses and is positive, the percentiles are in
// order, rates and ratios are finite and positive where the row has them,
// and a row measured at a store size names one the configuration asked for.
func checkRowFigures(t *testing.T, r row, cfg perfConfig) {
	t.Helper()
	var prev time.Duration
	var prevName string
	for _, q := range []struct {
		name, s string
	}{{"p50", r.P50}, {"p99", r.P99}, {"p99.9", r.P999}, {"max", r.Max}} {
		if q.s == "" {
			continue
		}
		d, err := time.ParseDuration(q.s)
		if err != nil || d <= 0 {
			t.Errorf("%s: %s %q is no positive duration (%v)", r.Op, q.name, q.s, err)
			continue
		}
		if d < prev {
			t.Errorf("%s: %s %v below %s %v", r.Op, q.name, d, prevName, prev)
		}
		prev, prevName = d, q.name
	}
	for name, v := range map[string]float64{"ops/s": r.OpsS, "ratio": r.Ratio} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Errorf("%s: %s %v", r.Op, name, v)
		}
	}
	if strings.HasPrefix(r.Note, "ratio") && r.Ratio <= 0 {
		t.Errorf("%s: %q but ratio %v", r.Op, r.Note, r.Ratio)
	}
	if r.P99 == "" {
		return // not a latency row: an aggregate rate or the Open row
	}
	// A latency row has every figure of its calls.
	if r.N <= 0 || r.P50 == "" || r.Max == "" || r.OpsS <= 0 {
		t.Errorf("%s: a latency row without all its figures: %+v", r.Op, r)
		return
	}
	maxLat, _ := time.ParseDuration(r.Max)
	var writers int
	if _, err := fmt.Sscanf(r.Op, "Add, %d durable writers at once", &writers); err == nil {
		// Writers in parallel: the rate is of all of them over the window,
		// and each made at least one call.
		if want := float64(r.N) / cfg.latFor.Seconds(); math.Abs(r.OpsS-want) > 1e-6*want {
			t.Errorf("%s: %v ops/s for %d calls in %v", r.Op, r.OpsS, r.N, cfg.latFor)
		}
		if r.N < writers {
			t.Errorf("%s: %d calls from %d writers", r.Op, r.N, writers)
		}
		return
	}
	// One call at a time: the mean latency, 1/rate, is at most the slowest.
	if mean := time.Duration(float64(time.Second) / r.OpsS); mean > maxLat+time.Microsecond {
		t.Errorf("%s: mean %v above max %v", r.Op, mean, maxLat)
	}
	// A row measured at a store size names that size.
	if (strings.HasPrefix(r.Op, "Candidates k=12") || strings.HasPrefix(r.Op, "Remember, rules decider") ||
		strings.HasPrefix(r.Op, "Edges of") || strings.HasPrefix(r.Op, "Neighbours of")) && !slices.Contains(cfg.scales, r.N) {
		t.Errorf("%s: at %d facts, not one of the sizes %v", r.Op, r.N, cfg.scales)
	}
	if strings.HasPrefix(r.Op, "Remember, rules decider") && r.Ratio <= 0 {
		t.Errorf("%s: ratio to a raw bbolt update %v", r.Op, r.Ratio)
	}
}

// Each mode's Remember row times the judging of facts new to the store:
// when every mode drew the same texts, the modes after the first mostly
// timed noops on restatements of what the first had added.
func TestPerfRememberJudgesNewFacts(t *testing.T) {
	if testing.Short() {
		t.Skip("perf run skipped in -short")
	}
	cfg := perfConfig{scales: []int{300}, writes: 40, reads: 2, modes: []memory.LookupMode{memory.LookupKeywords4, memory.LookupStems},
		latFor: 50 * time.Millisecond}
	rows, err := scaleRows(context.Background(), t.TempDir(), sqliteTexts(), 300, cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range rows {
		if !strings.HasPrefix(r.Op, "Remember") {
			continue
		}
		seen++
		total := 0
		for _, n := range r.Actions {
			total += n
		}
		if total != cfg.writes/2 || r.Actions[memory.ActionNoop]*2 >= total {
			t.Errorf("%s: decisions %v of %d Remembers: mostly restatements, not new facts", r.Op, r.Actions, cfg.writes/2)
		}
	}
	if seen != len(cfg.modes) {
		t.Errorf("%d Remember rows, want %d", seen, len(cfg.modes))
	}
}

// Lookups beside writers of the same user look up a user with facts: a
// user the index has never seen answers at once, and timing those
// answers measured nothing (the writers' first commits left time for
// thousands of them).
func TestPerfSameUserLookupsFindFacts(t *testing.T) {
	if testing.Short() {
		t.Skip("perf run skipped in -short")
	}
	s, err := memory.Open(filepath.Join(t.TempDir(), "m.db"), 0, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Candidates(context.Background(), "user-0", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	r, err := candidatesWhileWriting(context.Background(), s, sqliteTexts(), memory.LookupTopics, 64, true, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.N == 0 || r.Empty*10 > r.N {
		t.Errorf("%d of %d lookups found nothing: %s", r.Empty, r.N, r.Note)
	}
}

// A row of lookups beside writers measures at least one lookup, even when
// its window is over before the lookups' goroutine runs (a loaded machine).
func TestPerfLookupsBesideWritersMeasureOne(t *testing.T) {
	s, err := memory.Open(filepath.Join(t.TempDir(), "m.db"), 0, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, same := range []bool{false, true} {
		r, err := candidatesWhileWriting(context.Background(), s, sqliteTexts(), memory.LookupKeywords4, 4, same, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r.N < 1 || r.P50 == "" {
			t.Errorf("same user %v: no lookup measured: %+v", same, r)
		}
	}
}

// With --backend nats, each row of the writers and of the store's own
// operations has its cluster twin right after it: the same op (the
// writers' rows name how their commits meet), the same size, a rate and a
// ratio; the seeding stands beside the Import, and a size with a user past
// --nats-user-facts gets a row that says why it was not measured.
func TestPerfNatsBesideBBolt(t *testing.T) {
	if testing.Short() {
		t.Skip("perf run on a cluster skipped in -short")
	}
	// 300 facts, all user-0's: a big user needs 1,000 facts more, which the
	// cluster takes one after another (TestPerfNatsBigUser has one).
	cfg := perfConfig{scales: []int{300}, writes: 6, reads: 5, modes: []memory.LookupMode{memory.LookupKeywords4},
		latFor: 100 * time.Millisecond, nats: true, natsUserFacts: 300}
	rows, err := runPerf(context.Background(), sqliteTexts(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	twins := map[string]bool{}
	for i, r := range rows {
		if r.Backend != "nats" {
			continue
		}
		if i == 0 || rows[i-1].Backend != "bbolt" {
			t.Errorf("%s (nats) is not beside a bbolt row", r.Op)
			continue
		}
		b := rows[i-1]
		if want := strings.Replace(r.Op, "(a commit each)", "(group commit)", 1); b.Op != want && !strings.HasPrefix(r.Op, "Seed:") {
			t.Errorf("%s (nats) beside %s", r.Op, b.Op)
		}
		if b.N != r.N && r.P50 == "" && !strings.Contains(r.Op, "latency") {
			t.Errorf("%s: nats at %d, bbolt at %d", r.Op, r.N, b.N)
		}
		if r.Note == "failed" || r.OpsS <= 0 || r.Ratio <= 0 || b.OpsS <= 0 {
			t.Errorf("%s (nats): %+v beside %+v", r.Op, r, b)
		}
		if strings.HasPrefix(r.Op, "Remember") {
			total := 0
			for _, n := range r.Actions {
				total += n
			}
			if total != cfg.writes/2 {
				t.Errorf("%s (nats): decisions %v of %d Remembers", r.Op, r.Actions, cfg.writes/2)
			}
		}
		checkRowFigures(t, r, cfg)
		twins[b.Op] = true
	}
	for _, op := range []string{
		"Add, one writer", "Add from 64 goroutines for 64 user(s) (group commit)", "Add from 64 goroutines for 1 user(s) (group commit)",
		"Add, 32 durable writers at once: per-call latency", "Add, 64 durable writers at once: per-call latency",
		importOp, "Candidates k=12, keywords4", "Remember, rules decider, keywords4 lookup",
		"List current of a user (1,000)", "At(now, now) of that user",
		"Add, durable", "Supersede, durable",
	} {
		if !twins[op] {
			t.Errorf("no nats row beside %q", op)
		}
	}
	cfg.natsUserFacts = 299
	skip, err := natsScaleRows(context.Background(), t.TempDir(), sqliteTexts(), 300, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(skip) != 1 || skip[0].Backend != "nats" || !strings.Contains(skip[0].Note, "300 facts, past --nats-user-facts 299") {
		t.Errorf("a user past --nats-user-facts: %+v", skip)
	}
}

// The cluster is seeded with the layout's users, each with its facts, and
// the big user's reads on it return them all.
func TestPerfNatsBigUser(t *testing.T) {
	if testing.Short() {
		t.Skip("perf run on a cluster skipped in -short")
	}
	ctx := context.Background()
	nodes, folder, cleanup, err := natsNodes(ctx, t.TempDir(), "nats")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	cfg := perfConfig{writes: 4, reads: 3, modes: []memory.LookupMode{memory.LookupKeywords4}}
	lay := perfLayout{perUser: 20, big: 30} // user-0, the big user, user-1, user-2
	s, err := natsStore(ctx, nodes, folder, cfg.modes[0])
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seed, err := seedCluster(ctx, s, sqliteTexts(), 90, lay)
	if err != nil {
		t.Fatal(err)
	}
	if seed.OpsS <= 0 || !strings.Contains(seed.Note, "90 facts of 4 user(s)") || !strings.Contains(seed.Note, "(big, 30 facts)") {
		t.Errorf("seed: %+v", seed)
	}
	rows, err := natsModeRows(ctx, s, sqliteTexts(), 0, cfg.modes[0], cfg, lay)
	if err != nil {
		t.Fatal(err)
	}
	big := 0
	for _, r := range rows {
		if strings.Contains(r.Op, "big user") {
			big++
			if !strings.HasPrefix(r.Note, "30 facts returned; the first call, which reads them from the view this process kept while seeding") {
				t.Errorf("%s: %s", r.Op, r.Note)
			}
			checkRowFigures(t, r, cfg)
		}
	}
	if big != 2 {
		t.Errorf("%d rows of the big user, want List and At", big)
	}
}
