package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/spf13/cobra"
)

// row is one line of the perf table.
type row struct {
	Op    string  `json:"op"`
	N     int     `json:"n"`
	P50   string  `json:"p50,omitempty"`
	P99   string  `json:"p99,omitempty"`
	P999  string  `json:"p99_9,omitempty"`
	Max   string  `json:"max,omitempty"`
	OpsS  float64 `json:"ops_per_s,omitempty"`
	Ratio float64 `json:"ratio,omitempty"` // ours / baseline, in ops/s; > 1 is faster
	Note  string  `json:"note,omitempty"`
	// Empty counts the lookups that found no candidate, for the rows of
	// lookups beside writers.
	Empty int `json:"empty,omitempty"`
	// Actions counts what Remember decided, for its rows.
	Actions map[memory.Action]int `json:"actions,omitempty"`
	// Backend names the store a row measured when perf runs on more than
	// one (--backend nats): a nats row follows the bbolt row it is
	// compared with. Empty otherwise.
	Backend string `json:"backend,omitempty"`
	// twin is the op of the bbolt row a nats row is set beside.
	twin string
}

// countActions lists decisions by action, most frequent first.
func countActions(m map[memory.Action]int) string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b memory.Action) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(string(a), string(b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", m[k], k)
	}
	return strings.Join(parts, ", ")
}

// perfConfig is what one perf run measures.
type perfConfig struct {
	scales []int // store sizes, in facts
	writes int   // timed writes of each kind per scale
	reads  int   // timed reads of each kind per scale
	modes  []memory.LookupMode
	// latFor is how long each count of concurrent durable writers runs
	// in the per-call latency rows.
	latFor time.Duration
	// graphOnly: only the graph's rows, at each scale.
	graphOnly bool
	// promptOnly: only the prompt's rows, at each scale.
	promptOnly bool
	// bigUser is the facts of the big user, whose List and At have rows of
	// their own in a store of at least as many facts (see newPerfLayout).
	bigUser int
	// nats: measure the rows again on a store on an in-process cluster
	// (see perfnats.go), beside bbolt's.
	nats bool
	// natsUserFacts bounds the facts of one user seeded on the cluster: a
	// scale whose layout has a larger user is not measured there.
	natsUserFacts int
}

func perfCmd() *cobra.Command {
	var facts int
	var quick, asJSON, writersOnly, graphOnly, promptOnly bool
	var modes, scales, distractors, cpuprofile, blockprofile, backend string
	var natsUserFacts int
	c := &cobra.Command{
		Use:   "perf",
		Short: "Speed and size of the store next to a bare bbolt file and SQLite, fsync on unless a row says otherwise",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg := perfConfig{scales: []int{1000, 10_000, facts}, writes: 300, reads: 500, latFor: 3 * time.Second, bigUser: 100_000}
			if quick {
				cfg = perfConfig{scales: []int{1000, 10_000}, writes: 100, reads: 200, latFor: time.Second, bigUser: 100_000}
			}
			if scales != "" {
				cfg.scales = nil
				for _, v := range strings.Split(scales, ",") {
					n, err := strconv.Atoi(strings.TrimSpace(v))
					if err != nil || n < 1 || slices.Contains(cfg.scales, n) {
						return fmt.Errorf("--scales %q: want distinct store sizes, in facts, comma-separated", scales)
					}
					cfg.scales = append(cfg.scales, n)
				}
			}
			if writersOnly {
				cfg.scales = nil
			}
			cfg.graphOnly, cfg.promptOnly = graphOnly, promptOnly
			switch backend {
			case "bbolt":
			case "nats":
				if graphOnly || promptOnly {
					return errors.New("--backend nats measures the operations table, not --graph-only or --prompt-only")
				}
				cfg.nats, cfg.natsUserFacts = true, natsUserFacts
			default:
				return fmt.Errorf("--backend %q: want bbolt or nats", backend)
			}
			for _, m := range strings.Split(modes, ",") {
				mode, err := memory.ParseLookupMode(strings.TrimSpace(m))
				if err != nil {
					return err
				}
				cfg.modes = append(cfg.modes, mode)
			}
			texts, stop, err := loadAndProfile(distractors, cpuprofile)
			if err != nil {
				return err
			}
			defer stop()
			if blockprofile != "" {
				stopBlock, err := startBlockProfile(blockprofile)
				if err != nil {
					return err
				}
				defer stopBlock()
			}
			w := cmd.OutOrStdout()
			start := time.Now()
			rows, err := runPerf(cmd.Context(), texts, cfg)
			if err != nil {
				return err
			}
			if err := report(w, asJSON, start, rows); err != nil || asJSON {
				return err
			}
			fmt.Fprintln(w, "perf ok")
			return nil
		},
	}
	f := c.Flags()
	f.IntVar(&facts, "facts", 100_000, "the largest store measured")
	f.StringVar(&scales, "scales", "", "store sizes to measure, in facts, comma-separated (instead of 1000, 10000 and --facts)")
	f.BoolVar(&quick, "quick", false, "a shorter run: fewer operations, stores of 1k and 10k facts")
	f.BoolVar(&asJSON, "json", false, "print JSON rows")
	f.BoolVar(&writersOnly, "writers-only", false, "only the rows of many writers at once (throughput and per-call latency)")
	f.BoolVar(&graphOnly, "graph-only", false, "only the graph's rows (Edges, Neighbours), at each scale")
	f.BoolVar(&promptOnly, "prompt-only", false, "only the prompt's rows (Prompt with and without --for), at each scale")
	f.StringVar(&modes, "modes", "keywords4,stems,topics", "lookup modes to measure, comma-separated; the first is the one the write rows use")
	f.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	f.StringVar(&blockprofile, "blockprofile", "", "write a profile of where goroutines waited (blocking and mutex contention) to this file")
	f.StringVar(&backend, "backend", "bbolt", "bbolt, or nats: each row of writers and of Add, Supersede, Remember, Candidates, List, At also on a store on an in-process 3-node cluster, beside bbolt's")
	f.IntVar(&natsUserFacts, "nats-user-facts", 10_000, "with --backend nats, the most facts one user may get on the cluster: a size whose layout has a larger user (the big user at 100,000) is not measured there: one user's Adds commit one after another, minutes for the big user's 99,000")
	f.StringVar(&distractors, "distractors", "../shared/data/distractors.en.jsonl,../shared/data/distractors.ru.jsonl", "texts to build facts from")
	return c
}

func runPerf(ctx context.Context, texts []string, cfg perfConfig) ([]row, error) {
	dir, err := os.MkdirTemp("", "bench-perf-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if cfg.graphOnly || cfg.promptOnly {
		var rows []row
		for _, n := range cfg.scales {
			only := graphRows
			if cfg.promptOnly {
				only = promptRows
			}
			more, err := only(ctx, dir, texts, n, min(1000, n), cfg)
			if err != nil {
				return nil, fmt.Errorf("%d facts: %w", n, err)
			}
			for i := range more {
				more[i].N = n
			}
			rows = append(rows, more...)
		}
		return rows, nil
	}
	rows, err := concurrencyRows(ctx, dir, texts, cfg)
	if err != nil {
		return nil, err
	}
	if cfg.nats {
		on, err := natsConcurrencyRows(ctx, dir, texts, cfg)
		if err != nil {
			return nil, fmt.Errorf("nats: %w", err)
		}
		rows = beside(rows, on)
	}
	for _, n := range cfg.scales {
		more, err := scaleRows(ctx, dir, texts, n, cfg)
		if err != nil {
			return nil, fmt.Errorf("%d facts: %w", n, err)
		}
		if cfg.nats {
			on, err := natsScaleRows(ctx, dir, texts, n, cfg)
			if err != nil {
				return nil, fmt.Errorf("nats, %d facts: %w", n, err)
			}
			more = beside(more, on)
		}
		rows = append(rows, more...)
	}
	return rows, nil
}

// concurrencyRows compares one writer with 64 goroutines adding at once,
// whose writes group commit shares transactions among.
func concurrencyRows(ctx context.Context, dir string, texts []string, cfg perfConfig) ([]row, error) {
	s, err := memory.Open(filepath.Join(dir, "conc.db"), 0, &memory.Options{Lookup: cfg.modes[0]})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return writerRows(ctx, s, texts, cfg, "(group commit)")
}

// writerRows are concurrencyRows' on the store s; how says how its
// writers' commits meet, in the rows of many goroutines.
func writerRows(ctx context.Context, s *memory.Store, texts []string, cfg perfConfig, how string) ([]row, error) {
	if _, err := s.Candidates(ctx, "", "build the index", 1); err != nil {
		return nil, err
	}
	c := newCorpus(texts, 4)
	one := timeN(cfg.writes, func(int) error { _, err := s.Add(ctx, memory.Note{Text: c.next()}); return err })
	const writers = 64
	per := max(cfg.writes/4, 10)
	rows := []row{latRow("Add, one writer", one, 0)}
	for _, users := range []int{writers, 1} {
		conc, err := addConcurrently(ctx, s, c, writers, per, users)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{Op: fmt.Sprintf("Add from %d goroutines for %d user(s) %s", writers, users, how),
			N: writers * per, OpsS: conc, Ratio: conc / rate(one), Note: "ratio to one writer"})
	}
	for _, n := range []int{32, 64} {
		lat, err := addFor(ctx, s, c, n, cfg.latFor)
		if err != nil {
			return nil, err
		}
		r := latRow(fmt.Sprintf("Add, %d durable writers at once: per-call latency", n), lat, 0)
		r.OpsS = float64(len(lat)) / cfg.latFor.Seconds() // all writers together, not one call's rate
		r.Note = fmt.Sprintf("each writer adds in a loop for %v", cfg.latFor)
		rows = append(rows, r)
	}
	return rows, nil
}

// addFor runs writers goroutines that each add facts, one call after
// another, for d, and returns every call's latency, sorted. The texts are
// made before the clock starts.
func addFor(ctx context.Context, s *memory.Store, c *corpus, writers int, d time.Duration) ([]time.Duration, error) {
	texts := make([]string, 4096)
	for i := range texts {
		texts[i] = c.next()
	}
	lats := make([][]time.Duration, writers)
	errs := make([]error, writers)
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := w; time.Now().Before(deadline); i += writers {
				start := time.Now()
				if _, err := s.Add(ctx, memory.Note{User: fmt.Sprintf("w%d", w), Text: texts[i%len(texts)]}); err != nil {
					errs[w] = err
					return
				}
				lats[w] = append(lats[w], time.Since(start))
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	all := slices.Concat(lats...)
	slices.Sort(all)
	return all, nil
}

// candidatesWhileWriting times lookups, one after another, while writers
// goroutines add facts for d: lookups of user-0 while each writer adds for
// a user of its own or, if same, lookups of a user "hot-<mode>", new to the
// store, whose facts all the writers add (user-0 stays as the later rows
// expect). A lookup waits for the changes to its user's facts committed
// before it, so the second is the index's lag behind a busy user. The row's
// rate is the lookups'; the note gives the writes'.
func candidatesWhileWriting(ctx context.Context, s *memory.Store, texts []string, mode memory.LookupMode, writers int, same bool, d time.Duration) (row, error) {
	c := newCorpus(texts, 6)
	notes := make([]string, 4096)
	for i := range notes {
		notes[i] = c.next()
	}
	queries := make([]string, 512)
	for i := range queries {
		queries[i] = c.next()
	}
	looked := "user-0"
	if same {
		looked = fmt.Sprintf("hot-%s", mode)
		// The user looked up has facts before the clock starts: lookups of
		// a user the index has never seen return at once, and the writers'
		// first commits take long enough for thousands of them.
		for i := range writers {
			if _, err := s.Add(ctx, memory.Note{User: looked, Text: notes[i]}); err != nil {
				return row{}, err
			}
		}
	}
	var lat []time.Duration
	var rerr error
	var writes, empty int
	var mu sync.Mutex
	errs := make([]error, writers)
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			n := 0
			user := fmt.Sprintf("busy%d", w)
			if same {
				user = looked
			}
			for i := w; time.Now().Before(deadline); i += writers {
				if _, err := s.Add(ctx, memory.Note{User: user, Text: notes[i%len(notes)]}); err != nil {
					errs[w] = err
					return
				}
				n++
			}
			mu.Lock()
			writes += n
			mu.Unlock()
		})
	}
	wg.Go(func() {
		// At least one lookup, however late this goroutine starts: on a
		// loaded machine a short window could pass before it ran at all.
		for i := 0; i == 0 || time.Now().Before(deadline); i++ {
			start := time.Now()
			l, err := s.Candidates(ctx, looked, queries[i%len(queries)], memory.DefaultCandidates)
			if err != nil {
				rerr = err
				return
			}
			lat = append(lat, time.Since(start))
			if len(l.Candidates) == 0 {
				empty++
			}
		}
	})
	wg.Wait()
	if err := errors.Join(append(errs, rerr)...); err != nil {
		return row{}, err
	}
	slices.Sort(lat)
	op := fmt.Sprintf("Candidates k=12, %s, while %d goroutines write other users", mode, writers)
	if same {
		op = fmt.Sprintf("Candidates k=12, %s, while %d goroutines write the same user", mode, writers)
	}
	r := latRow(op, lat, 0)
	r.Note = fmt.Sprintf("%.0f durable Adds/s meanwhile, for %v; %d lookups found nothing", float64(writes)/d.Seconds(), d, empty)
	r.Empty = empty
	return r, nil
}

// addConcurrently adds per facts from each of writers goroutines, spread
// over users, and returns the facts added per second.
func addConcurrently(ctx context.Context, s *memory.Store, c *corpus, writers, per, users int) (float64, error) {
	notes := make([][]memory.Note, writers)
	for w := range notes {
		for range per {
			notes[w] = append(notes[w], memory.Note{User: fmt.Sprintf("u%d", w%users), Text: c.next()})
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for _, n := range notes[w] {
				if _, err := s.Add(ctx, n); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return 0, err
	}
	return float64(writers*per) / time.Since(start).Seconds(), nil
}

// scaleRows measures a store of n facts in which the reads ask about a user
// with 1,000 current facts (or n, if fewer) and, in a store of at least
// cfg.bigUser facts, about a user with that many too (see newPerfLayout).
func scaleRows(ctx context.Context, dir string, texts []string, n int, cfg perfConfig) ([]row, error) {
	path := filepath.Join(dir, fmt.Sprintf("s%d.db", n))
	lay := newPerfLayout(n, cfg.bigUser)
	perUser := lay.perUser
	var rows []row
	add := func(r ...row) {
		for i := range r {
			r[i].N = n
		}
		rows = append(rows, r...)
	}

	// Import, ours and SQLite's, each in a fresh process from the same
	// export file, against a raw bulk load of as many records.
	export := filepath.Join(dir, fmt.Sprintf("export%d.jsonl", n))
	if err := writeExportFile(export, texts, n, lay); err != nil {
		return nil, err
	}
	imp, err := importInChild(ctx, importSpec{Export: export, Path: path})
	if err != nil {
		return nil, err
	}
	if imp.Facts != n {
		return nil, fmt.Errorf("import: %d facts, want %d", imp.Facts, n)
	}
	sq, err := measureSQLiteScale(ctx, dir, export, texts, n, lay, cfg.reads, bigReads(cfg), cfg.writes)
	if err != nil {
		return nil, err
	}
	if err := os.Remove(export); err != nil {
		return nil, err
	}
	raw, rawBulk, err := rawBulkLoad(filepath.Join(dir, fmt.Sprintf("raw%d.db", n)), texts, n)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	add(importRows(imp, sq.imp, rawBulk)...)

	// Open in a fresh process: the time to the first lookup's answer, and
	// the heap and resident memory of a process that holds nothing else.
	// The first builds the index (none is kept in this mode yet) and keeps
	// it; the second opens what the first kept, as every later process does.
	for _, mode := range cfg.modes {
		for _, how := range []string{"index built", "index kept"} {
			o, err := openInChild(ctx, path, mode)
			if err != nil {
				return nil, err
			}
			add(row{Op: fmt.Sprintf("Open + first lookup, %s (%s)", how, mode), P50: o.Open.Round(time.Millisecond).String(),
				Note: fmt.Sprintf("fresh process: heap in use %.1f MB (%.0f B/fact), RSS %.1f MB (%.1f MB of it mapped files), peak RSS %.1f MB, file %.0f B/fact",
					mb(o.Heap), float64(o.Heap)/float64(n), mb(o.RSS), mb(o.RSSFile), mb(o.PeakRSS), float64(o.File)/float64(n))})
		}
	}

	for i, mode := range cfg.modes {
		s, err := memory.Open(path, 0, &memory.Options{Lookup: mode})
		if err != nil {
			return nil, err
		}
		c := newCorpus(texts, 2)
		if _, err := s.Candidates(ctx, "user-0", c.next(), memory.DefaultCandidates); err != nil {
			s.Close()
			return nil, err
		}
		cand := timeN(cfg.reads, func(int) error {
			_, err := s.Candidates(ctx, "user-0", c.next(), memory.DefaultCandidates)
			return err
		})
		add(latRow(fmt.Sprintf("Candidates k=12, %s", mode), cand, 0))
		for _, same := range []bool{false, true} {
			busy, err := candidatesWhileWriting(ctx, s, texts, mode, 64, same, cfg.latFor)
			if err != nil {
				s.Close()
				return nil, err
			}
			add(busy)
		}
		if mode == memory.LookupKeywords4 {
			add(vsSQLite("FTS5 OR of 4+-letter words, current, bm25 top 12", sq.look, cand))
		}
		// Remember before the write rows: their 600 writes, which no lookup
		// waits for, reach the index in batches whose segments bleve then
		// merges in the background, and the first mode's Remember would pay
		// for those merges while the others' met an index just built.
		// Each mode judges facts of its own: on the same texts as an
		// earlier mode's, nearly every Remember would be a restatement of
		// what that mode added, a noop that writes no fact, and the later
		// modes' figures would time a different job.
		c = newCorpus(texts, 50+uint64(i))
		actions := map[memory.Action]int{}
		rem, base := timePair(cfg.writes/2,
			func(int) error {
				o, err := s.Remember(ctx, memory.Note{User: "user-0", Text: c.next()})
				actions[o.Decision.Action]++
				return err
			},
			rawUpdate(raw, c.next()))
		r := latRow(fmt.Sprintf("Remember, rules decider, %s lookup", mode), rem, rate(rem)/rate(base))
		if r.Note == "" {
			r.Actions = actions
			r.Note = fmt.Sprintf("ratio to a raw bbolt Update timed in turns; p50 %.1f× the Update's; decisions: %s",
				float64(rem[len(rem)/2])/float64(base[len(base)/2]), countActions(actions))
		}
		add(r)
		if i == 0 {
			del, err := timeDeletes(ctx, s, "user-0", 3)
			if err != nil {
				s.Close()
				return nil, err
			}
			add(latRow(fmt.Sprintf("Delete (hard), index open (%s)", mode), del, 0))
			more, err := readWriteRows(ctx, s, raw, texts, cfg, lay, sq)
			if err != nil {
				s.Close()
				return nil, err
			}
			add(more...)
		}
		if err := s.Close(); err != nil {
			return nil, err
		}
	}
	// The graph's reads, on a store of its own: the texts above are the
	// ones SQLite is compared on, and state few claims.
	more, err := graphRows(ctx, dir, texts, n, perUser, cfg)
	if err != nil {
		return nil, err
	}
	add(more...)
	if more, err = promptRows(ctx, dir, texts, n, perUser, cfg); err != nil {
		return nil, err
	}
	add(more...)
	return rows, nil
}

// readWriteRows times the reads of one user's current facts (and of the
// big user's, if l has one) and the durable writes, each write kind
// interleaved with a raw bbolt Update of a record of the same size in a
// file as large, so both meet the same disk.
func readWriteRows(ctx context.Context, s *memory.Store, raw *kv.Raw, texts []string, cfg perfConfig, l perfLayout, sq sqliteScale) ([]row, error) {
	list := timeN(cfg.reads, func(int) error { _, err := s.List(ctx, "user-0", nil); return err })
	at := timeN(cfg.reads, func(int) error { _, err := s.At(ctx, "user-0", time.Time{}, time.Time{}); return err })
	rows := []row{
		latRow("List current of a user (1,000)", list, 0),
		vsSQLite("SELECT current of that user", sq.list, list),
		latRow("At(now, now) of that user", at, 0),
		vsSQLite("SELECT current, event interval holds now", sq.now, at),
	}
	if l.big > 0 {
		big, err := bigUserRows(ctx, s, cfg, l, sq)
		if err != nil {
			return nil, err
		}
		rows = append(rows, big...)
	}
	c := newCorpus(texts, 3)
	ids := make([]uint64, cfg.writes)
	adds, base := timePair(cfg.writes, func(i int) error {
		f, err := s.Add(ctx, memory.Note{User: "user-0", Text: c.next()})
		ids[i] = f.ID
		return err
	}, rawUpdate(raw, c.next()))
	sups, base2 := timePair(cfg.writes, func(i int) error {
		_, err := s.Supersede(ctx, "user-0", ids[i], memory.Note{User: "user-0", Text: c.next()})
		return err
	}, rawUpdate(raw, c.next()))
	return append(rows,
		latRow("raw bbolt Update, one record, durable", base, 0),
		latRow("Add, durable", adds, rate(adds)/rate(base)),
		vsSQLite("INSERT + FTS row, own transaction", sq.add, adds),
		latRow("Supersede, durable", sups, rate(sups)/rate(base2)),
		vsSQLite("supersede, INSERT + UPDATE in one transaction", sq.sup, sups),
	), nil
}

// bigReads is how many times the big user's reads are timed: each returns
// 100,000 facts, and SQLite's take a tenth of a second or more.
func bigReads(cfg perfConfig) int { return max(3, cfg.reads/20) }

// bigUserRows times List and At of the big user, whose facts no call has
// read yet: the first call of each reads them from the file, and the store
// keeps the answer until a write of that user's, so the note gives the
// first call apart from the timed ones after it.
func bigUserRows(ctx context.Context, s *memory.Store, cfg perfConfig, l perfLayout, sq sqliteScale) ([]row, error) {
	var rows []row
	for i, vs := range []struct {
		op   string
		base []time.Duration
	}{
		{"SELECT current of the big user", sq.bigList},
		{"SELECT current of the big user, event interval holds now", sq.bigNow},
	} {
		r, lat, err := bigUserRead(ctx, s, cfg, l, i == 1, "the file")
		if err != nil {
			return nil, err
		}
		rows = append(rows, r, vsSQLite(vs.op, vs.base, lat))
	}
	return rows, nil
}

// bigUserRead times List of the big user or, with at, At(now, now), as
// bigUserRows says, and returns its row and latencies; from names where
// the first call reads the facts.
func bigUserRead(ctx context.Context, s *memory.Store, cfg perfConfig, l perfLayout, at bool, from string) (row, []time.Duration, error) {
	op, fn := "List current of the big user ("+thousands(l.big)+")", func() ([]memory.Fact, error) { return s.List(ctx, bigUser, nil) }
	if at {
		op, fn = "At(now, now) of the big user", func() ([]memory.Fact, error) { return s.At(ctx, bigUser, time.Time{}, time.Time{}) }
	}
	start := time.Now()
	facts, err := fn()
	first := time.Since(start)
	if err != nil {
		return row{}, nil, err
	}
	if len(facts) != l.big {
		return row{}, nil, fmt.Errorf("%s: %d facts, want %d", op, len(facts), l.big)
	}
	lat := timeN(bigReads(cfg), func(int) error { _, err := fn(); return err })
	r := latRow(op, lat, 0)
	r.Note = fmt.Sprintf("%d facts returned; the first call, which reads them from %s, took %v", len(facts), from, first.Round(time.Microsecond))
	return r, lat, nil
}

// thousands writes n with commas between its groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// rawUpdate returns the baseline write: one durable bbolt Update of a record
// as long as a fact's.
func rawUpdate(raw *kv.Raw, sample string) func(int) error {
	value := []byte(sample + strings.Repeat(" ", 40))
	next := 0
	return func(int) error {
		next++
		return raw.Put([]byte("w"+strconv.Itoa(next)), value)
	}
}

// timeImport imports r into a new store at path, in this process, and
// times the Import call.
func timeImport(ctx context.Context, path string, r io.Reader) (time.Duration, error) {
	s, err := memory.Open(path, 0, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	_, err = s.Import(ctx, r, nil)
	took := time.Since(start)
	return took, errors.Join(err, s.Close())
}

// rawBulkLoad writes n records of the facts' sizes in one durable bbolt
// transaction and leaves the file open for the write rows' baseline.
func rawBulkLoad(path string, texts []string, n int) (*kv.Raw, time.Duration, error) {
	raw, err := kv.OpenRaw(path, false)
	if err != nil {
		return nil, 0, err
	}
	c := newCorpus(texts, 1)
	keys, vals := make([][]byte, n), make([][]byte, n)
	for i := range keys {
		keys[i], vals[i] = []byte(strconv.Itoa(i)), []byte(c.next()+strings.Repeat(" ", 60))
	}
	start := time.Now()
	if err := raw.PutMany(keys, vals); err != nil {
		raw.Close()
		return nil, 0, err
	}
	return raw, time.Since(start), nil
}

// timeN runs fn n times and returns the sorted latencies, or a single -1
// if a call failed.
// timeDeletes times n hard deletes of user's current facts: each commits,
// purges the candidate index's files of the fact's words and scrubs the
// store file's free pages.
func timeDeletes(ctx context.Context, s *memory.Store, user string, n int) ([]time.Duration, error) {
	facts, err := s.List(ctx, user, nil)
	if err != nil {
		return nil, err
	}
	if len(facts) < n {
		return nil, fmt.Errorf("delete rows: %s has %d current facts, want %d", user, len(facts), n)
	}
	return timeN(n, func(i int) error {
		_, err := s.Delete(ctx, user, facts[i].ID, nil)
		return err
	}), nil
}

func timeN(n int, fn func(i int) error) []time.Duration {
	lat := make([]time.Duration, 0, n)
	for i := range n {
		start := time.Now()
		if err := fn(i); err != nil {
			return append(lat[:0], -1)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	return lat
}

// timePair runs ours and the baseline in turns, n of each, so that both see
// the same disk and the same neighbours on the machine, and returns each
// one's sorted latencies.
func timePair(n int, ours, base func(i int) error) (a, b []time.Duration) {
	a, b = make([]time.Duration, 0, n), make([]time.Duration, 0, n)
	failed := func(l []time.Duration) []time.Duration { return append(l[:0], -1) }
	for i := range n {
		start := time.Now()
		if err := ours(i); err != nil {
			return failed(a), b
		}
		a = append(a, time.Since(start))
		start = time.Now()
		if err := base(i); err != nil {
			return a, failed(b)
		}
		b = append(b, time.Since(start))
	}
	slices.Sort(a)
	slices.Sort(b)
	return a, b
}

func mb(b uint64) float64 { return float64(b) / 1e6 }

func rate(lat []time.Duration) float64 {
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	return float64(len(lat)) / sum.Seconds()
}

func latRow(op string, lat []time.Duration, ratio float64) row {
	if len(lat) == 0 || lat[0] < 0 {
		return row{Op: op, Note: "failed"}
	}
	r := row{Op: op, N: len(lat), P50: lat[len(lat)/2].String(), P99: lat[len(lat)*99/100].String(), OpsS: rate(lat), Ratio: ratio}
	if len(lat) >= 1000 { // fewer calls have no 99.9th percentile worth the name
		r.P999 = lat[len(lat)*999/1000].String()
	}
	r.Max = lat[len(lat)-1].String()
	return r
}

// machine names what the figures were measured on.
func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores (GOMAXPROCS %d), %s %s/%s, %s", cpu, runtime.NumCPU(), runtime.GOMAXPROCS(0),
		runtime.Version(), runtime.GOOS, runtime.GOARCH, time.Now().UTC().Format(time.DateOnly))
}

func printRows(w io.Writer, rows []row) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	// A backend column only when rows of two backends stand side by side.
	backends := slices.ContainsFunc(rows, func(r row) bool { return r.Backend != "" })
	if backends {
		fmt.Fprint(tw, "operation\tbackend\t")
	} else {
		fmt.Fprint(tw, "operation\t")
	}
	fmt.Fprintln(tw, "facts\tp50\tp99\tp99.9\tmax\tops/s\tratio\tnote")
	for _, r := range rows {
		ratio := ""
		if r.Ratio != 0 {
			ratio = fmt.Sprintf("%.2f", r.Ratio)
		}
		// Beside the cluster's rows, small figures keep two digits: a read
		// of the big user on the cluster can be a hundredth of the file's.
		if backends && r.Ratio > 0 && r.Ratio < 0.01 {
			ratio = fmt.Sprintf("%.2g", r.Ratio)
		}
		ops := ""
		if r.OpsS != 0 {
			ops = fmt.Sprintf("%.0f", r.OpsS)
		}
		if backends && r.OpsS > 0 && r.OpsS < 10 {
			ops = fmt.Sprintf("%.1f", r.OpsS)
		}
		fmt.Fprintf(tw, "%s\t", r.Op)
		if backends {
			fmt.Fprintf(tw, "%s\t", r.Backend)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.N, r.P50, r.P99, r.P999, r.Max, ops, ratio, r.Note)
	}
	tw.Flush()
}
