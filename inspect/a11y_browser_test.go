package inspect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Accessibility: axe-core (npm, pinned in testdata/axe and installed there
// by .ci/run with npm ci) runs in every page at both widths, and a walk
// with the Tab key must reach every control of the page.
//
// The pages' Content-Security-Policy allows no script, so axe cannot come
// in a script tag: the test evaluates axe.min.js through DevTools
// (Runtime.evaluate), which the policy does not govern.
// TestBrowserAxeInjection checks both halves of that.

var axeDir = filepath.Join("testdata", "axe")

var axeOnce struct {
	sync.Once
	src string
	err error
}

// axeSource is axe.min.js, read once; the test skips, saying what to run,
// where it is not installed (with CI set it fails: .ci/run installs it).
func axeSource(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join(axeDir, "node_modules", "axe-core", "axe.min.js"))
		axeOnce.src, axeOnce.err = string(b), err
	})
	if axeOnce.err != nil {
		why := fmt.Sprintf("no axe-core (%v): run npm ci in inspect/testdata/axe", axeOnce.err)
		if os.Getenv("CI") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	return axeOnce.src
}

// axeFinding is one rule axe found broken, with the elements that break it.
type axeFinding struct {
	ID, Impact, Help string
	Nodes            []string
}

// axeRun runs axe on the page and answers its serious and critical
// findings. The rules are those of WCAG 2.x A and AA and axe's best
// practices.
const axeRun = `axe.run(document, {resultTypes: ["violations"], runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}})
  .then(r => r.violations.filter(v => v.impact === "serious" || v.impact === "critical").map(v => ({
    ID: v.id, Impact: v.impact, Help: v.help,
    Nodes: v.nodes.map(n => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\s+/g, " "))
  })))`

func injectAxe(t *testing.T, ctx context.Context, src string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](src)); err != nil {
		t.Fatalf("evaluating axe.min.js: %v", err)
	}
}

// TestBrowserAxeInjection: the policy refuses a script the page would
// run, and axe still comes in through DevTools and runs.
func TestBrowserAxeInjection(t *testing.T) {
	src := axeSource(t)
	ctx := tab(t)
	_, base := serve(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?token="+browserToken), chromedp.WaitVisible("body > footer"),
		chromedp.Evaluate[chromedp.Void](`{ const s = document.createElement("script"); s.textContent = "window.ranInline = 1"; document.head.append(s); }`)); err != nil {
		t.Fatal(err)
	}
	if ran, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.ranInline === 1`)); err != nil || ran {
		t.Fatalf("an inline script ran under the page's policy (%v, %v)", ran, err)
	}
	injectAxe(t, ctx, src)
	version, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.version`))
	if err != nil || version == "" {
		t.Fatalf("axe not there after evaluation: %q, %v", version, err)
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`axe.run(document).then(r => r.passes.length)`, chromedp.EvalAwaitPromise))
	if err != nil || n == 0 {
		t.Fatalf("axe %s ran no rule: %d passes, %v", version, n, err)
	}
	t.Logf("axe-core %s: %d rules pass on the facts page", version, n)
	// And what it finds reaches the test: an image with no text is critical.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector("main").append(document.createElement("img"))`)); err != nil {
		t.Fatal(err)
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeFinding](axeRun, chromedp.EvalAwaitPromise))
	if err != nil || len(found) != 1 || found[0].ID != "image-alt" || found[0].Impact != "critical" {
		t.Fatalf("an image without alt: %+v, %v", found, err)
	}
}

// TestBrowserAccessibility: no page has an axe violation of impact serious
// or critical, at either width.
func TestBrowserAccessibility(t *testing.T) {
	src := axeSource(t)
	onEachPage(t, func(t *testing.T, ctx context.Context, p uiPage) {
		injectAxe(t, ctx, src)
		found, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeFinding](axeRun, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: axe: %v", p.path, err)
		}
		for _, v := range found {
			t.Errorf("%s: %s (%s): %s\n  %s", p.path, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n  "))
		}
	})
}

// controls opens every <details>, marks every control a reader can then
// see with data-kb=N and answers them, and the ones taken out of the Tab
// order (a negative tabindex, disabled).
const controls = `(() => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const all = [...document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]")];
  const shown = el => {
    const cs = getComputedStyle(el);
    if (!el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + ' "' + (el.textContent || el.getAttribute("aria-label") || el.name || "").trim().replace(/\s+/g, " ").slice(0, 40) + '"';
  const out = {Controls: [], Refused: []};
  all.filter(shown).forEach((el, i) => {
    el.dataset.kb = i;
    out.Controls.push(name(el));
    if (el.tabIndex < 0 || el.disabled) out.Refused.push(name(el));
  });
  return out;
})()`

// TestBrowserKeyboard: pressing Tab from the top of each page reaches
// every control it shows, in both widths.
func TestBrowserKeyboard(t *testing.T) {
	onEachPage(t, func(t *testing.T, ctx context.Context, p uiPage) {
		c, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ Controls, Refused []string }](controls))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range c.Refused {
			t.Errorf("%s: %s is out of the Tab order", p.path, r)
		}
		reached := map[int]bool{}
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)`)); err != nil {
			t.Fatal(err)
		}
		// A date input takes three presses (day, month, year): allow four a
		// control, stopping once all are reached.
		for range 4*len(c.Controls) + 8 {
			if len(reached) == len(c.Controls) {
				break
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
				t.Fatal(err)
			}
			at, err := chromedp.Run(ctx, chromedp.Evaluate[int](`+(document.activeElement.dataset.kb ?? -1)`))
			if err != nil {
				t.Fatal(err)
			}
			if at >= 0 {
				reached[at] = true
			}
		}
		for i, name := range c.Controls {
			if !reached[i] {
				t.Errorf("%s: Tab never reaches %s", p.path, name)
			}
		}
		t.Logf("%s: %d controls, %d reached by Tab", p.path, len(c.Controls), len(reached))
	})
}
