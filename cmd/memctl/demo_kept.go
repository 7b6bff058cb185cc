package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory"
)

// kept tells how the candidate index outlives the process: the store is
// closed and opened again, as the next process would, and its first lookup
// opens the index kept beside the file instead of building one.
func (d *demo) kept() error {
	d.printf("\n16. The candidate index outlives the process\n")
	path := d.s.Path()
	want, err := d.s.List(d.ctx, "", nil)
	if err != nil {
		return err
	}
	if err := d.s.Close(); err != nil {
		return err
	}
	kept := filepath.Join(path+".index", "kept")
	if _, err := os.Stat(kept); err != nil {
		return fmt.Errorf("demo: after Close the kept index is not there: %w", err)
	}
	d.printf("    Close leaves %s beside the file: it names the store's last commit\n", filepath.Base(path)+".index/kept")
	d.s, err = memory.Open(path, 0o600, &memory.Options{Clock: func() time.Time { return d.now }, NoSync: true})
	if err != nil {
		return err
	}
	start := time.Now()
	l, err := d.s.Candidates(d.ctx, "", "I play the cello", memory.DefaultCandidates)
	if err != nil {
		return err
	}
	took := time.Since(start)
	d.printf("    Opened again, the first lookup opens it and catches up (%s):\n", took.Round(time.Millisecond))
	found := false
	for _, c := range l.Candidates {
		if slices.ContainsFunc(want, func(f memory.Fact) bool { return f.ID == c.Fact.ID }) {
			d.printf("      %s\n", show(c.Fact))
			found = true
		}
	}
	if !found {
		return fmt.Errorf("demo: the first lookup after reopening found no current fact: %+v", l.Candidates)
	}
	return nil
}
