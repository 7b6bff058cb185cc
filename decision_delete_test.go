package memory_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// refusedDecision is a store whose decider (model qqjudge-5521) failed
// with a provider's code qqcode_77, and the refusal (FallbackError) it
// logged: a decision no fact holds, which no Delete of a fact reaches.
func refusedDecision(t *testing.T) (*memory.Store, string, memory.Decision) {
	t.Helper()
	srv := openaitest.New(t)
	srv.Chat = func(openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Status: 400, Body: openaitest.ErrorBody("flagged", "invalid_request_error", "qqcode_77")}
	}
	dec := must[memory.Decider](t)(memory.OpenAIDecider("qqjudge-5521", &memory.OpenAIOptions{BaseURL: srv.BaseURL(), Timeout: time.Second}))
	s, path := open(t, newClock("2026-01-01"), &memory.Options{Decider: dec, Fallback: memory.FallbackError})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	out, err := s.Remember(ctx, memory.Note{Text: "I live in Paris now."})
	if !errors.Is(err, memory.ErrDecider) || out.Decision.ID == 0 || out.Decision.Added != 0 {
		t.Fatalf("%v %+v", err, out)
	}
	return s, path, out.Decision
}

// A refused decision's record is erased for good: no byte of it is left
// in the file, the log no longer lists it, Check is clean, an export
// imports, and its id is not given again.
func TestDeleteDecisionLeavesNoBytes(t *testing.T) {
	s, path, d := refusedDecision(t)
	dir := filepath.Dir(path)
	for _, needle := range []string{"qqjudge-5521", "qqcode_77"} {
		if !dirContains(t, dir, needle) {
			t.Fatalf("test is void: %q was never in the file", needle)
		}
	}
	if err := s.DeleteDecision(ctx, "", d.ID); err != nil {
		t.Fatal(err)
	}
	for _, needle := range []string{"qqjudge-5521", "qqcode_77"} {
		if dirContains(t, dir, needle) {
			t.Errorf("%q is still in the store's files", needle)
		}
	}
	if ds := must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)); len(ds) != 0 {
		t.Errorf("decisions %+v", ds)
	}
	if err := s.DeleteDecision(ctx, "", d.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("a second delete: %v", err)
	}
	checkClean(t, s)
	dump := snapshot(t, s)
	s2, _ := open(t, nil, nil)
	if _, err := s2.Import(ctx, strings.NewReader(dump), nil); err != nil {
		t.Errorf("import of the export: %v", err)
	}
	out, _ := s.Remember(ctx, memory.Note{Text: "I drink green tea."}) // refused too, and logged
	if out.Decision.ID <= d.ID {
		t.Errorf("decision id %d given again after %d was deleted", out.Decision.ID, d.ID)
	}
}

// A decision that added, superseded, retracted or confirmed a fact that
// still exists goes with Delete of that fact: DeleteDecision refuses it
// and changes nothing. Once its facts are deleted, it can go.
func TestDeleteDecisionRefusesOneWithAFact(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), nil)
	lyon := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	moved := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris now, I no longer live in Lyon."}))
	tea := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I drink green tea."}))
	again := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I drink green tea."}))
	if moved.Decision.Action != memory.ActionUpdate || tea.Decision.Action != memory.ActionAdd || again.Decision.Action != memory.ActionNoop {
		t.Fatalf("test is void: %s %s %s", moved.Decision.Action, tea.Decision.Action, again.Decision.Action)
	}
	before := snapshot(t, s)
	for _, d := range []memory.Decision{moved.Decision, tea.Decision, again.Decision} {
		if err := s.DeleteDecision(ctx, "", d.ID); !errors.Is(err, memory.ErrDecisionHasFact) {
			t.Errorf("decision %d (%s): %v, want ErrDecisionHasFact", d.ID, d.Action, err)
		}
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused DeleteDecision changed the store")
	}
	// The update's new fact deleted, its target restored: the target's log
	// still names the decision, so it stays until the target goes too.
	must[[]uint64](t)(s.Delete(ctx, "", moved.Fact.ID, nil))
	if err := s.DeleteDecision(ctx, "", moved.Decision.ID); !errors.Is(err, memory.ErrDecisionHasFact) {
		t.Errorf("with its target left: %v", err)
	}
	must[[]uint64](t)(s.Delete(ctx, "", lyon.ID, nil))
	must[[]uint64](t)(s.Delete(ctx, "", tea.Fact.ID, nil))
	for _, d := range []memory.Decision{moved.Decision, tea.Decision, again.Decision} {
		if err := s.DeleteDecision(ctx, "", d.ID); err != nil {
			t.Errorf("decision %d once its facts are gone: %v", d.ID, err)
		}
	}
	if ds := must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)); len(ds) != 0 {
		t.Errorf("%d decisions left, the first %+v", len(ds), ds[0])
	}
	checkClean(t, s)
}

// The bad calls: a decision of another user, or none, is not found; a
// read-only or closed store refuses; nothing changes.
func TestDeleteDecisionBadCalls(t *testing.T) {
	s, path, d := refusedDecision(t)
	if err := s.DeleteDecision(ctx, "bob", d.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("another user's: %v", err)
	}
	if err := s.DeleteDecision(ctx, "", d.ID+100); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("no such decision: %v", err)
	}
	s.Close()
	if err := s.DeleteDecision(ctx, "", d.ID); !errors.Is(err, memory.ErrClosed) {
		t.Errorf("closed: %v", err)
	}
	ro := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true}))
	defer ro.Close()
	if err := ro.DeleteDecision(ctx, "", d.ID); !errors.Is(err, memory.ErrReadOnly) {
		t.Errorf("read-only: %v", err)
	}
	if ds := must[[]memory.Decision](t)(ro.Decisions(ctx, "", 0)); len(ds) != 1 || ds[0].ID != d.ID {
		t.Errorf("decisions %+v", ds)
	}
}

// A store file with another name is the same inode: DeleteDecision
// scrubs it in place, and the decision leaves both names.
func TestDeleteDecisionOfALinkedFile(t *testing.T) {
	s, path, d := refusedDecision(t)
	other := filepath.Join(t.TempDir(), "other.db")
	if err := os.Link(path, other); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if err := s.DeleteDecision(ctx, "", d.ID); err != nil {
		t.Fatal(err)
	}
	if ds := must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)); len(ds) != 0 {
		t.Errorf("decisions %+v", ds)
	}
	a, _ := os.Stat(path)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the store split in two")
	}
}
