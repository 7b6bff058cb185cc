package main

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/internal/claimscore"
	"github.com/spf13/cobra"
)

func claimsCmd() *cobra.Command {
	var data string
	var verbose bool
	c := &cobra.Command{
		Use:   "claims",
		Short: "Precision and recall of the rule-based claim extraction on a labelled claims file",
		Long: "Runs claims.Extract on every fact of --data (one JSON object a line: " +
			`{"text": …, "claims": [{"subject", "relation", "object", "kind"}]}) and prints, per relation ` +
			"and overall, the claims extracted, labelled and matched (same relation, subject and object equal " +
			"after claims.Normalize; kind not compared), with precision and recall.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := os.Open(data)
			if err != nil {
				return err
			}
			defer f.Close()
			cases, err := claimscore.Read(f)
			if err != nil {
				return fmt.Errorf("%s: %w", data, err)
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
			printClaims(cmd.OutOrStdout(), data, claimscore.Score(cases, claims.Extract), verbose, per)
			return nil
		},
	}
	c.Flags().StringVar(&data, "data", "testdata/claims.dev.jsonl", "labelled claims file (JSONL)")
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every missed and extra claim")
	return c
}

func printClaims(w io.Writer, data string, res claimscore.Result, verbose bool, per time.Duration) {
	fmt.Fprintf(w, "claim extraction (rules) on %s: %d facts, %d labelled with no claim\n\n", data, res.Cases, res.Empty)
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
	fmt.Fprintf(w, "\nextract: %v a fact (mean of the rounds over the file)\n", per.Round(100*time.Nanosecond))
	fmt.Fprintf(w, "claims: precision %.3f, recall %.3f (%d matched of %d extracted, %d labelled); %d of %d facts with no claim got none\n",
		res.All.Precision(), res.All.Recall(), res.All.Hit, res.All.Extracted, res.All.Labelled, res.Ok, res.Empty)
}
