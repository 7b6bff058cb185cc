package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
)

// childEnv, set in the environment of a re-executed bench binary (or test
// binary), makes it measure one Open in a process of its own instead of
// running a command: the heap and RSS of a process that holds nothing but
// the store are what an embedding application would see.
const childEnv = "PALIMPSEST_BENCH_OPEN"

// openFigures is what the child reports.
type openFigures struct {
	Open    time.Duration `json:"open"`     // Open + first lookup (which builds the index)
	Heap    uint64        `json:"heap"`     // heap in use after a GC
	RSS     uint64        `json:"rss"`      // resident set after it
	RSSFile uint64        `json:"rss_file"` // of it, pages of memory-mapped files: the store's and the index's
	PeakRSS uint64        `json:"peak_rss"`
	File    int64         `json:"file"` // size of the store file
}

// openInChild runs the current executable as a child that opens path in
// mode, answers one lookup and reports its figures.
func openInChild(ctx context.Context, path string, mode memory.LookupMode) (openFigures, error) {
	var o openFigures
	err := runChild(ctx, childEnv+"="+string(mode)+":"+path, &o)
	return o, err
}

// runChild runs the current executable with env added to its environment
// and decodes the JSON it prints into out.
func runChild(ctx context.Context, env string, out any) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), env)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("child process: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("child process: %w in %q", err, b)
	}
	return nil
}

// perfChildFromEnv is the child's side, run when childEnv or
// importChildEnv is set; it reports whether one was.
func perfChildFromEnv() bool {
	var figures any
	var err error
	if spec, ok := os.LookupEnv(childEnv); ok {
		figures, err = measureOpen(spec)
	} else if spec, ok := os.LookupEnv(importChildEnv); ok {
		figures, err = measureImport(spec)
	} else {
		return false
	}
	if err == nil {
		err = json.NewEncoder(os.Stdout).Encode(figures)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench child:", err)
		os.Exit(1)
	}
	return true
}

func measureOpen(spec string) (openFigures, error) {
	var o openFigures
	m, path, ok := strings.Cut(spec, ":")
	if !ok {
		return o, fmt.Errorf("%s=%q: want MODE:PATH", childEnv, spec)
	}
	mode, err := memory.ParseLookupMode(m)
	if err != nil {
		return o, err
	}
	ctx := context.Background()
	start := time.Now()
	s, err := memory.Open(path, 0, &memory.Options{Lookup: mode})
	if err != nil {
		return o, err
	}
	defer s.Close()
	if _, err := s.Candidates(ctx, "user-0", "where do I work these days", memory.DefaultCandidates); err != nil {
		return o, err
	}
	o.Open = time.Since(start)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	o.Heap = ms.HeapAlloc
	st := procStatus()
	o.RSS, o.RSSFile, o.PeakRSS = st["VmRSS"], st["RssFile"], st["VmHWM"]
	if st, err := os.Stat(path); err == nil {
		o.File = st.Size()
	}
	return o, nil
}

// procStatus reads the sizes in /proc/self/status, in bytes; empty where
// there is no /proc.
func procStatus() map[string]uint64 {
	sizes := map[string]uint64{}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return sizes
	}
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if v, isKB := strings.CutSuffix(strings.TrimSpace(v), " kB"); ok && isKB {
			if kb, err := strconv.ParseUint(v, 10, 64); err == nil {
				sizes[k] = kb << 10
			}
		}
	}
	return sizes
}
