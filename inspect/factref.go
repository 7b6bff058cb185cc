package inspect

import (
	"html"
	"html/template"
	"strings"
)

// factRef writes a fact a decision or conflict names: a link, its text and
// its state, or that it was deleted. It is Go, not a template, because the
// decision log names up to 14 facts a card and 50 cards a page: as a
// nested template it took three quarters of the page's render time.
func factRef(r ref) template.HTML {
	var b strings.Builder
	switch {
	case r.Gone:
		b.WriteString(`<span class="muted">#`)
		b.WriteString(itoa(r.ID))
		b.WriteString(` (deleted)</span>`)
	case r.ID != 0:
		b.WriteString(`<a href="`)
		b.WriteString(html.EscapeString(href("/facts/"+itoa(r.ID), r.Fact.User)))
		b.WriteString(`">#`)
		b.WriteString(itoa(r.ID))
		b.WriteString(`</a> `)
		b.WriteString(html.EscapeString(r.Fact.Text))
		b.WriteByte(' ')
		writeBadges(&b, r.Fact)
	default:
		b.WriteString(`<span class="muted">—</span>`)
	}
	return template.HTML(b.String())
}

// factRefList is refs as the items of a list, one call for a card's
// candidates instead of a template action for each.
func factRefList(refs []ref) template.HTML {
	var b strings.Builder
	for _, r := range refs {
		b.WriteString("<li>")
		b.WriteString(string(factRef(r)))
		b.WriteString("</li>")
	}
	return template.HTML(b.String())
}

// writeBadges is the "badges" template's markup: the state, and pinned.
func writeBadges(b *strings.Builder, f factView) {
	st := html.EscapeString(f.State)
	b.WriteString(`<span class="badge `)
	b.WriteString(st)
	b.WriteString(`">`)
	b.WriteString(st)
	b.WriteString(`</span>`)
	if f.Pinned {
		b.WriteString(` <span class="badge pinned">pinned</span>`)
	}
}
