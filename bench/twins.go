package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/palimpsest-mem/memory"
)

// The benches that time the built memctl beside something else share
// these: the binary, twin stores with the same facts, and the report.

// builtMemctl is memctl, or memctl built into dir when "".
func builtMemctl(ctx context.Context, dir, memctl string) (string, error) {
	if memctl != "" {
		return memctl, nil
	}
	memctl = filepath.Join(dir, "memctl")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", memctl, "./cmd/memctl").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/memctl (run bench from the module's root): %v\n%s", err, out)
	}
	return memctl, nil
}

// seedTwins writes the same facts facts from texts into each store of
// paths, so that every row of a bench reads and writes one store.
func seedTwins(ctx context.Context, texts []string, facts int, paths ...string) error {
	seed := newCorpus(texts, 1)
	seeded := make([]string, facts)
	for i := range seeded {
		seeded[i] = seed.next()
	}
	for _, p := range paths {
		s, err := memory.Open(p, 0o600, &memory.Options{NoSync: true})
		if err != nil {
			return err
		}
		for _, t := range seeded {
			if _, err := s.Add(ctx, memory.Note{Text: t}); err != nil {
				s.Close()
				return err
			}
		}
		if err := s.Close(); err != nil {
			return err
		}
	}
	return nil
}

// report writes rows as JSON, or as a table under the machine's name and
// how long the run took.
func report(w io.Writer, asJSON bool, start time.Time, rows []row) error {
	if asJSON {
		return json.NewEncoder(w).Encode(struct {
			Machine string `json:"machine"`
			Rows    []row  `json:"rows"`
		}{machine(), rows})
	}
	fmt.Fprintf(w, "%s; run took %v\n\n", machine(), time.Since(start).Round(time.Second))
	printRows(w, rows)
	return nil
}
