package inspect

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/palimpsest-mem/memory"
)

// The layout tests load every page at a desktop and a phone width and ask
// the browser how it laid them out: nothing may scroll the page sideways,
// no box may stick out of the one that holds it, and the diagrams' labels
// must stay legible. A box that scrolls sideways by design (a wide diagram
// on a phone) is allowed, as long as it fits where it stands.

// widths are the viewports every page is checked at: a laptop and a phone
// (an iPhone 12 to 15 is 390 CSS px wide).
var widths = []struct {
	name string
	w, h int64
}{
	{"1280", 1280, 800},
	{"390", 390, 844},
}

// uiPage is one page of the inspector to check: its name for the test's
// output, its path, and what to do to the store before it is loaded.
type uiPage struct {
	name, path string
	setup      func(t *testing.T, f *fixture)
}

// longWord is a fact with a word longer than a phone is wide, as a pasted
// link or key would be: it must wrap, not widen the page.
const longWord = "My recovery key is 7f3a9c2e41b8d6f05a7e3c9b1d2f4e6a8c0b2d4f6e8a0c2e4f6a8b0d2f4e6a8c, kept at https://vault.example.com/keys/personal/recovery/7f3a9c2e41b8d6f05a7e3c9b."

// uiPages are every page of the inspector over the seeded story, time travel
// and the error page included, and last an undone decision and a resolved
// conflict. It adds the fact longWord to the store.
func uiPages(t *testing.T, f *fixture) []uiPage {
	t.Helper()
	ctx := context.Background()
	long, err := f.s.Add(ctx, memory.Note{Text: longWord, Origin: memory.OriginUser, Source: memory.Source{Kind: "chat", Quote: longWord}})
	if err != nil {
		t.Fatal(err)
	}
	paris := itoa(f.outcome(t, "I moved to Paris back in May, I live in Paris now.").Fact.ID)
	contoso := f.outcome(t, "I now work at Contoso as a product manager.").Decision.ID
	return []uiPage{
		{"facts", "/", nil},
		{"facts-all", "/?all=1", nil},
		{"facts-travel", "/?at=2026-05-20&known=2026-06-01", nil},
		{"fact", "/facts/" + paris, nil},
		{"fact-long", "/facts/" + itoa(long.ID), nil},
		{"why", "/facts/" + paris + "/why", nil},
		{"delete", "/facts/" + paris + "/delete", nil},
		{"timeline", "/timeline?at=2026-05-20&known=2026-06-01", nil},
		{"timeline-fact", "/timeline?fact=" + paris, nil},
		{"decisions", "/decisions", nil},
		{"decisions-changed", "/decisions?changed=1", nil},
		{"conflicts", "/conflicts", nil},
		{"conflicts-all", "/conflicts?all=1", nil},
		{"entities", "/entities", nil},
		{"entity", "/entity?name=Lyon&at=2026-03-01", nil},
		{"search", "/search?q=Where+did+I+live%3F&all=1", nil},
		{"search-long", "/search?q=my+recovery+key", nil},
		{"error", "/facts/9999", nil},
		{"decisions-undone", "/decisions?id=" + itoa(contoso), func(t *testing.T, f *fixture) {
			if _, err := f.s.Undo(ctx, "", contoso); err != nil {
				t.Fatal(err)
			}
		}},
		{"conflicts-resolved", "/conflicts?all=1", func(t *testing.T, f *fixture) {
			cs, err := f.s.Conflicts(ctx, "", nil)
			if err != nil || len(cs) == 0 {
				t.Fatalf("no open conflict to resolve: %v", err)
			}
			if _, err := f.s.ResolveConflict(ctx, "", cs[0].ID, memory.KeepBoth); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// onEachPage opens a tab per width, signs in with the token, and calls
// check on every page loaded at that width.
func onEachPage(t *testing.T, check func(t *testing.T, ctx context.Context, p uiPage)) {
	t.Helper()
	for _, w := range widths {
		t.Run(w.name, func(t *testing.T) {
			ctx := tabFor(t, 2*time.Minute)
			f, base := serve(t)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.w, w.h),
				chromedp.Navigate(base+"/?token="+browserToken), chromedp.WaitVisible("body > footer")); err != nil {
				t.Fatal(err)
			}
			for _, p := range uiPages(t, f) {
				t.Run(p.name, func(t *testing.T) {
					if p.setup != nil {
						p.setup(t, f)
					}
					if err := chromedp.Do(ctx, chromedp.Navigate(base+p.path), chromedp.WaitVisible("body > footer")); err != nil {
						t.Fatalf("%s: %v", p.path, err)
					}
					check(t, ctx, p)
				})
			}
		})
	}
}

// layoutProblems lists what the browser laid out wrong on the page, one
// line each: a page that scrolls sideways, a box wider than its content
// area (a table, a figure, a card, a form, a paragraph with a word too
// long...), a box sticking out of its parent or out of the viewport, and a
// diagram label smaller than 9.5 px as drawn. Inside a box that scrolls
// sideways by design only that box is checked, not what it scrolls.
const layoutProblems = `(() => {
  const out = [], vw = window.innerWidth, de = document.documentElement;
  if (de.scrollWidth > vw) out.push("the page scrolls sideways: scrollWidth " + de.scrollWidth + " > innerWidth " + vw);
  const name = el => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    for (const c of el.classList) s += "." + c;
    return s;
  };
  const path = el => {
    const p = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) p.unshift(name(e));
    return p.join(" > ");
  };
  const scrolls = el => { const o = getComputedStyle(el).overflowX; return o === "auto" || o === "scroll"; };
  const scroller = el => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (scrolls(p)) return p;
    return null;
  };
  const shown = el => {
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  };
  // Visually hidden text (clipped to a pixel) is laid out nowhere a reader sees.
  const clipped = el => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.position === "absolute" && (cs.clipPath === "inset(50%)" || cs.clip === "rect(0px, 0px, 0px, 0px)")) return true;
    }
    return false;
  };
  const px = v => Math.round(v);
  const boxes = "header, nav, main, footer, section, article, figure, figcaption, table, tr, td, th, form, label, details, dl, dd, .versus, .versus > div, .actions, .evidence, ul, ol, li, p, h1, h2, h3, blockquote, svg, input, select, button, .button";
  for (const el of document.body.querySelectorAll(boxes)) {
    if (!shown(el) || clipped(el) || scroller(el)) continue;
    const cs = getComputedStyle(el);
    const own = !(el instanceof SVGElement) && !scrolls(el) && !["INPUT", "SELECT", "BUTTON"].includes(el.tagName);
    if (own && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && cs.display !== "inline")
      out.push(path(el) + ": content " + el.scrollWidth + " px wide in a box of " + el.clientWidth + " px");
    const r = el.getBoundingClientRect();
    if (r.right > vw + 0.5 || r.left < -0.5) out.push(path(el) + ": out of the viewport (" + px(r.left) + " to " + px(r.right) + " of " + vw + ")");
    const p = el.parentElement;
    if (p && p !== document.body && getComputedStyle(p).display !== "inline") {
      const pr = p.getBoundingClientRect();
      if (r.right > pr.right + 0.5 || r.left < pr.left - 0.5)
        out.push(path(el) + ": sticks out of its parent (" + px(r.left) + " to " + px(r.right) + " in " + px(pr.left) + " to " + px(pr.right) + ")");
    }
  }
  // A box that scrolls by design must itself fit its parent.
  for (const el of document.body.querySelectorAll("*")) {
    if (!scrolls(el) || !shown(el) || scroller(el)) continue;
    const r = el.getBoundingClientRect(), pr = el.parentElement.getBoundingClientRect();
    if (r.right > pr.right + 0.5 || r.left < pr.left - 0.5 || r.right > vw + 0.5)
      out.push(path(el) + ": a scrolling box wider than where it stands (" + px(r.left) + " to " + px(r.right) + " in " + px(pr.left) + " to " + px(pr.right) + ")");
  }
  // The diagrams' words as drawn: font size times the SVG's scale.
  for (const svg of document.querySelectorAll("svg[viewBox]")) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const tx of svg.querySelectorAll("text")) {
      const size = parseFloat(getComputedStyle(tx).fontSize) * scale;
      if (size < 9.5) { out.push(path(svg) + ": text " + JSON.stringify(tx.textContent) + " drawn at " + size.toFixed(1) + " px"); break; }
    }
  }
  return out;
})()`

// TestBrowserLayout: at 1280 and 390 px, no page scrolls sideways and
// nothing sticks out of its box.
func TestBrowserLayout(t *testing.T) {
	onEachPage(t, func(t *testing.T, ctx context.Context, p uiPage) {
		problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](layoutProblems))
		if err != nil {
			t.Fatalf("%s: %v", p.path, err)
		}
		if len(problems) > 0 {
			t.Errorf("%s: %d layout problems:\n  %s", p.path, len(problems), strings.Join(problems, "\n  "))
		}
	})
}

// TestBrowserLayoutCatches checks the checker: a heading made wider than
// the phone is caught, both as the page scrolling sideways and as a box
// sticking out of its parent.
func TestBrowserLayoutCatches(t *testing.T) {
	ctx := tab(t)
	_, base := serve(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(base+"/?token="+browserToken), chromedp.WaitVisible("body > footer"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("h1").style.width = "600px"`)); err != nil {
		t.Fatal(err)
	}
	problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](layoutProblems))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmt.Sprint(problems), "scrolls sideways") || !strings.Contains(fmt.Sprint(problems), "section.head > h1: sticks out") {
		t.Fatalf("a 600 px heading at 390 px not caught: %q", problems)
	}
}

// headerRows counts the rows the header's parts were laid out in: the
// distinct middles (the header centres its parts) of the brand, the nav, the search box and the user picker.
const headerRows = `(() => {
  const tops = new Set();
  for (const el of document.querySelectorAll("header.top > *")) { const r = el.getBoundingClientRect(); tops.add(Math.round((r.top + r.bottom) / 16)); }
  return tops.size;
})()`

// TestBrowserHeaderIsOneRowOnALaptop: at 1280 px the header's parts stand
// in one row; on a phone they wrap, as they must.
func TestBrowserHeaderIsOneRowOnALaptop(t *testing.T) {
	ctx := tab(t)
	f, base := serve(t)
	if _, err := f.s.Add(context.Background(), memory.Note{User: "alexandra.k", Text: "I live in Lyon.", Origin: memory.OriginUser}); err != nil {
		t.Fatal(err)
	}
	for _, w := range widths {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.w, w.h),
			chromedp.Navigate(base+"/conflicts?user=alexandra.k&token="+browserToken), chromedp.WaitVisible("body > footer")); err != nil {
			t.Fatal(err)
		}
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](headerRows))
		if err != nil {
			t.Fatal(err)
		}
		if w.w >= 1280 && rows != 1 {
			t.Errorf("at %d px the header takes %d rows", w.w, rows)
		}
		if w.w < 600 && rows < 2 {
			t.Errorf("at %d px the header did not wrap", w.w)
		}
	}
}
