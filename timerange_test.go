package memory_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/eventtime"
)

// The store, the words and the deciders share one range of times: what the
// words give can be stored, and what is stored can be exported and imported.
func TestTimeRangeIsOneDefinition(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	mars := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "From 2200 I live on Mars."}))
	if !mars.Fact.EventFrom.IsZero() {
		t.Errorf("the words gave EventFrom %v, outside the range", mars.Fact.EventFrom)
	}
	moon := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "In 2199 I will live on the Moon."}))
	if want := date("2199-01-01"); !moon.Fact.EventFrom.Equal(want) {
		t.Errorf("in 2199: EventFrom %v, want %v", moon.Fact.EventFrom, want)
	}
	last := time.Date(eventtime.MaxYear, 12, 31, 23, 59, 59, 0, time.UTC)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Edge of time.", EventFrom: date("1900-01-01"), EventUntil: last}))
	for _, bad := range []time.Time{date("1899-12-31"), last.Add(time.Second)} {
		if _, err := s.Add(ctx, memory.Note{Text: "Out of range.", EventFrom: bad}); !errors.Is(err, memory.ErrInvalidTime) {
			t.Errorf("Add with EventFrom %v: %v, want ErrInvalidTime", bad, err)
		}
		if eventtime.InRange(bad) {
			t.Errorf("InRange(%v)", bad)
		}
	}
	reimportsIdentically(t, s, c)
}

// A record time is the clock's, not chosen: a store whose clock is past
// the event range still exports what it wrote, and imports it back.
func TestRecordTimeOutsideEventRangeRoundTrips(t *testing.T) {
	c := newClock("2250-01-01")
	s, _ := open(t, c, nil)
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Written by a clock far ahead."}))
	must[memory.Fact](t)(s.Invalidate(ctx, "", f.ID, memory.Change{}))
	exported := reimportsIdentically(t, s, c)
	bad := strings.Replace(exported, `"recorded_at":"2250-01-01T00:00:00Z"`, `"recorded_at":"2300-01-01T00:00:00Z"`, 1)
	other, _ := open(t, c, nil)
	if _, err := other.Import(ctx, strings.NewReader(bad), nil); !errors.Is(err, memory.ErrBadImport) {
		t.Error("a record time past int64 nanoseconds accepted")
	}
}

// reimportsIdentically imports s's export into a new store, checks the new
// store exports the same, and returns the export.
func reimportsIdentically(t *testing.T, s *memory.Store, c *clock) string {
	t.Helper()
	exported := snapshot(t, s)
	dst, _ := open(t, c, nil)
	if _, err := dst.Import(ctx, strings.NewReader(exported), nil); err != nil {
		t.Fatalf("import of the store's own export: %v", err)
	}
	if again := snapshot(t, dst); again != exported {
		t.Errorf("export after import differs:\n%s\nwant:\n%s", again, exported)
	}
	return exported
}
