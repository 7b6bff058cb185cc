package inspect

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/palimpsest-mem/memory"
)

// The page refused for want of a token is styled in the real browser: the
// stylesheet loads without the token, nothing else does.
func TestBrowserRefusalIsStyled(t *testing.T) {
	ctx := tab(t)
	_, base := serve(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible("section.error")); err != nil {
		t.Fatal(err)
	}
	text, _ := chromedp.Run(ctx, chromedp.Text("section.error"))
	if !strings.Contains(text, "403") || strings.Contains(text, "Paris") {
		t.Fatalf("refusal %q", text)
	}
	bg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("header.top")).backgroundColor`))
	if err != nil || bg != "rgb(255, 255, 255)" {
		t.Errorf("header background %q, %v: style.css not applied to the refusal", bg, err)
	}
}

// In the browser, as the store says: the nav counts the open conflict, its
// two facts are flagged on the list, their link opens the conflict; a
// decision whose fact changed since has no Undo button but a sentence why.
func TestBrowserFlagsAndRefusedActions(t *testing.T) {
	ctx := tab(t)
	f, base := serve(t)
	job := f.outcome(t, "I now work at Contoso as a product manager.")
	if _, err := f.s.Invalidate(context.Background(), "", job.Fact.ID, memory.Change{Reason: "not so"}); err != nil {
		t.Fatal(err)
	}
	cs, _ := f.s.Conflicts(context.Background(), "", nil)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?token="+browserToken), chromedp.WaitVisible("p.conflictflag")); err != nil {
		t.Fatal(err)
	}
	// The number shows; " open" is for screen readers.
	count, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("header nav .navcount").firstChild.textContent`))
	if count != fmt.Sprint(len(cs)) {
		t.Errorf("the nav counts %q open conflicts, the store %d", count, len(cs))
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.facts p.conflictflag").length`))
	if err != nil || n != 2*len(cs) {
		t.Errorf("%d flags on the list, want %d (%v)", n, 2*len(cs), err)
	}
	sel := `table.facts p.conflictflag a[href*="/conflicts"]`
	if err := chromedp.Do(ctx, chromedp.Click(sel), chromedp.WaitVisible(fmt.Sprintf("#c%d button[value=both]", cs[0].ID))); err != nil {
		t.Fatalf("settle it: %v", err)
	}
	card := fmt.Sprintf("#d%d", job.Decision.ID)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/decisions"), chromedp.WaitVisible(card+" .whynot")); err != nil {
		t.Fatal(err)
	}
	why, _ := chromedp.Run(ctx, chromedp.Text(card+" .whynot"))
	if !strings.Contains(why, "was retracted since") {
		t.Errorf("why not: %q", why)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("`+card+` button[name=undo]").length`)); n != 0 {
		t.Error("Undo offered on a decision whose fact changed since")
	}
}
