package inspect

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// testClock is a record-time clock a test moves by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *testClock) set(day string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = mustDay(day)
}

func mustDay(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// openStore makes an empty store in a fresh folder with the clock.
func openStore(t testing.TB, c *testClock) *memory.Store {
	t.Helper()
	s, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// said is one line of the seeded story: the day it was said and the words.
type said struct{ day, text string }

// story is a year of what one person told their assistant, through
// Remember and the embedded rules decider, so that the store holds
// decisions, conflicts, superseded and retracted versions and edges.
var story = []said{
	{"2026-01-12", "I live in Lyon."},
	{"2026-01-12", "I work at Northwind Bank as a data analyst."},
	{"2026-01-20", "I have a dog named Rex."},
	{"2026-02-03", "My sister Clara lives in Kazan."},
	{"2026-02-03", "I am allergic to peanuts."},
	{"2026-02-17", "I play the cello on weekends."},
	{"2026-03-02", "The team offsite is on Tuesday."},
	{"2026-03-04", "I was wrong, the team offsite is on Wednesday, not Tuesday."},
	{"2026-04-08", "I have a dog named Rex."},
	{"2026-06-15", "I moved to Paris back in May, I live in Paris now."},
	{"2026-07-01", "I now work at Contoso as a product manager."},
	{"2026-07-20", "I am no longer allergic to peanuts."},
	{"2026-08-11", "I speak Spanish and a little Portuguese."},
	{"2026-09-01", "From January I will study at the Sorbonne."},
}

// seed tells the story to s and returns the outcomes in order. The fact
// "I am allergic to peanuts" is pinned before it is contradicted, so the
// contradiction becomes a conflict.
func seed(t testing.TB, s *memory.Store, c *testClock, user string) []memory.Outcome {
	t.Helper()
	out := seedUntil(t, s, c, user, "")
	c.set("2026-10-01")
	return out
}

// seedUntil tells the lines of the story said by day until (every line
// when ""), the clock left at the last one told.
func seedUntil(t testing.TB, s *memory.Store, c *testClock, user, until string) []memory.Outcome {
	t.Helper()
	ctx := context.Background()
	var out []memory.Outcome
	for i, l := range story {
		if until != "" && l.day > until {
			break
		}
		c.set(l.day)
		o, err := s.Remember(ctx, memory.Note{User: user, Text: l.text, Origin: memory.OriginAuto,
			Source: memory.Source{Kind: "chat", Ref: "msg-" + itoa(uint64(100+i)), Quote: l.text, SaidAt: c.Now()}})
		if err != nil {
			t.Fatalf("remember %q: %v", l.text, err)
		}
		out = append(out, o)
		if l.text == "I am allergic to peanuts." {
			if _, err := s.Pin(ctx, user, o.Fact.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

func TestSeedStory(t *testing.T) {
	c := &testClock{}
	s := openStore(t, c)
	for _, o := range seed(t, s, c, "") {
		t.Logf("%-10s target %d fact %d conflict %d: %s | %s", o.Decision.Action, o.Decision.Target, o.Fact.ID, o.Decision.Conflict, o.Decision.Text, o.Decision.Reason)
	}
	cs, _ := s.Conflicts(context.Background(), "", nil)
	t.Logf("%d conflicts", len(cs))
}
