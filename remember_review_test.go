package memory_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// Check beside a stream of writes never reports false corruption or
// crashes: it holds writes off while bbolt's page check runs.
func TestCheckBesideWrites(t *testing.T) {
	s, _ := open(t, nil, nil)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 300 {
			if _, err := s.Add(ctx, memory.Note{Text: strings.Repeat("word ", 20) + string(rune('a'+i%26))}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 30 {
		if err := s.Check(ctx); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
}

// A decider's event time outside the years 1900 to 2199 is an invalid answer, not a
// silently wrapped date.
func TestDeciderEventTimeOutOfRange(t *testing.T) {
	far := &funcDecider{name: "custom", fn: func(context.Context, memory.DecideInput) (memory.Verdict, error) {
		return memory.Verdict{Action: memory.ActionAdd, EventFrom: time.Date(2500, 1, 1, 0, 0, 0, 0, time.UTC), Decider: "custom"}, nil
	}}
	s, _ := open(t, newClock("2026-01-01"), &memory.Options{NoSync: true, Decider: far})
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I started a pottery class."}))
	if out.Decision.Fallback == "" || !out.Fact.EventFrom.IsZero() {
		t.Errorf("decision %+v, fact %+v", out.Decision, out.Fact)
	}
}

// Undo of an invalidate refuses when the target was restored and changed
// again since.
func TestUndoInvalidateStale(t *testing.T) {
	c := newClock("2026-01-01")
	inv := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		return memory.Verdict{Action: memory.ActionInvalidate, Target: 1, Decider: "custom"}, nil
	}}
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: inv, Lookup: memory.LookupStems})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister lives in Milan."}))
	c.set("2026-03-01")
	must[memory.Fact](t)(s.Restore(ctx, "", a.ID, memory.Change{}))
	must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "My sister lives in Turin."}))
	before := snapshot(t, s)
	if _, err := s.Undo(ctx, "", out.Decision.ID); !errors.Is(err, memory.ErrUndoStale) {
		t.Errorf("undo after the target changed again: %v", err)
	}
	if snapshot(t, s) != before {
		t.Error("a refused undo changed the store")
	}
}

// An export whose decision names another user's facts is refused at import.
func TestImportRefusesDecisionAcrossUsers(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}, Lookup: memory.LookupStems})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "alice", Text: "I live in Lyon."}))
	c.set("2026-02-01")
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{User: "alice", Text: "I live in Paris now, not Lyon."}))
	exp := snapshot(t, s)
	bad := strings.Replace(exp, `{"decision":{"id":1,"at":"2026-02-01T00:00:00Z","user":"alice"`, `{"decision":{"id":1,"at":"2026-02-01T00:00:00Z","user":"mallory"`, 1)
	if bad == exp {
		t.Fatal("the mutation did not apply")
	}
	dst, _ := open(t, c, nil)
	if _, err := dst.Import(ctx, strings.NewReader(bad), nil); !errors.Is(err, memory.ErrBadImport) {
		t.Errorf("import: %v", err)
	}
}

// Whatever a decider says, the log keeps it bounded, so every export
// imports again.
func TestHugeDeciderTextIsBounded(t *testing.T) {
	huge := &funcDecider{name: "custom", fn: func(context.Context, memory.DecideInput) (memory.Verdict, error) {
		return memory.Verdict{Action: memory.ActionAdd, Reason: strings.Repeat("я", 3<<20), Raw: strings.Repeat("x", 5<<20), Decider: "custom"}, nil
	}}
	s, _ := open(t, newClock("2026-01-01"), &memory.Options{NoSync: true, Decider: huge})
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I like tea."}))
	if len(out.Decision.Raw) > memory.MaxDecisionText || len(out.Decision.Reason) > memory.MaxDecisionText || !strings.HasPrefix(out.Decision.Reason, "я") {
		t.Errorf("raw %d bytes, reason %d bytes", len(out.Decision.Raw), len(out.Decision.Reason))
	}
	dst, _ := open(t, nil, nil)
	if _, err := dst.Import(ctx, strings.NewReader(snapshot(t, s)), nil); err != nil {
		t.Fatal(err)
	}
}
