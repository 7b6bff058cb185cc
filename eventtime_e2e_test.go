package memory_test

import (
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Retroactive, through Remember: the time in the words becomes the new
// fact's EventFrom and closes the old fact's interval there.
func TestRememberRetroactiveStory(t *testing.T) {
	c := newClock("2026-03-10")
	s, _ := open(t, c, &memory.Options{NoSync: true, Lookup: memory.LookupTopics})
	a := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I work at company A."})).Fact
	c.set("2026-08-20")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to company B back in June."}))
	b := out.Fact
	if out.Decision.Action != memory.ActionUpdate || out.Decision.Target != a.ID {
		t.Fatalf("decision %+v", out.Decision)
	}
	if !b.EventFrom.Equal(date("2026-06-01")) || b.EventSource != memory.EventFromWords || out.Decision.Grain != "month" {
		t.Errorf("event time %v from %q, grain %q", b.EventFrom, b.EventSource, out.Decision.Grain)
	}
	c.set("2026-09-01")
	wantAt(t, s, "", "2026-05-15", "", a.ID)
	wantAt(t, s, "", "2026-07-01", "", b.ID)
	wantAt(t, s, "", "2026-07-01", "2026-08-01", a.ID)
	wantAt(t, s, "", "", "", b.ID)
}

// In advance, through Remember: said on Thursday, "from Monday" is current
// at once but true only from Monday.
func TestRememberInAdvanceStory(t *testing.T) {
	c := newClock("2026-01-05")
	s, _ := open(t, c, &memory.Options{NoSync: true, Lookup: memory.LookupTopics})
	a := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I work at company A."})).Fact
	c.set("2026-04-16") // a Thursday
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "From Monday I work at company B now."}))
	b := out.Fact
	if out.Decision.Action != memory.ActionUpdate || !b.EventFrom.Equal(date("2026-04-20")) {
		t.Fatalf("decision %+v, fact %+v", out.Decision, b)
	}
	wantAt(t, s, "", "2026-04-17", "", a.ID) // Friday: still A
	wantAt(t, s, "", "2026-04-21", "", b.ID) // next Tuesday: B
	wantAt(t, s, "", "", "", a.ID)           // true now
	// An explicit time overrides the words.
	c.set("2026-05-01")
	g := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Since last week I have a dog.", EventFrom: date("2026-04-01")})).Fact
	if !g.EventFrom.Equal(date("2026-04-01")) || g.EventSource != memory.EventGiven {
		t.Errorf("given event time: %v from %q", g.EventFrom, g.EventSource)
	}
}
