package inspect

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// The rectangles of a version are the (event, record) points where At
// returns it: checked against At itself on a grid of points.
func TestSpansAgreeWithAt(t *testing.T) {
	ctx := context.Background()
	c := &testClock{}
	s := openStore(t, c)
	c.set("2026-03-10")
	a, _ := s.Add(ctx, memory.Note{Text: "I work at company A."})
	c.set("2026-04-01")
	x, _ := s.Add(ctx, memory.Note{Text: "The offsite is on Tuesday."})
	c.set("2026-05-01")
	s.Invalidate(ctx, "", x.ID, memory.Change{})
	c.set("2026-07-01")
	s.Restore(ctx, "", x.ID, memory.Change{})
	c.set("2026-08-20")
	b, err := s.Supersede(ctx, "", a.ID, memory.Note{Text: "I moved to company B.", EventFrom: mustDay("2026-06-01")})
	if err != nil {
		t.Fatal(err)
	}
	c.set("2026-10-01")
	var vs []version
	for _, id := range []uint64{a.ID, x.ID, b.ID} {
		f, _ := s.Get(ctx, "", id)
		evs, _ := s.Events(ctx, "", id)
		vs = append(vs, version{f, evs})
	}
	if n := len(spans(vs[0])); n != 2 {
		t.Errorf("superseded fact: %d rectangles, want 2 (before and after the supersede)", n)
	}
	if n := len(spans(vs[1])); n != 2 {
		t.Errorf("retracted and restored fact: %d rectangles, want 2", n)
	}
	in := func(sp []span, e, k time.Time) bool {
		for _, p := range sp {
			if (p.EvFrom.IsZero() || !e.Before(p.EvFrom)) && (p.EvTo.IsZero() || e.Before(p.EvTo)) &&
				!k.Before(p.RecFrom) && (p.RecTo.IsZero() || k.Before(p.RecTo)) {
				return true
			}
		}
		return false
	}
	for e := mustDay("2026-03-01"); e.Before(mustDay("2026-10-01")); e = e.AddDate(0, 0, 9) {
		for k := mustDay("2026-03-11"); !k.After(mustDay("2026-10-01")); k = k.AddDate(0, 0, 8) {
			got, err := s.At(ctx, "", e, k)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				want := false
				for _, f := range got {
					want = want || f.ID == v.Fact.ID
				}
				if in(spans(v), e, k) != want {
					t.Errorf("fact %d at event %s known %s: drawn %v, At says %v", v.Fact.ID, e.Format(time.DateOnly), k.Format(time.DateOnly), !want, want)
				}
			}
		}
	}
}

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi string
		first  string
	}{
		{"2026-01-01", "2026-01-06", "Jan 2"},
		{"2026-01-01", "2026-02-15", "Jan 5"},    // Mondays
		{"2026-01-15", "2026-10-01", "Mar 2026"}, // every second month from January
		{"2020-03-01", "2026-10-01", "2021"},
	} {
		ts := ticks(mustDay(tc.lo), mustDay(tc.hi))
		if len(ts) == 0 || len(ts) > 12 || ts[0].label != tc.first {
			t.Errorf("%s..%s: %d ticks, first %+v", tc.lo, tc.hi, len(ts), ts)
		}
		for i := 1; i < len(ts); i++ {
			if !ts[i].t.After(ts[i-1].t) {
				t.Errorf("%s..%s: ticks out of order", tc.lo, tc.hi)
			}
		}
	}
}

// The time-travel inputs take the store's range of times only, the years
// eventtime.MinYear to MaxYear: a point far outside it broke the scale.
func TestTravelTimeRange(t *testing.T) {
	f := newFixture(t, nil)
	for _, tc := range []struct {
		q    string
		code int
	}{
		{"at=1900-01-01", 200},
		{"at=2199-12-31T23:59", 200},
		{"known=2026-06-01", 200},
		{"at=9999-12-31", 400},
		{"at=0000-01-01", 400},
		{"at=1899-12-31T23:59", 400},
		{"at=2200-01-01", 400},
		{"at=2199-12-31T23:30:00-01:00", 400}, // 2200 in UTC
		{"known=0001-01-02", 400},
		{"at=2026-05-20&known=9999-12-31", 400},
	} {
		for _, p := range []string{"/", "/timeline", "/timeline?fact=1&"} {
			target := p + "?" + tc.q
			if strings.Contains(p, "?") {
				target = p + tc.q
			}
			w := f.do(t, "GET", target, nil)
			if w.Code != tc.code {
				t.Errorf("GET %s: %d, want %d", target, w.Code, tc.code)
			}
			if tc.code == 200 && strings.Count(w.Body.String(), `min="1900-01-01" max="2199-12-31"`) < 2 {
				t.Errorf("GET %s: the date inputs offer days outside the range", target)
			}
			if tc.code == 400 && !strings.Contains(w.Body.String(), "1900") {
				t.Errorf("GET %s: the error does not give the range", target)
			}
		}
	}
}
