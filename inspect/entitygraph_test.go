package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/palimpsest-mem/memory"
)

// hostile is a neighbour's name as a user might type it.
const hostile = `Bob "<script>alert(1)</script>' & co`

// acmeStore is a store in which the entity Acme has a neighbour in every
// state at 2026-04-01: the user worked there until 2026-03-01 (told
// 2026-03-05), Anna and the hostile name work there, Carol joins on
// 2026-06-01, and Dan's fact was retracted.
func acmeStore(t *testing.T) (*memory.Store, *testClock, *Handler) {
	t.Helper()
	ctx := context.Background()
	c := &testClock{}
	s := openStore(t, c)
	add := func(day, subject, object string, from string) memory.Fact {
		t.Helper()
		c.set(day)
		n := memory.Note{Text: subject + " works at " + object,
			Claims: []memory.Claim{{Subject: subject, Relation: memory.RelWorksAt, Object: object, Kind: "company"}}}
		if from != "" {
			n.EventFrom = mustDay(from)
		}
		f, err := s.Add(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	me := add("2026-01-10", "", "Acme", "")
	add("2026-01-11", "Anna", "Acme", "")
	add("2026-01-12", hostile, "Acme", "")
	add("2026-01-13", "Carol", "Acme", "2026-06-01")
	dan := add("2026-01-14", "Dan", "Acme", "")
	c.set("2026-02-01")
	if _, err := s.Invalidate(ctx, "", dan.ID, memory.Change{Reason: "wrong person"}); err != nil {
		t.Fatal(err)
	}
	c.set("2026-03-05")
	if _, err := s.Supersede(ctx, "", me.ID, memory.Note{Text: "I work at Initech now.", EventFrom: mustDay("2026-03-01"),
		Claims: []memory.Claim{{Relation: memory.RelWorksAt, Object: "Initech", Kind: "company"}}}); err != nil {
		t.Fatal(err)
	}
	c.set("2026-10-01")
	h, err := New(s, &Options{Clock: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	return s, c, h
}

func get(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	r := httptest.NewRequest("GET", target, nil)
	r.Host = "127.0.0.1:7711"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

func edgeKeyOf(e memory.Edge) string {
	return fmt.Sprintf("%s|%s|%s|%v|%s|%s", e.Subject, e.Relation, e.Object, e.Support, dayOrNil(e.EventStart, "?"), dayOrNil(e.EventEnd, "open"))
}

// The drawing holds exactly the edges Edges returns at the point (All), its
// current spokes exactly what Neighbours returns, each marked with its
// state, and its nodes exactly their other ends.
func TestEntityGraphIsNeighbours(t *testing.T) {
	ctx := context.Background()
	s, _, _ := acmeStore(t)
	for _, p := range []struct{ at, known string }{
		{"", ""}, {"2026-02-01", ""}, {"2026-04-01", ""}, {"2026-07-01", ""},
		{"2026-04-01", "2026-02-15"}, {"2026-01-12", "2026-01-12"}, {"2026-04-01", "2026-01-01"},
	} {
		var at, known time.Time
		if p.at != "" {
			at = mustDay(p.at)
		}
		if p.known != "" {
			known = mustDay(p.known)
		}
		es, err := graphEdges(ctx, s, "", "Acme", at, known)
		if err != nil {
			t.Fatal(err)
		}
		g := buildEntityGraph("", "Acme", es, at, known)
		ns, err := s.Neighbours(ctx, "", "Acme", at, known)
		if err != nil {
			t.Fatal(err)
		}
		all, err := s.Edges(ctx, "", &memory.EdgeQuery{Object: "Acme", Event: at, Known: known, All: true})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]memory.EdgeState{}
		for _, e := range all {
			want[edgeKeyOf(e)] = e.State
		}
		current := map[string]bool{}
		for _, e := range ns {
			current[edgeKeyOf(e)] = true
		}
		drawnCurrent := map[string]bool{}
		nodes := map[string]bool{}
		drawn := 0
		for _, n := range g.Nodes {
			nodes[n.Name] = true
			for _, e := range n.Edges {
				if !e.Drawn {
					continue
				}
				drawn++
				k := edgeKeyOf(e.Edge)
				st, ok := want[k]
				switch {
				case !ok:
					t.Errorf("%v: drawn %s, which Edges does not return", p, k)
				case string(st) != e.State:
					t.Errorf("%v: %s drawn %s, Edges says %s", p, k, e.State, st)
				}
				if e.Edge.State == memory.EdgeCurrent {
					drawnCurrent[k] = true
				} else if !strings.Contains(e.Line1, e.State) || !strings.Contains(e.Title, e.State) {
					t.Errorf("%v: a %s edge not marked so: %q, %q", p, e.State, e.Line1, e.Title)
				}
			}
		}
		if drawn != len(all) || len(g.List) != len(all) {
			t.Errorf("%v: %d edges drawn, %d listed, Edges returns %d", p, drawn, len(g.List), len(all))
		}
		if fmt.Sprint(drawnCurrent) != fmt.Sprint(current) {
			t.Errorf("%v: current spokes %v, Neighbours %v", p, drawnCurrent, current)
		}
		wantNodes := map[string]bool{}
		for _, e := range all {
			name := e.Subject
			if name == "" {
				name = "user"
			}
			wantNodes[name] = true
		}
		if fmt.Sprint(nodes) != fmt.Sprint(wantNodes) {
			t.Errorf("%v: nodes %v, want %v", p, nodes, wantNodes)
		}
	}
}

// The edge that ended is drawn ended at a later event time and current at
// an earlier one, and current again as known before the change was told;
// the page says so in the spoke's class and title.
func TestEntityGraphTimeTravel(t *testing.T) {
	_, _, h := acmeStore(t)
	userSpoke := func(body string) string {
		i := strings.Index(body, "<title>user works_at Acme — ")
		if i < 0 {
			t.Fatalf("no spoke of user works_at Acme in the page")
		}
		j := strings.LastIndex(body[:i], `class="egedge `)
		return body[j+len(`class="egedge `) : i]
	}
	for _, tc := range []struct{ q, state string }{
		{"at=2026-02-01", "current"},
		{"at=2026-04-01", "ended"},
		{"", "ended"},
		{"at=2026-04-01&known=2026-02-15", "current"},
	} {
		code, body := get(t, h, "/entity?name=Acme&"+tc.q)
		if code != 200 {
			t.Fatalf("%s: %d", tc.q, code)
		}
		if got := userSpoke(body); !strings.HasPrefix(got, tc.state+`"`) {
			t.Errorf("%s: the spoke is %q, want %s", tc.q, got, tc.state)
		}
		if !strings.Contains(body, "<title>user works_at Acme — "+tc.state+";") {
			t.Errorf("%s: the spoke's title does not say %s", tc.q, tc.state)
		}
		if tc.state == "ended" && !strings.Contains(body, "works_at · ended") {
			t.Errorf("%s: the ended spoke's label does not say ended", tc.q)
		}
	}
	// The other states, by the library's words, at 2026-04-01.
	_, body := get(t, h, "/entity?name=Acme&at=2026-04-01")
	for _, w := range []string{`class="egedge upcoming"`, `class="egedge retracted"`, `class="egedge current"`, "works_at · upcoming", "works_at · retracted", "2026-06-01 → open"} {
		if !strings.Contains(body, w) {
			t.Errorf("at 2026-04-01: no %q", w)
		}
	}
	// A neighbour's link keeps the point.
	if !strings.Contains(body, `href="/entity?at=2026-04-01&amp;name=Anna"`) {
		t.Errorf("the neighbour's link does not keep the time-travel point")
	}
}

// Names come from what the user said: every one is escaped, in the SVG's
// text, its titles, its aria-label and the links.
func TestEntityGraphEscapes(t *testing.T) {
	_, _, h := acmeStore(t)
	for _, target := range []string{"/entity?name=Acme", "/entity?name=" + url.QueryEscape(hostile)} {
		code, body := get(t, h, target)
		if code != 200 {
			t.Fatalf("%s: %d", target, code)
		}
		svg := body[strings.Index(body, `<figure class="egraph">`):]
		svg = svg[:strings.Index(svg, "</figure>")]
		if strings.Contains(body, "<script") || strings.Contains(svg, `"<`) || strings.Contains(svg, `' &`) {
			t.Errorf("%s: a name is not escaped", target)
		}
		if !strings.Contains(svg, "&lt;script&gt;") || !strings.Contains(svg, "&#34;") {
			t.Errorf("%s: the hostile name is not drawn, escaped", target)
		}
	}
	_, body := get(t, h, "/entity?name="+url.QueryEscape(hostile))
	if !strings.Contains(body, `aria-label="Graph of Bob &#34;&lt;script&gt;alert(1)&lt;/script&gt;&#39; &amp; co true at now`) {
		t.Errorf("the aria-label does not hold the escaped name")
	}
}

// overlap tells whether two convex quadrilaterals overlap (separating axes).
func overlap(a, b [4][2]float64) bool {
	for _, q := range [][4][2]float64{a, b} {
		for i := range 4 {
			p0, p1 := q[i], q[(i+1)%4]
			nx, ny := p0[1]-p1[1], p1[0]-p0[0]
			proj := func(q [4][2]float64) (float64, float64) {
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, p := range q {
					v := p[0]*nx + p[1]*ny
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
				return lo, hi
			}
			alo, ahi := proj(a)
			blo, bhi := proj(b)
			if ahi <= blo || bhi <= alo {
				return false
			}
		}
	}
	return true
}

// circleInBox tells whether the circle at (x, y) of radius r overlaps the
// box q (tested as the circle's bounding square turned along the box).
func circleInBox(x, y, r float64, q [4][2]float64) bool {
	ux, uy := q[1][0]-q[0][0], q[1][1]-q[0][1]
	l := math.Hypot(ux, uy)
	ux, uy = ux/l, uy/l
	vx, vy := -uy, ux
	var sq [4][2]float64
	for i, c := range [4][2]float64{{-r, -r}, {r, -r}, {r, r}, {-r, r}} {
		sq[i] = [2]float64{x + c[0]*ux + c[1]*vx, y + c[0]*uy + c[1]*vy}
	}
	return overlap(sq, q)
}

// manyStore is a store whose entity Hub has n neighbours with long names,
// the first of them by three edges.
func manyStore(t *testing.T, n int) *memory.Store {
	t.Helper()
	ctx := context.Background()
	c := &testClock{}
	s := openStore(t, c)
	c.set("2026-01-01")
	rels := []memory.Relation{memory.RelWorksAt, memory.RelLivesIn, memory.RelMemberOf, memory.RelStudiesAt}
	for i := range n {
		name := fmt.Sprintf("Neighbour number %02d with a long name", i)
		cl := []memory.Claim{{Subject: name, Relation: rels[i%len(rels)], Object: "Hub"}}
		if i == 0 {
			cl = append(cl, memory.Claim{Subject: name, Relation: memory.RelLivesIn, Object: "Hub"}, memory.Claim{Subject: name, Relation: memory.RelMemberOf, Object: "Hub"})
		}
		note := memory.Note{Text: name + " and Hub", Claims: cl, EventFrom: mustDay("2025-06-01")}
		if i%3 == 1 {
			note.EventUntil = mustDay("2025-12-01") // ended by now
		}
		if _, err := s.Add(ctx, note); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// For 24 neighbours no two nodes come closer than their diameter, none
// touches the centre, and no two labels or names overlap or leave the
// canvas; past 24 the rest are listed, not drawn.
func TestEntityGraphLayout(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, 2, 3, 7, 24, 30} {
		s := manyStore(t, n)
		es, err := graphEdges(ctx, s, "", "Hub", time.Time{}, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		g := buildEntityGraph("", "Hub", es, time.Time{}, time.Time{})
		if want := min(n, maxGraphNeighbours); len(g.Nodes) != want || len(g.Omitted) != n-want {
			t.Fatalf("%d neighbours: %d drawn, %d omitted", n, len(g.Nodes), len(g.Omitted))
		}
		if len(g.List) != n+2 {
			t.Errorf("%d neighbours: %d edges listed, want %d", n, len(g.List), n+2)
		}
		for i, a := range g.Nodes {
			if d := math.Hypot(a.X, a.Y); d < g.CR+g.NR {
				t.Errorf("%d neighbours: %s touches the centre", n, a.Name)
			}
			for _, b := range g.Nodes[i+1:] {
				if d := math.Hypot(a.X-b.X, a.Y-b.Y); d < 2*g.NR {
					t.Errorf("%d neighbours: %s and %s %.1f apart, closer than their diameter", n, a.Name, b.Name, d)
				}
			}
		}
		bs := g.boxes()
		for _, b := range bs {
			for _, p := range b.Corners {
				if p[0] < g.VX || p[1] < g.VY || p[0] > g.VX+g.W || p[1] > g.VY+g.H {
					t.Errorf("%d neighbours: %s leaves the view box", n, b.What)
				}
				if math.Hypot(p[0], p[1]) < g.CR {
					t.Errorf("%d neighbours: %s enters the centre", n, b.What)
				}
			}
			for _, nd := range g.Nodes {
				if circleInBox(nd.X, nd.Y, g.NR, b.Corners) {
					t.Errorf("%d neighbours: %s covers the node of %s", n, b.What, nd.Name)
				}
			}
		}
		for i := range bs {
			for j := i + 1; j < len(bs); j++ {
				if overlap(bs[i].Corners, bs[j].Corners) {
					t.Errorf("%d neighbours: %s overlaps %s", n, bs[i].What, bs[j].What)
				}
			}
		}
		// Deterministic: the same store draws the same picture.
		g2 := buildEntityGraph("", "Hub", es, time.Time{}, time.Time{})
		if fmt.Sprint(nodeXY(g)) != fmt.Sprint(nodeXY(g2)) {
			t.Errorf("%d neighbours: two layouts differ", n)
		}
	}
}

func nodeXY(g *entityGraph) []string {
	var out []string
	for _, n := range g.Nodes {
		out = append(out, fmt.Sprintf("%s@%g,%g", n.Name, n.X, n.Y))
	}
	return out
}

// The page over real HTTP: 200, the SVG with its label and a list of the
// same edges; 30 neighbours say how many are drawn.
func TestEntityGraphPage(t *testing.T) {
	s := manyStore(t, 30)
	h, err := New(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/entity?name=Hub")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	body := string(b)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /entity?name=Hub: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, w := range []string{`<figure class="egraph">`, `role="group" aria-label="Graph of Hub true at now, as known at now: 30 neighbours (24 drawn)`,
		"24 of 30 neighbours are drawn", "The same edges, in words", "(not drawn)", `class="egedge ended"`, "works_at · ended"} {
		if !strings.Contains(body, w) {
			t.Errorf("the page has no %q", w)
		}
	}
	if got := strings.Count(body, `class="egnode `); got != 24 {
		t.Errorf("%d nodes drawn, want 24", got)
	}
	if got := strings.Count(body, "<li class=\""); got < 32 {
		t.Errorf("%d edges listed, want 32", got)
	}
	// /entities links each entity to this page.
	res, err = http.Get(srv.URL + "/entities")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(b), `href="/entity?name=Hub"`) {
		t.Errorf("/entities does not link Hub to its page")
	}
}

// In Chromium, at 1280 and 390 px: every text of the picture is no longer
// than the layout allowed it (so the boxes the layout test checks hold in
// a real font), and the picture fits its card.
func TestBrowserEntityGraph(t *testing.T) {
	ctx := tab(t)
	many := manyStore(t, 24)
	h, err := New(many, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	_, _, ha := acmeStore(t)
	srvA := httptest.NewServer(ha)
	defer srvA.Close()
	const measure = `JSON.stringify([...document.querySelectorAll("figure.egraph svg text")].map(t =>
		[t.closest(".egnode") ? "name" : t.closest(".egcentre") ? "centre" : "label", t.textContent, t.getComputedTextLength()]))`
	// The card fits the page; the picture fits the card, or, on a phone,
	// keeps its labels' size and scrolls inside the card, which says so.
	const fits = `(() => { const f = document.querySelector("figure.egraph"), s = f.querySelector("svg").getBoundingClientRect(), r = f.getBoundingClientRect();
		const inside = f.scrollWidth <= f.clientWidth && s.right <= r.right + 0.5, scrolls = getComputedStyle(f).overflowX == "auto";
		return (inside || scrolls) && s.left >= r.left && r.right <= innerWidth + 0.5; })()`
	for _, w := range []int64{1280, 390} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900)); err != nil {
			t.Fatal(err)
		}
		for _, target := range []string{srv.URL + "/entity?name=Hub", srvA.URL + "/entity?name=Acme&at=2026-04-01", srvA.URL + "/entity?name=" + url.QueryEscape(hostile)} {
			if err := chromedp.Do(ctx, chromedp.Navigate(target), chromedp.WaitVisible("figure.egraph")); err != nil {
				t.Fatalf("%s: %v", target, err)
			}
			js, err := chromedp.Run(ctx, chromedp.Evaluate[string](measure))
			if err != nil {
				t.Fatal(err)
			}
			var texts [][3]any
			if err := json.Unmarshal([]byte(js), &texts); err != nil {
				t.Fatal(err)
			}
			if len(texts) < 3 {
				t.Fatalf("%s: %d texts in the picture", target, len(texts))
			}
			for _, x := range texts {
				kind, text, got := x[0].(string), x[1].(string), x[2].(float64)
				var allowed float64
				switch {
				case kind == "centre":
					allowed = textWidth(text, egCentreSize, true)
				case kind == "name":
					allowed = textWidth(text, egNameSize, true)
				case strings.Contains(text, "→"): // an interval
					allowed = textWidth(text, egLabelSize, false)
				default:
					allowed = textWidth(text, egLabelSize, true)
				}
				if got > allowed+0.5 {
					t.Errorf("%s at %d px: %s %q is %.1f wide, the layout allowed %.1f", target, w, kind, text, got, allowed)
				}
			}
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fits))
			if err != nil || !ok {
				t.Errorf("%s at %d px: the picture does not fit its card (%v)", target, w, err)
			}
		}
	}
}
