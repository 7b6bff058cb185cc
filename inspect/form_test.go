package inspect

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// A POST whose body is not a well-formed urlencoded form is refused before
// any handler reads it, and the store is left as it was.
func TestBadFormRefused(t *testing.T) {
	const form = "application/x-www-form-urlencoded"
	for _, tc := range []struct {
		name, path, ctype, body string
		code                    int
	}{
		{"bad escape after user", "/facts/3/pin", form, "user=&x=%zz", 400},
		{"bad escape before user", "/facts/3/retract", form, "x=%zz&user=", 400},
		{"bad escape in add", "/facts", form, "text=added+from+a+bad+form&x=%zz", 400},
		{"bad escape in undo", "/decisions/{undo}/undo", form, "x=%zz", 400},
		{"bad escape in resolve", "/conflicts/1/resolve", form, "keep=existing&x=%zz", 400},
		{"bad escape in the query", "/facts/3/pin?x=%zz", form, "user=", 400},
		{"text/plain", "/facts/3/retract", "text/plain", "user=", 415},
		{"no content type", "/facts/3/pin", "", "user=", 415},
		{"no content type, no body", "/facts/3/pin", "", "", 415},
		{"multipart", "/facts", "multipart/form-data; boundary=x", "--x--", 415},
		{"bad media type", "/facts/3/pin", "application/x-www-form-urlencoded; =", "user=", 415},
		{"a form over the bound", "/facts", form, "user=&text=" + strings.Repeat("x", MaxFormBytes), 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			before := snapshot(t, f)
			undo := f.outcome(t, "I now work at Contoso as a product manager.").Decision.ID
			r := httptest.NewRequest("POST", strings.Replace(tc.path, "{undo}", itoa(undo), 1), strings.NewReader(tc.body))
			r.Host = "127.0.0.1:7711"
			if tc.ctype != "" {
				r.Header.Set("Content-Type", tc.ctype)
			}
			w := httptest.NewRecorder()
			f.h.ServeHTTP(w, r)
			if w.Code != tc.code {
				t.Errorf("%d, want %d\n%s", w.Code, tc.code, w.Body)
			}
			if after := snapshot(t, f); after != before {
				t.Errorf("the store changed:\n%s\nto\n%s", before, after)
			}
		})
	}
	// The same requests with a good form go through.
	f := newFixture(t, nil)
	for _, p := range []string{"/facts/3/pin", "/facts"} {
		r := httptest.NewRequest("POST", p, strings.NewReader("user=&text=ok"))
		r.Host = "127.0.0.1:7711"
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, r)
		if w.Code != http.StatusSeeOther {
			t.Errorf("POST %s: %d\n%s", p, w.Code, w.Body)
		}
	}
}

// snapshot is every fact, decision and conflict of the default user, as text.
func snapshot(t *testing.T, f *fixture) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	all, err := f.s.List(ctx, "", &memory.ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range all {
		b.WriteString(itoa(x.ID) + " " + x.State().String() + " " + x.Text)
		if x.Pinned {
			b.WriteString(" pinned")
		}
		b.WriteString("\n")
	}
	decs, _ := f.s.Decisions(ctx, "", 0)
	for _, d := range decs {
		b.WriteString("decision " + itoa(d.ID))
		if d.UndoneAt != nil {
			b.WriteString(" undone")
		}
		b.WriteString("\n")
	}
	cs, _ := f.s.Conflicts(ctx, "", nil)
	b.WriteString("open conflicts " + itoa(uint64(len(cs))) + "\n")
	return b.String()
}
