package memory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

func TestRememberDeleteScrubsDecisions(t *testing.T) {
	dir := t.TempDir()
	c := newClock("2026-01-01")
	s := must[*memory.Store](t)(memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now}))
	t.Cleanup(func() { s.Close() })
	for i := range 50 {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: fmt.Sprintf("filler fact %d", i)}))
	}
	old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My locker code is 1234."}))
	c.set("2026-02-01")
	secret := "I moved lockers, my locker code is now SECRET-LOCKER-7731."
	upd := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: secret}))
	if upd.Decision.Action != memory.ActionUpdate || upd.Decision.Target != old.ID {
		t.Fatalf("setup: %+v", upd.Decision)
	}
	if !dirContains(t, dir, "SECRET-LOCKER") {
		t.Fatal("test is void: the secret was never in the files")
	}
	must[[]uint64](t)(s.Delete(ctx, "", upd.Fact.ID, nil))
	ds := must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))
	if len(ds) != 1 {
		t.Fatalf("decisions %+v", ds)
	}
	if d := ds[0]; d.Text != "[deleted]" || d.Raw != "" || d.Added != 0 || strings.Contains(d.Reason, "SECRET") {
		t.Errorf("the deleted fact's decision: %+v", d)
	}
	if dirContains(t, dir, "SECRET-LOCKER") {
		t.Error("the deleted text is still in the store's directory")
	}
	if g := getFact(t, s, "", old.ID); g.State() != memory.Current {
		t.Errorf("the fact it had replaced is not restored: %+v", g)
	}
	checkClean(t, s)
	dst, _ := open(t, c, nil)
	exported := snapshot(t, s)
	must[int](t)(dst.Import(ctx, strings.NewReader(exported), nil))
	if snapshot(t, dst) != exported {
		t.Error("round trip after delete differs")
	}
}

// A model's reasoning compares the new fact with the old ones and often
// quotes them. A decision that only showed the deleted fact as a candidate
// must not keep its text either.
func TestRememberDeleteScrubsCandidateQuotes(t *testing.T) {
	dir := t.TempDir()
	c := newClock("2026-01-01")
	dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
		quoted := in.Text
		for _, c := range in.Candidates {
			quoted += " | " + c.Text
		}
		return memory.Verdict{Action: memory.ActionAdd, Decider: "custom", Reason: "compared " + quoted, Raw: strconv.Quote(quoted)}, nil
	}}
	s := must[*memory.Store](t)(memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now, Decider: dec}))
	t.Cleanup(func() { s.Close() })
	secret := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My locker code is SECRET-LOCKER-7731."}))
	later := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My locker is on the second floor."}))
	if !slices.Contains(later.Decision.Candidates, secret.Fact.ID) || !strings.Contains(later.Decision.Reason, "SECRET-LOCKER") {
		t.Fatalf("setup: the later decision did not see the secret: %+v", later.Decision)
	}
	must[[]uint64](t)(s.Delete(ctx, "", secret.Fact.ID, nil))
	for _, d := range must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)) {
		if b, _ := json.Marshal(d); strings.Contains(string(b), "SECRET-LOCKER") {
			t.Errorf("decision %d still holds the deleted text: %s", d.ID, b)
		}
		if d.Added == secret.Fact.ID || d.Target == secret.Fact.ID || slices.Contains(d.Candidates, secret.Fact.ID) {
			t.Errorf("decision %d still names the deleted fact: %+v", d.ID, d)
		}
	}
	if dirContains(t, dir, "SECRET-LOCKER") {
		t.Error("the deleted text is still in the store's directory")
	}
	checkClean(t, s)
}

// A conflict whose fact is deleted is dropped.
func TestRememberDeleteDropsConflict(t *testing.T) {
	c := newClock("2026-01-01")
	s, _, out := conflictStore(t, c)
	must[[]uint64](t)(s.Delete(ctx, "", out.Fact.ID, nil))
	if cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", &memory.ConflictOptions{All: true})); len(cs) != 0 {
		t.Errorf("conflicts after delete: %+v", cs)
	}
	checkClean(t, s)
}
