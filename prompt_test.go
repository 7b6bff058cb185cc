package memory_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory"
	"pgregory.net/rapid"
)

// promptLines are the fact lines of a prompt, both sections.
func promptLines(p string) []string {
	var out []string
	for _, l := range strings.Split(p, "\n") {
		if strings.HasPrefix(l, "- ") {
			out = append(out, l)
		}
	}
	return out
}

func promptHas(p, text string) bool {
	return slices.ContainsFunc(promptLines(p), func(l string) bool { return strings.HasPrefix(l, "- "+text) })
}

// noopOf answers noop of the candidate whose text is target, else add.
func noopOf(target string) *funcDecider {
	return &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		for _, c := range in.Candidates {
			if c.Text == target {
				return memory.Verdict{Action: memory.ActionNoop, Target: c.N, Reason: "restates it", Decider: "custom"}, nil
			}
		}
		return memory.Verdict{Action: memory.ActionAdd, Reason: "new", Decider: "custom"}, nil
	}}
}

// An old fact nobody repeats loses its place to a fresh one; told again,
// it is fresh again. Out of the prompt it stays current.
func TestPromptRankingOverMonths(t *testing.T) {
	c := newClock("2026-01-05")
	const old = "I play chess on Sundays."
	s, _ := open(t, c, &memory.Options{Decider: noopOf(old)})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: old}))
	c.set("2026-05-10")
	b := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My favourite colour is green."}))
	c.set("2026-06-01")
	// Room for one of the two lines.
	opts := &memory.PromptOptions{Budget: 40, HalfLife: 30 * 24 * time.Hour}
	p := must[string](t)(s.Prompt(ctx, "", opts))
	if promptHas(p, old) || !promptHas(p, b.Text) {
		t.Fatalf("in June, the fact of May should outrank the one of January:\n%s", p)
	}
	es := must[[]memory.PromptEntry](t)(s.ExplainPrompt(ctx, "", opts))
	if len(es) != 2 || es[0].Fact.ID != b.ID || !es[0].In || es[1].Fact.ID != a.ID || es[1].In ||
		!(es[0].Freshness > es[1].Freshness) || !strings.Contains(strings.Join(es[1].Why, "; "), "over budget") {
		t.Fatalf("explain: %+v", es)
	}
	// Forgotten from this prompt only.
	wantAt(t, s, "", "", "", a.ID, b.ID)
	if g := getFact(t, s, "", a.ID); g.State() != memory.Current {
		t.Fatalf("fact %d left the prompt and is %s", a.ID, g.State())
	}

	c.set("2026-06-02")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play chess on Sundays!"}))
	if out.Decision.Action != memory.ActionNoop || out.Decision.Target != a.ID {
		t.Fatalf("decision %+v", out.Decision)
	}
	p = must[string](t)(s.Prompt(ctx, "", opts))
	if !promptHas(p, old) || promptHas(p, b.Text) {
		t.Fatalf("told again on 2 June, the chess fact should be back:\n%s", p)
	}
	es = must[[]memory.PromptEntry](t)(s.ExplainPrompt(ctx, "", opts))
	if es[0].Fact.ID != a.ID || !es[0].Confirmed.Equal(date("2026-06-02")) || !strings.Contains(strings.Join(es[0].Why, "; "), "confirmed 2026-06-02") {
		t.Fatalf("explain after the restatement: %+v", es[0])
	}
	// Months later neither was told again: the one of May is the fresher.
	c.set("2026-12-01")
	if p = must[string](t)(s.Prompt(ctx, "", opts)); !promptHas(p, old) {
		t.Fatalf("the chess fact was confirmed after the colour was told:\n%s", p)
	}
}

// A noop writes a confirmed step on its target, with its decision, which
// the log, Check, At and an export round trip all take.
func TestRememberNoopConfirms(t *testing.T) {
	c := newClock("2026-01-05")
	const old = "I play chess on Sundays."
	s, _ := open(t, c, &memory.Options{Decider: noopOf(old)})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: old}))
	c.set("2026-03-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play chess on Sundays!"}))
	evs := must[[]memory.Event](t)(s.Events(ctx, "", a.ID))
	if len(evs) != 2 || evs[1].Kind != memory.EventConfirmed || !evs[1].At.Equal(date("2026-03-01")) ||
		evs[1].Decision != out.Decision.ID || evs[1].Origin != memory.OriginAuto {
		t.Fatalf("log of the restated fact: %+v", evs)
	}
	if g := getFact(t, s, "", a.ID); g.State() != memory.Current || !g.RecordedAt.Equal(a.RecordedAt) || g.EventStart != a.EventStart {
		t.Fatalf("confirmed fact %+v, was %+v", g, a)
	}
	wantAt(t, s, "", "2026-02-01", "2026-02-01", a.ID)
	wantAt(t, s, "", "2026-02-01", "", a.ID)
	checkClean(t, s)

	var b bytes.Buffer
	if err := s.Export(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"confirmed"`) {
		t.Fatalf("export lacks the confirmed step:\n%s", b.String())
	}
	s2, _ := open(t, c, nil)
	if _, err := s2.Import(ctx, bytes.NewReader(b.Bytes()), nil); err != nil {
		t.Fatal(err)
	}
	evs2 := must[[]memory.Event](t)(s2.Events(ctx, "", a.ID))
	if fmt.Sprint(evs2) != fmt.Sprint(evs) {
		t.Fatalf("imported log %+v, exported %+v", evs2, evs)
	}
	checkClean(t, s2)
	opts := &memory.PromptOptions{HalfLife: 24 * time.Hour}
	if e := must[[]memory.PromptEntry](t)(s2.ExplainPrompt(ctx, "", opts)); len(e) != 1 || !e[0].Confirmed.Equal(date("2026-03-01")) {
		t.Fatalf("imported store's explain: %+v", e)
	}
}

// An export written before confirmed steps existed imports and prompts
// as before.
func TestPromptOfOldExport(t *testing.T) {
	s, _ := open(t, newClock("2026-09-01"), nil)
	data := must[[]byte](t)(os.ReadFile("testdata/export-v1.jsonl"))
	if _, err := s.Import(ctx, bytes.NewReader(data), nil); err != nil {
		t.Fatal(err)
	}
	cur := must[[]memory.Fact](t)(s.List(ctx, "", nil))
	p := must[string](t)(s.Prompt(ctx, "", nil))
	for _, f := range cur {
		if f.EventStart.After(date("2026-09-01")) {
			continue
		}
		if !strings.Contains(p, strings.Join(strings.Fields(f.Text), " ")) {
			t.Errorf("prompt of the old export lacks fact %d:\n%s", f.ID, p)
		}
	}
	if strings.Contains(must[string](t)(exportString(s)), `"confirmed"`) {
		t.Error("an old export gained confirmed steps")
	}
}

func exportString(s *memory.Store) (string, error) {
	var b bytes.Buffer
	err := s.Export(ctx, &b)
	return b.String(), err
}

// Pinned facts are in whatever the budget, and rank first.
func TestPromptPinsNeverDropped(t *testing.T) {
	c := newClock("2025-01-01")
	s, _ := open(t, c, nil)
	pin := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I am allergic to penicillin.", Pinned: true}))
	c.set("2026-06-01")
	fresh := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I had pasta for lunch."}))
	for _, budget := range []int{1, 10, 31, 50} {
		opts := &memory.PromptOptions{Budget: budget, For: "What did I eat for lunch?"}
		p := must[string](t)(s.Prompt(ctx, "", opts))
		if !promptHas(p, pin.Text) {
			t.Errorf("budget %d dropped the pinned fact:\n%s", budget, p)
		}
		es := must[[]memory.PromptEntry](t)(s.ExplainPrompt(ctx, "", opts))
		if es[0].Fact.ID != pin.ID || es[0].Why[0] != "pinned" {
			t.Errorf("budget %d: first entry %+v", budget, es[0])
		}
		// 31 runes the pinned line with its break: nothing else fits.
		if got := promptHas(p, fresh.Text); got != (budget >= 31+len("- I had pasta for lunch.\n")) {
			t.Errorf("budget %d: the fresh fact in = %v:\n%s", budget, got, p)
		}
	}
}

// The message being answered brings what it concerns into a tight budget.
func TestPromptForRanksRelevant(t *testing.T) {
	c := newClock("2025-01-01")
	s, _ := open(t, c, nil)
	home := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lisbon near the river."}))
	c.set("2026-06-01")
	for _, txt := range []string{"I had pasta for lunch.", "My sister visited on Tuesday.", "The printer at work is broken."} {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: txt}))
	}
	opts := &memory.PromptOptions{Budget: 40}
	if p := must[string](t)(s.Prompt(ctx, "", opts)); promptHas(p, home.Text) {
		t.Fatalf("without a message, the old fact should be out:\n%s", p)
	}
	opts.For = "Which city do I live in?"
	p := must[string](t)(s.Prompt(ctx, "", opts))
	if !promptHas(p, home.Text) || len(promptLines(p)) != 1 {
		t.Fatalf("for %q the home fact should be the one in:\n%s", opts.For, p)
	}
	es := must[[]memory.PromptEntry](t)(s.ExplainPrompt(ctx, "", opts))
	if es[0].Fact.ID != home.ID || es[0].Relevance != 1 || len(es[0].Terms) == 0 || !strings.HasPrefix(es[0].Why[0], "relevant 1.00") {
		t.Fatalf("explain: %+v", es[0])
	}
}

// An open conflict shows on both facts' lines, each naming the other side;
// resolving it removes the notes, and NoNotes hides them.
func TestPromptConflictNotes(t *testing.T) {
	c := newClock("2026-01-10")
	s, existing, out := conflictStore(t, c) // the existing fact is pinned
	p := must[string](t)(s.Prompt(ctx, "", nil))
	want := `- I live in Paris now. (unconfirmed: contradicts "I live in Lyon.", told 2026-01-10, which is pinned and stands — ask)`
	wantPinned := `- I live in Lyon. (pinned: contradicted by "I live in Paris now.", told 2026-02-01 — ask)`
	if !slices.Contains(promptLines(p), want) || !slices.Contains(promptLines(p), wantPinned) {
		t.Fatalf("prompt:\n%s\nwant the lines %q and %q", p, want, wantPinned)
	}
	if p := must[string](t)(s.Prompt(ctx, "", &memory.PromptOptions{NoNotes: true})); strings.Contains(p, "unconfirmed") || !promptHas(p, out.Fact.Text) {
		t.Fatalf("NoNotes prompt:\n%s", p)
	}
	es := must[[]memory.PromptEntry](t)(s.ExplainPrompt(ctx, "", nil))
	if i := slices.IndexFunc(es, func(e memory.PromptEntry) bool { return e.Fact.ID == out.Fact.ID }); i < 0 || es[i].Note == "" {
		t.Fatalf("explain: %+v", es)
	}
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepBoth))
	p = must[string](t)(s.Prompt(ctx, "", nil))
	if strings.Contains(p, "unconfirmed") || !promptHas(p, out.Fact.Text) || !promptHas(p, existing.Text) {
		t.Fatalf("after keeping both:\n%s", p)
	}
}

// A conflict the decider raised because it was unsure names the fact the
// new one may replace, with when that one was told.
func TestPromptUnsureNote(t *testing.T) {
	c := newClock("2026-08-21")
	dec := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		if len(in.Candidates) == 0 {
			return memory.Verdict{Action: memory.ActionAdd, Reason: "new", Decider: "custom"}, nil
		}
		return memory.Verdict{Action: memory.ActionAdd, ConflictWith: 1, Reason: "unsure", Decider: "custom"}, nil
	}}
	s, _ := open(t, c, &memory.Options{Decider: dec})
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I now live in Berlin",
		Source: memory.Source{SaidAt: date("2026-08-20")}}))
	c.set("2026-09-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Munich."}))
	if out.Decision.Conflict == 0 {
		t.Fatalf("decision %+v", out.Decision)
	}
	p := must[string](t)(s.Prompt(ctx, "", nil))
	want := `- I live in Munich. (unconfirmed: may replace "I now live in Berlin", told 2026-08-20 — ask)`
	if !slices.Contains(promptLines(p), want) {
		t.Fatalf("prompt:\n%s\nwant the line %q", p, want)
	}
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepNew))
	p = must[string](t)(s.Prompt(ctx, "", nil))
	if strings.Contains(p, "unconfirmed") || strings.Contains(p, "Berlin") || !promptHas(p, "I live in Munich.") {
		t.Fatalf("after keeping the new one:\n%s", p)
	}
}

func TestPromptRefusesBadOptions(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), nil)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	for o, field := range map[memory.PromptOptions]string{{Budget: -1}: "PromptOptions.Budget = -1", {HalfLife: -time.Hour}: "PromptOptions.HalfLife = -1h0m0s"} {
		_, err := s.Prompt(ctx, "", &o)
		if !errors.Is(err, memory.ErrInvalidPromptOptions) {
			t.Errorf("Prompt(%+v) error %v, want ErrInvalidPromptOptions", o, err)
		} else if !strings.Contains(err.Error(), field) {
			t.Errorf("Prompt(%+v) error %q does not name %s", o, err, field)
		}
		if _, err := s.ExplainPrompt(ctx, "", &o); !errors.Is(err, memory.ErrInvalidPromptOptions) {
			t.Errorf("ExplainPrompt(%+v) error %v, want ErrInvalidPromptOptions", o, err)
		}
	}
	if _, err := s.Prompt(ctx, "", &memory.PromptOptions{For: "bad \xff"}); !errors.Is(err, memory.ErrInvalidUTF8) {
		t.Errorf("For with invalid UTF-8: error %v", err)
	}
}

// Random facts and budgets: pinned facts always in, the others within
// what the budget leaves, none left out that would have fit, the prompt
// the in entries' lines, and the same store giving the same prompt.
func TestPromptBudgetProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := newClock("2025-01-01")
		setDay := func(d time.Time) { c.mu.Lock(); c.t = d; c.mu.Unlock() }
		s, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now})
		if err != nil {
			rt.Fatal(err)
		}
		defer s.Close()
		words := []string{"Lisbon", "chess", "violin", "sister", "coffee", "Berlin", "garden", "Toyota", "printer", "lunch"}
		n := rapid.IntRange(0, 14).Draw(rt, "facts")
		for range n {
			at := date("2025-01-01").Add(time.Duration(rapid.IntRange(0, 500).Draw(rt, "day")) * 24 * time.Hour)
			setDay(at)
			text := fmt.Sprintf("I like %s and %s.", rapid.SampledFrom(words).Draw(rt, "w1"), rapid.SampledFrom(words).Draw(rt, "w2"))
			note := memory.Note{Text: text, Pinned: rapid.IntRange(0, 5).Draw(rt, "pin") == 0}
			if rapid.Bool().Draw(rt, "from") {
				note.EventFrom = at.Add(time.Duration(rapid.IntRange(-100, 100).Draw(rt, "from day")) * 24 * time.Hour)
			}
			if _, err := s.Add(ctx, note); err != nil {
				rt.Fatal(err)
			}
		}
		setDay(date("2026-06-01"))
		opts := &memory.PromptOptions{Budget: rapid.IntRange(0, 300).Draw(rt, "budget"),
			HalfLife: time.Duration(rapid.IntRange(0, 200).Draw(rt, "half-life days")) * 24 * time.Hour}
		if rapid.Bool().Draw(rt, "for") {
			opts.For = "Do I like " + rapid.SampledFrom(words).Draw(rt, "for word") + "?"
		}
		p, err := s.Prompt(ctx, "", opts)
		if err != nil {
			rt.Fatal(err)
		}
		es, err := s.ExplainPrompt(ctx, "", opts)
		if err != nil {
			rt.Fatal(err)
		}
		cur, err := s.List(ctx, "", nil)
		if err != nil {
			rt.Fatal(err)
		}
		if len(es) != len(cur) {
			rt.Fatalf("%d entries for %d current facts", len(es), len(cur))
		}
		pinned, used := 0, 0
		var in []string
		for _, e := range es {
			size := utf8.RuneCountInString(e.Line) + 1
			if e.Fact.Pinned && !e.In {
				rt.Fatalf("pinned fact %d out: %+v", e.Fact.ID, e)
			}
			if e.Fact.Pinned {
				pinned += size
			}
			if e.In {
				used += size
				in = append(in, e.Line)
			}
		}
		if opts.Budget > 0 && used > max(opts.Budget, pinned) {
			rt.Fatalf("budget %d, pinned %d, used %d:\n%s", opts.Budget, pinned, used, p)
		}
		for _, e := range es {
			if !e.In && used+utf8.RuneCountInString(e.Line)+1 <= opts.Budget {
				rt.Fatalf("fact %d left out with room for it (%d of %d used)", e.Fact.ID, used, opts.Budget)
			}
		}
		got := promptLines(p)
		slices.Sort(got)
		slices.Sort(in)
		if !slices.Equal(got, in) {
			rt.Fatalf("prompt lines %q, in entries %q", got, in)
		}
		if again := mustPrompt(rt, s, opts); again != p {
			rt.Fatalf("same input, another prompt:\n%s\n%s", p, again)
		}
	})
}

// Two stores given the same facts at the same times give the same prompt,
// ties between equally fresh facts broken by id.
func TestPromptSameInputSamePrompt(t *testing.T) {
	build := func() string {
		c := newClock("2026-03-01")
		s, _ := open(t, c, nil)
		for _, txt := range []string{"I like tea.", "I like jam.", "I like figs.", "I like rye."} {
			must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: txt}))
		}
		c.set("2026-04-01")
		return must[string](t)(s.Prompt(ctx, "", &memory.PromptOptions{Budget: 28}))
	}
	p := build()
	if want := "Facts about the user, true as of 2026-04-01:\n- I like tea.\n- I like jam.\n"; p != want {
		t.Fatalf("prompt:\n%q\nwant\n%q", p, want)
	}
	for range 3 {
		if q := build(); q != p {
			t.Fatalf("another store, another prompt:\n%s\n%s", p, q)
		}
	}
}

func mustPrompt(t *rapid.T, s *memory.Store, opts *memory.PromptOptions) string {
	p, err := s.Prompt(ctx, "", opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
