package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

func promptCmd() *cobra.Command {
	var e evalFlags
	var noNotes bool
	c := &cobra.Command{
		Use:   "prompt",
		Short: "How often the prompt shows an old fact beside the new one that replaced it, with no note",
		Long: `prompt runs Remember on each case of an updates file (default: the dev set)
in a store holding every distractor (both languages) and the case's old
fact, then builds the Prompt (defaults: no budget, notes on) and looks for
the old and the new fact in it.

silent: both are in and neither line's note names the other. On update
and invalidate cases that is the failure the prompt exists to prevent: a
stale fact beside its replacement, and nothing to tell the assistant which
holds. The summary line gives that share (aim ≤ 0.20). On add cases both
belong in the prompt; on noop cases the new fact is a restatement.
--no-notes builds the prompt without notes, as it was before it had them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, cases, ds, d, err := e.load()
			if err != nil {
				return err
			}
			res, err := evalPrompt(cmd.Context(), cases, ds, memory.Options{Decider: d, Lookup: m}, &memory.PromptOptions{NoNotes: noNotes})
			if err != nil {
				return err
			}
			res.print(cmd.OutOrStdout())
			return nil
		},
	}
	f := c.Flags()
	e.add(f, "score N cases spread evenly over the file (0: all)")
	f.BoolVar(&noNotes, "no-notes", false, "build the prompt without its notes on open conflicts")
	return c
}

// promptShape is what a case's prompt shows of its two facts.
type promptShape int

const (
	shapeSilent  promptShape = iota // both, no note between them
	shapeNoted                      // both, a note naming the other
	shapeOldOnly                    // the old fact alone
	shapeNewOnly                    // the new fact alone
	shapeNeither
)

var shapeNames = [...]string{"silent", "noted", "old only", "new only", "neither"}

type promptResult struct {
	decider string
	notes   bool
	n       int
	shapes  map[string]map[promptShape]int // gold action → shape → cases
	langs   map[string]map[promptShape]int // "lang action" of update and invalidate cases
}

func evalPrompt(ctx context.Context, cases []updateCase, ds []distractor, opts memory.Options, popts *memory.PromptOptions) (*promptResult, error) {
	res := &promptResult{decider: memory.RulesDecider().Name(), notes: !popts.NoNotes, shapes: map[string]map[promptShape]int{}, langs: map[string]map[promptShape]int{}}
	if opts.Decider != nil {
		res.decider = opts.Decider.Name()
	}
	base, err := allDistractorsStore(ctx, ds)
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		sh, err := promptCase(ctx, c, base, opts, popts)
		if err != nil {
			return nil, fmt.Errorf("case %s: %w", c.ID, err)
		}
		res.n++
		if res.shapes[c.Action] == nil {
			res.shapes[c.Action] = map[promptShape]int{}
		}
		res.shapes[c.Action][sh]++
		if stale(c.Action) {
			k := c.Lang + " " + c.Action
			if res.langs[k] == nil {
				res.langs[k] = map[promptShape]int{}
			}
			res.langs[k][sh]++
		}
	}
	return res, nil
}

// stale says a case's old fact should not stand beside the new one unmarked.
func stale(action string) bool {
	return action == string(memory.ActionUpdate) || action == string(memory.ActionInvalidate)
}

// allDistractorsStore exports a store holding every distractor, each
// recorded at its said date.
func allDistractorsStore(ctx context.Context, ds []distractor) ([]byte, error) {
	dir, err := os.MkdirTemp("", "bench-prompt-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var now time.Time
	s, err := memory.Open(filepath.Join(dir, "m.db"), 0, &memory.Options{NoSync: true, Clock: func() time.Time { return now }})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	all := append([]distractor(nil), ds...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Said < all[j].Said })
	for _, d := range all {
		if now, err = day(d.Said); err != nil {
			return nil, err
		}
		if _, err := s.Add(ctx, memory.Note{Text: d.Text, Source: memory.Source{SaidAt: now}}); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	err = s.Export(ctx, &b)
	return b.Bytes(), err
}

// promptCase seeds a store as bench reconcile does (the old fact told on
// old_said, the new one remembered as said on new_said) and reads the
// prompt after.
func promptCase(ctx context.Context, c updateCase, base []byte, opts memory.Options, popts *memory.PromptOptions) (promptShape, error) {
	dir, err := os.MkdirTemp("", "bench-prompt-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	var now time.Time
	opts.NoSync, opts.Clock = true, func() time.Time { return now }
	s, err := memory.Open(filepath.Join(dir, "m.db"), 0, &opts)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	if _, err := s.Import(ctx, bytes.NewReader(base), nil); err != nil {
		return 0, err
	}
	if now, err = day(c.OldSaid); err != nil {
		return 0, err
	}
	if _, err := s.Add(ctx, memory.Note{Text: c.Old, Source: memory.Source{SaidAt: now}}); err != nil {
		return 0, err
	}
	said, err := day(c.NewSaid)
	if err != nil {
		return 0, err
	}
	now = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.Remember(ctx, memory.Note{Text: c.New, Source: memory.Source{SaidAt: said}}); err != nil {
		return 0, err
	}
	p, err := s.Prompt(ctx, "", popts)
	if err != nil {
		return 0, err
	}
	return shapeOf(p, c.Old, c.New), nil
}

// shapeOf finds the lines of old and new in prompt p and whether either
// one's note names the other.
func shapeOf(p, old, new string) promptShape {
	oldLine, newLine := lineOf(p, old), lineOf(p, new)
	switch {
	case oldLine == "" && newLine == "":
		return shapeNeither
	case newLine == "":
		return shapeOldOnly
	case oldLine == "":
		return shapeNewOnly
	}
	quoted := func(s string) string { return fmt.Sprintf("%q", strings.Join(strings.Fields(s), " ")) }
	if strings.Contains(newLine, "(unconfirmed: ") && strings.Contains(newLine, quoted(old)) ||
		strings.Contains(oldLine, "(unconfirmed: ") && strings.Contains(oldLine, quoted(new)) {
		return shapeNoted
	}
	return shapeSilent
}

// lineOf is the fact line of p that shows text, "" if none.
func lineOf(p, text string) string {
	want := "- " + strings.Join(strings.Fields(text), " ")
	for _, l := range strings.Split(p, "\n") {
		if l == want || strings.HasPrefix(l, want+" (") {
			return l
		}
	}
	return ""
}

func (r *promptResult) print(w io.Writer) {
	notes := "notes on"
	if !r.notes {
		notes = "no notes"
	}
	fmt.Fprintf(w, "the prompt after Remember with the %s decider (every distractor stored, no budget, %s)\n\n", r.decider, notes)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "cases\tn")
	for _, s := range shapeNames {
		fmt.Fprintf(tw, "\t%s", s)
	}
	fmt.Fprintln(tw, "\tsilent share")
	row := func(name string, m map[promptShape]int) {
		n := 0
		for _, v := range m {
			n += v
		}
		fmt.Fprintf(tw, "%s\t%d", name, n)
		for i := range shapeNames {
			fmt.Fprintf(tw, "\t%d", m[promptShape(i)])
		}
		fmt.Fprintf(tw, "\t%.3f\n", ratio(m[shapeSilent], n))
	}
	staleAll := map[promptShape]int{}
	for _, a := range []memory.Action{memory.ActionAdd, memory.ActionUpdate, memory.ActionInvalidate, memory.ActionNoop} {
		m := r.shapes[string(a)]
		row(string(a), m)
		if stale(string(a)) {
			for k, v := range m {
				staleAll[k] += v
			}
		}
	}
	keys := make([]string, 0, len(r.langs))
	for k := range r.langs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		row(k, r.langs[k])
	}
	row("update+invalidate", staleAll)
	tw.Flush()
	n := 0
	for _, v := range staleAll {
		n += v
	}
	fmt.Fprintf(w, "\nold beside new with no note (update and invalidate cases) %.3f n=%d of %d cases\n", ratio(staleAll[shapeSilent], n), n, r.n)
}

// promptRows times Prompt on a store of n facts whose user-0 has perUser
// current facts, a few of them pinned and in open conflicts: without
// options, and for a message (the candidate lookup ranks), with and
// without a budget. The index is built before the timing starts.
func promptRows(ctx context.Context, dir string, texts []string, n, perUser int, cfg perfConfig) ([]row, error) {
	s, facts, err := claimStore(ctx, filepath.Join(dir, fmt.Sprintf("prompt%d.db", n)), texts, 11, n, perUser)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	for i := 0; i < len(facts); i += 100 {
		if _, err := s.Pin(ctx, "user-0", facts[i].ID); err != nil {
			return nil, err
		}
	}
	// Open conflicts, as an unsure decider leaves them.
	conflicts := 0
	for _, text := range []string{"I live in Lyon now.", "I now work at Hooli.", "I play the oboe these days."} {
		out, err := s.Remember(ctx, memory.Note{User: "user-0", Text: text})
		if err != nil {
			return nil, err
		}
		if out.Decision.Conflict != 0 {
			conflicts++
		}
	}
	c := newCorpus(texts, 5)
	messages := make([]string, 64)
	for i := range messages {
		messages[i] = c.next()
	}
	if _, err := s.Prompt(ctx, "user-0", &memory.PromptOptions{For: messages[0]}); err != nil {
		return nil, err
	}
	cur, err := s.List(ctx, "user-0", nil)
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("%d current facts of the user, %d pinned, %d open conflicts", len(cur), (len(facts)+99)/100, conflicts)
	var rows []row
	for _, v := range []struct {
		op   string
		opts func(i int) *memory.PromptOptions
	}{
		{"Prompt of a user, no options", func(int) *memory.PromptOptions { return nil }},
		{"Prompt of a user, For a message", func(i int) *memory.PromptOptions {
			return &memory.PromptOptions{For: messages[i%len(messages)]}
		}},
		{"Prompt of a user, For a message, Budget 2000", func(i int) *memory.PromptOptions {
			return &memory.PromptOptions{For: messages[i%len(messages)], Budget: 2000}
		}},
	} {
		var size int
		lat := timeN(cfg.reads, func(i int) error {
			p, err := s.Prompt(ctx, "user-0", v.opts(i))
			size = len(p)
			return err
		})
		r := latRow(v.op, lat, 0)
		r.Note = fmt.Sprintf("%s; the last prompt %d bytes", note, size)
		rows = append(rows, r)
	}
	return rows, nil
}
