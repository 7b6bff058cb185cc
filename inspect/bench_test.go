package inspect

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// benchFacts is the size of the store the render benchmark reads.
const benchFacts = 10_000

var (
	places = []string{"Lyon", "Paris", "Kazan", "Porto", "Oslo", "Riga", "Lisbon", "Turin", "Ghent", "Cork"}
	things = []string{"cello lessons", "the night train", "green tea", "board games", "trail running", "jazz records", "the museum", "a cooking class"}
)

// bigFixture is a store of benchFacts facts: every tenth supersedes the
// one before, every fiftieth is retracted, and 200 go through Remember,
// every fifth of them pinned, so that the decision log and the conflict
// queue are not empty.
func bigFixture(b *testing.B) *fixture {
	b.Helper()
	ctx := context.Background()
	c := &testClock{}
	c.set("2024-01-01")
	s := openStore(b, c)
	var prev memory.Fact
	for i := range benchFacts - 200 {
		c.mu.Lock()
		c.t = c.t.Add(time.Hour)
		c.mu.Unlock()
		n := memory.Note{Text: fmt.Sprintf("In %s I tried %s, note %d.", places[i%len(places)], things[i%len(things)], i), Source: memory.Source{Kind: "chat", Quote: "quote"}}
		var f memory.Fact
		var err error
		if i%10 == 9 {
			f, err = s.Supersede(ctx, "", prev.ID, n)
		} else {
			f, err = s.Add(ctx, n)
		}
		if err != nil {
			b.Fatal(err)
		}
		if i%50 == 7 {
			if _, err := s.Invalidate(ctx, "", f.ID, memory.Change{Reason: "wrong"}); err != nil {
				b.Fatal(err)
			}
		}
		prev = f
	}
	for i := range 200 {
		c.mu.Lock()
		c.t = c.t.Add(time.Hour)
		c.mu.Unlock()
		o, err := s.Remember(ctx, memory.Note{Text: fmt.Sprintf("I now live in %s, since move %d.", places[i%len(places)], i), Origin: memory.OriginAuto})
		if err != nil {
			b.Fatal(err)
		}
		if i%5 == 0 && o.Fact.ID != 0 { // the next move to replace it becomes a conflict
			if _, err := s.Pin(ctx, "", o.Fact.ID); err != nil {
				b.Fatal(err)
			}
		}
	}
	if cs, _ := s.Conflicts(ctx, "", nil); len(cs) == 0 {
		b.Fatal("no conflicts to show")
	}
	h, err := New(s, &Options{Clock: c.Now})
	if err != nil {
		b.Fatal(err)
	}
	return &fixture{s: s, c: c, h: h}
}

// BenchmarkPage renders each main page of a store of 10,000 facts and
// reports the median time of one request (p50-ms) beside Go's mean:
//
//	go test ./inspect -run '^$' -bench BenchmarkPage -benchtime 200x
func BenchmarkPage(b *testing.B) {
	f := bigFixture(b)
	all, _ := f.s.List(context.Background(), "", &memory.ListOptions{All: true})
	last := all[len(all)-1].ID
	for _, p := range []struct{ name, path string }{
		{"facts", "/"},
		{"all", "/?all=1"},
		{"all-page-50", "/?all=1&page=50"},
		{"travel", "/?at=2024-06-01&known=2024-09-01"},
		{"fact", "/facts/" + itoa(last)},
		{"timeline", "/timeline"},
		{"timeline-known", "/timeline?at=2024-05-15&known=2024-08-01"},
		{"timeline-zoom", "/timeline?from=2024-05-01&to=2024-05-31&known=2024-08-01"},
		{"timeline-page-50", "/timeline?page=50"},
		{"timeline-chain", "/timeline?fact=" + itoa(last)},
		{"decisions", "/decisions"},
		{"conflicts", "/conflicts"},
		{"entities", "/entities"},
	} {
		b.Run(p.name, func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				r := httptest.NewRequest("GET", p.path, nil)
				r.Host = "127.0.0.1"
				w := httptest.NewRecorder()
				t0 := time.Now()
				f.h.ServeHTTP(w, r)
				times = append(times, time.Since(t0))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", p.path, w.Code)
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		})
	}
}
