package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

func (a *app) demoCmd() *cobra.Command {
	var keep string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Tell the story of a bi-temporal memory, in a temporary store",
		Long: `demo runs a short story in a temporary store (it ignores --db): a job
change told late, a correction, an automatic mistake undone, a new fact
reconciled by the embedded rules with its time from the words, a hard
delete that leaves no copy, the graph of edges derived from the facts'
claims, which moves with them, and a merge of two names of one company,
undone, a trip whose words give its interval, and the inspector's pages,
where one click undoes a decision. It prints each step and what each query
returns, and fails if an answer is not the one the story expects.

--keep FILE keeps the story's store in FILE, a new file, to look at with
memctl serve --db FILE or any other command.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error { return runDemo(cmd.Context(), a.stdout, keep) },
	}
	cmd.Flags().StringVar(&keep, "keep", "", "keep the story's store in this new file")
	return cmd
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// demo is the state of the story: its store, whose clock reads now, which
// the story moves forward.
type demo struct {
	ctx context.Context
	s   *memory.Store
	w   io.Writer
	now time.Time
}

func runDemo(ctx context.Context, w io.Writer, keep string) (err error) {
	path := keep
	if keep == "" {
		dir, err := os.MkdirTemp("", "memctl-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "memory.db")
	} else if _, err := os.Lstat(keep); err == nil {
		// The story writes a whole store; it never writes into one it was not given new.
		return usagef("--keep %s: the file exists; give a new file", keep)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("--keep: %w", err)
	}
	d := &demo{ctx: ctx, w: w, now: date(2026, 3, 10)}
	d.s, err = memory.Open(path, 0o600,
		&memory.Options{Clock: func() time.Time { return d.now }, NoSync: true})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := d.s.Close(); err == nil {
			err = cerr
		}
	}()
	return d.story()
}

func (d *demo) printf(format string, args ...any) { fmt.Fprintf(d.w, format, args...) }

// on moves the clock to t and says what happens then.
func (d *demo) on(t time.Time, what string) {
	d.now = t
	d.printf("\n  %s  %s\n", showTime(t), what)
}

func (d *demo) note(text string) memory.Note {
	return memory.Note{Text: text, Source: memory.Source{Kind: "demo"}}
}

func show(f memory.Fact) string { return fmt.Sprintf("#%d %s", f.ID, f.Text) }

// expect prints facts and fails unless they are exactly want: the demo
// doubles as a test of the story it tells.
func (d *demo) expect(what string, got []memory.Fact, want ...memory.Fact) error {
	for _, f := range got {
		d.printf("      %s\n", show(f))
	}
	if len(got) == 0 {
		d.printf("      (nothing)\n")
	}
	ids := func(fs []memory.Fact) []uint64 {
		out := make([]uint64, len(fs))
		for i, f := range fs {
			out[i] = f.ID
		}
		slices.Sort(out)
		return out
	}
	if g, w := ids(got), ids(want); !slices.Equal(g, w) {
		return fmt.Errorf("demo: %s returned facts %v, the story expects %v", what, g, w)
	}
	return nil
}

// ask asks At a question and checks the answer; a zero time means now.
func (d *demo) ask(question string, event, known time.Time, want ...memory.Fact) error {
	label := func(t time.Time) string {
		if t.IsZero() {
			return "now"
		}
		return showTime(t)
	}
	call := fmt.Sprintf("At(event %s, known %s)", label(event), label(known))
	d.printf("\n    Q: %s\n    %s returns:\n", question, call)
	got, err := d.s.At(d.ctx, "", event, known)
	if err != nil {
		return err
	}
	return d.expect(call, got, want...)
}

func (d *demo) list(want ...memory.Fact) error {
	d.printf("    Current facts (List):\n")
	got, err := d.s.List(d.ctx, "", nil)
	if err != nil {
		return err
	}
	return d.expect("List", got, want...)
}

func (d *demo) story() error {
	ctx, s := d.ctx, d.s
	d.printf("A bi-temporal memory, told as a story (temporary store, no model).\n")
	d.printf("Record time is when the store learned a fact; event time is when it was true.\n")

	d.printf("\n1. The user tells us things\n")
	d.on(date(2026, 3, 10), `The user says: "I work at company A."`)
	a, err := s.Add(ctx, d.note("I work at company A."))
	if err != nil {
		return err
	}
	d.printf("    Add → %s\n", show(a))
	d.claims(a)
	d.on(date(2026, 3, 12), `The user says: "I have a dog named Rex."`)
	rex, err := s.Add(ctx, d.note("I have a dog named Rex."))
	if err != nil {
		return err
	}
	d.printf("    Add → %s\n", show(rex))
	d.claims(rex)

	d.printf("\n2. The world changed, and we hear of it late\n")
	d.on(date(2026, 8, 20), `The user says: "I moved to company B back in June."`)
	n := d.note("I work at company B.")
	n.EventFrom = date(2026, 6, 1)
	b, err := s.Supersede(ctx, n.User, a.ID, n)
	if err != nil {
		return err
	}
	d.printf("    Supersede #%d, event from %s → %s\n", a.ID, showTime(n.EventFrom), show(b))
	d.printf("    #%d is not erased: it is kept as history, true until %s.\n", a.ID, showTime(n.EventFrom))

	d.printf("\n3. Questions, asked on %s\n", showTime(d.now))
	if err := d.ask("Where did I work in May?", date(2026, 5, 15), time.Time{}, a, rex); err != nil {
		return err
	}
	d.printf("    (At returns every fact true at that time, so the dog comes along.)\n")
	if err := d.ask("Where did I work in July?", date(2026, 7, 1), time.Time{}, b, rex); err != nil {
		return err
	}
	if err := d.ask("What did you believe on 1 August about July?", date(2026, 7, 1), date(2026, 8, 1), a, rex); err != nil {
		return err
	}
	d.printf("    (On 1 August we had not yet heard of the move.)\n")
	if err := d.ask("Where do I work now?", time.Time{}, time.Time{}, b, rex); err != nil {
		return err
	}
	if err := d.graphQuestions(a, b); err != nil {
		return err
	}

	d.printf("\n4. A correction: a fact that was never true\n")
	d.on(date(2026, 9, 2), `The user says: "The team offsite is on Tuesday 15 September."`)
	tue, err := s.Add(ctx, d.note("The team offsite is on Tuesday 15 September."))
	if err != nil {
		return err
	}
	d.printf("    Add → %s\n", show(tue))
	d.on(date(2026, 9, 3), `The user says: "Sorry, I was wrong: the offsite is on Wednesday 16 September."`)
	tue, err = s.Invalidate(ctx, "", tue.ID, memory.Change{Origin: memory.OriginUser, Reason: "the user corrected the day"})
	if err != nil {
		return err
	}
	d.printf("    Invalidate #%d → %s (kept as history, never shown as true)\n", tue.ID, tue.State())
	wed, err := s.Add(ctx, d.note("The team offsite is on Wednesday 16 September."))
	if err != nil {
		return err
	}
	d.printf("    Add → %s\n", show(wed))
	if err := d.list(rex, b, wed); err != nil {
		return err
	}
	noon := date(2026, 9, 2).Add(12 * time.Hour)
	if err := d.ask("What did we believe at noon on 2 September?", time.Time{}, noon, rex, b, tue); err != nil {
		return err
	}

	d.printf("\n5. An undo: automation makes a mistake\n")
	d.on(date(2026, 9, 10), "Automation, tidying up, retracts the dog as stale.")
	auto := memory.Change{Origin: memory.OriginAuto, Reason: "automation: no mention of a pet for six months"}
	if _, err := s.Invalidate(ctx, "", rex.ID, auto); err != nil {
		return err
	}
	d.printf("    Invalidate #%d (automatic)\n", rex.ID)
	if err := d.list(b, wed); err != nil {
		return err
	}
	d.printf("    The user notices: \"Rex is still my dog!\"\n")
	if rex, err = s.Restore(ctx, "", rex.ID, memory.Change{Origin: memory.OriginUser, Reason: "the user still has Rex"}); err != nil {
		return err
	}
	d.printf("    Restore #%d → %s\n", rex.ID, rex.State())
	if rex, err = s.Pin(ctx, "", rex.ID); err != nil {
		return err
	}
	d.printf("    Pin #%d, so automation cannot touch it again\n", rex.ID)
	if err := d.list(rex, b, wed); err != nil {
		return err
	}
	_, err = s.Invalidate(ctx, "", rex.ID, auto)
	if !errors.Is(err, memory.ErrPinned) {
		return fmt.Errorf("demo: automatic Invalidate of pinned fact #%d gave error %v, the story expects %v", rex.ID, err, memory.ErrPinned)
	}
	d.printf("    Automation tries again → refused: %v\n", err)

	d.printf("\n6. What the assistant sees, and what the store remembers\n")
	if err := d.prompt(rex, b, wed, a, tue); err != nil {
		return err
	}
	d.printf("\n    History of #%d:\n", a.ID)
	h, err := s.History(ctx, "", a.ID)
	if err != nil {
		return err
	}
	for _, f := range h {
		span, err := eventSpan(ctx, s, f)
		if err != nil {
			return err
		}
		d.printf("      #%d  %-10s  recorded %s  true %s  %s\n", f.ID, f.State(), showTime(f.RecordedAt), span, f.Text)
	}
	if len(h) != 2 || h[0].ID != a.ID || h[1].ID != b.ID {
		return fmt.Errorf("demo: History(#%d) returned %d versions, the story expects #%d then #%d", a.ID, len(h), a.ID, b.ID)
	}
	if err := d.remember(b, rex, wed); err != nil {
		return err
	}
	if err := d.forget(tue, wed); err != nil {
		return err
	}
	if err := d.graph(a, b); err != nil {
		return err
	}
	if err := d.merge(); err != nil {
		return err
	}
	trip, err := d.interval()
	if err != nil {
		return err
	}
	if err := d.inspector(trip); err != nil {
		return err
	}
	if err := d.contradiction(); err != nil {
		return err
	}
	if err := d.assistant(); err != nil {
		return err
	}
	if err := d.owned(); err != nil {
		return err
	}
	if err := d.kept(); err != nil {
		return err
	}
	if err := d.restore(); err != nil {
		return err
	}
	if err := d.search(); err != nil {
		return err
	}
	if err := d.onCluster(); err != nil {
		return err
	}
	d.printf("\nThe end: nothing was forgotten unless the user asked, and every answer names the time it speaks of.\n")
	return nil
}

// prompt shows what the assistant is told: a note on a fact that may
// contradict the pinned one, a budget that leaves a fact out of this
// prompt only, and the note gone once the conflict is resolved.
func (d *demo) prompt(rex, job, offsite memory.Fact, gone ...memory.Fact) error {
	ctx, s := d.ctx, d.s
	said := "I no longer have a dog."
	d.on(date(2026, 9, 12), fmt.Sprintf("The user says: %q", said))
	out, err := s.Remember(ctx, d.note(said))
	if err != nil {
		return err
	}
	dec := out.Decision
	if dec.Conflict == 0 || dec.Target != rex.ID {
		return fmt.Errorf("demo: Remember decided %s of #%d without a conflict, the story expects a conflict with pinned #%d", dec.Action, dec.Target, rex.ID)
	}
	d.printf("    Remember → %s #%d, conflict %d with pinned #%d, which automation may not touch\n", dec.Action, dec.Added, dec.Conflict, rex.ID)
	p, err := s.Prompt(ctx, "", nil)
	if err != nil {
		return err
	}
	d.printPrompt("Prompt", p)
	for _, f := range []memory.Fact{rex, job, offsite, out.Fact} {
		if !strings.Contains(p, f.Text) {
			return fmt.Errorf("demo: the prompt lacks current fact %s", show(f))
		}
	}
	for _, f := range gone {
		if strings.Contains(p, f.Text) {
			return fmt.Errorf("demo: the prompt shows fact %s, which is no longer true", show(f))
		}
	}
	if !strings.Contains(p, "which is pinned and stands — ask)") {
		return fmt.Errorf("demo: the prompt has no note on conflict %d", dec.Conflict)
	}
	opts := &memory.PromptOptions{Budget: 160, For: "Where do I work now?"}
	if p, err = s.Prompt(ctx, "", opts); err != nil {
		return err
	}
	d.printPrompt(fmt.Sprintf("Prompt(Budget %d, For %q)", opts.Budget, opts.For), p)
	es, err := s.ExplainPrompt(ctx, "", opts)
	if err != nil {
		return err
	}
	left := 0
	for _, e := range es {
		if !e.In {
			left++
			d.printf("      left out of this prompt only, still current: %s (%s)\n", show(e.Fact), strings.Join(e.Why, "; "))
		}
	}
	if left == 0 || !strings.Contains(p, job.Text) || !strings.Contains(p, rex.Text) {
		return fmt.Errorf("demo: the budgeted prompt left out %d facts, the story expects the pinned dog and the job in and one out", left)
	}
	if _, err := s.ResolveConflict(ctx, "", dec.Conflict, memory.KeepExisting); err != nil {
		return err
	}
	if p, err = s.Prompt(ctx, "", nil); err != nil {
		return err
	}
	if strings.Contains(p, "unconfirmed") || strings.Contains(p, said) {
		return fmt.Errorf("demo: the prompt still shows conflict %d after it was resolved", dec.Conflict)
	}
	d.printf("    The user confirms Rex: ResolveConflict(%d, keep existing) retracts #%d, and the note is gone.\n", dec.Conflict, dec.Added)
	return nil
}

func (d *demo) printPrompt(title, p string) {
	d.printf("    %s:\n", title)
	for _, line := range strings.Split(strings.TrimRight(p, "\n"), "\n") {
		d.printf("      %s\n", line)
	}
}

// remember lets the embedded rules decider reconcile a new fact with the
// current ones: it finds the job the fact changes, supersedes it, and takes
// the event time from the words.
func (d *demo) remember(job memory.Fact, others ...memory.Fact) error {
	ctx, s := d.ctx, d.s
	d.printf("\n7. Remember: the store decides what a new fact does to the old ones\n")
	said := "From 1 October I now work at company C; I am leaving company B."
	d.on(date(2026, 9, 20), fmt.Sprintf("The user says: %q", said))
	out, err := s.Remember(ctx, d.note(said))
	if err != nil {
		return err
	}
	dec := out.Decision
	d.printf("    Remember → %s #%d (decider %s: %s)\n", dec.Action, dec.Target, dec.Decider, dec.Reason)
	if dec.Action != memory.ActionUpdate || dec.Target != job.ID || dec.Fallback != "" {
		return fmt.Errorf("demo: Remember decided %s of #%d (fallback %q), the story expects an update of #%d", dec.Action, dec.Target, dec.Fallback, job.ID)
	}
	c := out.Fact
	if want := date(2026, 10, 1); !c.EventFrom.Equal(want) || c.EventSource != memory.EventFromWords {
		return fmt.Errorf("demo: the new fact starts %s (%s), the story expects %s from the words", showTime(c.EventFrom), c.EventSource, showTime(want))
	}
	d.printf("    Stored #%d, true from %s (event time from the words); #%d is kept as history.\n", c.ID, showTime(c.EventFrom), job.ID)
	d.printf("    The decision is logged: memctl undo %d would reverse it.\n", dec.ID)
	d.printf("    The %s decider needs no model; memctl remember --decider ollama or openai asks one.\n", dec.Decider)
	if err := d.ask("Where do I work at the end of September?", date(2026, 9, 25), time.Time{}, append(others, job)...); err != nil {
		return err
	}
	return d.ask("Where will I work on 5 October?", date(2026, 10, 5), time.Time{}, append(others, c)...)
}

// forget hard-deletes the offsite, both versions, and checks that no copy
// of its words is left: not in the facts, the export, or the file.
func (d *demo) forget(facts ...memory.Fact) error {
	ctx, s := d.ctx, d.s
	d.printf("\n8. Forgetting for good: a hard delete\n")
	d.on(date(2026, 9, 21), `The user says: "Forget everything about the offsite."`)
	for _, f := range facts {
		ids, err := s.Delete(ctx, "", f.ID, nil)
		if err != nil {
			return err
		}
		d.printf("    Delete #%d → erased %v\n", f.ID, ids)
		if _, err := s.Get(ctx, "", f.ID); !errors.Is(err, memory.ErrNotFound) {
			return fmt.Errorf("demo: Get(#%d) after its delete gave %v, the story expects %v", f.ID, err, memory.ErrNotFound)
		}
	}
	var export strings.Builder
	if err := s.Export(ctx, &export); err != nil {
		return err
	}
	raw, err := os.ReadFile(s.Path())
	if err != nil {
		return err
	}
	for _, f := range facts {
		if strings.Contains(export.String(), f.Text) || strings.Contains(string(raw), f.Text) {
			return fmt.Errorf("demo: the text of deleted fact #%d is still in the export or the file", f.ID)
		}
	}
	if err := s.Check(ctx); err != nil {
		return fmt.Errorf("demo: Check after the deletes: %w", err)
	}
	d.printf("    Neither the export nor the store's file holds their words; the index was dropped\n")
	d.printf("    with them, the file's free pages overwritten, and Check is clean.\n")
	return nil
}
