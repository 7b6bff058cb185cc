package memory_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// Every bad input gets its sentinel error and writes nothing.
func TestBadInput(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{MaxTextRunes: 20})
	cur := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "current fact"}))
	gone := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "retracted fact"}))
	must[memory.Fact](t)(s.Invalidate(ctx, "", gone.ID, memory.Change{}))
	before := snapshot(t, s)

	add := func(n memory.Note) error { _, err := s.Add(ctx, n); return err }
	cases := []struct {
		name string
		err  error
		run  func() error
	}{
		{"empty", memory.ErrEmpty, func() error { return add(memory.Note{}) }},
		{"blank", memory.ErrEmpty, func() error { return add(memory.Note{Text: " \n\t "}) }},
		{"too long", memory.ErrTooLong, func() error { return add(memory.Note{Text: strings.Repeat("я", 21)}) }},
		{"invalid utf-8", memory.ErrInvalidUTF8, func() error { return add(memory.Note{Text: "bad \xff byte"}) }},
		{"control char", memory.ErrControlChar, func() error { return add(memory.Note{Text: "bell\a"}) }},
		{"carriage return", memory.ErrControlChar, func() error { return add(memory.Note{Text: "a\rb"}) }},
		{"control in quote", memory.ErrControlChar, func() error {
			return add(memory.Note{Text: "ok", Source: memory.Source{Quote: "x\x00"}})
		}},
		{"long user", memory.ErrInvalidUser, func() error { return add(memory.Note{User: strings.Repeat("u", 129), Text: "ok"}) }},
		{"user with NUL", memory.ErrInvalidUser, func() error { return add(memory.Note{User: "a\x00b", Text: "ok"}) }},
		{"until before from", memory.ErrInvalidInterval, func() error {
			return add(memory.Note{Text: "ok", EventFrom: date("2026-05-01"), EventUntil: date("2026-04-01")})
		}},
		{"until equals from", memory.ErrInvalidInterval, func() error {
			return add(memory.Note{Text: "ok", EventFrom: date("2026-05-01"), EventUntil: date("2026-05-01")})
		}},
		{"time out of range", memory.ErrInvalidTime, func() error {
			return add(memory.Note{Text: "ok", EventFrom: time.Date(1200, 1, 1, 0, 0, 0, 0, time.UTC)})
		}},
		{"get unknown id", memory.ErrNotFound, func() error { return second(s.Get(ctx, "", 999)) }},
		{"invalidate unknown id", memory.ErrNotFound, func() error { return second(s.Invalidate(ctx, "", 999, memory.Change{})) }},
		{"supersede unknown id", memory.ErrNotFound, func() error { return second(s.Supersede(ctx, "", 999, memory.Note{Text: "x"})) }},
		{"delete unknown id", memory.ErrNotFound, func() error { return second(s.Delete(ctx, "", 999, nil)) }},
		{"restore current", memory.ErrAlreadyCurrent, func() error { return second(s.Restore(ctx, "", cur.ID, memory.Change{})) }},
		{"supersede retracted", memory.ErrNotCurrent, func() error { return second(s.Supersede(ctx, "", gone.ID, memory.Note{Text: "x"})) }},
		{"invalidate retracted", memory.ErrNotCurrent, func() error { return second(s.Invalidate(ctx, "", gone.ID, memory.Change{})) }},
		{"supersede with bad text", memory.ErrEmpty, func() error { return second(s.Supersede(ctx, "", cur.ID, memory.Note{})) }},
		{"reason with control char", memory.ErrControlChar, func() error {
			return second(s.Invalidate(ctx, "", cur.ID, memory.Change{Reason: "\x1b[31m"}))
		}},
		{"import into a non-empty store", memory.ErrNotEmpty, func() error {
			return second(s.Import(ctx, strings.NewReader(`{"format":"palimpsest-memory","version":1,"next_id":1}`+"\n"), nil))
		}},
		{"import garbage", memory.ErrBadImport, func() error { return second(s.Import(ctx, strings.NewReader("garbage\n"), nil)) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if !errors.Is(err, tc.err) {
				t.Fatalf("got %v, want %v", err, tc.err)
			}
			if after := snapshot(t, s); after != before {
				t.Errorf("store changed:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}

func TestTextIsTrimmedAndNewlinesKept(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), nil)
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "  line one\n\tline two  "}))
	if f.Text != "line one\n\tline two" {
		t.Errorf("text %q", f.Text)
	}
	p := must[string](t)(s.Prompt(ctx, "", nil))
	if !strings.Contains(p, "- line one line two\n") {
		t.Errorf("a fact must stay on one prompt line:\n%s", p)
	}
}
