package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/internal/claimscore"
	"github.com/palimpsest-mem/memory/internal/modelenv"
	"github.com/spf13/cobra"
)

func claimsCmd() *cobra.Command {
	var data, decider, model string
	var verbose, claimsOnly bool
	var timeout time.Duration
	var limit int
	c := &cobra.Command{
		Use:   "claims",
		Short: "Precision and recall of claim extraction (the rules, or a model) on a labelled claims file",
		Long: "Finds the claims of every fact of --data (one JSON object a line: " +
			`{"text": …, "claims": [{"subject", "relation", "object", "kind"}]}) and prints, per relation ` +
			"and overall, the claims extracted, labelled and matched (same relation, subject and object equal " +
			"after claims.Normalize; kind not compared), with precision and recall.\n\n" +
			"--decider rules (the default) measures claims.Extract. --decider ollama (Ollama at $OLLAMA_HOST) or " +
			"openai (an OpenAI-compatible server at $OPENAI_BASE_URL, else OpenAI, with the key $OPENAI_API_KEY), " +
			"with --model (default $MEMCTL_MODEL), measures the model's claims as Remember stores them: from its " +
			"decision on the fact with no old facts, or with --claims-only from the claims-only call a Claimer " +
			"makes. The model's invalid claims are dropped, as Remember drops them, and counted.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 0 {
				return fmt.Errorf("--limit %d: want 0 (all) or more", limit)
			}
			if timeout < 0 {
				return fmt.Errorf("--timeout %s: want more than zero", timeout)
			}
			f, err := os.Open(data)
			if err != nil {
				return err
			}
			defer f.Close()
			cases, err := claimscore.Read(f)
			if err != nil {
				return fmt.Errorf("%s: %w", data, err)
			}
			cases = spreadCases(cases, limit)
			w := cmd.OutOrStdout()
			if decider == "rules" {
				if claimsOnly {
					return fmt.Errorf("--claims-only needs a model decider (ollama or openai)")
				}
				// Timed apart from the scoring: Extract alone, a few rounds.
				const rounds = 20
				t0 := time.Now()
				for range rounds {
					for _, c := range cases {
						claims.Extract(c.Text)
					}
				}
				per := time.Since(t0) / time.Duration(rounds*len(cases))
				res := claimscore.Score(cases, claims.Extract)
				printClaims(w, "rules", data, res, verbose)
				fmt.Fprintf(w, "\nextract: %v a fact (mean of the rounds over the file)\n", per.Round(100*time.Nanosecond))
				printClaimsTotal(w, res)
				return nil
			}
			if decider != "ollama" && decider != "openai" {
				return fmt.Errorf("--decider %q: want rules, ollama or openai", decider)
			}
			d, err := modelenv.Decider(decider, model, timeout, os.Getenv)
			if err != nil {
				return err
			}
			progress := func(done int) {
				if done%10 == 0 || done == len(cases) {
					fmt.Fprintf(cmd.ErrOrStderr(), "bench: %d/%d facts asked\n", done, len(cases))
				}
			}
			m, err := modelClaims(cmd.Context(), d, cases, claimsOnly, progress)
			if err != nil {
				return err
			}
			how := decider
			if desc, ok := d.(memory.Describer); ok {
				how += " " + desc.Describe()
			}
			if claimsOnly {
				how += ", claims-only call"
			} else {
				how += ", in the decision"
			}
			res := claimscore.Score(cases, func(text string) []claims.Claim { return m.claims[text] })
			printClaims(w, how, data, res, verbose)
			fmt.Fprintf(w, "\nmodel: %v a fact (mean wall time of one call); %d of %d calls failed, %d answers without a claims list, %d claims dropped as invalid\n",
				(m.elapsed / time.Duration(len(cases))).Round(time.Millisecond), m.failed, len(cases), m.noList, m.dropped)
			if m.firstErr != nil {
				fmt.Fprintf(w, "first failure: %v\n", m.firstErr)
			}
			printClaimsTotal(w, res)
			if m.failed == len(cases) {
				// A wrong address, key or model name: the figures above
				// measure nothing.
				return fmt.Errorf("every call failed, the first because %w", m.firstErr)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&data, "data", "testdata/claims.dev.jsonl", "labelled claims file (JSONL)")
	fl.BoolVarP(&verbose, "verbose", "v", false, "list every missed and extra claim")
	fl.StringVar(&decider, "decider", "rules", "rules, ollama or openai")
	fl.StringVar(&model, "model", "", "chat model of --decider ollama or openai (default $MEMCTL_MODEL)")
	fl.BoolVar(&claimsOnly, "claims-only", false, "ask the model in the claims-only call, not in a decision")
	fl.DurationVar(&timeout, "timeout", 0, timeoutUsage)
	fl.IntVar(&limit, "limit", 0, "score N facts spread evenly over the file (0: all), for a quick look at a slow model")
	return c
}

// spreadCases picks n cases at even intervals; n 0 keeps all.
func spreadCases(cases []claimscore.Case, n int) []claimscore.Case {
	if n == 0 || n >= len(cases) {
		return cases
	}
	out := make([]claimscore.Case, n)
	for i := range out {
		out[i] = cases[i*len(cases)/n]
	}
	return out
}

// modelAnswers are a model's claims per fact text, and how the calls went.
type modelAnswers struct {
	claims   map[string][]claims.Claim
	elapsed  time.Duration
	failed   int // calls that ended in an error
	noList   int // decisions whose answer held no usable claims list
	dropped  int // claims dropped as invalid
	firstErr error
}

// modelClaims asks d for the claims of every case's text: in a decision on
// the fact with no old facts, as Remember asks it, or in the claims-only
// call. A failed call counts as no claims, as Remember would store the
// rules' instead; what is measured is the model.
func modelClaims(ctx context.Context, d memory.Decider, cases []claimscore.Case, claimsOnly bool, progress func(int)) (modelAnswers, error) {
	m := modelAnswers{claims: map[string][]claims.Claim{}}
	claimer, _ := d.(memory.Claimer)
	if claimsOnly && claimer == nil {
		return m, fmt.Errorf("the %s decider makes no claims-only call", d.Name())
	}
	said := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	for i, c := range cases {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		t0 := time.Now()
		var got []claims.Claim
		var dropped int
		var err error
		if claimsOnly {
			var a memory.ClaimsAnswer
			a, err = claimer.Claims(ctx, c.Text)
			got, dropped = a.Claims, len(a.Dropped)
		} else {
			var v memory.Verdict
			v, err = d.Decide(ctx, memory.DecideInput{Text: c.Text, SaidAt: said})
			got, dropped = v.Claims, len(v.ClaimsDropped)
			if err == nil && !v.ClaimsGiven {
				m.noList++
				dropped = 0
			}
		}
		m.elapsed += time.Since(t0)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return m, err
			}
			m.failed++
			if m.firstErr == nil {
				m.firstErr = err
			}
		}
		m.dropped += dropped
		m.claims[c.Text] = got
		progress(i + 1)
	}
	return m, nil
}

func printClaims(w io.Writer, how, data string, res claimscore.Result, verbose bool) {
	fmt.Fprintf(w, "claim extraction (%s) on %s: %d facts, %d labelled with no claim\n\n", how, data, res.Cases, res.Empty)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "relation\tlabelled\textracted\tmatched\tprecision\trecall\t")
	row := func(name string, c claimscore.Count) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2f\t%.2f\t\n", name, c.Labelled, c.Extracted, c.Hit, c.Precision(), c.Recall())
	}
	for _, r := range claims.Relations() {
		if c, ok := res.ByRelation[r]; ok {
			row(string(r), c)
		}
	}
	row("all", res.All)
	tw.Flush()
	if verbose {
		fmt.Fprintln(w)
		for _, s := range res.Wrong {
			fmt.Fprintln(w, s)
		}
	}
}

func printClaimsTotal(w io.Writer, res claimscore.Result) {
	fmt.Fprintf(w, "claims: precision %.3f, recall %.3f (%d matched of %d extracted, %d labelled); %d of %d facts with no claim got none\n",
		res.All.Precision(), res.All.Recall(), res.All.Hit, res.All.Extracted, res.All.Labelled, res.Ok, res.Empty)
}
