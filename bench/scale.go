package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

func scaleCmd() *cobra.Command {
	var facts, perUser, lookups int
	var modes, distractors, cpuprofile string
	c := &cobra.Command{
		Use:   "scale",
		Short: "Candidate lookup at scale: index build after Open, lookup p50/p99, then the kept index reopened, per mode",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			texts, stop, err := loadAndProfile(distractors, cpuprofile)
			if err != nil {
				return err
			}
			defer stop()
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%d facts, %d per user, %d lookups per mode, GOMAXPROCS %d\n\n", facts, perUser, lookups, runtime.GOMAXPROCS(0))
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "mode\tbuild\tp50\tp99\theap after build\treopened: Open + first lookup\tthen a hard Delete")
			for _, m := range strings.Split(modes, ",") {
				mode, err := memory.ParseLookupMode(strings.TrimSpace(m))
				if err != nil {
					return err
				}
				r, err := measureScale(cmd.Context(), texts, mode, facts, perUser, lookups)
				if err != nil {
					return err
				}
				fmt.Fprintf(tw, "%s\t%v\t%v\t%v\t%.0f MB\t%v\t%v\n", mode, r.build.Round(time.Millisecond), r.p50, r.p99, float64(r.heap)/1e6, r.kept.Round(time.Millisecond), r.delete.Round(time.Millisecond))
			}
			tw.Flush()
			fmt.Fprintln(w, "scale ok")
			return nil
		},
	}
	f := c.Flags()
	f.IntVar(&facts, "facts", 100_000, "facts in the store")
	f.IntVar(&perUser, "per-user", 1000, "facts per user")
	f.IntVar(&lookups, "lookups", 2000, "lookups to time per mode")
	f.StringVar(&modes, "modes", "keywords4,stems,topics", "modes to measure, comma-separated")
	f.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of the run to this file")
	f.StringVar(&distractors, "distractors", "../shared/data/distractors.en.jsonl,../shared/data/distractors.ru.jsonl", "texts to build facts from")
	return c
}

func loadTexts(paths string) ([]string, error) {
	ds, err := readDistractors(paths)
	texts := make([]string, len(ds))
	for i, d := range ds {
		texts[i] = d.Text
	}
	return texts, err
}

type scaleResult struct {
	build, p50, p99 time.Duration
	heap            uint64
	kept            time.Duration // Open + first lookup again, on the index the first Open kept
	delete          time.Duration // a hard Delete of one fact then, the index open
}

// measureScale fills a store with facts spread over users, reopens it, and
// times the first lookup (which builds the index and keeps it) and then many
// lookups; then it closes the store and times Open and the first lookup
// again, which open the kept index, and one hard Delete.
func measureScale(ctx context.Context, texts []string, mode memory.LookupMode, facts, perUser, lookups int) (scaleResult, error) {
	var r scaleResult
	dir, err := os.MkdirTemp("", "bench-scale-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "m.db")
	if err := fillStore(ctx, path, texts, facts, perUser); err != nil {
		return r, err
	}
	// Durable, so that Close waits for the kept index to reach its files.
	s, err := memory.Open(path, 0, &memory.Options{Lookup: mode})
	if err != nil {
		return r, err
	}
	defer func() { s.Close() }()
	c := newCorpus(texts, 2)
	start := time.Now()
	if _, err := s.Candidates(ctx, "user-0", c.next(), memory.DefaultCandidates); err != nil {
		return r, err
	}
	r.build = time.Since(start)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r.heap = ms.HeapAlloc
	users := max(1, facts/perUser)
	lat := make([]time.Duration, lookups)
	for i := range lat {
		q := c.next()
		start := time.Now()
		if _, err := s.Candidates(ctx, fmt.Sprintf("user-%d", i%users), q, memory.DefaultCandidates); err != nil {
			return r, err
		}
		lat[i] = time.Since(start)
	}
	slices.Sort(lat)
	r.p50, r.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	if err := s.Close(); err != nil {
		return r, err
	}
	start = time.Now()
	if s, err = memory.Open(path, 0, &memory.Options{Lookup: mode}); err != nil {
		return r, err
	}
	if _, err := s.Candidates(ctx, "user-0", c.next(), memory.DefaultCandidates); err != nil {
		return r, err
	}
	r.kept = time.Since(start)
	del, err := timeDeletes(ctx, s, "user-0", 1)
	if err != nil {
		return r, err
	}
	r.delete = del[0]
	return r, nil
}

// fillStore writes facts through Import, the fastest way in.
func fillStore(ctx context.Context, path string, texts []string, facts, perUser int) error {
	s, err := memory.Open(path, 0, &memory.Options{NoSync: true})
	if err != nil {
		return err
	}
	defer s.Close()
	pr, pw := io.Pipe()
	go func() {
		writeImport(pw, newCorpus(texts, 1).next, facts, perUser)
		pw.Close()
	}()
	_, err = s.Import(ctx, pr, nil)
	pr.Close()
	return err
}

// writeImport writes an export of n facts whose texts next makes (the
// corpus of seed 1 for the stores of the perf and scale rows): fact i
// (from 1) belongs to user-(i-1)/perUser, recorded at t0 + i seconds.
func writeImport(w io.Writer, next func() string, n, perUser int) {
	writeExport(w, next, n, perfLayout{perUser: perUser}.user)
}

// writeExport writes an export of n facts whose texts next makes: fact i
// (from 1) belongs to user(i), recorded at t0 + i seconds.
func writeExport(w io.Writer, next func() string, n int, user func(i int) string) {
	fmt.Fprintf(w, `{"format":"palimpsest-memory","version":1,"next_id":%d}`+"\n", n+1)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		at := t0.Add(time.Duration(i) * time.Second).Format(time.RFC3339)
		fmt.Fprintf(w, `{"id":%d,"user":%q,"text":%q,"pinned":false,"origin":"user","source":{},"recorded_at":%q,"valid_until":null,"superseded_by":0,"supersedes":0,"event_from":null,"event_until":null,"log":[{"kind":"recorded","at":%q,"origin":"user"}]}`+"\n",
			i, user(i), next(), at, at)
	}
}
