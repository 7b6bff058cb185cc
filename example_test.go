package memory_test

import (
	"bytes"
	"context"
	"errors"
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

// The README's Go quick start, word for word: TestREADMEQuickStartIsExample
// fails if the two differ.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "memory-quickstart") // a real program keeps its store where it lasts
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// The store stamps each fact with the time it learned it. That is
	// time.Now unless Options.Clock says otherwise: here a clock we move by
	// hand tells a story over months, the same on any day it is run.
	today := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	s, err := memory.Open(filepath.Join(dir, "memory.db"), 0o600, &memory.Options{
		Clock: func() time.Time { return today },
	})
	if err != nil {
		log.Fatal(err) // memory.ErrLocked if another process has it
	}
	defer s.Close()

	a, _ := s.Add(ctx, memory.Note{Text: "I work at company A."}) // learned on 10 March

	today = time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC) // on 20 August, news of a change in June
	june := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	b, err := s.Supersede(ctx, "", a.ID, memory.Note{
		Text:      "I moved to company B back in June.",
		EventFrom: june,
		Source:    memory.Source{Kind: "chat", Ref: "msg-812", Quote: "moved to B back in June"},
	})
	if err != nil {
		log.Fatal(err)
	}

	may := time.Date(2026, 5, 15, 0, 0, 0, 0, time.UTC)
	then, _ := s.At(ctx, "", may, time.Time{}) // where did I work in May? -> A
	now, _ := s.At(ctx, "", time.Time{}, time.Time{})
	fmt.Println(then[0].Text, "|", now[0].Text, "|", b.Supersedes == a.ID)

	prompt, _ := s.Prompt(ctx, "", nil) // what is true now, plus upcoming facts
	fmt.Print(prompt)

	_, _ = s.Restore(ctx, "", a.ID, memory.Change{Reason: "undo"}) // both current again
	_, _ = s.Delete(ctx, "", b.ID, nil)                            // gone from the file for good
	left, _ := s.List(ctx, "", nil)                                // the current facts: A alone
	fmt.Println(len(left), left[0].Text)
	// Output:
	// I work at company A. | I moved to company B back in June. | true
	// Facts about the user, true as of 2026-08-20:
	// - I moved to company B back in June. (since 2026-06-01)
	// 1 I work at company A.
}

// Open creates the file on first use, and the facts are there when the
// store is opened again. While one Store has the file, another Open of it
// waits for Options.LockTimeout and gives ErrLocked.
func ExampleOpen() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "memory-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "memory.db")

	s, err := memory.Open(path, 0o600, nil) // nil options: defaults
	if err != nil {
		log.Fatal(err)
	}
	s.Add(ctx, memory.Note{Text: "My name is Ada."})
	_, err = memory.Open(path, 0o600, &memory.Options{LockTimeout: 10 * time.Millisecond})
	fmt.Println(errors.Is(err, memory.ErrLocked))
	s.Close()

	s, err = memory.Open(path, 0o600, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	facts, _ := s.List(ctx, "", nil)
	fmt.Println(facts[0].ID, facts[0].Text)
	// Output:
	// true
	// 1 My name is Ada.
}

// Remember decides what a new fact does to what is known: here the default
// rules decider, which needs no model, adds a new fact, lets a change
// marker ("now") supersede the fact it matches, and ignores a restatement.
func ExampleStore_Remember() {
	ctx := context.Background()
	now := day("2026-04-02")
	s, done := exampleStore(&now)
	defer done()

	for _, text := range []string{"I live in Lyon.", "I have a dog named Rex.", "I live in Paris now.", "I have a dog named Rex."} {
		o, err := s.Remember(ctx, memory.Note{Text: text})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-25q %-6s target %d, fact %d\n", text, o.Decision.Action, o.Decision.Target, o.Fact.ID)
		now = now.AddDate(0, 0, 1)
	}
	facts, _ := s.List(ctx, "", nil)
	for _, f := range facts {
		fmt.Println(f.ID, f.Text)
	}
	// Output:
	// "I live in Lyon."         add    target 0, fact 1
	// "I have a dog named Rex." add    target 0, fact 2
	// "I live in Paris now."    update target 1, fact 3
	// "I have a dog named Rex." noop   target 2, fact 2
	// 2 I have a dog named Rex.
	// 3 I live in Paris now.
}

// Export writes everything as JSON Lines; Import reads it into an empty
// store, ids, times, history and all.
func ExampleStore_Export() {
	ctx := context.Background()
	now := day("2026-03-10")
	s, done := exampleStore(&now)
	defer done()
	a, _ := s.Add(ctx, memory.Note{Text: "I work at company A."})
	now = day("2026-08-20")
	s.Supersede(ctx, "", a.ID, memory.Note{Text: "I moved to company B.", EventFrom: day("2026-06-01")})

	var backup bytes.Buffer
	if err := s.Export(ctx, &backup); err != nil {
		log.Fatal(err)
	}

	other := day("2027-01-01")
	restored, doneRestored := exampleStore(&other)
	defer doneRestored()
	n, err := restored.Import(ctx, &backup, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "facts imported")
	all, _ := restored.List(ctx, "", &memory.ListOptions{All: true})
	for _, f := range all {
		fmt.Println(f.ID, f.State(), f.RecordedAt.Format(time.DateOnly), f.Text)
	}
	may, _ := restored.At(ctx, "", day("2026-05-15"), time.Time{})
	fmt.Println("May:", may[0].Text)
	// Output:
	// 2 facts imported
	// 1 superseded 2026-03-10 I work at company A.
	// 2 current 2026-08-20 I moved to company B.
	// May: I work at company A.
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
	b, _ := s.Supersede(ctx, "", a.ID, memory.Note{Text: "I moved to company B.", EventFrom: day("2026-06-01")})
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
	_, err := s.Supersede(ctx, "", f.ID, memory.Note{Text: "My name is Bob.", Origin: memory.OriginAuto})
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
	p, _ := s.Prompt(ctx, "", nil)
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

// The graph answers the story's questions from the facts' claims.
func ExampleStore_Edges() {
	ctx := context.Background()
	now := day("2026-03-10")
	s, done := exampleStore(&now)
	defer done()

	a, _ := s.Add(ctx, memory.Note{Text: "I work at company A."})
	now = day("2026-08-20")
	s.Supersede(ctx, "", a.ID, memory.Note{Text: "I work at company B.", EventFrom: day("2026-06-01")})

	// Where did I work in May? In July? In July, as believed on 1 August?
	for _, q := range []memory.EdgeQuery{
		{Relation: memory.RelWorksAt, Event: day("2026-05-15")},
		{Relation: memory.RelWorksAt, Event: day("2026-07-15")},
		{Relation: memory.RelWorksAt, Event: day("2026-07-15"), Known: day("2026-08-01")},
	} {
		es, _ := s.Edges(ctx, "", &q)
		for _, e := range es {
			fmt.Println(e.Object, e.Support, e.State)
		}
	}
	es, _ := s.Edges(ctx, "", &memory.EdgeQuery{Relation: memory.RelWorksAt})
	why, _ := s.Why(ctx, "", es[0]) // the facts behind it, their logs and decisions
	fmt.Println(es[0].Object, "because", why[0].Fact.Text)
	// Output:
	// company A [1] current
	// company B [2] current
	// company A [1] current
	// company B because I work at company B.
}
