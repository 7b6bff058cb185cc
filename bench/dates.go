package main

import (
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/spf13/cobra"
)

// dateCase is one line of dates.*.jsonl (the format is in docs/evaluation.md).
type dateCase struct {
	ID    string  `json:"id"`
	Lang  string  `json:"lang"`
	Text  string  `json:"text"`
	Said  string  `json:"said"`
	Start *string `json:"start"` // null: a negative, nothing should be found
	Grain string  `json:"grain"`
	Note  string  `json:"note"`
	End   *string `json:"end"` // optional: where the period stops, exclusive
}

// timeCase is what both date benchmarks score: a text said on a day, and
// the gold period (nil start: no time in the words).
type timeCase struct {
	id, lang, text string
	said           time.Time
	start          *time.Time
	grain          string
	conv           string // the case follows another convention (the tag after "conv:")
	ignored        bool   // a conv case our conventions do not judge (chrono's notations)
	rng            bool   // the note calls the case a range: it names an end
	end            *time.Time
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
				c, err := dateCaseOf(r)
				if err != nil {
					return err
				}
				cases = append(cases, c)
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

// timeTally counts one group of cases: those with a date, the negatives
// (nothing to find) and the cases of another convention, judged by ours.
type timeTally struct{ right, n, negRight, negs, convRight, convs, unscored int }

func (a *timeTally) add(c timeCase, ok bool) {
	switch {
	case c.ignored:
		a.unscored++
	case c.conv != "":
		a.convs++
		if ok {
			a.convRight++
		}
	case c.start == nil:
		a.negs++
		if ok {
			a.negRight++
		}
	default:
		a.n++
		if ok {
			a.right++
		}
	}
}

// evalTimes parses every case and prints, per language, the accuracy on
// the cases with a date, the share of negatives rightly left without one
// and, apart, the cases of another convention judged by ours.
func evalTimes(w io.Writer, title string, cases []timeCase, verbose bool) {
	by := map[string]*timeTally{}
	var total timeTally
	var misses []string
	var rt rangeTally
	for _, c := range cases {
		r := eventtime.Parse(c.text, c.said, c.lang)
		ok := timeRight(c, r)
		rt.add(c, r, ok)
		a := by[c.lang]
		if a == nil {
			a = &timeTally{}
			by[c.lang] = a
		}
		a.add(c, ok)
		total.add(c, ok)
		if !ok && !c.ignored {
			gold := "null"
			if c.start != nil {
				gold = c.start.Format(time.DateOnly) + " " + c.grain
			}
			got := "null"
			if r.Found {
				got = fmt.Sprintf("%s %s %q", r.Start.Format(time.DateOnly), r.Grain, r.Span)
			}
			tag := ""
			if c.conv != "" {
				tag = " [conv:" + c.conv + "]"
			}
			misses = append(misses, fmt.Sprintf("%s said %s: gold %s, got %s: %s%s", c.id, c.said.Format(time.DateOnly), gold, got, c.text, tag))
		}
	}
	fmt.Fprintf(w, "%s\n\n", title)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "lang\tdated\tright\taccuracy\tnegatives\tright\tshare\tconv\tright\tshare\tunscored")
	row := func(lang string, a *timeTally) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%d\t%d\t%.3f\t%d\t%d\t%.3f\t%d\n", lang,
			a.n, a.right, timeShare(a.right, a.n), a.negs, a.negRight, timeShare(a.negRight, a.negs),
			a.convs, a.convRight, timeShare(a.convRight, a.convs), a.unscored)
	}
	for _, lang := range slices.Sorted(maps.Keys(by)) {
		row(lang, by[lang])
	}
	row("all", &total)
	tw.Flush()
	rt.print(w)
	if verbose && len(misses) > 0 {
		fmt.Fprintf(w, "\nmisses:\n")
		for _, m := range misses {
			fmt.Fprintln(w, "  "+m)
		}
	}
	// The headline keeps the old sum: dated cases and negatives together,
	// without the cases of another convention.
	fmt.Fprintf(w, "accuracy %.3f n=%d\n", timeShare(total.right+total.negRight, total.n+total.negs), total.n+total.negs)
}

// rangeTally counts the cases that name an end: those whose note calls
// them a range, and those with a gold end.
type rangeTally struct{ n, startRight, withEnd, ends, endRight int }

func (a *rangeTally) add(c timeCase, r eventtime.Result, ok bool) {
	if c.ignored {
		return
	}
	if c.rng {
		a.n++
		if ok {
			a.startRight++
		}
		if c.start != nil && !r.End.IsZero() {
			a.withEnd++
		}
	}
	if c.end != nil {
		a.ends++
		if r.End.Equal(*c.end) {
			a.endRight++
		}
	}
}

// print writes the ranges line (start right, an end read where a date is
// due) and the ends line, when the file has such cases.
func (a *rangeTally) print(w io.Writer) {
	if a.n > 0 {
		fmt.Fprintf(w, "ranges %d: start right %d (%.3f), an end read %d\n", a.n, a.startRight, timeShare(a.startRight, a.n), a.withEnd)
	}
	if a.ends > 0 {
		fmt.Fprintf(w, "end %d: right %d (%.3f)\n", a.ends, a.endRight, timeShare(a.endRight, a.ends))
	}
}

// saidTime reads a said moment: a day (00:00 UTC) or an RFC 3339 time with
// its offset, kept, since Parse takes the reference day in the moment's
// own location.
func saidTime(s string) (time.Time, error) {
	if t, err := day(s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: want YYYY-MM-DD or an RFC 3339 time", s)
	}
	return t, nil
}

// dateCaseOf reads one line of a dates file; a note tagged "conv:" gets
// the gold of our conventions (convGold).
func dateCaseOf(r dateCase) (timeCase, error) {
	said, err := saidTime(r.Said)
	if err != nil {
		return timeCase{}, fmt.Errorf("%s: said: %w", r.ID, err)
	}
	c := timeCase{id: r.ID, lang: r.Lang, text: r.Text, said: said, grain: r.Grain,
		rng: strings.Contains(strings.ToLower(r.Note), "range")}
	if r.End != nil {
		end, err := day(*r.End)
		if err != nil {
			return timeCase{}, fmt.Errorf("%s: end: %w", r.ID, err)
		}
		c.end = &end
	}
	if r.Start != nil {
		start, err := day(*r.Start)
		if err != nil {
			return timeCase{}, fmt.Errorf("%s: start: %w", r.ID, err)
		}
		c.start = &start
	}
	if k := strings.Index(r.Note, "conv:"); k >= 0 {
		tag := r.Note[k+len("conv:"):]
		if e := strings.IndexFunc(tag, func(r rune) bool { return r == ' ' || r == ';' || r == '(' }); e >= 0 {
			tag = tag[:e]
		}
		c.conv = tag
		convGold(&c)
	}
	return c, nil
}

var yearRe = regexp.MustCompile(`\b(1[89]|2[01])\d\d\b`)

// convGold replaces the gold of a case written to another convention by
// the gold of ours (README of the data: weeks start on Monday, "next
// Monday" is the coming one, day before month); chrono's own notations
// (eras, "+2 months", "-3y") are left unscored.
func convGold(c *timeCase) {
	said := time.Date(c.said.Year(), c.said.Month(), c.said.Day(), 0, 0, 0, 0, time.UTC)
	set := func(t time.Time, g string) { c.start, c.grain = &t, g }
	switch c.conv {
	case "slash-order": // day first: 6/10/2018 is 6 October, unless the second number cannot be a month
		if c.start != nil && c.start.Day() <= 12 {
			set(time.Date(c.start.Year(), time.Month(c.start.Day()), int(c.start.Month()), 0, 0, 0, 0, time.UTC), "day")
		}
	case "week-start":
		set(said.AddDate(0, 0, -((int(said.Weekday())+6)%7)), "week")
	case "next-weekday", "bare-weekday": // the coming one
		if c.start != nil {
			d := said.AddDate(0, 0, 1)
			for d.Weekday() != c.start.Weekday() {
				d = d.AddDate(0, 0, 1)
			}
			set(d, "day")
		}
	case "weekend": // the Saturday; the next weekend is the coming one
		sat := said.AddDate(0, 0, 5-((int(said.Weekday())+6)%7))
		switch t := strings.ToLower(c.text); {
		case strings.Contains(t, "next"):
			if !sat.After(said) {
				sat = sat.AddDate(0, 0, 7)
			}
		case strings.Contains(t, "last"):
			sat = sat.AddDate(0, 0, -7)
		}
		set(sat, "day")
	case "window-end": // a window from now starts now
		set(said, "day")
	case "bare-year": // a number alone is not read as a year: "2020 people"
		c.start, c.grain = nil, ""
	case "contains-year":
		if y := yearRe.FindString(c.text); y != "" {
			n, _ := strconv.Atoi(y)
			set(time.Date(n, 1, 1, 0, 0, 0, 0, time.UTC), "year")
		}
	default:
		c.ignored = true
	}
}

func timeShare(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
