package inspect

import (
	"context"
	"strings"
	"testing"
)

// The entity page names an edge's state in the library's words, the ones
// memctl graph prints for the same interval (current, ended, upcoming,
// retracted), in its table and in its picture; the record times it was
// believed say when a belief was revised. Before, a revised interval read
// "no longer believed" where memctl graph says "current".
func TestEntityStatesInTheLibrarysWords(t *testing.T) {
	f := newFixture(t, nil)
	for _, name := range []string{"Lyon", "Paris", "Northwind Bank", "Contoso", "Kazan"} {
		tl, err := f.s.EntityTimeline(context.Background(), "", name)
		if err != nil || len(tl) == 0 {
			t.Fatalf("%s: %v, %d edges", name, err, len(tl))
		}
		body := f.do(t, "GET", href("/entity", "", "name", name), nil).Body.String()
		if strings.Contains(body, "no longer believed") {
			t.Errorf("%s: the page says \"no longer believed\"", name)
		}
		rows := tableRows(body, "facts")
		if len(rows) != len(tl) {
			t.Fatalf("%s: %d rows for %d edges", name, len(rows), len(tl))
		}
		revised := 0
		for i, e := range tl {
			state := string(e.State)
			if got := rows[i].Text[1]; got != state || !strings.Contains(rows[i].HTML[1], `class="badge `+state+`"`) {
				t.Errorf("%s, edge %d (%s): state %q, want %q", name, i, edgeLabel(e), got, state)
			}
			until := "now"
			if e.KnownUntil != nil {
				until = stamp(*e.KnownUntil)
				revised++
			}
			if got := rows[i].Text[3]; !strings.HasSuffix(got, "→ "+until) {
				t.Errorf("%s, edge %d: believed %q, want it to end %q", name, i, got, until)
			}
			title := "<title>" + edgeLabel(e) + " (" + state + "; believed "
			if !strings.Contains(body, title) || !strings.Contains(body, "→ "+until+")</title>") {
				t.Errorf("%s, edge %d: no picture titled %q…%q", name, i, title, until)
			}
		}
		if name == "Lyon" && revised == 0 {
			t.Error("the test is void: no interval of Lyon was revised")
		}
	}
}
