package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	OpsS  float64 `json:"ops_per_s,omitempty"`
	Ratio float64 `json:"ratio,omitempty"` // ours / baseline, in ops/s; > 1 is faster
	Note  string  `json:"note,omitempty"`
}

func perfCmd() *cobra.Command {
	var facts int
	var quick, asJSON bool
	var distractors, cpuprofile string
	c := &cobra.Command{
		Use:   "perf",
		Short: "Speed of the store next to a bare bbolt file, fsync on unless a row says otherwise",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			texts, stop, err := loadAndProfile(distractors, cpuprofile)
			if err != nil {
				return err
			}
			defer stop()
			scales := []int{1000, 10_000, facts}
			writes := 500
			if quick {
				scales, writes = []int{1000, 10_000}, 100
			}
			rows, err := runPerf(cmd.Context(), texts, scales, writes)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return json.NewEncoder(w).Encode(rows)
			}
			printRows(w, rows)
			fmt.Fprintln(w, "perf ok")
			return nil
		},
	}
	f := c.Flags()
	f.IntVar(&facts, "facts", 100_000, "the largest store measured")
	f.BoolVar(&quick, "quick", false, "a shorter run: fewer writes, stores of 1k and 10k facts")
	f.BoolVar(&asJSON, "json", false, "print JSON rows")
	f.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	f.StringVar(&distractors, "distractors", "../shared/data/distractors.en.jsonl,../shared/data/distractors.ru.jsonl", "texts to build facts from")
	return c
}

func runPerf(ctx context.Context, texts []string, scales []int, writes int) ([]row, error) {
	dir, err := os.MkdirTemp("", "bench-perf-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	c := newCorpus(texts, 3)
	var rows []row

	// Baseline: one durable bbolt Update per record of the same size.
	sample := c.next()
	raw, err := kv.OpenRaw(filepath.Join(dir, "raw.db"), false)
	if err != nil {
		return nil, err
	}
	rawLat := timeN(writes, func(i int) error { return raw.Put([]byte(strconv.Itoa(i)), []byte(sample+strings.Repeat(" ", 40))) })
	raw.Close()
	rawRate := rate(rawLat)
	rows = append(rows, latRow("raw bbolt Update, one record", rawLat, 0))

	s, err := memory.Open(filepath.Join(dir, "w.db"), 0, &memory.Options{Lookup: memory.LookupKeywords4})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if _, err := s.Candidates(ctx, "", "warm the index", 1); err != nil {
		return nil, err
	}
	ids := make([]uint64, writes)
	addLat := timeN(writes, func(i int) error { f, err := s.Add(ctx, memory.Note{Text: c.next()}); ids[i] = f.ID; return err })
	supLat := timeN(writes, func(i int) error { _, err := s.Supersede(ctx, ids[i], memory.Note{Text: c.next()}); return err })
	sqAdd, sqSup, err := sqliteWrites(dir, texts, writes)
	if err != nil {
		return nil, err
	}
	rows = append(rows, latRow("Add, durable, index on", addLat, rate(addLat)/rawRate),
		vsSQLite("INSERT + FTS row, own transaction", sqAdd, addLat),
		latRow("Supersede, durable, index on", supLat, rate(supLat)/rawRate),
		vsSQLite("supersede, INSERT + UPDATE in one transaction", sqSup, supLat))

	// Many writers: group commit shares each transaction's fsyncs.
	const writers = 64
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	per := max(writes/4, 10)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				if _, err := s.Add(ctx, memory.Note{User: fmt.Sprintf("u%d", w), Text: c.next() + strconv.Itoa(i)}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	conc := float64(writers*per) / time.Since(start).Seconds()
	rows = append(rows, row{Op: fmt.Sprintf("Add from %d goroutines (group commit)", writers), N: writers * per, OpsS: conc,
		Ratio: conc / rate(addLat), Note: "ratio to one writer"})

	rs, err := memory.Open(filepath.Join(dir, "r.db"), 0, &memory.Options{Lookup: memory.LookupTopics})
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for range 300 {
		if _, err := rs.Add(ctx, memory.Note{Text: c.next()}); err != nil {
			return nil, err
		}
	}
	remLat := timeN(writes/2, func(int) error { _, err := rs.Remember(ctx, memory.Note{Text: c.next()}); return err })
	rows = append(rows, latRow("Remember, rules, topics lookup, 300+ facts", remLat, rate(remLat)/rawRate))

	for _, n := range scales {
		more, err := scaleRows(ctx, dir, texts, n)
		if err != nil {
			return nil, err
		}
		rows = append(rows, more...)
	}
	return rows, nil
}

// scaleRows measures a store of n facts, 1,000 of them the current facts
// of the user the reads ask about.
func scaleRows(ctx context.Context, dir string, texts []string, n int) ([]row, error) {
	path := filepath.Join(dir, fmt.Sprintf("s%d.db", n))
	perUser := min(1000, n)
	start := time.Now()
	if err := fillStore(ctx, path, texts, n, perUser); err != nil {
		return nil, err
	}
	imp := time.Since(start)
	// Bulk baseline: the same number of records in one bbolt transaction.
	raw, err := kv.OpenRaw(filepath.Join(dir, fmt.Sprintf("raw%d.db", n)), false)
	if err != nil {
		return nil, err
	}
	c := newCorpus(texts, 1)
	keys, vals := make([][]byte, n), make([][]byte, n)
	for i := range keys {
		keys[i], vals[i] = []byte(strconv.Itoa(i)), []byte(c.next()+strings.Repeat(" ", 60))
	}
	start = time.Now()
	if err := raw.PutMany(keys, vals); err != nil {
		return nil, err
	}
	rawBulk := time.Since(start)
	raw.Close()
	keys, vals = nil, nil // not live during the heap measurement below

	var ms runtime.MemStats
	start = time.Now()
	s, err := memory.Open(path, 0, &memory.Options{Lookup: memory.LookupKeywords4})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if _, err := s.Candidates(ctx, "user-0", "warm", 1); err != nil {
		return nil, err
	}
	open := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	// The whole process's heap in use, this store open with its index
	// built: an upper bound on what the store holds (bleve's persisted
	// segments and bbolt's pages are memory-mapped, not heap).
	heap := float64(ms.HeapAlloc)
	var fileBytes int64
	if st, err := os.Stat(path); err == nil {
		fileBytes = st.Size()
	}

	const reads = 200
	list := timeN(reads, func(int) error { _, err := s.List(ctx, "user-0", memory.ListOptions{}); return err })
	at := timeN(reads, func(int) error { _, err := s.At(ctx, "user-0", time.Time{}, time.Time{}); return err })
	cand := timeN(reads, func(int) error { _, err := s.Candidates(ctx, "user-0", c.next(), 12); return err })
	sq, err := measureSQLiteScale(dir, texts, n, perUser, reads)
	if err != nil {
		return nil, err
	}
	rows := []row{
		{Op: "Import (one transaction)", N: n, OpsS: float64(n) / imp.Seconds(), Ratio: rawBulk.Seconds() / imp.Seconds(),
			Note: "ratio to a raw bbolt bulk load; index built at the next lookup"},
		sqliteImportRow(sq, imp),
		{Op: "Open + first lookup (index build, keywords4)", N: n, P50: open.Round(time.Millisecond).String(),
			Note: fmt.Sprintf("heap in use %.1f MB (≤ %.0f B/fact), file %.0f B/fact, RSS %s", heap/1e6, heap/float64(n), float64(fileBytes)/float64(n), rss())},
		latRow(fmt.Sprintf("List current of a user (%d)", perUser), list, 0),
		vsSQLite("SELECT current of that user", sq.list, list),
		latRow("At(now, now) of that user", at, 0),
		vsSQLite("SELECT current, event interval holds now", sq.now, at),
		latRow("Candidates k=12, keywords4", cand, 0),
		vsSQLite("FTS5 OR of 4+-letter words, current, bm25 top 12", sq.look, cand),
	}
	for i := range rows {
		rows[i].N = n
	}
	return rows, nil
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
	return row{Op: op, N: len(lat), P50: lat[len(lat)/2].String(), P99: lat[len(lat)*99/100].String(), OpsS: rate(lat), Ratio: ratio}
}

// rss reads the resident set size from /proc, where there is one.
func rss() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:"))
		}
	}
	return "?"
}

func printRows(w io.Writer, rows []row) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "operation\tn\tp50\tp99\tops/s\tratio\tnote")
	for _, r := range rows {
		ratio := ""
		if r.Ratio != 0 {
			ratio = fmt.Sprintf("%.2f", r.Ratio)
		}
		ops := ""
		if r.OpsS != 0 {
			ops = fmt.Sprintf("%.0f", r.OpsS)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", r.Op, r.N, r.P50, r.P99, ops, ratio, r.Note)
	}
	tw.Flush()
}
