package inspect

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

func texts(fs []memory.Fact) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Text + "\n")
	}
	return b.String()
}

func TestFactActions(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	post := func(path string, form url.Values) string {
		t.Helper()
		w := f.do(t, "POST", path, form)
		if w.Code != http.StatusSeeOther {
			t.Fatalf("POST %s: %d\n%s", path, w.Code, w.Body)
		}
		return w.Header().Get("Location")
	}
	get := func(id uint64) memory.Fact {
		t.Helper()
		g, err := f.s.Get(ctx, "", id)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if loc := post("/facts/3/pin", url.Values{}); loc != "/facts/3?done=pin" {
		t.Fatalf("redirect %q", loc)
	}
	if !get(3).Pinned {
		t.Fatal("not pinned")
	}
	if w := f.do(t, "GET", "/facts/3?done=pin", nil); !strings.Contains(w.Body.String(), "Pinned: automation will not change it.") {
		t.Fatal("no notice")
	}
	post("/facts/3/unpin", url.Values{})
	if get(3).Pinned {
		t.Fatal("still pinned")
	}
	post("/facts/3/retract", url.Values{"reason": {"not my dog"}})
	if get(3).State() != memory.Retracted {
		t.Fatal("not retracted")
	}
	evs, _ := f.s.Events(ctx, "", 3)
	if last := evs[len(evs)-1]; last.Cause != "not my dog" || last.Origin != memory.OriginUser {
		t.Fatalf("last step %+v", last)
	}
	post("/facts/3/restore", url.Values{})
	if get(3).State() != memory.Current {
		t.Fatal("not restored")
	}
	loc := post("/facts", url.Values{"text": {"I take the train to work."}, "event_from": {"2026-09-15"}, "pinned": {"1"}})
	all, _ := f.s.List(ctx, "", nil)
	added := all[len(all)-1]
	if added.Text != "I take the train to work." || !added.Pinned || added.EventFrom != mustDay("2026-09-15") || added.Source.Kind != "inspector" {
		t.Fatalf("added %+v", added)
	}
	if loc != "/facts/"+itoa(added.ID)+"?done=added" {
		t.Fatalf("redirect %q", loc)
	}
	// A second user's facts are added and changed under that user only.
	post("/facts", url.Values{"user": {"bob"}, "text": {"I live in Oslo."}})
	bob, _ := f.s.List(ctx, "bob", nil)
	if len(bob) != 1 {
		t.Fatalf("bob: %v", texts(bob))
	}
	// Ids are each user's: bob's facts up to an id the default user has
	// none of, which the default user's action then finds nothing at.
	mine, _ := f.s.List(ctx, "", &memory.ListOptions{All: true})
	for bob[len(bob)-1].ID <= mine[len(mine)-1].ID {
		post("/facts", url.Values{"user": {"bob"}, "text": {"I live in Oslo, near the " + itoa(uint64(len(bob))) + "th pier."}})
		bob, _ = f.s.List(ctx, "bob", nil)
	}
	if w := f.do(t, "POST", "/facts/"+itoa(bob[len(bob)-1].ID)+"/retract", url.Values{}); w.Code != http.StatusNotFound {
		t.Fatalf("bob's fact as the default user: %d", w.Code)
	}
	if g, err := f.s.Get(ctx, "bob", bob[len(bob)-1].ID); err != nil || g.State() != memory.Current {
		t.Fatalf("bob's fact after the default user's retract: %v, %v", g.State(), err)
	}
	if w := f.do(t, "GET", "/?user=bob", nil); !strings.Contains(w.Body.String(), "Oslo") || strings.Contains(w.Body.String(), "Paris") {
		t.Fatal("bob's page")
	}
	// Hard delete: refused without confirmation, done with it.
	if w := f.do(t, "POST", "/facts/"+itoa(added.ID)+"/delete", url.Values{"confirm": {"no"}}); w.Code != http.StatusBadRequest {
		t.Fatalf("unconfirmed delete: %d", w.Code)
	}
	get(added.ID)
	if loc := post("/facts/"+itoa(added.ID)+"/delete", url.Values{"confirm": {"yes"}}); loc != "/?done=deleted" {
		t.Fatalf("redirect %q", loc)
	}
	if _, err := f.s.Get(ctx, "", added.ID); err == nil {
		t.Fatal("still there")
	}
	// The chain at once.
	paris := f.outcome(t, "I moved to Paris back in May, I live in Paris now.").Fact.ID
	post("/facts/"+itoa(paris)+"/delete", url.Values{"confirm": {"yes"}, "chain": {"1"}})
	for _, id := range []uint64{1, paris} {
		if _, err := f.s.Get(ctx, "", id); err == nil {
			t.Fatalf("fact %d of the chain left", id)
		}
	}
}

func TestUndoAndResolve(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	o := f.outcome(t, "I now work at Contoso as a product manager.")
	w := f.do(t, "POST", "/decisions/"+itoa(o.Decision.ID)+"/undo", url.Values{})
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/decisions?done=undone" {
		t.Fatalf("undo: %d %q", w.Code, w.Header().Get("Location"))
	}
	if g, _ := f.s.Get(ctx, "", o.Decision.Target); g.State() != memory.Current {
		t.Fatalf("target %s", g.State())
	}
	if g, _ := f.s.Get(ctx, "", o.Fact.ID); g.State() != memory.Retracted {
		t.Fatalf("added %s", g.State())
	}
	if w := f.do(t, "POST", "/decisions/"+itoa(o.Decision.ID)+"/undo", url.Values{}); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "already undone") {
		t.Fatalf("second undo: %d", w.Code)
	}
	if w := f.do(t, "GET", "/decisions", nil); !strings.Contains(w.Body.String(), "undone 2026") {
		t.Fatal("the page does not show the undo")
	}
	cs, _ := f.s.Conflicts(ctx, "", nil)
	c := cs[0]
	w = f.do(t, "POST", "/conflicts/"+itoa(c.ID)+"/resolve", url.Values{"keep": {"new"}})
	if w.Code != http.StatusSeeOther {
		t.Fatalf("resolve: %d\n%s", w.Code, w.Body)
	}
	if g, _ := f.s.Get(ctx, "", c.Existing); g.State() != memory.Superseded || g.SupersededBy != c.New {
		t.Fatalf("existing %s by %d", g.State(), g.SupersededBy)
	}
	if w := f.do(t, "POST", "/conflicts/"+itoa(c.ID)+"/resolve", url.Values{"keep": {"both"}}); w.Code != http.StatusConflict {
		t.Fatalf("second resolve: %d", w.Code)
	}
	if w := f.do(t, "GET", "/conflicts", nil); !strings.Contains(w.Body.String(), "No open conflicts") {
		t.Fatal("queue not empty")
	}
}

// Hostile text is shown as text in the HTML and in the SVG, never as markup.
func TestEscaping(t *testing.T) {
	f := newFixture(t, nil)
	const evil = `<script>alert(1)</script>"><svg onload=alert(2)><text>&amp;`
	n, err := f.s.Add(context.Background(), memory.Note{Text: "I like " + evil, Source: memory.Source{Quote: evil, Ref: `"><img src=x onerror=alert(3)>`}})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/?all=1", "/facts/" + itoa(n.ID), "/timeline", "/timeline?fact=" + itoa(n.ID), "/facts/" + itoa(n.ID) + "/why", "/facts/" + itoa(n.ID) + "/delete"} {
		body := f.do(t, "GET", path, nil).Body.String()
		for _, bad := range []string{"<script", "<img", "<svg onload", "<text>&amp;"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s holds %q unescaped", path, bad)
			}
		}
		if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("%s does not show the text escaped", path)
		}
	}
}

// A conflict whose existing fact was retracted by another path is moot:
// the page offers no buttons for it, shows why under ?all=1, and a POST
// made from a page loaded before is refused with the store unchanged.
// Before, "Keep existing" retracted the new fact, the only current one.
func TestMootConflictIsNotOffered(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.outcome(t, "I now work at Contoso as a product manager.")
	cs, _ := f.s.Conflicts(ctx, "", nil)
	if len(cs) == 0 {
		t.Fatal("the fixture has no open conflict")
	}
	c := cs[0]
	if w := f.do(t, "GET", "/conflicts", nil); !strings.Contains(w.Body.String(), "/conflicts/"+itoa(c.ID)+"/resolve") {
		t.Fatal("the open conflict has no buttons")
	}
	if _, err := f.s.Invalidate(ctx, "", c.Existing, memory.Change{Reason: "never true"}); err != nil {
		t.Fatal(err)
	}
	if w := f.do(t, "GET", "/conflicts", nil); strings.Contains(w.Body.String(), "/conflicts/"+itoa(c.ID)+"/resolve") {
		t.Error("a moot conflict is offered")
	}
	if w := f.do(t, "GET", "/conflicts?all=1", nil); !strings.Contains(w.Body.String(), "moot") || !strings.Contains(w.Body.String(), "was retracted (never true)") {
		t.Errorf("the moot conflict does not say why:\n%s", w.Body)
	}
	w := f.do(t, "POST", "/conflicts/"+itoa(c.ID)+"/resolve", url.Values{"keep": {"existing"}})
	if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "moot") {
		t.Fatalf("resolve of a moot conflict: %d\n%s", w.Code, w.Body)
	}
	if g, _ := f.s.Get(ctx, "", c.New); g.State() != memory.Current {
		t.Errorf("the new fact is %s after a refused resolve", g.State())
	}
}
