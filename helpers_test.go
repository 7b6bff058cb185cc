package memory_test

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// clock is an injectable record-time clock that a test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(day string) *clock { c := &clock{}; c.set(day); return c }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) set(day string) { c.mu.Lock(); defer c.mu.Unlock(); c.t = date(day) }

// date parses YYYY-MM-DD or RFC 3339, in UTC.
func date(s string) time.Time {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// open makes a store in a fresh temporary directory.
func open(t testing.TB, c *clock, opts *memory.Options) (*memory.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	o := memory.Options{NoSync: true}
	if opts != nil {
		o = *opts
	}
	if c != nil {
		o.Clock = c.Now
	}
	s, err := memory.Open(path, 0, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func ids(fs []memory.Fact) []uint64 {
	out := make([]uint64, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

// wantAt asserts which facts At returns.
func wantAt(t *testing.T, s *memory.Store, user, event, known string, want ...uint64) {
	t.Helper()
	var e, k time.Time
	if event != "" {
		e = date(event)
	}
	if known != "" {
		k = date(known)
	}
	got, err := s.At(context.Background(), user, e, k)
	if err != nil {
		t.Fatal(err)
	}
	if want == nil {
		want = []uint64{}
	}
	if g := ids(got); !slices.Equal(g, want) {
		t.Errorf("At(event %q, known %q) = %v, want %v", event, known, g, want)
	}
}
