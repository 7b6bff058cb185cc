package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/palimpsest-mem/memory"
)

// allLanes reads every page of the lanes at the query q (known, from, to
// as the page takes them) and returns the pages' diagrams.
func allLanes(t *testing.T, h *Handler, q url.Values) []*laneDiagram {
	t.Helper()
	t2, err := travelOf(httptest.NewRequest("GET", "/timeline?"+q.Encode(), nil))
	if err != nil {
		t.Fatal(err)
	}
	var out []*laneDiagram
	for page := 1; ; page++ {
		q.Set("page", fmt.Sprint(page))
		r := httptest.NewRequest("GET", "/timeline?"+q.Encode(), nil)
		from, to, err := zoomOf(r)
		if err != nil {
			t.Fatal(err)
		}
		d, err := h.lanes(context.Background(), r, "", t2.Known, t2.At, from, to)
		if err != nil {
			t.Fatalf("%s: %v", q.Encode(), err)
		}
		out = append(out, d)
		if d.Pager.Next == "" {
			return out
		}
	}
}

// drawnAt is what the lanes draw filled over event time e, by fact id,
// checking on the way that the bar's pixels cover e's.
func drawnAt(t *testing.T, ds []*laneDiagram, e time.Time) map[uint64]bool {
	t.Helper()
	got := map[uint64]bool{}
	for _, d := range ds {
		if e.Before(d.From) || !e.Before(d.To) {
			continue
		}
		x := d.X0 + (d.X1-d.X0)*float64(e.Sub(d.From))/float64(d.To.Sub(d.From))
		for _, l := range d.Lanes {
			for _, it := range l.Items {
				if it.Ghost || !it.Held.covers(e) {
					continue
				}
				if got[it.ID] {
					t.Errorf("fact %d drawn twice", it.ID)
				}
				got[it.ID] = true
				if x < it.X-1 || x > it.X+it.W+1 {
					t.Errorf("fact %d covers %s but its bar spans x %.1f–%.1f, not %.1f", it.ID, stamp(e), it.X, it.X+it.W, x)
				}
			}
		}
	}
	return got
}

// checkAgainstAt compares the lanes as known at each k with At(e, k) on a
// grid of event times, over the whole axis and zoomed to a period.
func checkAgainstAt(t *testing.T, s *memory.Store, h *Handler, ks []time.Time, e0, e1 time.Time) {
	t.Helper()
	ctx := context.Background()
	zooms := [][2]string{{"", ""}, {"2026-04-01", "2026-07-31"}, {"", "2026-02-15"}, {"2026-08-10", ""}, {"2025-12-01", "2026-01-10"}}
	for _, k := range ks {
		for _, z := range zooms {
			q := url.Values{"known": {k.Format(time.RFC3339Nano)}}
			if z[0] != "" {
				q.Set("from", z[0])
			}
			if z[1] != "" {
				q.Set("to", z[1])
			}
			ds := allLanes(t, h, q)
			for _, d := range ds {
				for _, l := range d.Lanes {
					for _, it := range l.Items {
						if it.Recorded.After(k) {
							t.Errorf("known %s: fact %d, recorded %s, is drawn", stamp(k), it.ID, stamp(it.Recorded))
						}
					}
				}
			}
			for e := e0; e.Before(e1); e = e.Add(5*24*time.Hour + 7*time.Hour) {
				outside := false // the axis: the period, else what is drawn
				for _, d := range ds {
					outside = outside || e.Before(d.From) || !e.Before(d.To)
				}
				if outside {
					continue
				}
				got := drawnAt(t, ds, e)
				at, err := s.At(ctx, "", e, k)
				if err != nil {
					t.Fatal(err)
				}
				want := map[uint64]bool{}
				for _, f := range at {
					want[f.ID] = true
					if !got[f.ID] {
						t.Errorf("known %s, zoom %v, event %s: At returns #%d %q, the lanes do not draw it", stamp(k), z, stamp(e), f.ID, f.Text)
					}
				}
				for id := range got {
					if !want[id] {
						t.Errorf("known %s, zoom %v, event %s: the lanes draw #%d, At does not return it", stamp(k), z, stamp(e), id)
					}
				}
			}
		}
	}
}

// knownTimes are record times to look from: weekly, and just before, at
// and after every step of every fact's log.
func knownTimes(t *testing.T, s *memory.Store, from, to time.Time) []time.Time {
	t.Helper()
	ctx := context.Background()
	var ks []time.Time
	for k := from; !k.After(to); k = k.AddDate(0, 0, 7) {
		ks = append(ks, k)
	}
	all, err := s.List(ctx, "", &memory.ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range all {
		evs, _ := s.Events(ctx, "", f.ID)
		for _, e := range evs {
			ks = append(ks, e.At.Add(-time.Nanosecond), e.At, e.At.Add(time.Hour))
		}
	}
	return ks
}

// The lanes as known at K draw a version filled over event time E exactly
// when At(E, K) returns it: supersedes that end a version before it was
// told (an unknown start), retractions and restores, a successor deleted
// after it ended its predecessor, given intervals, facts in advance.
func TestLanesAgreeWithAt(t *testing.T) {
	ctx := context.Background()
	c := &testClock{}
	s := openStore(t, c)
	must := func(f memory.Fact, err error) memory.Fact {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	c.set("2026-01-20")
	a := must(s.Add(ctx, memory.Note{Text: "I work at company A."}))
	x := must(s.Add(ctx, memory.Note{Text: "The offsite is on Tuesday."}))
	trip := must(s.Add(ctx, memory.Note{Text: "I am in Rome for the conference.", EventFrom: mustDay("2026-05-04"), EventUntil: mustDay("2026-05-09")}))
	c.set("2026-02-10")
	must(s.Invalidate(ctx, "", x.ID, memory.Change{}))
	c.set("2026-03-01")
	home := must(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-03-15")
	must(s.Restore(ctx, "", x.ID, memory.Change{}))
	c.set("2026-04-02")
	// Told after the fact: B began before A was recorded, so A's start is
	// a time nobody said.
	b := must(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I moved to company B.", EventFrom: mustDay("2026-01-05")}))
	c.set("2026-05-20")
	paris := must(s.Supersede(ctx, "", home.ID, memory.Note{Text: "I moved to Paris.", EventFrom: mustDay("2026-05-01")}))
	c.set("2026-06-10")
	must(s.Supersede(ctx, "", b.ID, memory.Note{Text: "I work at company C now."}))
	must(s.Add(ctx, memory.Note{Text: "From September I study in Turin.", EventFrom: mustDay("2026-09-01")}))
	c.set("2026-07-01")
	// The successor deleted: Lyon is restored, and the log alone remembers
	// that from 2026-05-20 to 2026-07-01 it ended on 2026-05-01.
	if _, err := s.Delete(ctx, "", paris.ID, nil); err != nil {
		t.Fatal(err)
	}
	c.set("2026-08-20")
	must(s.Invalidate(ctx, "", trip.ID, memory.Change{}))
	c.set("2026-10-01")
	f := &fixture{s: s, c: c}
	h, err := New(s, &Options{Clock: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	checkAgainstAt(t, s, h, knownTimes(t, s, mustDay("2026-01-01"), mustDay("2026-10-01")), mustDay("2025-11-01"), mustDay("2027-01-01"))

	// The unknown start reads as such: as known on 2026-05-01, A ran from
	// a time nobody said to 2026-01-05.
	ds := allLanes(t, h, url.Values{"known": {"2026-05-01"}})
	var seen bool
	for _, l := range ds[0].Lanes {
		for _, it := range l.Items {
			if it.ID == a.ID {
				seen = true
				if !it.Held.Start.IsZero() || !it.Held.End.Equal(mustDay("2026-01-05")) || !it.RunsLeft || it.State != "superseded" {
					t.Errorf("company A as known on 2026-05-01: %+v", it)
				}
			}
		}
	}
	if !seen {
		t.Error("company A is not drawn as known on 2026-05-01")
	}
}

// The seeded year: the same agreement, after a conflict is resolved too.
func TestLanesAgreeWithAtStory(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	cs, err := f.s.Conflicts(ctx, "", nil)
	if err != nil || len(cs) == 0 {
		t.Fatalf("conflicts %v %v", cs, err)
	}
	f.c.set("2026-10-05")
	if _, err := f.s.ResolveConflict(ctx, "", cs[0].ID, memory.KeepNew); err != nil {
		t.Fatal(err)
	}
	f.c.set("2026-10-10")
	checkAgainstAt(t, f.s, f.h, knownTimes(t, f.s, mustDay("2026-01-05"), mustDay("2026-10-10")), mustDay("2025-12-01"), mustDay("2027-03-01"))
}

// "Where did I work in May, as known on 1 August?": Northwind Bank,
// superseded since; as known on 1 June, Contoso is not yet recorded and
// Northwind is current; the retracted offsite reads "retracted".
func TestLanesAsKnownThen(t *testing.T) {
	f := newFixture(t, nil)
	item := func(ds []*laneDiagram, text string) (laneItem, laneView, bool) {
		for _, d := range ds {
			for _, l := range d.Lanes {
				for _, it := range l.Items {
					if it.Text == text {
						return it, l, true
					}
				}
			}
		}
		return laneItem{}, laneView{}, false
	}
	aug := allLanes(t, f.h, url.Values{"known": {"2026-08-01"}, "at": {"2026-05-15"}})
	nw, lane, ok := item(aug, "I work at Northwind Bank as a data analyst.")
	if !ok || nw.State != "superseded" || !nw.Held.covers(mustDay("2026-05-15")) {
		t.Errorf("Northwind as known on 1 August: %+v", nw)
	}
	if !strings.HasPrefix(lane.Label, "I now work at Contoso") {
		t.Errorf("its lane is labelled %q, not with the chain's newest text", lane.Label)
	}
	if _, _, ok := item(aug, "From January I will study at the Sorbonne."); ok {
		t.Error("a fact recorded on 1 September is drawn as known on 1 August")
	}
	june := allLanes(t, f.h, url.Values{"known": {"2026-06-01"}})
	if _, _, ok := item(june, "I now work at Contoso as a product manager."); ok {
		t.Error("Contoso, recorded on 1 July, is drawn as known on 1 June")
	}
	nw, lane, _ = item(june, "I work at Northwind Bank as a data analyst.")
	if nw.State != "current" || !nw.Held.End.IsZero() || !nw.RunsOn {
		t.Errorf("Northwind as known on 1 June: %+v, want current and open", nw)
	}
	if !strings.HasPrefix(lane.Label, "I work at Northwind Bank") {
		t.Errorf("as known on 1 June its lane is labelled %q", lane.Label)
	}
	tue, _, ok := item(june, "The team offsite is on Tuesday.")
	if !ok || !tue.Ghost || tue.State != "retracted" || !strings.Contains(tue.Title, "retracted at 2026-03-04") {
		t.Errorf("the retracted offsite as known on 1 June: %+v", tue)
	}
	before, _, _ := item(allLanes(t, f.h, url.Values{"known": {"2026-03-03"}}), "The team offsite is on Tuesday.")
	if before.Ghost || before.State != "current" {
		t.Errorf("the offsite as known on 3 March: %+v, want current", before)
	}
	// The page says it in words, and links each bar to its fact.
	body := f.do(t, "GET", "/timeline?known=2026-08-01&at=2026-05-15", nil).Body.String()
	for _, want := range []string{
		`role="group" aria-label="Lanes of `, "as known at 2026-08-01",
		"I work at Northwind Bank as a data analyst. — superseded as known at 2026-08-01: true 2026-01-12 – 2026-07-01</title>",
		`href="/facts/` + itoa(nw.ID) + `"`, "true at 2026-05-15", "The same ", `scope="rowgroup"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}

// A zoom draws that period only: the axis is the period, every bar lies
// inside the plot, a bar that runs past it says so, and what lies wholly
// outside it is not drawn.
func TestLanesZoom(t *testing.T) {
	f := newFixture(t, nil)
	ds := allLanes(t, f.h, url.Values{"known": {"2026-08-01"}, "from": {"2026-05-01"}, "to": {"2026-05-31"}})
	d := ds[0]
	if !d.From.Equal(mustDay("2026-05-01")) || !d.To.Equal(mustDay("2026-06-01")) {
		t.Fatalf("axis %s to %s, want 2026-05-01 to 2026-06-01", stamp(d.From), stamp(d.To))
	}
	if len(d.Lanes) == 0 {
		t.Fatal("nothing drawn in May")
	}
	for _, tk := range d.Ticks {
		if tk.Pos < d.X0 || tk.Pos > d.X1 {
			t.Errorf("tick %q at %.1f, outside the plot %.1f–%.1f", tk.Label, tk.Pos, d.X0, d.X1)
		}
	}
	for _, l := range d.Lanes {
		for _, it := range l.Items {
			if it.X < d.X0 || it.X+it.W > d.X1+0.05 {
				t.Errorf("#%d drawn at x %.1f–%.1f, outside the plot %.1f–%.1f", it.ID, it.X, it.X+it.W, d.X0, d.X1)
			}
			if !it.Held.meets(d.From, d.To) {
				t.Errorf("#%d (%s – %s) is drawn, outside May", it.ID, stamp(it.Held.Start), stamp(it.Held.End))
			}
			if it.Held.Start.Before(d.From) != it.RunsLeft && !it.Held.Start.IsZero() {
				t.Errorf("#%d began %s: runs left %v", it.ID, stamp(it.Held.Start), it.RunsLeft)
			}
		}
	}
	// Lyon ended on 1 May as known on 1 August (Paris since May): not
	// drawn before May; the whole year shows it.
	has := func(ds []*laneDiagram, text string) bool {
		for _, d := range ds {
			for _, l := range d.Lanes {
				for _, it := range l.Items {
					if it.Text == text {
						return true
					}
				}
			}
		}
		return false
	}
	if !has(allLanes(t, f.h, url.Values{"known": {"2026-08-01"}}), "I live in Lyon.") {
		t.Error("Lyon is not drawn over the whole axis")
	}
	if has(ds, "I live in Lyon.") {
		t.Error("Lyon, which ended on 1 May, is drawn in May")
	}
	if !has(ds, "I moved to Paris back in May, I live in Paris now.") {
		t.Error("Paris is not drawn in May")
	}
	// The form keeps the period; a period that ends before it begins, or
	// a day outside the store's range, is refused.
	body := f.do(t, "GET", "/timeline?from=2026-05-01&to=2026-05-31", nil).Body.String()
	for _, want := range []string{`name="from" min="1900-01-01" max="2199-12-31" value="2026-05-01"`, `name="to" min="1900-01-01" max="2199-12-31" value="2026-05-31"`, "The axis covers 2026-05-01 up to 2026-06-01 only."} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q", want)
		}
	}
	for _, q := range []string{"from=2026-06-01&to=2026-05-01", "from=2026-06-01T10:00&to=2026-06-01T09:00", "from=1800-01-01", "to=nope"} {
		if w := f.do(t, "GET", "/timeline?"+q, nil); w.Code != http.StatusBadRequest {
			t.Errorf("GET /timeline?%s: %d, want 400", q, w.Code)
		}
	}
}

// bigChains makes a store of n chains of per versions each, over a year
// and a half, with long texts and wide scripts among them.
func bigChains(t *testing.T, n, per int) *fixture {
	t.Helper()
	ctx := context.Background()
	c := &testClock{}
	c.set("2025-01-01")
	s := openStore(t, c)
	texts := []string{"I work at %s as an engineer on the payments team, version %d.", "我住在%s，第%d版。", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW %s %d", "I like %s %d."}
	for i := range n {
		var prev memory.Fact
		for j := range per {
			c.mu.Lock()
			c.t = c.t.Add(time.Duration(1+(i*per+j)%5) * 37 * time.Hour)
			c.mu.Unlock()
			note := memory.Note{Text: fmt.Sprintf(texts[(i+j)%len(texts)], places[i%len(places)], j)}
			if j%3 == 1 {
				note.EventFrom = c.Now().AddDate(0, 0, -20)
			}
			var err error
			if j == 0 {
				prev, err = s.Add(ctx, note)
			} else {
				prev, err = s.Supersede(ctx, "", prev.ID, note)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	h, err := New(s, &Options{Clock: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{s: s, c: c, h: h}
}

// checkInside checks that every label lies inside its lane: the lane's
// label in the label column within the lane's band, a bar's label inside
// its bar.
func checkInside(t *testing.T, d *laneDiagram) {
	t.Helper()
	for i, l := range d.Lanes {
		if l.Label == "" || laneW(l.Label) > d.LabelW {
			t.Errorf("lane %d: label %q (%.0f units) does not fit %.0f", i, l.Label, laneW(l.Label), d.LabelW)
		}
		if l.LabelY-11.5 < l.Y || l.LabelY+3 > l.Y+l.H {
			t.Errorf("lane %d: label at y %.1f, outside its band %.1f–%.1f", i, l.LabelY, l.Y, l.Y+l.H)
		}
		if i > 0 && l.Y < d.Lanes[i-1].Y+d.Lanes[i-1].H {
			t.Errorf("lane %d overlaps the one above", i)
		}
		for _, it := range l.Items {
			if it.Y < l.Y || it.Y+it.H > l.Y+l.H {
				t.Errorf("lane %d: #%d at y %.1f–%.1f, outside its band %.1f–%.1f", i, it.ID, it.Y, it.Y+it.H, l.Y, l.Y+l.H)
			}
			if it.Label != "" && (laneW(it.Label) > it.W-8 || it.LabelY-11.5 < it.Y-1 || it.LabelY > it.Y+it.H) {
				t.Errorf("lane %d: the label %q of #%d does not fit its bar (%.0f wide)", i, it.Label, it.ID, it.W)
			}
		}
		// Bars of one row do not overlap.
		for a := range l.Items {
			for b := a + 1; b < len(l.Items); b++ {
				p, q := l.Items[a], l.Items[b]
				if p.row == q.row && p.lo < q.hi && q.lo < p.hi {
					t.Errorf("lane %d: #%d and #%d overlap in one row", i, p.ID, q.ID)
				}
			}
		}
	}
}

// At 30 and at 300 versions every label is inside its lane, and 300
// chains of one version are paged.
func TestLanesManyVersions(t *testing.T) {
	for _, tc := range []struct{ chains, per, pages int }{{10, 3, 1}, {30, 10, 1}, {300, 1, 8}} {
		f := bigChains(t, tc.chains, tc.per)
		ds := allLanes(t, f.h, url.Values{})
		if len(ds) != tc.pages {
			t.Errorf("%d×%d: %d pages, want %d", tc.chains, tc.per, len(ds), tc.pages)
		}
		lanes, items := 0, 0
		for _, d := range ds {
			checkInside(t, d)
			lanes += len(d.Lanes)
			items += d.Items
		}
		if lanes != tc.chains || items != tc.chains*tc.per {
			t.Errorf("%d×%d: %d lanes, %d bars", tc.chains, tc.per, lanes, items)
		}
		w := f.do(t, "GET", "/timeline", nil)
		if w.Code != 200 || strings.Count(w.Body.String(), `class="ln-iv `) != ds[0].Items {
			t.Errorf("%d×%d: %d, %d bars in the page, want %d", tc.chains, tc.per, w.Code, strings.Count(w.Body.String(), `class="ln-iv `), ds[0].Items)
		}
		if tc.pages > 1 && !strings.Contains(w.Body.String(), "page 1 of 8") {
			t.Errorf("%d×%d: no pager", tc.chains, tc.per)
		}
	}
}

// Text is escaped in the labels, the titles and the table.
func TestLanesEscaping(t *testing.T) {
	f := newFixture(t, nil)
	const evil = `</text></svg><script>alert(1)</script>"><a href="javascript:x">&amp;`
	n, err := f.s.Add(context.Background(), memory.Note{Text: evil})
	if err != nil {
		t.Fatal(err)
	}
	body := f.do(t, "GET", "/timeline?known=2026-10-02&from=2026-09-01", nil).Body.String()
	for _, bad := range []string{"<script", `href="javascript`, "&amp;amp;</text>" + "x"} {
		if strings.Contains(body, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	esc := "&lt;/text&gt;&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
	if c := strings.Count(body, esc); c < 3 { // the lane's title, the bar's title, the table
		t.Errorf("the escaped text appears %d times", c)
	}
	if !strings.Contains(body, `href="/facts/`+itoa(n.ID)+`"`) {
		t.Error("no link to the fact")
	}
}

// In Chromium, with the stylesheet's fonts, every label of 300 versions
// lies inside its lane: a lane's label in the label column and its band,
// a bar's label inside its bar; and the bars are links.
func TestBrowserLanes(t *testing.T) {
	ctx := tab(t)
	f := bigChains(t, 30, 10)
	srv := httptest.NewServer(f.h)
	t.Cleanup(srv.Close)
	ds := allLanes(t, f.h, url.Values{})
	d := ds[0]
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+"/timeline"), chromedp.WaitVisible("figure.lanes")); err != nil {
		t.Fatal(err)
	}
	js := `JSON.stringify({
		labels: [...document.querySelectorAll("text.ln-label")].map(e => { const b = e.getBBox(); return [b.x, b.y, b.width, b.height]; }),
		bars: [...document.querySelectorAll("a.ln-iv")].map(a => {
			const b = a.querySelector("path.ln-bar").getBBox(), t = a.querySelector("text.ln-text");
			const l = t ? t.getBBox() : null;
			return [b.x, b.y, b.width, b.height].concat(l ? [l.x, l.y, l.width, l.height] : []);
		}),
		links: document.querySelectorAll("a.ln-iv[href^='/facts/']").length,
	})`
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Labels [][]float64
		Bars   [][]float64
		Links  int
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Labels) != len(d.Lanes) || len(got.Bars) != d.Items || got.Links != d.Items {
		t.Fatalf("%d labels, %d bars, %d links; want %d lanes, %d bars", len(got.Labels), len(got.Bars), got.Links, len(d.Lanes), d.Items)
	}
	const slack = 0.5
	for i, b := range got.Labels {
		l := d.Lanes[i]
		if b[0] < d.LabelX-slack || b[0]+b[2] > d.LabelX+d.LabelW+slack || b[1] < l.Y-slack || b[1]+b[3] > l.Y+l.H+slack {
			t.Errorf("lane %d: label %q at %v, outside its lane (x %.0f–%.0f, y %.0f–%.0f)", i, l.Label, b, d.LabelX, d.LabelX+d.LabelW, l.Y, l.Y+l.H)
		}
	}
	withLabel := 0
	for i, b := range got.Bars {
		if len(b) < 8 {
			continue
		}
		withLabel++
		if b[4] < b[0]-slack || b[4]+b[6] > b[0]+b[2]+slack || b[5] < b[1]-2 || b[5]+b[7] > b[1]+b[3]+2 {
			t.Errorf("bar %d: its label at %v lies outside the bar %v", i, b[4:], b[:4])
		}
	}
	if withLabel == 0 {
		t.Error("no bar is labelled")
	}
}

// A chain of 60 versions draws its newest 40 and says how many it left
// out; a zoom to its first weeks draws the older ones.
func TestLanesCapped(t *testing.T) {
	f := bigChains(t, 1, maxBars+20)
	d := allLanes(t, f.h, url.Values{})[0]
	if len(d.Lanes) != 1 || d.Items != maxBars || d.Lanes[0].Older != 20 || !strings.HasSuffix(d.Lanes[0].Label, " +20 older") || d.Capped != 1 {
		t.Fatalf("%d lanes, %d bars, %d older, label %q", len(d.Lanes), d.Items, d.Lanes[0].Older, d.Lanes[0].Label)
	}
	checkInside(t, d)
	drawn := map[uint64]bool{}
	for _, it := range d.Lanes[0].Items {
		drawn[it.ID] = true
	}
	body := f.do(t, "GET", "/timeline", nil).Body.String()
	if !strings.Contains(body, "1 lane of this page draws only the newest 40 versions") || !strings.Contains(body, "its 20 older versions are not drawn") {
		t.Error("the page does not say that the lane left versions out")
	}
	early := allLanes(t, f.h, url.Values{"from": {"2025-01-01"}, "to": {"2025-01-31"}})[0]
	older := 0
	for _, l := range early.Lanes {
		for _, it := range l.Items {
			if !drawn[it.ID] {
				older++
			}
		}
	}
	if older == 0 {
		t.Error("a zoom to January 2025 draws none of the older versions")
	}
}

// laneW is a lane label's width.
func laneW(s string) float64 { return textWidth(s, labelPx, false) }
