package inspect

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// HostAllowed, which memctl's MCP server shares, is the Handler's check:
// a loopback name, or one of hosts whatever its case, brackets or port.
func TestHostAllowed(t *testing.T) {
	for _, tc := range []struct {
		hostport string
		hosts    []string
		want     bool
	}{
		{"127.0.0.1:7712", nil, true},
		{"localhost", nil, true},
		{"[::1]:7712", nil, true},
		{"memory.test:7712", nil, false},
		{"memory.test:7712", []string{"Memory.Test"}, true},
		{"MEMORY.TEST.", []string{"memory.test"}, true},
		{"[fd00::1]:7712", []string{"[fd00::1]"}, true},
		{"fd00::1", []string{"fd00::1"}, true},
		{"other.test", []string{"memory.test"}, false},
		{"", []string{""}, false},
		{":7712", nil, false},
	} {
		if got := HostAllowed(tc.hostport, tc.hosts); got != tc.want {
			t.Errorf("HostAllowed(%q, %q) = %v, want %v", tc.hostport, tc.hosts, got, tc.want)
		}
	}
}

func TestHostRefused(t *testing.T) {
	f := newFixture(t, &Options{Hosts: []string{"inspector.lan"}})
	for host, code := range map[string]int{
		"127.0.0.1:7711":          200,
		"localhost:7711":          200,
		"LOCALHOST.":              200,
		"app.localhost":           200,
		"[::1]:7711":              200,
		"127.1.2.3":               200,
		"inspector.lan:7711":      200, // Options.Hosts
		"evil.example":            421,
		"evil.example:7711":       421,
		"127.0.0.1.nip.io":        421, // a public name that resolves to loopback
		"localhost.evil.example":  421,
		"10.0.0.5:7711":           421,
		"":                        421,
		"[::ffff:8.8.8.8]:7711":   421,
		"inspector.lan.evil:7711": 421,
	} {
		w := f.do(t, "GET", "/", nil, "Host", host)
		if w.Code != code {
			t.Errorf("Host %q: %d, want %d", host, w.Code, code)
		}
		if code != 200 && strings.Contains(w.Body.String(), "Paris") {
			t.Errorf("Host %q: refused but shows facts", host)
		}
	}
	// A change from a foreign Host is refused too, and changes nothing.
	w := f.do(t, "POST", "/facts/3/retract", url.Values{}, "Host", "evil.example")
	if w.Code != 421 {
		t.Fatalf("POST from evil.example: %d", w.Code)
	}
	if g, _ := f.s.Get(context.Background(), "", 3); g.State().String() != "current" {
		t.Fatal("a refused POST retracted the fact")
	}
}

func TestCrossOriginPostRefused(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	undo := f.outcome(t, "I now work at Contoso as a product manager.").Decision.ID
	for _, hdr := range [][]string{
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Origin", "http://evil.example"},
		{"Origin", "http://localhost:9999"},
	} {
		for _, post := range []struct {
			path string
			form url.Values
		}{
			{"/facts/3/retract", url.Values{}},
			{"/facts/3/delete", url.Values{"confirm": {"yes"}}},
			{"/facts", url.Values{"text": {"I was hacked."}}},
			{"/decisions/" + itoa(undo) + "/undo", url.Values{}},
			{"/conflicts/1/resolve", url.Values{"keep": {"existing"}}},
		} {
			w := f.do(t, "POST", post.path, post.form, hdr...)
			if w.Code != http.StatusForbidden {
				t.Errorf("POST %s with %v: %d, want 403", post.path, hdr, w.Code)
			}
		}
	}
	// Nothing changed.
	if g, err := f.s.Get(ctx, "", 3); err != nil || g.State().String() != "current" {
		t.Fatalf("fact 3: %v %v", g.State(), err)
	}
	decs, _ := f.s.Decisions(ctx, "", 0)
	for _, d := range decs {
		if d.UndoneAt != nil {
			t.Fatalf("decision %d undone", d.ID)
		}
	}
	if cs, _ := f.s.Conflicts(ctx, "", nil); len(cs) != 1 {
		t.Fatalf("%d open conflicts", len(cs))
	}
	if all, _ := f.s.List(ctx, "", nil); strings.Contains(texts(all), "hacked") {
		t.Fatal("a cross-origin add went through")
	}
	// The same request from the same origin goes through.
	if w := f.do(t, "POST", "/facts/3/retract", url.Values{}, "Sec-Fetch-Site", "same-origin", "Origin", "http://127.0.0.1:7711"); w.Code != http.StatusSeeOther {
		t.Fatalf("same-origin retract: %d\n%s", w.Code, w.Body)
	}
}

func TestToken(t *testing.T) {
	const token = "5f2b8c0e9d1a4b7c"
	f := newFixture(t, &Options{Token: token})
	if w := f.do(t, "GET", "/", nil); w.Code != http.StatusForbidden || strings.Contains(w.Body.String(), "Paris") {
		t.Fatalf("no token: %d", w.Code)
	}
	if w := f.do(t, "GET", "/?token=wrong", nil); w.Code != http.StatusForbidden {
		t.Fatalf("wrong token: %d", w.Code)
	}
	if w := f.do(t, "GET", "/", nil, "Cookie", "palimpsest_inspect_7711=wrong"); w.Code != http.StatusForbidden {
		t.Fatalf("wrong cookie: %d", w.Code)
	}
	if w := f.do(t, "POST", "/facts/3/retract", url.Values{}); w.Code != http.StatusForbidden {
		t.Fatalf("POST without token: %d", w.Code)
	}
	w := f.do(t, "GET", "/decisions?user=&token="+token, nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("right token: %d", w.Code)
	}
	if loc := w.Header().Get("Location"); strings.Contains(loc, token) || !strings.HasPrefix(loc, "/decisions") {
		t.Fatalf("redirect to %q", loc)
	}
	c := w.Result().Cookies()
	if len(c) != 1 || c[0].Name != "palimpsest_inspect_7711" || c[0].Value != token || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v", c)
	}
	if w := f.do(t, "GET", "/", nil, "Cookie", "palimpsest_inspect_7711="+token); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "Paris") {
		t.Fatalf("with cookie: %d", w.Code)
	}
	if w := f.do(t, "POST", "/facts/3/pin", url.Values{}, "Cookie", "palimpsest_inspect_7711="+token); w.Code != http.StatusSeeOther {
		t.Fatalf("POST with cookie: %d", w.Code)
	}
}

func TestIsLoopbackName(t *testing.T) {
	for host, want := range map[string]bool{"localhost": true, "a.b.localhost": true, "127.0.0.1": true, "::1": true, "[::1]": true,
		"0.0.0.0": false, "localhostx": false, "192.168.1.1": false, "example.com": false, "": false} {
		if got := IsLoopbackName(host); got != want {
			t.Errorf("IsLoopbackName(%q) = %v", host, got)
		}
	}
}

// The token hop redirects within the inspector only, whatever the path.
func TestTokenRedirectStaysLocal(t *testing.T) {
	const token = "5f2b8c0e9d1a4b7c"
	f := newFixture(t, &Options{Token: token})
	for target, want := range map[string]string{
		"/decisions?token=" + token:               "/decisions",
		"/?user=bob&token=" + token:               "/?user=bob",
		"//evil.example/?token=" + token:          "/evil.example/",
		"///evil.example/x?token=" + token:        "/evil.example/x",
		"/%2Fevil.example/?token=" + token:        "/evil.example/",
		"/%5Cevil.example/?token=" + token:        "/evil.example/",
		"/%5C%5Cevil.example/?token=" + token:     "/evil.example/",
		"/%2F%5C%2Fevil.example/a?token=" + token: "/evil.example/a",
	} {
		w := f.do(t, "GET", target, nil)
		loc := w.Header().Get("Location")
		if w.Code != http.StatusSeeOther || loc != want {
			t.Errorf("GET %s: %d to %q, want %q", target, w.Code, loc, want)
		}
		if u, err := url.Parse(loc); err != nil || u.Host != "" || u.Scheme != "" || strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") {
			t.Errorf("GET %s: Location %q leaves the inspector", target, loc)
		}
	}
}

// Each port has its own cookie: two inspectors on one host keep their own
// token, and neither takes the other's.
func TestTokenCookiePerPort(t *testing.T) {
	a := httptest.NewServer(newFixture(t, &Options{Token: "token-of-a"}).h)
	defer a.Close()
	b := httptest.NewServer(newFixture(t, &Options{Token: "token-of-b"}).h)
	defer b.Close()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	get := func(u string) int {
		t.Helper()
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := get(a.URL + "/?token=token-of-a"); c != http.StatusOK {
		t.Fatalf("a with its token: %d", c)
	}
	if c := get(b.URL + "/?token=token-of-b"); c != http.StatusOK {
		t.Fatalf("b with its token: %d", c)
	}
	// The jar sends both cookies to both (cookies ignore ports).
	if c := get(a.URL + "/"); c != http.StatusOK {
		t.Errorf("a after visiting b: %d (its cookie overwritten?)", c)
	}
	if c := get(b.URL + "/"); c != http.StatusOK {
		t.Errorf("b after a: %d", c)
	}
	names := map[string]bool{}
	for _, s := range []*httptest.Server{a, b} {
		u, _ := url.Parse(s.URL)
		for _, c := range jar.Cookies(u) {
			names[c.Name] = true
		}
		if !names[cookiePrefix+u.Port()] {
			t.Errorf("no cookie %s%s in %v", cookiePrefix, u.Port(), names)
		}
	}

	// A cookie named for another port is not taken, even with the right token.
	f := newFixture(t, &Options{Token: "same"})
	for _, tc := range []struct {
		host, cookie string
		code         int
	}{
		{"127.0.0.1:7711", "palimpsest_inspect_7711=same", 200},
		{"127.0.0.1:7711", "palimpsest_inspect_7712=same", 403},
		{"127.0.0.1:7711", "palimpsest_inspect=same", 403},
		{"localhost", "palimpsest_inspect_80=same", 200},
		{"localhost", "palimpsest_inspect_7711=same", 403},
		{"[::1]:8080", "palimpsest_inspect_8080=same", 200},
		{"[::1]:8080", "palimpsest_inspect_7711=same; palimpsest_inspect_8080=other", 403},
	} {
		if w := f.do(t, "GET", "/", nil, "Host", tc.host, "Cookie", tc.cookie); w.Code != tc.code {
			t.Errorf("Host %s, Cookie %s: %d, want %d", tc.host, tc.cookie, w.Code, tc.code)
		}
	}
	if w := f.do(t, "GET", "/?token=same", nil, "Host", "localhost:7712"); len(w.Result().Cookies()) != 1 || w.Result().Cookies()[0].Name != "palimpsest_inspect_7712" {
		t.Errorf("cookies set at :7712: %v", w.Result().Cookies())
	}
}
