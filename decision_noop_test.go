package memory_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// Undo of a restatement cancels its confirmation in one write: the
// confirmed step stays in the log, a later step naming the undone decision
// marks it cancelled, and the prompt ranks the
// fact as if it had never been told again; Check, an export round trip
// and a later restatement all agree.
func TestUndoNoopCancelsConfirmation(t *testing.T) {
	c := newClock("2026-01-05")
	const old = "I play chess on Sundays."
	s, _ := open(t, c, &memory.Options{Decider: noopOf(old)})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: old}))
	c.set("2026-02-01")
	b := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My favourite colour is green."}))
	c.set("2026-03-01")
	noop := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play chess on Sundays!"}))
	if noop.Decision.Action != memory.ActionNoop || noop.Decision.Target != a.ID {
		t.Fatalf("setup: %+v", noop.Decision)
	}
	// Room for one line: the confirmed chess fact outranks the colour.
	opts := &memory.PromptOptions{Budget: 40, HalfLife: 30 * 24 * time.Hour}
	c.set("2026-04-01")
	if p := must[string](t)(s.Prompt(ctx, "", opts)); !promptHas(p, old) || promptHas(p, b.Text) {
		t.Fatalf("setup: the confirmed fact should be in:\n%s", p)
	}

	must[memory.Decision](t)(s.Undo(ctx, "", noop.Decision.ID))
	evs := must[[]memory.Event](t)(s.Events(ctx, "", a.ID))
	if len(evs) != 3 || evs[1].Kind != memory.EventConfirmed || evs[1].Decision != noop.Decision.ID ||
		evs[2].Kind != memory.EventUnconfirmed || evs[2].Undoes != noop.Decision.ID || !evs[2].At.Equal(date("2026-04-01")) ||
		evs[2].Origin != memory.OriginUser {
		t.Fatalf("log after the undo: %+v", evs)
	}
	if g := getFact(t, s, "", a.ID); g.State() != memory.Current {
		t.Fatalf("undo of a restatement changed its target: %+v", g)
	}
	wantUnconfirmed := func(s *memory.Store, when string) {
		t.Helper()
		es := must[[]memory.PromptEntry](t)(s.ExplainPrompt(ctx, "", opts))
		if len(es) != 2 || es[0].Fact.ID != b.ID || !es[0].In || es[1].Fact.ID != a.ID || es[1].In {
			t.Fatalf("%s: the colour, told later than chess, should be in and chess out: %+v", when, es)
		}
		if e := es[1]; !e.Confirmed.IsZero() || !e.FreshFrom.Equal(a.RecordedAt) || !strings.Contains(strings.Join(e.Why, "; "), "recorded 2026-01-05") {
			t.Fatalf("%s: the undone confirmation still counts: %+v", when, e)
		}
		if p := must[string](t)(s.Prompt(ctx, "", opts)); promptHas(p, old) || !promptHas(p, b.Text) {
			t.Fatalf("%s: prompt:\n%s", when, p)
		}
	}
	wantUnconfirmed(s, "after the undo")
	checkClean(t, s)
	if _, err := s.Undo(ctx, "", noop.Decision.ID); !errors.Is(err, memory.ErrAlreadyUndone) {
		t.Fatalf("second undo: %v", err)
	}

	// An export carries the cancelling step; the import reads it the same.
	exp := snapshot(t, s)
	s2, _ := open(t, c, nil)
	must[int](t)(s2.Import(ctx, strings.NewReader(exp), nil))
	if got := must[[]memory.Event](t)(s2.Events(ctx, "", a.ID)); fmt.Sprint(got) != fmt.Sprint(evs) {
		t.Fatalf("imported log %+v, exported %+v", got, evs)
	}
	wantUnconfirmed(s2, "imported")
	checkClean(t, s2)
	if snapshot(t, s2) != exp {
		t.Fatal("export of the import differs")
	}

	// Told again, it is confirmed again: the undone step still does not count.
	c.set("2026-04-02")
	again := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play chess on Sundays."}))
	if again.Decision.Action != memory.ActionNoop {
		t.Fatalf("setup: %+v", again.Decision)
	}
	es := must[[]memory.PromptEntry](t)(s.ExplainPrompt(ctx, "", opts))
	if es[0].Fact.ID != a.ID || !es[0].Confirmed.Equal(date("2026-04-02")) {
		t.Fatalf("after a new restatement: %+v", es)
	}
	if evs := must[[]memory.Event](t)(s.Events(ctx, "", a.ID)); len(evs) != 4 || evs[3].Kind != memory.EventConfirmed || evs[3].Decision != again.Decision.ID {
		t.Fatalf("log after the new restatement: %+v", evs)
	}
	checkClean(t, s)
}

// An import whose log cancels a confirmation it does not hold, or one of
// a decision that is not undone, is refused, as Check refuses such a log.
func TestImportRefusesUnconfirmedWithoutConfirmation(t *testing.T) {
	c, exp := undoneNoopExport(t)
	// The decision it names must be an undone restatement of the fact.
	var still []string
	for _, l := range strings.Split(exp, "\n") {
		var x map[string]map[string]any
		if json.Unmarshal([]byte(l), &x) == nil && x["decision"] != nil {
			delete(x["decision"], "undone_at")
			b, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			l = string(b)
		}
		still = append(still, l)
	}
	s3, _ := open(t, c, nil)
	_, err := s3.Import(ctx, strings.NewReader(strings.Join(still, "\n")), nil)
	if !errors.Is(err, memory.ErrBadImport) || !strings.Contains(err.Error(), "no undone restatement") {
		t.Fatalf("import of a cancel whose decision is not undone: %v", err)
	}

	lines := strings.Split(exp, "\n")
	dropped := false
	for i, l := range lines {
		var f map[string]any
		if json.Unmarshal([]byte(l), &f) != nil || f["log"] == nil {
			continue
		}
		var kept []any
		for _, st := range f["log"].([]any) {
			if st.(map[string]any)["kind"] == "confirmed" {
				dropped = true
				continue
			}
			kept = append(kept, st)
		}
		f["log"] = kept
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		lines[i] = string(b)
	}
	if !dropped {
		t.Fatal("setup: no confirmed step in the export")
	}
	s2, _ := open(t, c, nil)
	_, err = s2.Import(ctx, strings.NewReader(strings.Join(lines, "\n")), nil)
	if !errors.Is(err, memory.ErrBadImport) || !strings.Contains(err.Error(), "cancels no confirmation of decision") {
		t.Fatalf("import of a cancel without its confirmation: %v", err)
	}
}

// The unconfirmed step came with export version 7: a file of an earlier
// version that holds one is refused, not read as that version never wrote.
func TestImportRefusesUnconfirmedBeforeVersion7(t *testing.T) {
	c, exp := undoneNoopExport(t)
	if !strings.Contains(exp, `"unconfirmed"`) {
		t.Fatalf("setup: want an export with an unconfirmed step:\n%s", exp)
	}
	s2, _ := open(t, c, nil)
	_, err := s2.Import(ctx, strings.NewReader(shared(t, exp, 6)), nil)
	if !errors.Is(err, memory.ErrBadImport) || !strings.Contains(err.Error(), "an unconfirmed step in a version 6 export") {
		t.Fatalf("import of version 6 with an unconfirmed step: %v", err)
	}
	if n := must[int](t)(s2.Import(ctx, strings.NewReader(exp), nil)); n == 0 {
		t.Fatal("the version 7 export imported nothing")
	}
}

// undoneNoopExport is the export of a store where a restatement was
// undone, with the clock it ran on.
func undoneNoopExport(t *testing.T) (*clock, string) {
	t.Helper()
	c := newClock("2026-01-05")
	const old = "I play chess on Sundays."
	s, _ := open(t, c, &memory.Options{Decider: noopOf(old)})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: old}))
	c.set("2026-03-01")
	noop := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play chess on Sundays!"}))
	c.set("2026-04-01")
	must[memory.Decision](t)(s.Undo(ctx, "", noop.Decision.ID))
	exp := snapshot(t, s)
	return c, exp
}
