package main

// perf --backend nats: the rows of writers and of Add, Supersede, Remember,
// Candidates, List and At measured again on a store on an in-process
// cluster (cluster.Start: three nats-server nodes on loopback, R3 file
// streams, fsync on every write), holding the same facts as the bbolt
// store of each size, and printed beside the bbolt rows with their ratio,
// so that the table reads as what the cluster costs.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/cluster"
)

// natsNodes starts a cluster of its own in a new folder under dir: each
// measurement gets fresh streams, and its data goes with it (cleanup).
func natsNodes(ctx context.Context, dir, name string) (nodes *cluster.Nodes, folder string, cleanup func(), err error) {
	folder = filepath.Join(dir, name)
	if nodes, err = cluster.Start(ctx, filepath.Join(folder, "nodes"), nil); err != nil {
		return nil, "", nil, err
	}
	return nodes, folder, func() { _ = nodes.Close(); _ = os.RemoveAll(folder) }, nil
}

// natsStore opens a store on nodes with the lookup mode, its candidate
// index in a folder of its own, so that its first lookup builds the index
// from the users' snapshots.
func natsStore(ctx context.Context, nodes *cluster.Nodes, folder string, mode memory.LookupMode) (*memory.Store, error) {
	idx, err := os.MkdirTemp(folder, "index-"+string(mode)+"-")
	if err != nil {
		return nil, err
	}
	return cluster.Open(ctx, nodes.URL(), idx, &cluster.Options{Nodes: nodes, Memory: &memory.Options{Lookup: mode}})
}

// natsConcurrencyRows are concurrencyRows on a store on a cluster. A store
// on a cluster has no group commit: each Add is a commit of its own,
// users' commits run side by side and one user's follow one another.
func natsConcurrencyRows(ctx context.Context, dir string, texts []string, cfg perfConfig) ([]row, error) {
	nodes, folder, cleanup, err := natsNodes(ctx, dir, "nats-conc")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	s, err := natsStore(ctx, nodes, folder, cfg.modes[0])
	if err != nil {
		return nil, err
	}
	defer s.Close()
	rows, err := writerRows(ctx, s, texts, cfg, "(a commit each)")
	if err != nil {
		return nil, err
	}
	for i := range rows {
		// bbolt's rows of many goroutines name its group commit.
		rows[i].twin = strings.Replace(rows[i].Op, "(a commit each)", "(group commit)", 1)
	}
	return natsRows(rows), nil
}

// natsRows marks rows as the cluster's, each beside the bbolt row of its
// twin (its own op unless set).
func natsRows(rows []row) []row {
	for i := range rows {
		rows[i].Backend = "nats"
		if rows[i].twin == "" {
			rows[i].twin = rows[i].Op
		}
	}
	return rows
}

// natsScaleRows measures, on a cluster store holding the facts of the
// bbolt store of n facts (same texts, same users, same order within a
// user), the rows of scaleRows that are the store's own reads and writes:
// Candidates and Remember in each mode, List and At of user-0 and of the
// big user, Add and Supersede; each draws the same texts as its bbolt
// twin. The lookups beside writers, Open in a fresh process, the graph's
// and the prompt's rows are bbolt's only, and so is the hard Delete: on a
// cluster it proves itself on every node (a raft snapshot each, a scan of
// their files), which kv/jetstream's tests time, and a slow proof leaves
// it pending, an error here. So user-0 keeps on the cluster the 3 facts
// bbolt's rows deleted before its List.
func natsScaleRows(ctx context.Context, dir string, texts []string, n int, cfg perfConfig) ([]row, error) {
	lay := newPerfLayout(n, cfg.bigUser)
	if most := max(lay.perUser, lay.big); most > cfg.natsUserFacts {
		// One user's commits follow one another: seeding that user alone
		// would take most of the run.
		return []row{{Op: "not measured on the cluster at this size", N: n, Backend: "nats",
			Note: fmt.Sprintf("one user would get %s facts, past --nats-user-facts %s: a cluster store is filled only through its write API (no Import), and one user's Adds commit one after another, which takes minutes at this size (see docs/cluster.md); --nats-user-facts %d measures it",
				thousands(most), thousands(cfg.natsUserFacts), most)}}, nil
	}
	nodes, folder, cleanup, err := natsNodes(ctx, dir, fmt.Sprintf("nats-%d", n))
	if err != nil {
		return nil, err
	}
	defer cleanup()
	var rows []row
	add := func(r ...row) {
		for i := range r {
			r[i].N = n
		}
		rows = append(rows, r...)
	}
	// The first mode's rows run on the store that seeded, which keeps the
	// big user's view: a fresh process's first snapshot of that user walks
	// its 500,000 messages, seconds (docs/cluster.md). The others' read
	// only user-0.
	s, err := natsStore(ctx, nodes, folder, cfg.modes[0])
	if err != nil {
		return nil, err
	}
	seed, err := seedCluster(ctx, s, texts, n, lay)
	if err != nil {
		s.Close()
		return nil, err
	}
	add(seed)
	for i, mode := range cfg.modes {
		if i > 0 {
			if s, err = natsStore(ctx, nodes, folder, mode); err != nil {
				return nil, err
			}
		}
		more, err := natsModeRows(ctx, s, texts, i, mode, cfg, lay)
		if err = errors.Join(err, s.Close()); err != nil {
			return nil, err
		}
		add(more...)
	}
	return natsRows(rows), nil
}

// natsModeRows are scaleRows' rows of one mode (the i-th) on the store s,
// in the same order and on the same texts: the bbolt twins' corpora and
// seeds, and a text skipped where bbolt's drew one for its raw baseline.
func natsModeRows(ctx context.Context, s *memory.Store, texts []string, i int, mode memory.LookupMode, cfg perfConfig, lay perfLayout) ([]row, error) {
	c := newCorpus(texts, 2)
	start := time.Now()
	if _, err := s.Candidates(ctx, "user-0", c.next(), memory.DefaultCandidates); err != nil {
		return nil, err
	}
	built := time.Since(start)
	cand := timeN(cfg.reads, func(int) error {
		_, err := s.Candidates(ctx, "user-0", c.next(), memory.DefaultCandidates)
		return err
	})
	r := latRow(fmt.Sprintf("Candidates k=12, %s", mode), cand, 0)
	r.Note = fmt.Sprintf("the first lookup, which read user-0 into the store's new index, took %v", built.Round(time.Millisecond))
	rows := []row{r}

	c = newCorpus(texts, 50+uint64(i))
	c.next() // bbolt's raw Update's sample
	actions := map[memory.Action]int{}
	rem := timeN(cfg.writes/2, func(int) error {
		o, err := s.Remember(ctx, memory.Note{User: "user-0", Text: c.next()})
		actions[o.Decision.Action]++
		return err
	})
	r = latRow(fmt.Sprintf("Remember, rules decider, %s lookup", mode), rem, 0)
	if r.Note == "" {
		r.Actions = actions
		r.Note = "decisions: " + countActions(actions)
	}
	rows = append(rows, r)
	if i > 0 {
		return rows, nil
	}

	list := timeN(cfg.reads, func(int) error { _, err := s.List(ctx, "user-0", nil); return err })
	at := timeN(cfg.reads, func(int) error { _, err := s.At(ctx, "user-0", time.Time{}, time.Time{}); return err })
	rows = append(rows, latRow("List current of a user (1,000)", list, 0), latRow("At(now, now) of that user", at, 0))
	if lay.big > 0 {
		for _, at := range []bool{false, true} {
			r, _, err := bigUserRead(ctx, s, cfg, lay, at, "the view this process kept while seeding")
			if err != nil {
				return nil, err
			}
			rows = append(rows, r)
		}
	}
	c = newCorpus(texts, 3)
	c.next() // bbolt's raw Update's sample
	ids := make([]uint64, cfg.writes)
	adds := timeN(cfg.writes, func(i int) error {
		f, err := s.Add(ctx, memory.Note{User: "user-0", Text: c.next()})
		ids[i] = f.ID
		return err
	})
	c.next()
	sups := timeN(cfg.writes, func(i int) error {
		_, err := s.Supersede(ctx, "user-0", ids[i], memory.Note{User: "user-0", Text: c.next()})
		return err
	})
	return append(rows, latRow("Add, durable", adds, 0), latRow("Supersede, durable", sups, 0)), nil
}

// seedCluster adds to s, a store on a cluster, the n facts of the bbolt
// store of that size (the export's texts and users) through Add, the only
// way in on a cluster (Import is not supported there): each user's facts
// in their order from one goroutine, up to 64 users at once, the largest
// first, since a user's commits follow one another. It checks that every
// user holds its facts and returns the seeding's row.
func seedCluster(ctx context.Context, s *memory.Store, texts []string, n int, lay perfLayout) (row, error) {
	byUser := map[string][]string{}
	c := newCorpus(texts, 1)
	for i := 1; i <= n; i++ {
		u := lay.user(i)
		byUser[u] = append(byUser[u], c.next())
	}
	users := make([]string, 0, len(byUser))
	for u := range byUser {
		users = append(users, u)
	}
	sort.SliceStable(users, func(a, b int) bool {
		if la, lb := len(byUser[users[a]]), len(byUser[users[b]]); la != lb {
			return la > lb
		}
		return users[a] < users[b]
	})
	const writers = 64
	work := make(chan string, len(users))
	for _, u := range users {
		work <- u
	}
	close(work)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	start := time.Now()
	for range min(writers, len(users)) {
		wg.Go(func() {
			for u := range work {
				for _, t := range byUser[u] {
					if _, err := s.Add(ctx, memory.Note{User: u, Text: t}); err != nil {
						cancel(fmt.Errorf("seeding %s: %w", u, err))
						return
					}
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	if err := context.Cause(ctx); err != nil {
		return row{}, err
	}
	for _, u := range users {
		facts, err := s.List(ctx, u, nil)
		if err != nil {
			return row{}, err
		}
		if len(facts) != len(byUser[u]) {
			return row{}, fmt.Errorf("seeded %s: %d facts, want %d", u, len(facts), len(byUser[u]))
		}
	}
	largest := slices.MaxFunc(users, func(a, b string) int { return len(byUser[a]) - len(byUser[b]) })
	return row{Op: fmt.Sprintf("Seed: Add of every fact, up to %d goroutines, a user each", writers), OpsS: float64(n) / took.Seconds(),
		twin: importOp,
		Note: fmt.Sprintf("Import is not supported on a cluster; %s facts of %d user(s) in %v, the largest user (%s, %s facts) in order from one goroutine",
			thousands(n), len(users), took.Round(100*time.Millisecond), largest, thousands(len(byUser[largest])))}, nil
}

// beside sets each of the cluster's rows right after its bbolt twin in
// rows, the rows of one part of the table (the writers', or one size's),
// where each op is once; both then name their backend, and the nats row
// gets a ratio to the twin's rate, nats ÷ bbolt (< 1: the cluster is
// slower), unless it has one of its own. A row without a twin goes last.
func beside(rows, nats []row) []row {
	out := make([]row, 0, len(rows)+len(nats))
	placed := make([]bool, len(nats))
	for _, r := range rows {
		var after []row
		for j, o := range nats {
			if placed[j] || o.twin != r.Op {
				continue
			}
			placed[j] = true
			r.Backend = "bbolt"
			after = append(after, vsBBolt(o, r))
		}
		out = append(out, r)
		out = append(out, after...)
	}
	for j, o := range nats {
		if !placed[j] {
			out = append(out, o)
		}
	}
	return out
}

// vsBBolt gives o its ratio to its bbolt twin b, in ops/s and, in the
// note, in p50; a row with a ratio of its own (to one writer) gets the
// ratio of its rate in its note.
func vsBBolt(o, b row) row {
	if o.OpsS <= 0 || b.OpsS <= 0 || o.Note == "failed" {
		return o
	}
	own := o.Ratio != 0
	vs := fmt.Sprintf("%.2f× bbolt's ops/s", o.OpsS/b.OpsS)
	if !own {
		o.Ratio = o.OpsS / b.OpsS
		vs = "ratio nats ÷ bbolt, in ops/s"
	}
	if p, err := time.ParseDuration(o.P50); err == nil {
		if q, err := time.ParseDuration(b.P50); err == nil && q > 0 {
			vs += fmt.Sprintf("; p50 %.1f× bbolt's", float64(p)/float64(q))
		}
	}
	switch {
	case o.Note == "":
		o.Note = vs
	case own: // the note says what the row's own ratio is to
		o.Note += "; " + vs
	default:
		o.Note = vs + "; " + o.Note
	}
	return o
}
