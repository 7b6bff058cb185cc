package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/kv/jetstream"
	"github.com/spf13/cobra"
)

// backendCmd measures the storage interface itself (kv.Backend) on each
// backend in one run: a commit's latency with one writer, and the
// throughput of many writers over as many users against one writer's.
func backendCmd() *cobra.Command {
	var (
		names   string
		commits int
		writers int
		asJSON  bool
	)
	c := &cobra.Command{
		Use:   "backend",
		Short: "kv.Backend commits on each backend: one writer's latency, many writers' throughput",
		Long: `backend opens each backend named by --backends in a temporary directory, with
fsync on: bbolt is the store file (kv's PerUser), nats an in-process cluster of
three JetStream servers on loopback (R3 file streams, sync always). Each commit
is what a fact's write is: a snapshot of the user, then a guarded commit of three
keys (a record of about 300 bytes, its log entry, an index key). It times
--commits commits of one writer to one user, then --commits commits shared by
--writers writers, each its own user, and gives their throughput over the one
writer's (the aim on the cluster is 3× or more). Then the same with a memory
store's Add on each: the default file store (memory.Open) for bbolt, a store on
the cluster (memory.OpenBackend) for nats.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			start := time.Now()
			var rows []row
			for _, name := range strings.Split(names, ",") {
				open, ok := benchBackends[name]
				if !ok {
					return fmt.Errorf("unknown backend %q (have %s)", name, strings.Join(slices.Sorted(maps.Keys(benchBackends)), ", "))
				}
				r, err := runBackendBench(cmd.Context(), name, open, commits, writers)
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				rows = append(rows, r...)
				if r, err = runStoreBench(cmd.Context(), name, benchStores[name], commits, writers); err != nil {
					return fmt.Errorf("%s store: %w", name, err)
				}
				rows = append(rows, r...)
			}
			if err := report(cmd.OutOrStdout(), asJSON, start, rows); err != nil {
				return err
			}
			if !asJSON {
				fmt.Fprintln(cmd.OutOrStdout(), "backend ok")
			}
			return nil
		},
	}
	c.Flags().StringVar(&names, "backends", strings.Join(slices.Sorted(maps.Keys(benchBackends)), ","), "backends to measure, comma-separated")
	c.Flags().IntVar(&commits, "commits", 400, "commits of each measurement")
	c.Flags().IntVar(&writers, "writers", 64, "concurrent writers, each its own user")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// openBackend opens an empty backend in dir; close ends it and whatever
// runs it (a cluster's servers).
type openBackend func(ctx context.Context, dir string) (b kv.Backend, close func(), err error)

// benchBackends are the backends bench backend knows.
var benchBackends = map[string]openBackend{
	"bbolt": func(_ context.Context, dir string) (kv.Backend, func(), error) {
		db, err := kv.Open(filepath.Join(dir, "store.db"), 0, nil)
		if err != nil {
			return nil, nil, err
		}
		b := db.PerUser()
		return b, func() { _ = b.Close() }, nil
	},
	"nats": func(ctx context.Context, dir string) (kv.Backend, func(), error) {
		c, err := jetstream.StartCluster(ctx, dir, nil)
		if err != nil {
			return nil, nil, err
		}
		b, err := jetstream.Dial(ctx, c.ClientURL(), &jetstream.Options{Cluster: c})
		if err != nil {
			c.Close()
			return nil, nil, err
		}
		return b, func() { _ = b.Close(); c.Close() }, nil
	},
}

func runBackendBench(ctx context.Context, name string, open openBackend, commits, writers int) ([]row, error) {
	dir, err := os.MkdirTemp("", "bench-backend-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	b, closeB, err := open(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer closeB()
	return oneAndMany(name+": commit", "one writer (snapshot + 3 keys)", commits, writers,
		func(user string, i int) (time.Duration, error) { return factCommit(ctx, b, user, i) })
}

// oneAndMany times n calls of op by one writer, then n shared by writers
// writers, each with a user of its own, after a warm-up (the first calls
// create streams, buckets and connections), and gives a row of each: the
// latencies, and the many writers' throughput over the one's.
func oneAndMany(what, oneNote string, n, writers int, op func(user string, i int) (time.Duration, error)) ([]row, error) {
	for i := range 20 {
		if _, err := op("warm", i); err != nil {
			return nil, err
		}
	}
	one := make([]time.Duration, 0, n)
	t0 := time.Now()
	for i := range n {
		d, err := op("solo", i)
		if err != nil {
			return nil, err
		}
		one = append(one, d)
	}
	oneRate := float64(n) / time.Since(t0).Seconds()
	slices.Sort(one)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		many     []time.Duration
		firstErr error
	)
	per := max(1, n/writers)
	t0 = time.Now()
	for w := range writers {
		wg.Go(func() {
			user := fmt.Sprintf("writer-%02d", w)
			for i := range per {
				d, err := op(user, i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				many = append(many, d)
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	manyRate := float64(len(many)) / time.Since(t0).Seconds()
	slices.Sort(many)
	r1 := latRow(fmt.Sprintf("%s, %s", what, oneNote), one, 0)
	r1.OpsS = oneRate
	rN := latRow(fmt.Sprintf("%s, %d writers over %d users · throughput ÷ one writer's", what, writers, writers), many, manyRate/oneRate)
	rN.OpsS = manyRate
	return []row{r1, rN}, nil
}

// openStore opens a memory store on a backend for the store rows: the
// default file (memory.Open, with its group commit) for bbolt, the
// cluster (memory.OpenBackend) for nats.
type openStore func(ctx context.Context, dir string) (s *memory.Store, close func(), err error)

var benchStores = map[string]openStore{
	"bbolt": func(_ context.Context, dir string) (*memory.Store, func(), error) {
		s, err := memory.Open(filepath.Join(dir, "memory.db"), 0, nil)
		if err != nil {
			return nil, nil, err
		}
		return s, func() { _ = s.Close() }, nil
	},
	"nats": func(ctx context.Context, dir string) (*memory.Store, func(), error) {
		b, closeB, err := benchBackends["nats"](ctx, dir)
		if err != nil {
			return nil, nil, err
		}
		s, err := memory.OpenBackend(b, filepath.Join(dir, "index"), nil)
		if err != nil {
			closeB()
			return nil, nil, err
		}
		return s, func() { _ = s.Close(); closeB() }, nil
	},
}

// runStoreBench times Store.Add with one writer, then with many writers
// each of their own user, as runBackendBench times commits.
func runStoreBench(ctx context.Context, name string, open openStore, adds, writers int) ([]row, error) {
	dir, err := os.MkdirTemp("", "bench-store-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	s, closeS, err := open(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer closeS()
	return oneAndMany(name+": store Add", "one writer", adds, writers, func(user string, i int) (time.Duration, error) {
		t0 := time.Now()
		_, err := s.Add(ctx, memory.Note{User: user, Text: fmt.Sprintf("I tried the cello lessons in Lyon, note %d.", i)})
		return time.Since(t0), err
	})
}

// factCommit writes what adding a fact writes, through a snapshot and a
// guarded commit, retried on a conflict (none is expected: each writer
// has a user of its own).
func factCommit(ctx context.Context, b kv.Backend, user string, i int) (time.Duration, error) {
	t0 := time.Now()
	for range 10 {
		s, err := b.Snapshot(ctx, user)
		if err != nil {
			return 0, err
		}
		key := fmt.Appendf(nil, "%08d", i)
		_, err = b.Commit(ctx, user, s.Rev(), []kv.Op{
			{Bucket: "facts", Key: key, Value: []byte(strings.Repeat("r", 300))},
			{Bucket: "log", Key: append(key, 0, 0, 0, 1), Value: []byte("added")},
			{Bucket: "index", Key: append([]byte("c"), key...), Value: []byte{1}},
		})
		if errors.Is(err, kv.ErrConflict) {
			continue
		}
		return time.Since(t0), err
	}
	return 0, fmt.Errorf("user %s: ten conflicts in a row", user)
}
