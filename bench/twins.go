package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/pflag"
)

// The benches that time the built memctl beside something else share
// these: the binary, twin stores with the same facts, and the report.

// twinFlags are the flags of a bench that times the built memctl on twin
// stores.
type twinFlags struct {
	facts, calls        int
	distractors, memctl string
	asJSON              bool
}

func (t *twinFlags) register(f *pflag.FlagSet, calls int, callsUsage string) {
	f.IntVar(&t.facts, "facts", 1000, "facts in each store before the calls")
	f.IntVar(&t.calls, "calls", calls, callsUsage)
	f.StringVar(&t.distractors, "distractors", "../shared/data/distractors.en.jsonl,../shared/data/distractors.ru.jsonl", "texts to build facts from")
	f.StringVar(&t.memctl, "memctl", "", "the memctl binary (default: go build ./cmd/memctl into a temporary folder)")
	f.BoolVar(&t.asJSON, "json", false, "print JSON")
}

// workDir checks the counts and makes the bench's temporary folder, with
// memctl built in it unless given; remove removes the folder.
func (t *twinFlags) workDir(ctx context.Context, prefix string) (dir, memctl string, remove func(), err error) {
	if t.facts < 1 || t.calls < 1 {
		return "", "", nil, fmt.Errorf("--facts and --calls want 1 or more")
	}
	if dir, err = os.MkdirTemp("", prefix); err != nil {
		return "", "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	if memctl, err = builtMemctl(ctx, dir, t.memctl); err != nil {
		remove()
		return "", "", nil, err
	}
	return dir, memctl, remove, nil
}

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
