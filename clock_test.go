package memory_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// setTime moves the test clock to t, which need not be a day.
func (c *clock) setTime(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// A clock outside the record times a store holds (Unix nanoseconds:
// 1677-09-21 to 2262-04-11) refuses every write with ErrInvalidClock and
// writes nothing: such a time was stored as another one (1600 as 2184,
// 2263 as 1970), and the zero time as the epoch.
func TestClockOutsideRangeWritesNothing(t *testing.T) {
	ctx := context.Background()
	clk := newClock("2026-03-10")
	s, _ := open(t, clk, nil)
	m := must[memory.Fact](t)
	work := m(s.Add(ctx, memory.Note{Text: "I work at Yandex."}))
	name := m(s.Add(ctx, memory.Note{Text: "My name is Maria Keller.", Pinned: true}))
	cat := m(s.Add(ctx, memory.Note{Text: "I have a cat."}))
	m(s.Invalidate(ctx, "", cat.ID, memory.Change{Reason: "a mistake"}))
	m(s.Add(ctx, memory.Note{Text: "Я работаю в Яндексе."}))
	o, err := s.Remember(ctx, memory.Note{Text: "My name is Maria Schmidt now."})
	if err != nil {
		t.Fatal(err)
	}
	if o.Decision.Conflict == 0 {
		t.Fatalf("test is void: remember over a pinned fact raised no conflict: %+v", o.Decision)
	}
	merge, err := s.MergeEntities(ctx, "", "Яндекс", "Yandex", "one company")
	if err != nil {
		t.Fatal(err)
	}
	export := func() []byte {
		t.Helper()
		var b bytes.Buffer
		if err := s.Export(ctx, &b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	before := export()

	ops := []struct {
		name string
		op   func() error
	}{
		{"add", func() error { _, err := s.Add(ctx, memory.Note{Text: "I like tea."}); return err }},
		{"supersede", func() error {
			_, err := s.Supersede(ctx, "", work.ID, memory.Note{Text: "I work at Ozon."})
			return err
		}},
		{"invalidate", func() error { _, err := s.Invalidate(ctx, "", work.ID, memory.Change{}); return err }},
		{"restore", func() error { _, err := s.Restore(ctx, "", cat.ID, memory.Change{}); return err }},
		{"pin", func() error { _, err := s.Pin(ctx, "", work.ID); return err }},
		{"unpin", func() error { _, err := s.Unpin(ctx, "", name.ID); return err }},
		{"delete", func() error { _, err := s.Delete(ctx, "", work.ID, nil); return err }},
		{"remember", func() error { _, err := s.Remember(ctx, memory.Note{Text: "I live in Lyon."}); return err }},
		{"undo", func() error { _, err := s.Undo(ctx, "", o.Decision.ID); return err }},
		{"resolve", func() error {
			_, err := s.ResolveConflict(ctx, "", o.Decision.Conflict, memory.KeepBoth)
			return err
		}},
		{"merge", func() error { _, err := s.MergeEntities(ctx, "", "Maria Keller", "Maria Schmidt", ""); return err }},
		{"unmerge", func() error { _, err := s.UndoMerge(ctx, "", merge.ID, ""); return err }},
		{"repair", func() error { _, err := s.Repair(ctx); return err }},
	}
	for _, bad := range []time.Time{
		{}, // year 1, which --now 0001-01-01 gave
		time.Date(1600, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Unix(0, math.MinInt64).Add(-time.Nanosecond),
		time.Unix(0, math.MaxInt64).Add(time.Nanosecond),
		time.Date(2263, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		for _, tc := range ops {
			t.Run(tc.name+" at "+bad.Format(time.RFC3339Nano), func(t *testing.T) {
				clk.setTime(bad)
				err := tc.op()
				clk.set("2026-03-10")
				if !errors.Is(err, memory.ErrInvalidClock) {
					t.Fatalf("err = %v, want ErrInvalidClock", err)
				}
				if after := export(); !bytes.Equal(after, before) {
					t.Errorf("the store changed:\nbefore %s\nafter  %s", before, after)
				}
			})
		}
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	// Import records no time of its own (its times are the file's), so it
	// does not read the clock.
	empty, _ := open(t, clk, nil)
	clk.setTime(time.Time{})
	if _, err := empty.Import(ctx, bytes.NewReader(before), nil); err != nil {
		t.Fatalf("import with no clock: %v", err)
	}
}

// A clock within the range is kept as it reads: before 1970 (1965 was
// stored as 1970-01-01), past the event times' 2199, and at either end.
func TestClockInRangeKeptExactly(t *testing.T) {
	ctx := context.Background()
	clk := newClock("2026-03-10")
	s, _ := open(t, clk, nil)
	for _, at := range []time.Time{
		time.Unix(0, math.MinInt64).UTC(),
		time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(1965, 6, 1, 12, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2250, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Unix(0, math.MaxInt64).UTC(),
	} {
		clk.setTime(at)
		f, err := s.Add(ctx, memory.Note{Text: "Recorded at " + at.Format(time.RFC3339Nano) + "."})
		if err != nil {
			t.Fatalf("add at %s: %v", at, err)
		}
		if g := must[memory.Fact](t)(s.Get(ctx, "", f.ID)); !g.RecordedAt.Equal(at) {
			t.Errorf("recorded at %s, want %s", g.RecordedAt, at)
		}
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// ValidRecordTime is the range's one test.
func TestValidRecordTime(t *testing.T) {
	for _, tc := range []struct {
		t  time.Time
		ok bool
	}{
		{time.Time{}, false},
		{time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{time.Unix(0, math.MinInt64).Add(-time.Nanosecond), false},
		{time.Unix(0, math.MinInt64), true},
		{time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{time.Date(2250, 1, 1, 0, 0, 0, 0, time.FixedZone("+01", 3600)), true},
		{time.Unix(0, math.MaxInt64), true},
		{time.Unix(0, math.MaxInt64).Add(time.Nanosecond), false},
		{time.Date(2263, 1, 1, 0, 0, 0, 0, time.UTC), false},
	} {
		err := memory.ValidRecordTime(tc.t)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, memory.ErrInvalidClock)) {
			t.Errorf("ValidRecordTime(%s) = %v, want ok %v", tc.t, err, tc.ok)
		}
	}
}

// Remember refuses a clock it cannot hold before it asks its decider: a
// model is not called for a write that cannot happen.
func TestRememberChecksTheClockFirst(t *testing.T) {
	clk := newClock("2026-03-10")
	asked := 0
	dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
		asked++
		return memory.Verdict{Action: memory.ActionAdd, Reason: "new", Decider: "custom"}, nil
	}}
	s, _ := open(t, clk, &memory.Options{Decider: dec})
	clk.setTime(time.Date(2263, 1, 1, 0, 0, 0, 0, time.UTC))
	if _, err := s.Remember(context.Background(), memory.Note{Text: "I live in Oslo."}); !errors.Is(err, memory.ErrInvalidClock) {
		t.Fatalf("Remember: %v, want ErrInvalidClock", err)
	}
	if asked != 0 {
		t.Errorf("the decider was asked %d times", asked)
	}
}
