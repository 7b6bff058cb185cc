package memory_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Retroactive: "I moved to B back in June", said in August.
func TestStoryRetroactive(t *testing.T) {
	c := newClock("2026-03-10")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at company A."}))
	c.set("2026-08-20")
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I moved to company B.", EventFrom: date("2026-06-01")}))
	c.set("2026-09-01")

	wantAt(t, s, "", "2026-05-15", "", a.ID)
	wantAt(t, s, "", "2026-07-01", "", b.ID)
	wantAt(t, s, "", "2026-07-01", "2026-08-01", a.ID) // what we believed then
	wantAt(t, s, "", "", "", b.ID)
	wantAt(t, s, "", "2026-02-01", "")                 // with no EventFrom, A starts when recorded
	wantAt(t, s, "", "2026-03-01", "2026-03-09")       // nothing was known yet
	wantAt(t, s, "", "2026-06-01", "2026-08-20", b.ID) // the supersede's own instant counts as known

	old := must[memory.Fact](t)(s.Get(ctx, "", a.ID))
	if old.State() != memory.Superseded || old.SupersededBy != b.ID || !old.ValidUntil.Equal(date("2026-08-20")) {
		t.Errorf("old fact after supersede: %+v", old)
	}
	if b.Supersedes != a.ID || b.State() != memory.Current {
		t.Errorf("new fact: %+v", b)
	}
	cur := must[[]memory.Fact](t)(s.List(ctx, "", nil))
	all := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))
	if len(cur) != 1 || cur[0].ID != b.ID || len(all) != 2 {
		t.Errorf("current %v, all %v", ids(cur), ids(all))
	}
}

// In advance: on Thursday, "from Monday I start at B".
func TestStoryInAdvance(t *testing.T) {
	c := newClock("2026-01-05")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at company A."}))
	c.set("2026-04-16") // Thursday
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "From Monday I start at company B.", EventFrom: date("2026-04-20")}))

	wantAt(t, s, "", "2026-04-17", "", a.ID) // Friday: still A
	wantAt(t, s, "", "2026-04-21", "", b.ID) // next Tuesday: B
	wantAt(t, s, "", "", "", a.ID)           // true now is At(now, now)
	if b.State() != memory.Current {
		t.Error("a fact stated in advance is current")
	}
	p := must[string](t)(s.Prompt(ctx, "", nil))
	if !strings.Contains(p, "I work at company A. (through 2026-04-19)") ||
		!strings.Contains(p, "From Monday I start at company B. (from 2026-04-20)") {
		t.Errorf("prompt before Monday:\n%s", p)
	}
	c.set("2026-04-21")
	p = must[string](t)(s.Prompt(ctx, "", nil))
	if strings.Contains(p, "company A") || !strings.Contains(p, "company B. (since 2026-04-20)") || strings.Contains(p, "Upcoming") {
		t.Errorf("prompt after Monday:\n%s", p)
	}
}

// Correction: "I was wrong, the meeting is on Wednesday, not Tuesday".
func TestStoryCorrection(t *testing.T) {
	c := newClock("2026-09-02")
	s, _ := open(t, c, nil)
	tue := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "The meeting is on Tuesday."}))
	c.set("2026-09-03")
	must[memory.Fact](t)(s.Invalidate(ctx, "", tue.ID, memory.Change{Reason: "the user corrected it"}))
	wed := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "The meeting is on Wednesday."}))
	c.set("2026-09-04")

	wantAt(t, s, "", "", "", wed.ID)
	wantAt(t, s, "", "2026-09-03", "2026-09-02T12:00:00Z", tue.ID) // believed before the correction
	// A retracted fact was never true: as known now, it held at no event time.
	wantAt(t, s, "", "2026-09-02T12:00:00Z", "")
	got := must[memory.Fact](t)(s.Get(ctx, "", tue.ID))
	if got.State() != memory.Retracted || got.SupersededBy != 0 {
		t.Errorf("retracted fact: %+v", got)
	}
	evs := must[[]memory.Event](t)(s.Events(ctx, "", tue.ID))
	if len(evs) != 2 || evs[1].Kind != memory.EventRetracted || evs[1].Cause != "the user corrected it" {
		t.Errorf("log: %+v", evs)
	}

	// Undo by restore: the fact is current again, and the log still knows
	// what was believed while it was retracted.
	c.set("2026-09-05")
	must[memory.Fact](t)(s.Restore(ctx, "", tue.ID, memory.Change{}))
	wantAt(t, s, "", "2026-09-04T12:00:00Z", "", tue.ID, wed.ID)
	wantAt(t, s, "", "2026-09-04T12:00:00Z", "2026-09-04T13:00:00Z", wed.ID)
}

func TestRestoreSupersededKeepsPastBeliefs(t *testing.T) {
	c := newClock("2026-03-10")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at company A."}))
	c.set("2026-08-20")
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I work at company B.", EventFrom: date("2026-06-01")}))
	c.set("2026-09-01")
	r := must[memory.Fact](t)(s.Restore(ctx, "", a.ID, memory.Change{Reason: "wrong supersede"}))
	if r.State() != memory.Current || r.SupersededBy != 0 || !r.ValidUntil.IsZero() {
		t.Errorf("restored: %+v", r)
	}
	wantAt(t, s, "", "2026-07-01", "", a.ID, b.ID)
	wantAt(t, s, "", "2026-07-01", "2026-08-25", b.ID) // between supersede and restore
	if _, err := s.Restore(ctx, "", a.ID, memory.Change{}); !errors.Is(err, memory.ErrAlreadyCurrent) {
		t.Errorf("restore of a current fact: %v", err)
	}
	h := must[[]memory.Fact](t)(s.History(ctx, "", b.ID))
	if len(h) != 2 || h[0].ID != a.ID || h[1].ID != b.ID {
		t.Errorf("history after restore: %v", ids(h))
	}
}

func TestHistoryChain(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	v1 := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	other := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I have a cat."}))
	c.set("2026-02-01")
	v2 := must[memory.Fact](t)(s.Supersede(ctx, "", v1.ID, memory.Note{Text: "I live in Paris."}))
	c.set("2026-03-01")
	v3 := must[memory.Fact](t)(s.Supersede(ctx, "", v2.ID, memory.Note{Text: "I live in Berlin."}))
	for _, id := range []uint64{v1.ID, v2.ID, v3.ID} {
		h := must[[]memory.Fact](t)(s.History(ctx, "", id))
		if got := ids(h); len(got) != 3 || got[0] != v1.ID || got[1] != v2.ID || got[2] != v3.ID {
			t.Errorf("History(%d) = %v", id, got)
		}
		if h[0].State() != memory.Superseded || h[2].State() != memory.Current {
			t.Errorf("states: %v %v", h[0].State(), h[2].State())
		}
	}
	if h := must[[]memory.Fact](t)(s.History(ctx, "", other.ID)); len(h) != 1 {
		t.Errorf("unrelated fact's history: %v", ids(h))
	}
}

func TestPinnedRefusesAutomation(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My name is Ada.", Pinned: true}))
	auto := memory.Change{Origin: memory.OriginAuto, Reason: "model said so"}
	if _, err := s.Invalidate(ctx, "", f.ID, auto); !errors.Is(err, memory.ErrPinned) {
		t.Errorf("auto invalidate of pinned: %v", err)
	}
	if _, err := s.Supersede(ctx, "", f.ID, memory.Note{Text: "My name is Bob.", Origin: memory.OriginAuto}); !errors.Is(err, memory.ErrPinned) {
		t.Errorf("auto supersede of pinned: %v", err)
	}
	if all := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true})); len(all) != 1 {
		t.Errorf("a refused supersede wrote %d facts", len(all))
	}
	must[memory.Fact](t)(s.Invalidate(ctx, "", f.ID, memory.Change{Reason: "the user said so"}))
	if _, err := s.Restore(ctx, "", f.ID, auto); !errors.Is(err, memory.ErrPinned) {
		t.Errorf("auto restore of pinned: %v", err)
	}
	must[memory.Fact](t)(s.Restore(ctx, "", f.ID, memory.Change{}))
	must[memory.Fact](t)(s.Unpin(ctx, "", f.ID))
	must[memory.Fact](t)(s.Invalidate(ctx, "", f.ID, auto))
	evs := must[[]memory.Event](t)(s.Events(ctx, "", f.ID))
	kinds := []memory.EventKind{}
	for _, e := range evs {
		kinds = append(kinds, e.Kind)
	}
	want := []memory.EventKind{memory.EventRecorded, memory.EventPinned, memory.EventRetracted, memory.EventRestored,
		memory.EventUnpinned, memory.EventRetracted}
	if strings.Join(strs(kinds), ",") != strings.Join(strs(want), ",") || evs[5].Origin != memory.OriginAuto {
		t.Errorf("log %v", kinds)
	}
	// The user may still change a pinned fact.
	g := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I am 30.", Pinned: true}))
	must[memory.Fact](t)(s.Supersede(ctx, "", g.ID, memory.Note{Text: "I am 31."}))
}

func strs[T ~string](v []T) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = string(x)
	}
	return out
}

func TestBudget(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{AutoBudget: 2})
	auto := func(text string) memory.Note { return memory.Note{Text: text, Origin: memory.OriginAuto} }
	a := must[memory.Fact](t)(s.Add(ctx, auto("one")))
	must[memory.Fact](t)(s.Add(ctx, auto("two")))
	if _, err := s.Add(ctx, auto("three")); !errors.Is(err, memory.ErrBudgetExceeded) {
		t.Fatalf("third automatic fact: %v", err)
	}
	if n := len(must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))); n != 2 {
		t.Errorf("a refused add wrote something: %d facts", n)
	}
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "stated by the user"}))                            // not capped
	must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "bob", Text: "three", Origin: memory.OriginAuto})) // per user
	must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, auto("one, revised")))                               // replaces one of its own
	two := a.ID + 1
	must[memory.Fact](t)(s.Invalidate(ctx, "", two, memory.Change{}))
	must[memory.Fact](t)(s.Add(ctx, auto("room again")))
	// Restoring an automatic fact counts against the budget too.
	if _, err := s.Restore(ctx, "", two, memory.Change{}); !errors.Is(err, memory.ErrBudgetExceeded) {
		t.Errorf("restore past the budget: %v", err)
	}
}

func TestUsersAreIsolated(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "alice", Text: "I like tea."}))
	first := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "alicia", Text: "I like juice."}))
	b := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "alicia", Text: "I like coffee."}))
	d := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Default user's fact."}))
	// Ids are each user's: alicia's 2 is an id alice has none of.
	if a.ID != 1 || first.ID != 1 || b.ID != 2 || d.ID != 1 {
		t.Fatalf("ids %d, %d, %d, %d; want each user's from 1", a.ID, first.ID, b.ID, d.ID)
	}
	if got := ids(must[[]memory.Fact](t)(s.List(ctx, "alice", &memory.ListOptions{All: true}))); len(got) != 1 || got[0] != a.ID {
		t.Errorf("alice sees %v", got)
	}
	wantAt(t, s, "alicia", "", "", first.ID, b.ID)
	wantAt(t, s, "", "", "", d.ID)
	if p := must[string](t)(s.Prompt(ctx, "alice", nil)); strings.Contains(p, "coffee") || strings.Contains(p, "Default") {
		t.Errorf("alice's prompt holds another's fact:\n%s", p)
	}
	for name, err := range map[string]error{
		"get":        second(s.Get(ctx, "alice", b.ID)),
		"invalidate": second(s.Invalidate(ctx, "alice", b.ID, memory.Change{})),
		"supersede":  second(s.Supersede(ctx, "alice", b.ID, memory.Note{User: "alice", Text: "x"})),
		"history":    second(s.History(ctx, "alice", b.ID)),
		"delete":     second(s.Delete(ctx, "alice", b.ID, nil)),
	} {
		if !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("%s of another user's fact: %v", name, err)
		}
	}
}
