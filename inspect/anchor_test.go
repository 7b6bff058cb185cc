package inspect

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// anchorLink is a link to one decision or conflict of a list page.
var anchorLink = regexp.MustCompile(`href="(/(?:decisions|conflicts)[^"#]*)#([dc]\d+)"`)

// Every link to a decision or a conflict leads to a page that holds it,
// however many decisions came after it.
func TestAnchorLinksFindTheirEntry(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	for n := 0; ; n++ {
		decs, err := f.s.Decisions(ctx, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(decs) >= 60 {
			break
		}
		if _, err := f.s.Remember(ctx, memory.Note{Text: fmt.Sprintf("I read book number %d this year.", n), Origin: memory.OriginAuto}); err != nil {
			t.Fatal(err)
		}
	}
	pages := []string{"/conflicts?all=1", "/decisions", "/decisions?page=2"}
	all, _ := f.s.List(ctx, "", &memory.ListOptions{All: true})
	for _, x := range all[:13] { // the story's facts, the oldest decisions
		pages = append(pages, "/facts/"+itoa(x.ID), "/facts/"+itoa(x.ID)+"/why")
	}
	followed := 0
	for _, p := range pages {
		w := f.do(t, "GET", p, nil)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, w.Code)
		}
		for _, m := range anchorLink.FindAllStringSubmatch(w.Body.String(), -1) {
			link := html.UnescapeString(m[1])
			got := f.do(t, "GET", link, nil)
			if got.Code != http.StatusOK || !strings.Contains(got.Body.String(), `id="`+m[2]+`"`) {
				t.Errorf("on %s, %s#%s: %d, without the entry", p, link, m[2], got.Code)
			}
			followed++
		}
	}
	// The decision log's first page no longer holds the first decision.
	if strings.Contains(f.do(t, "GET", "/decisions", nil).Body.String(), `id="d1"`) {
		t.Fatal("decision 1 on page 1: the test proves nothing")
	}
	if followed < 20 {
		t.Fatalf("only %d links followed", followed)
	}
	for target, code := range map[string]int{
		"/decisions?id=1":           200,
		"/decisions?id=1&page=1":    200, // the id wins
		"/decisions?id=999":         404,
		"/decisions?id=x":           400,
		"/decisions?id=0":           400,
		"/conflicts?all=1&id=1":     200,
		"/conflicts?id=999":         404,
		"/decisions?changed=1&id=1": 404, // decision 1 added a fact
	} {
		if w := f.do(t, "GET", target, nil); w.Code != code {
			t.Errorf("GET %s: %d, want %d", target, w.Code, code)
		}
	}
}

// A list's neighbour links keep its filters, not the entry it was opened at
// nor the notice of a change, which would show again on the next page.
func TestPagerLinks(t *testing.T) {
	f := newFixture(t, &Options{PageSize: 3})
	for _, tc := range []struct{ target, keep string }{
		{"/decisions?done=undone", ""},
		{"/decisions?changed=1&done=undone", "changed=1"},
		{"/decisions?id=1", ""},
		{"/?all=1&done=deleted", "all=1"},
		{"/entities?done=x", ""},
	} {
		body := f.do(t, "GET", tc.target, nil).Body.String()
		tu, _ := url.Parse(tc.target)
		notice := doneText[tu.Query().Get("done")]
		if notice != "" && !strings.Contains(body, notice) {
			t.Errorf("%s: no notice %q", tc.target, notice)
		}
		links := regexp.MustCompile(`<a href="([^"]*)">(?:← newer|older →)</a>`).FindAllStringSubmatch(body, -1)
		if len(links) == 0 {
			t.Errorf("%s: no pager links", tc.target)
		}
		for _, m := range links {
			u, err := url.Parse(html.UnescapeString(m[1]))
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			if q.Has("done") || q.Has("id") || q.Get("page") == "" {
				t.Errorf("%s: pager link %s", tc.target, m[1])
			}
			if tc.keep != "" && !strings.Contains(u.RawQuery, tc.keep) {
				t.Errorf("%s: pager link %s lost %s", tc.target, m[1], tc.keep)
			}
			if next := f.do(t, "GET", u.String(), nil).Body.String(); notice != "" && strings.Contains(next, notice) {
				t.Errorf("%s: the notice shows again on %s", tc.target, u)
			}
		}
	}
}
