package inspect

import (
	"html"
	"regexp"
	"strings"
)

// row is one <tr> of a page's table: its class, and each cell as text and
// as the HTML it holds.
type row struct {
	Class string
	Text  []string
	HTML  []string
}

var (
	trRe  = regexp.MustCompile(`(?s)<tr(?: class="([^"]*)")?>(.*?)</tr>`)
	tdRe  = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	tagRe = regexp.MustCompile(`(?s)<[^>]*>`)
	wsRe  = regexp.MustCompile(`\s+`)
)

// textOf is HTML as a reader sees it: no tags, entities decoded, runs of
// space one.
func textOf(h string) string {
	return strings.TrimSpace(wsRe.ReplaceAllString(html.UnescapeString(tagRe.ReplaceAllString(h, " ")), " "))
}

// tableRows are the body rows of the first <table class="cls"> of a page.
func tableRows(body, cls string) []row {
	i := strings.Index(body, `<table class="`+cls+`">`)
	if i < 0 {
		return nil
	}
	body = body[i:]
	if j := strings.Index(body, "</table>"); j >= 0 {
		body = body[:j]
	}
	if j := strings.Index(body, "<tbody>"); j >= 0 {
		body = body[j:]
	}
	var out []row
	for _, m := range trRe.FindAllStringSubmatch(body, -1) {
		r := row{Class: m[1]}
		for _, c := range tdRe.FindAllStringSubmatch(m[2], -1) {
			r.HTML = append(r.HTML, c[1])
			r.Text = append(r.Text, textOf(c[1]))
		}
		out = append(out, r)
	}
	return out
}
