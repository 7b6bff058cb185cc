package inspect

import (
	"context"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
)

// The record times and event times the time-travel tests visit: each day
// something was said, the days between, and events before, among and
// after them (an upcoming fact is true only from 2027).
var (
	knownDays = []string{"2026-01-12", "2026-02-10", "2026-03-03", "2026-03-04", "2026-04-08", "2026-06-01",
		"2026-06-15", "2026-07-01", "2026-07-25", "2026-08-11", "2026-09-01", "2026-09-30"}
	atDays = []string{"2026-01-15", "2026-03-03", "2026-05-20", "2026-06-20", "2026-07-10", "2027-02-01"}
)

// pastFixture is the store as it stood at record time day: the story told
// up to that day, its clock stopped there. Remember and the rules decider
// are deterministic, so it is the seeded store's past, ids and all.
func pastFixture(t *testing.T, day string) *fixture {
	t.Helper()
	c := &testClock{}
	s := openStore(t, c)
	f := &fixture{s: s, c: c}
	f.outs = seedUntil(t, s, c, "", day)
	c.set(day)
	h, err := New(s, &Options{Clock: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	return f
}

// factRow is what a facts table says of one fact.
type factRow struct{ State, Interval string }

// factRows are a facts table's rows by fact id, and the ids in order.
func factRows(t *testing.T, body string) (map[string]factRow, []string) {
	t.Helper()
	out := map[string]factRow{}
	var order []string
	for _, r := range tableRows(body, "facts") {
		if len(r.Text) < 4 {
			continue // "No facts here."
		}
		out[r.Text[0]] = factRow{State: r.HTML[2], Interval: r.Text[3]}
		order = append(order, r.Text[0])
	}
	return out, order
}

// On a time-travel page (?at=…&known=…) every state pill, interval and
// count is as the store knew it at known: the same, row for row, as the
// page the store itself showed then (its past, with the clock at known),
// and every interval is the one At answers as of known. Before, the rows
// showed today's states: at ?at=2026-05-20&known=2026-06-01 "I live in
// Lyon." read "superseded 2026-01-12 → 2026-05-01", though on 1 June the
// store believed it current and open.
func TestTimeTravelShowsTheStatesKnownThen(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	for _, known := range knownDays {
		past := pastFixture(t, known)
		for _, at := range atDays {
			q := "?at=" + at + "&known=" + known
			got, ids := factRows(t, f.do(t, "GET", "/"+q, nil).Body.String())
			want, wantIDs := factRows(t, past.do(t, "GET", "/?at="+at, nil).Body.String())
			if !slices.Equal(ids, wantIDs) {
				t.Errorf("%s: facts %v, the store then showed %v", q, ids, wantIDs)
			}
			for id, w := range want {
				if g := got[id]; g != w {
					t.Errorf("%s: #%s shows %s %q, the store then showed %s %q", q, id, textOf(g.State), g.Interval, textOf(w.State), w.Interval)
				}
			}
			// Every row against At: the fact is in its answer as of known
			// exactly through the interval the row shows.
			k := mustDay(known)
			atIDs := func(e time.Time) []string {
				fs, err := f.s.At(ctx, "", e, k)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, g := range fs {
					out = append(out, itoa(g.ID))
				}
				return out
			}
			if all := atIDs(mustDay(at)); len(all) != len(ids) {
				t.Errorf("%s: %d rows, At answers %d facts", q, len(ids), len(all))
			}
			for id, g := range got {
				from, to, ok := strings.Cut(g.Interval, " → ")
				if !ok {
					t.Fatalf("%s: #%s interval %q", q, id, g.Interval)
				}
				probe := func(e time.Time, want bool, what string) {
					if has := slices.Contains(atIDs(e), id); has != want {
						t.Errorf("%s: #%s shows %q, but At(%s, %s) holds it: %v (%s)", q, id, g.Interval, stamp(e), known, has, what)
					}
				}
				if from == "?" {
					probe(time.Date(eventtime.MinYear, 1, 2, 0, 0, 0, 0, time.UTC), true, "an unknown start")
				} else {
					s := parseStamp(t, from)
					probe(s, true, "its start")
					probe(s.Add(-time.Minute), false, "before its start")
				}
				if to == "open" {
					probe(time.Date(eventtime.MaxYear, 12, 1, 0, 0, 0, 0, time.UTC), true, "an open end")
				} else {
					e := parseStamp(t, to)
					probe(e.Add(-time.Minute), true, "before its end")
					probe(e, false, "its end")
				}
			}
		}
	}
}

// The issue's own example, spelled out: what the row says of Lyon on the
// page of 20 May as known on 1 June, when the store believed it current and
// open, and as known since the move to Paris "back in May" was told on 15
// June, when it was not true on 20 May (no row) but was in April.
func TestTimeTravelLyonAsKnownOnFirstJune(t *testing.T) {
	f := newFixture(t, nil)
	for _, tc := range []struct{ q, state, interval string }{
		{"?at=2026-05-20&known=2026-06-01", "current", "2026-01-12 → open"},
		{"?at=2026-05-20&known=2026-06-15", "", ""},
		{"?at=2026-05-20", "", ""},
		{"?at=2026-04-01&known=2026-06-15", "superseded", "2026-01-12 → 2026-05-01"},
		{"?at=2026-04-01&known=2026-06-01", "current", "2026-01-12 → open"},
	} {
		rows, _ := factRows(t, f.do(t, "GET", "/"+tc.q, nil).Body.String())
		if r := rows["1"]; textOf(r.State) != tc.state || r.Interval != tc.interval {
			t.Errorf("%s: Lyon shows %q %q, want %q %q", tc.q, textOf(r.State), r.Interval, tc.state, tc.interval)
		}
	}
}

// The timeline's list of what was true and the search's hits show their
// pills as known then too, as the store showed them then.
func TestTimeTravelListsAsKnownThen(t *testing.T) {
	f := newFixture(t, nil)
	li := regexp.MustCompile(`(?s)<ul class="plain">.*?</ul>`)
	compared := 0
	for _, known := range []string{"2026-03-03", "2026-06-01", "2026-07-25"} {
		past := pastFixture(t, known)
		for _, at := range []string{"2026-03-03", "2026-05-20", "2026-07-10"} {
			q := "at=" + at + "&known=" + known
			got := li.FindString(f.do(t, "GET", "/timeline?"+q, nil).Body.String())
			want := li.FindString(past.do(t, "GET", "/timeline?at="+at, nil).Body.String())
			if got != want || got == "" {
				t.Errorf("/timeline?%s lists\n%s\nthe store then listed\n%s", q, textOf(got), textOf(want))
			}
			for _, ask := range []string{"Where do I live?", "Where do I work?", "the offsite"} {
				sq := "/search?q=" + url.QueryEscape(ask) + "&at=" + at
				g, _ := factRows(t, f.do(t, "GET", sq+"&known="+known, nil).Body.String())
				w, _ := factRows(t, past.do(t, "GET", sq, nil).Body.String())
				for id, wr := range w {
					if gr, ok := g[id]; ok {
						compared++
						if gr.State != wr.State {
							t.Errorf("%s&known=%s: #%s shows %s, the store then showed %s", sq, known, id, textOf(gr.State), textOf(wr.State))
						}
					}
				}
			}
		}
	}
	if compared == 0 {
		t.Error("the test is void: no hit found both then and now")
	}
}

// parseStamp reads a time as stamp writes it.
func parseStamp(t *testing.T, s string) time.Time {
	t.Helper()
	for _, layout := range []string{"2006-01-02 15:04", time.DateOnly} {
		if v, err := time.Parse(layout, s); err == nil {
			return v
		}
	}
	t.Fatalf("%q is not a time the page writes", s)
	return time.Time{}
}
