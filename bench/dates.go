package main

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/spf13/cobra"
)

// dateCase is one line of dates.*.jsonl (the format is in docs/evaluation.md).
type dateCase struct {
	ID    string `json:"id"`
	Lang  string `json:"lang"`
	Text  string `json:"text"`
	Said  string `json:"said"`
	Start string `json:"start"`
	Grain string `json:"grain"`
}

// timeCase is what both date benchmarks score: a text said on a day, and
// the gold period (nil start: no time in the words).
type timeCase struct {
	id, lang, text string
	said           time.Time
	start          *time.Time
	grain          string
}

func datesCmd() *cobra.Command {
	var data string
	var verbose bool
	c := &cobra.Command{
		Use:   "dates",
		Short: "Accuracy of the event-time parser on a dates file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows, err := readJSONL[dateCase](data)
			if err != nil {
				return err
			}
			var cases []timeCase
			for _, r := range rows {
				said, err := day(r.Said)
				if err != nil {
					return fmt.Errorf("%s: said: %w", r.ID, err)
				}
				start, err := day(r.Start)
				if err != nil {
					return fmt.Errorf("%s: start: %w", r.ID, err)
				}
				cases = append(cases, timeCase{r.ID, r.Lang, r.Text, said, &start, r.Grain})
			}
			evalTimes(cmd.OutOrStdout(), "event time of dates", cases, verbose)
			return nil
		},
	}
	c.Flags().StringVar(&data, "data", "../shared/data/dates.dev.jsonl", "dates file (JSON Lines)")
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "list the misses")
	return c
}

func eventtimeCmd() *cobra.Command {
	var data string
	var verbose bool
	c := &cobra.Command{
		Use:   "eventtime",
		Short: "Accuracy of the event-time parser on the new facts of an updates file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows, err := readJSONL[updateCase](data)
			if err != nil {
				return err
			}
			var cases []timeCase
			for _, r := range rows {
				said, err := day(r.NewSaid)
				if err != nil {
					return fmt.Errorf("%s: new_said: %w", r.ID, err)
				}
				tc := timeCase{id: r.ID, lang: r.Lang, text: r.New, said: said}
				if r.EventFrom != nil {
					start, err := day(*r.EventFrom)
					if err != nil {
						return fmt.Errorf("%s: event_from: %w", r.ID, err)
					}
					tc.start = &start
					if r.Grain != nil {
						tc.grain = *r.Grain
					}
				}
				cases = append(cases, tc)
			}
			evalTimes(cmd.OutOrStdout(), "event time of updates (new facts)", cases, verbose)
			return nil
		},
	}
	c.Flags().StringVar(&data, "data", "../shared/data/updates.dev.jsonl", "updates file (JSON Lines)")
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "list the misses")
	return c
}

// periodEnd is the end of the gold period [start, start+grain).
func periodEnd(start time.Time, grain string) time.Time {
	switch grain {
	case "week":
		return start.AddDate(0, 0, 7)
	case "month":
		return start.AddDate(0, 1, 0)
	case "season":
		return start.AddDate(0, 3, 0)
	case "year":
		return start.AddDate(1, 0, 0)
	}
	return start.AddDate(0, 0, 1)
}

// timeRight scores one prediction as docs/evaluation.md says: inside the
// gold period [start, start+grain), or nothing found for a gold null.
func timeRight(c timeCase, r eventtime.Result) bool {
	if c.start == nil {
		return !r.Found
	}
	return r.Found && !r.Start.Before(*c.start) && r.Start.Before(periodEnd(*c.start, c.grain))
}

// evalTimes parses every case and prints accuracy per language (and, for
// cases with a null gold, the share rightly left without a date).
func evalTimes(w io.Writer, title string, cases []timeCase, verbose bool) {
	type acc struct{ right, n, nullRight, nulls int }
	by := map[string]*acc{}
	var total acc
	var misses []string
	for _, c := range cases {
		r := eventtime.Parse(c.text, c.said, c.lang)
		ok := timeRight(c, r)
		a := by[c.lang]
		if a == nil {
			a = &acc{}
			by[c.lang] = a
		}
		for _, x := range []*acc{a, &total} {
			x.n++
			if ok {
				x.right++
			}
			if c.start == nil {
				x.nulls++
				if ok {
					x.nullRight++
				}
			}
		}
		if !ok {
			gold := "null"
			if c.start != nil {
				gold = c.start.Format(time.DateOnly) + " " + c.grain
			}
			got := "null"
			if r.Found {
				got = fmt.Sprintf("%s %s %q", r.Start.Format(time.DateOnly), r.Grain, r.Span)
			}
			misses = append(misses, fmt.Sprintf("%s said %s: gold %s, got %s: %s", c.id, c.said.Format(time.DateOnly), gold, got, c.text))
		}
	}
	fmt.Fprintf(w, "%s\n\n", title)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "lang\tn\tright\taccuracy\tnull gold\tnull right")
	for _, lang := range slices.Sorted(mapsKeys(by)) {
		a := by[lang]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%d\t%d\n", lang, a.n, a.right, timeShare(a.right, a.n), a.nulls, a.nullRight)
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%.3f\t%d\t%d\n", total.n, total.right, timeShare(total.right, total.n), total.nulls, total.nullRight)
	tw.Flush()
	if verbose && len(misses) > 0 {
		fmt.Fprintf(w, "\nmisses:\n")
		for _, m := range misses {
			fmt.Fprintln(w, "  "+m)
		}
	}
	fmt.Fprintf(w, "accuracy %.3f n=%d\n", timeShare(total.right, total.n), total.n)
}

func timeShare(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
