package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
)

// ownerCmd measures a memctl command beside a running owner (memctl serve,
// which holds the store and runs the command inside it) against the same
// command on a twin store nobody holds, which it opens itself.
func ownerCmd() *cobra.Command {
	var tf twinFlags
	c := &cobra.Command{
		Use:   "owner",
		Short: "memctl list, get, add and remember beside a running memctl serve, against the same on a free store",
		Long: `owner seeds two twin stores with --facts facts and starts memctl serve on one
of them. Then it runs each command --calls times, in turns: on the served store,
where the command goes through the owner's socket and runs on its open store,
and on the free one, where the command opens the file (and, for remember, builds
its candidate index) itself. Each is a process of the built memctl, timed from
start to exit, as a shell runs it; fsync is on in both.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			texts, err := loadTexts(tf.distractors)
			if err != nil {
				return err
			}
			start := time.Now()
			rows, err := runOwnerBench(cmd.Context(), texts, &tf)
			if err != nil {
				return err
			}
			return report(cmd.OutOrStdout(), tf.asJSON, start, rows)
		},
	}
	tf.register(c.Flags(), 50, "runs of each command on each store")
	return c
}

func runOwnerBench(ctx context.Context, texts []string, tf *twinFlags) ([]row, error) {
	dir, memctl, remove, err := tf.workDir(ctx, "bench-owner-")
	if err != nil {
		return nil, err
	}
	defer remove()
	facts, calls := tf.facts, tf.calls
	served, free := filepath.Join(dir, "served.db"), filepath.Join(dir, "free.db")
	if err := seedTwins(ctx, texts, facts, served, free); err != nil {
		return nil, err
	}
	env := append(os.Environ(), "XDG_RUNTIME_DIR="+dir, "MEMCTL_DECIDER=", "MEMCTL_LOOKUP=")
	serve := exec.CommandContext(ctx, memctl, "--db", served, "serve", "--addr", "127.0.0.1:0")
	serve.Env = env
	out, err := serve.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := serve.Start(); err != nil {
		return nil, err
	}
	defer func() { serve.Process.Signal(os.Interrupt); serve.Wait() }()
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		return nil, fmt.Errorf("memctl serve printed no address: %w", err)
	}
	c := newCorpus(texts, 2)
	news := make([]string, calls)
	for i := range news {
		news[i] = c.next()
	}
	memctlOn := func(db string, args func(i int) []string) func(i int) error {
		return func(i int) error {
			cmd := exec.CommandContext(ctx, memctl, append([]string{"--db", db}, args(i)...)...)
			cmd.Env = env
			if b, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("memctl %q: %v: %s", cmd.Args[1:], err, b)
			}
			return nil
		}
	}
	// A process that touches no store: what every row below pays first.
	start := timeTurns(calls, func(int) error {
		return exec.CommandContext(ctx, memctl, "--version").Run()
	})
	rows := []row{latRow("memctl --version (starts, opens nothing)", start[0], 0)}
	for _, op := range []struct {
		name string
		args func(i int) []string
	}{
		{"list", func(int) []string { return []string{"list"} }},
		{"get", func(i int) []string { return []string{"get", fmt.Sprint(1 + i%facts)} }},
		{"add", func(i int) []string { return []string{"add", news[i]} }},
		{"remember", func(i int) []string { return []string{"remember", news[i] + " Now."} }},
	} {
		lats := timeTurns(calls, memctlOn(served, op.args), memctlOn(free, op.args))
		for j, name := range []string{" beside memctl serve (through it)", " on a free store (opens it)"} {
			r := latRow("memctl "+op.name+name, lats[j], 0)
			r.N = facts
			if j == 0 && len(lats[0]) > 0 && lats[0][0] > 0 && len(lats[1]) > 0 && lats[1][0] > 0 {
				a, b := lats[0][len(lats[0])/2], lats[1][len(lats[1])/2]
				r.Ratio = float64(b) / float64(a)
				r.Note = fmt.Sprintf("p50 of the free store's over this; %+v", (a - b).Round(10*time.Microsecond))
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}
