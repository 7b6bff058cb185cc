package memory_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/palimpsest-mem/memory"
)

// day is a fixed clock for the examples, so their output is stable.
func day(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }

func exampleStore(now *time.Time) (*memory.Store, func()) {
	dir, err := os.MkdirTemp("", "memory-example")
	if err != nil {
		log.Fatal(err)
	}
	s, err := memory.Open(filepath.Join(dir, "memory.db"), 0o600, &memory.Options{
		Clock: func() time.Time { return *now },
	})
	if err != nil {
		log.Fatal(err)
	}
	return s, func() { s.Close(); os.RemoveAll(dir) }
}

// A fact learned in August about a change in June answers questions on
// both time axes.
func ExampleStore_At() {
	ctx := context.Background()
	now := day("2026-03-10")
	s, done := exampleStore(&now)
	defer done()

	a, _ := s.Add(ctx, memory.Note{Text: "I work at company A."})
	now = day("2026-08-20")
	b, _ := s.Supersede(ctx, a.ID, memory.Note{Text: "I moved to company B.", EventFrom: day("2026-06-01")})
	now = day("2026-09-01")

	show := func(q string, event, known time.Time) {
		facts, _ := s.At(ctx, "", event, known)
		for _, f := range facts {
			fmt.Printf("%s %s\n", q, f.Text)
		}
	}
	show("May:", day("2026-05-15"), time.Time{})
	show("July:", day("2026-07-01"), time.Time{})
	show("July, as believed on 1 Aug:", day("2026-07-01"), day("2026-08-01"))
	fmt.Println(b.Supersedes == a.ID)
	// Output:
	// May: I work at company A.
	// July: I moved to company B.
	// July, as believed on 1 Aug: I work at company A.
	// true
}

// Invalidate retracts a fact that was never true; Restore undoes it.
func ExampleStore_Invalidate() {
	ctx := context.Background()
	now := day("2026-09-02")
	s, done := exampleStore(&now)
	defer done()

	f, _ := s.Add(ctx, memory.Note{Text: "The offsite is on Tuesday."})
	f, _ = s.Invalidate(ctx, "", f.ID, memory.Change{Reason: "the user corrected it"})
	fmt.Println(f.State())
	f, _ = s.Restore(ctx, "", f.ID, memory.Change{})
	fmt.Println(f.State())
	events, _ := s.Events(ctx, "", f.ID)
	for _, e := range events {
		fmt.Printf("%s: %q\n", e.Kind, e.Cause)
	}
	// Output:
	// retracted
	// current
	// recorded: ""
	// retracted: "the user corrected it"
	// restored: ""
}

// Pinned facts are never changed by automation.
func ExampleStore_Pin() {
	ctx := context.Background()
	now := day("2026-01-01")
	s, done := exampleStore(&now)
	defer done()

	f, _ := s.Add(ctx, memory.Note{Text: "My name is Ada."})
	s.Pin(ctx, "", f.ID)
	_, err := s.Supersede(ctx, f.ID, memory.Note{Text: "My name is Bob.", Origin: memory.OriginAuto})
	fmt.Println(err)
	// Output:
	// supersede fact 1: fact is pinned
}

// The prompt block holds what is true now and what is about to be.
func ExampleStore_Prompt() {
	ctx := context.Background()
	now := day("2026-04-16")
	s, done := exampleStore(&now)
	defer done()

	s.Add(ctx, memory.Note{Text: "I live in Lyon."})
	s.Add(ctx, memory.Note{Text: "I start at Northwind Bank.", EventFrom: day("2026-04-20")})
	p, _ := s.Prompt(ctx, "")
	fmt.Print(p)
	// Output:
	// Facts about the user, true as of 2026-04-16:
	// - I live in Lyon.
	// Upcoming, not yet true:
	// - I start at Northwind Bank. (from 2026-04-20)
}

// Delete erases a fact and every copy of its bytes in the file.
func ExampleStore_Delete() {
	ctx := context.Background()
	now := day("2026-01-01")
	s, done := exampleStore(&now)
	defer done()

	f, _ := s.Add(ctx, memory.Note{Text: "Something the user wants forgotten."})
	deleted, _ := s.Delete(ctx, "", f.ID, nil)
	_, err := s.Get(ctx, "", f.ID)
	fmt.Println(deleted, err)
	// Output:
	// [1] fact 1: not found
}
