package inspect

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Without the token every page is refused but the stylesheet, which holds
// nothing of the store: the refusal page is styled like the others. Before,
// /style.css was refused too and the page without a token came unstyled.
func TestStylesheetWithoutToken(t *testing.T) {
	f := newFixture(t, &Options{Token: "5f2b8c0e9d1a4b7c"})
	for _, tc := range []struct {
		method, path string
		hdr          []string
		code         int
		css          bool
	}{
		{method: "GET", path: "/style.css", code: http.StatusOK, css: true},
		{method: "HEAD", path: "/style.css", code: http.StatusOK},
		{method: "GET", path: "/style.css?user=bob", code: http.StatusOK, css: true},
		{method: "GET", path: "/style.css", hdr: []string{"Host", "evil.example"}, code: http.StatusMisdirectedRequest},
		{method: "POST", path: "/style.css", code: http.StatusForbidden},
		{method: "GET", path: "/style.css/", code: http.StatusForbidden},
		{method: "GET", path: "/STYLE.CSS", code: http.StatusForbidden},
		{method: "GET", path: "/", code: http.StatusForbidden},
		{method: "GET", path: "/decisions", code: http.StatusForbidden},
		{method: "GET", path: "/facts/1", code: http.StatusForbidden},
	} {
		var form url.Values
		if tc.method == "POST" {
			form = url.Values{}
		}
		w := f.do(t, tc.method, tc.path, form, tc.hdr...)
		if w.Code != tc.code {
			t.Errorf("%s %s %v: %d, want %d", tc.method, tc.path, tc.hdr, w.Code, tc.code)
			continue
		}
		body := w.Body.String()
		if tc.css && (!strings.HasPrefix(w.Header().Get("Content-Type"), "text/css") || !strings.Contains(body, "--current")) {
			t.Errorf("%s %s: not the stylesheet: %q", tc.method, tc.path, w.Header().Get("Content-Type"))
		}
		if tc.code == http.StatusForbidden {
			if strings.Contains(body, "Paris") || strings.Contains(body, "--current") {
				t.Errorf("%s %s: the refusal shows what it guards", tc.method, tc.path)
			}
			if !strings.Contains(body, `<link rel="stylesheet" href="/style.css">`) {
				t.Errorf("%s %s: the refusal page links no stylesheet", tc.method, tc.path)
			}
		}
	}
}
