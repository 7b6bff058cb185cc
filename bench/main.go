// Command bench measures the memory store: how right its judgements are on
// the evaluation data in ../shared/data, and how fast it is.
//
//	go run ./bench candidates --data FILE --distractors FILE[,FILE...] --mode MODE [--k 12]
//	go run ./bench claims [--data testdata/claims.dev.jsonl] [-v] [--decider rules|ollama|openai] [--model NAME] [--claims-only] [--limit N]
//	go run ./bench crash [--kills 200] [--seed S] [--json]
//	go run ./bench reconcile [--decider rules|add|ollama|openai] [--model NAME] [--limit N] [--timeout D]
//	go run ./bench search [--mode topics] [--k 10] [--scales 1000,10000,100000] [-v]
//	go run ./bench backend [--backends bbolt,nats] [--commits 400] [--writers 64]
//	go run ./bench prompt [--decider rules|add|ollama|openai] [--model NAME] [--limit N] [--no-notes]
//
// Each subcommand prints a table and ends with one summary line.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/cobra"
)

func main() {
	crashChildFromEnv()     // the crash subcommand's child: it never returns
	if perfChildFromEnv() { // perf's Open or Import measured in a fresh process
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root := &cobra.Command{
		Use:           "bench",
		Short:         "Measure the memory store",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(candidatesCmd(), claimsCmd(), scaleCmd(), reconcileCmd(), promptCmd(), perfCmd(), datesCmd(), eventtimeCmd(), crashCmd(), mcpCmd(), ownerCmd(), searchCmd(), backendCmd())
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		stop()
		os.Exit(1)
	}
}
