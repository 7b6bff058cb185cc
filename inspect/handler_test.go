package inspect

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// fixture is a seeded store and its inspector.
type fixture struct {
	s    *memory.Store
	c    *testClock
	h    *Handler
	outs []memory.Outcome
}

func newFixture(t testing.TB, opts *Options) *fixture {
	t.Helper()
	c := &testClock{}
	s := openStore(t, c)
	f := &fixture{s: s, c: c}
	f.outs = seed(t, s, c, "")
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Clock = c.Now
	h, err := New(s, &o)
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	return f
}

// do sends a request as a same-origin browser on loopback would.
func (f *fixture) do(t testing.TB, method, target string, form url.Values, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r := httptest.NewRequest(method, target, body)
	r.Host = "127.0.0.1:7711"
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			r.Host = hdr[i+1]
			continue
		}
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w
}

func (f *fixture) outcome(t testing.TB, text string) memory.Outcome {
	t.Helper()
	for _, o := range f.outs {
		if o.Decision.Text == text {
			return o
		}
	}
	t.Fatalf("no outcome for %q", text)
	return memory.Outcome{}
}

func TestPages(t *testing.T) {
	f := newFixture(t, nil)
	paris := f.outcome(t, "I moved to Paris back in May, I live in Paris now.")
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/", []string{"What the assistant knows now", "I live in Paris now", "Sorbonne", `class="badge upcoming"`, "pinned"}},
		{"/?all=1", []string{"Everything the store holds", "I live in Lyon.", `class="badge superseded"`, `class="badge retracted"`}},
		{"/?at=2026-04-01", []string{"I live in Lyon.", "Northwind Bank"}},
		{"/?at=2026-05-20&known=2026-06-01", []string{"I live in Lyon."}},
		{"/facts/" + itoa(paris.Fact.ID), []string{"I live in Paris now", "Versions", "I live in Lyon.", "Lifecycle", "superseded", "decision " + itoa(paris.Decision.ID), "msg-", "<svg"}},
		{"/facts/1/delete", []string{"Delete for good?", `name="confirm" value="yes"`}},
		{"/facts/" + itoa(paris.Fact.ID) + "/why", []string{"Why was this compared?", "I live in Lyon.", "lives_in"}},
		{"/timeline", []string{"<svg", "event time", "record time", "I live in Lyon."}},
		{"/timeline?fact=1&at=2026-05-20&known=2026-06-01", []string{"crossdot", "I live in Lyon."}},
		{"/decisions", []string{"Undo", "invalidate", "I was wrong", "candidates shown", "I play the cello"}},
		{"/conflicts", []string{"Keep new", "Keep existing", "Keep both", "no longer allergic"}},
		{"/conflicts?all=1", []string{"Conflict"}},
		{"/entities", []string{"Paris", "Contoso"}},
		{"/entity?name=Paris", []string{"lives_in", "<svg", "Paris", "an interval of an edge", `name="name" value="Paris"`}},
		{"/entity?name=Lyon&at=2026-03-01", []string{"True at 2026-03-01", "crossdot", `<li>user <b>lives_in</b> Lyon`}},
		{"/entity?name=Lyon&at=2026-08-01", []string{"No edge naming Lyon was true then.", "(current; believed 2026-01-12 → 2026-06-15)</title>"}},
		{"/entity?name=Lyon&at=2026-03-01&known=2026-01-01", []string{"No edge naming Lyon was true then."}},
		{"/search", []string{`name="q"`, `role="search"`}},
		{"/search?q=Where+do+I+live%3F", []string{"I live in Paris now", "shares ", "text 1"}},
		{"/search?q=Where+did+I+live%3F&all=1", []string{"I live in Lyon.", `class="badge superseded"`}},
		{"/search?q=What+about+Contoso%3F", []string{"Names the graph knows", `href="/entity?name=Contoso"`, "about Contoso"}},
		{"/search?q=what+do+you+know", []string{"Nothing found"}},
		{"/search?q=a%01b", []string{"Not searched:", "control character"}},
		{"/style.css", []string{"--current"}},
	} {
		w := f.do(t, "GET", tc.path, nil)
		if w.Code != http.StatusOK {
			t.Errorf("GET %s: %d\n%s", tc.path, w.Code, w.Body)
			continue
		}
		for _, s := range tc.want {
			if !strings.Contains(w.Body.String(), s) {
				t.Errorf("GET %s: no %q", tc.path, s)
			}
		}
		if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("GET %s: CSP %q", tc.path, csp)
		}
	}
}

// ?changed=1 keeps the decisions that touched a fact already held.
func TestDecisionsChanged(t *testing.T) {
	f := newFixture(t, nil)
	body := f.do(t, "GET", "/decisions?changed=1", nil).Body.String()
	for _, o := range f.outs {
		id := `id="d` + itoa(o.Decision.ID) + `"`
		if got, want := strings.Contains(body, id), o.Decision.Target != 0; got != want {
			t.Errorf("decision %d (%s, target %d): shown %v", o.Decision.ID, o.Decision.Action, o.Decision.Target, got)
		}
	}
}

func TestBadRequests(t *testing.T) {
	f := newFixture(t, nil)
	for _, tc := range []struct {
		method, path string
		form         url.Values
		code         int
	}{
		{"GET", "/facts/999", nil, 404},
		{"GET", "/facts/abc", nil, 400},
		{"GET", "/facts/0", nil, 400},
		{"GET", "/facts/999/why", nil, 404},
		{"GET", "/facts/999/delete", nil, 404},
		{"GET", "/nothing", nil, 404},
		{"GET", "/?at=someday", nil, 400},
		{"GET", "/?known=2026-13-01", nil, 400},
		{"GET", "/?page=0", nil, 400},
		{"GET", "/?page=x", nil, 400},
		{"GET", "/?page=99", nil, 404},
		{"GET", "/timeline?fact=x", nil, 400},
		{"GET", "/timeline?fact=999", nil, 404},
		{"GET", "/entity", nil, 400},
		{"GET", "/entity?name=Atlantis", nil, 404},
		{"GET", "/entity?name=Paris&at=someday", nil, 400},
		{"GET", "/search?q=Paris&known=someday", nil, 400},
		{"GET", "/?user=a%00b", nil, 400},
		{"POST", "/facts/999/pin", url.Values{}, 404},
		{"POST", "/facts/1/explode", url.Values{}, 404},
		{"POST", "/facts/1/delete", url.Values{}, 400},
		{"POST", "/facts/3/restore", url.Values{}, 409}, // current already
		{"POST", "/facts/1/pin", url.Values{"user": {"a\x00b"}}, 400},
		{"POST", "/facts", url.Values{"text": {""}}, 400},
		{"POST", "/facts", url.Values{"text": {"a\x01b"}}, 400},
		{"POST", "/facts", url.Values{"text": {"ok"}, "event_from": {"soon"}}, 400},
		{"POST", "/decisions/999/undo", url.Values{}, 404},
		{"POST", "/decisions/x/undo", url.Values{}, 400},
		{"POST", "/conflicts/1/resolve", url.Values{"keep": {"neither"}}, 400},
		{"POST", "/conflicts/999/resolve", url.Values{"keep": {"both"}}, 404},
		{"GET", "/decisions/1/undo", nil, 404},
	} {
		w := f.do(t, tc.method, tc.path, tc.form)
		if w.Code != tc.code {
			t.Errorf("%s %s: %d, want %d\n%s", tc.method, tc.path, w.Code, tc.code, w.Body)
		}
	}
	// Nothing above changed the store.
	if _, err := f.s.Get(context.Background(), "", 1); err != nil {
		t.Fatal(err)
	}
}
