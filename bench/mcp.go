package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/mcpserver"
	"github.com/spf13/cobra"
)

// mcpCmd measures what the Model Context Protocol costs: a tool call over
// stdio to the built memctl mcp, a subprocess driven by the Go SDK's client,
// against the same library call in this process, on a twin store, in turns.
func mcpCmd() *cobra.Command {
	var tf twinFlags
	c := &cobra.Command{
		Use:   "mcp",
		Short: "A tool call of memctl mcp over stdio against the same library call: remember, recall, context",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			texts, err := loadTexts(tf.distractors)
			if err != nil {
				return err
			}
			start := time.Now()
			rows, err := runMCPBench(cmd.Context(), texts, &tf)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if err := report(w, tf.asJSON, start, rows); err != nil || tf.asJSON {
				return err
			}
			var worst time.Duration
			for i, r := range rows {
				if i+2 < len(rows) && strings.HasSuffix(r.Op, " over MCP stdio") && !strings.HasPrefix(r.Op, "ping") {
					a, _ := time.ParseDuration(r.P50)
					b, _ := time.ParseDuration(rows[i+2].P50)
					worst = max(worst, a-b)
				}
			}
			fmt.Fprintf(w, "\nmcp: the protocol adds at most %v to a call's p50 (aim: 1ms or less)\n", worst.Round(time.Microsecond))
			return nil
		},
	}
	c.Long = `mcp seeds three twin stores with --facts facts, then calls each tool --calls
times in turns: over stdio to the built memctl mcp (a subprocess, driven by the
Go SDK's client through CommandTransport), over the SDK's in-memory transports
to the same server in this process, and as the library call the tool makes
(remember: Remember; recall: Candidates; context: Prompt with For). A ping
over each transport shows what a round trip alone costs. Every store is
opened as memctl opens one: fsync on, the topics lookup, the rules decider.`
	tf.register(c.Flags(), 300, "calls of each tool")
	return c
}

func runMCPBench(ctx context.Context, texts []string, tf *twinFlags) ([]row, error) {
	dir, memctl, remove, err := tf.workDir(ctx, "bench-mcp-")
	if err != nil {
		return nil, err
	}
	defer remove()
	facts, calls := tf.facts, tf.calls
	paths := [3]string{filepath.Join(dir, "served.db"), filepath.Join(dir, "library.db"), filepath.Join(dir, "inmemory.db")}
	// Twin stores, the same facts in each, then opened as memctl opens
	// them: fsync on, the topics lookup, the rules decider.
	if err := seedTwins(ctx, texts, facts, paths[:]...); err != nil {
		return nil, err
	}
	lib, err := memory.Open(paths[1], 0o600, &memory.Options{Lookup: memory.LookupTopics})
	if err != nil {
		return nil, err
	}
	defer lib.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	stdio, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(memctl, "--db", paths[0], "mcp")}, nil)
	if err != nil {
		return nil, err
	}
	defer stdio.Close()
	// The same server in this process, over the SDK's in-memory
	// transports: the protocol's own cost, without a second process.
	mem, err := memory.Open(paths[2], 0o600, &memory.Options{Lookup: memory.LookupTopics})
	if err != nil {
		return nil, err
	}
	defer mem.Close()
	server, err := mcpserver.New(mem, nil)
	if err != nil {
		return nil, err
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	inmem, err := client.Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer inmem.Close()
	tool := func(cs *mcp.ClientSession) func(name string, args map[string]any) error {
		return func(name string, args map[string]any) error {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			if err == nil && res.IsError {
				err = fmt.Errorf("%s: %v", name, res.Content[0].(*mcp.TextContent).Text)
			}
			return err
		}
	}
	overStdio, inMemory := tool(stdio), tool(inmem)
	// Each builds its candidate index before anything is timed.
	for _, call := range []func(string, map[string]any) error{overStdio, inMemory} {
		if err := call("recall", map[string]any{"query": "warm up"}); err != nil {
			return nil, err
		}
	}
	if _, err := lib.Candidates(ctx, "", "warm up", memory.DefaultCandidates); err != nil {
		return nil, err
	}
	c := newCorpus(texts, 2)
	news := make([]string, calls)
	for i := range news {
		news[i] = c.next()
	}
	var rows []row
	turns := func(op string, viaStdio, viaMemory, viaLib func(i int) error) {
		lats := timeTurns(calls, viaStdio, viaMemory, viaLib)
		lib := lats[2]
		for j, name := range []string{" over MCP stdio", " over MCP in process", " in process (the library)"} {
			r := latRow(op+name, lats[j], 0)
			r.N = facts
			if j < 2 && len(lats[j]) > 0 && lats[j][0] > 0 && len(lib) > 0 && lib[0] > 0 {
				a, b := lats[j][len(lats[j])/2], lib[len(lib)/2]
				r.Ratio = float64(a) / float64(b)
				r.Note = fmt.Sprintf("p50 over the library's; adds %v", (a - b).Round(time.Microsecond))
			}
			rows = append(rows, r)
		}
	}
	turns("ping",
		func(int) error { return stdio.Ping(ctx, nil) },
		func(int) error { return inmem.Ping(ctx, nil) },
		func(int) error { return nil })
	rows = rows[:2] // a ping has no library call
	turns("remember",
		func(i int) error { return overStdio("remember", map[string]any{"text": news[i]}) },
		func(i int) error { return inMemory("remember", map[string]any{"text": news[i]}) },
		func(i int) error { _, err := lib.Remember(ctx, memory.Note{Text: news[i]}); return err })
	turns("recall",
		func(i int) error { return overStdio("recall", map[string]any{"query": news[i]}) },
		func(i int) error { return inMemory("recall", map[string]any{"query": news[i]}) },
		func(i int) error {
			_, err := lib.Candidates(ctx, "", news[i], memory.DefaultCandidates)
			return err
		})
	turns("context",
		func(i int) error { return overStdio("context", map[string]any{"for": news[i], "budget": 2000}) },
		func(i int) error { return inMemory("context", map[string]any{"for": news[i], "budget": 2000}) },
		func(i int) error {
			_, err := lib.Prompt(ctx, "", &memory.PromptOptions{For: news[i], Budget: 2000})
			return err
		})
	return rows, nil
}

// timeTurns runs each fn n times, one call of each in turn, so that all
// see the same machine, and returns each one's sorted latencies (a single
// -1 for one that failed).
func timeTurns(n int, fns ...func(i int) error) [][]time.Duration {
	lats := make([][]time.Duration, len(fns))
	for i := range n {
		for j, fn := range fns {
			if len(lats[j]) > 0 && lats[j][0] < 0 {
				continue
			}
			start := time.Now()
			if err := fn(i); err != nil {
				lats[j] = []time.Duration{-1}
				continue
			}
			lats[j] = append(lats[j], time.Since(start))
		}
	}
	for _, l := range lats {
		slices.Sort(l)
	}
	return lats
}
