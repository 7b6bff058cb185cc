package inspect

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/palimpsest-mem/memory"
)

// Browser tests drive the pages in headless Chromium: one browser for the
// whole test binary, a tab per test. They skip, saying why, where no
// browser is found; .ci/run installs Debian's chromium so that CI runs them.

var screenshots = flag.String("screenshots", "", "write PNGs of the main pages at 1280×800 and 390×844 into this folder, relative to the module root (TestScreenshots)")

// browser is the context of the one browser, nil when none was found.
var browser context.Context

var noBrowser string

func TestMain(m *testing.M) {
	flag.Parse()
	code := func() int {
		path := findBrowser()
		if path == "" {
			noBrowser = "no chromium, chromium-browser or google-chrome in PATH: browser tests skipped (apt-get install chromium)"
			return m.Run()
		}
		dir, err := os.MkdirTemp("", "inspect-chromium-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.UserDataDir(dir),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("hide-scrollbars", true),
			chromedp.WindowSize(1280, 800),
		)
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		defer cancelA()
		bctx, cancelB := chromedp.NewContext(actx)
		defer cancelB()
		if err := chromedp.Do(bctx); err != nil { // start it, with no timeout
			noBrowser = fmt.Sprintf("%s did not start: %v", path, err)
		} else {
			browser = bctx
		}
		return m.Run()
	}()
	os.Exit(code)
}

func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// tab opens a tab of the browser for one test, bounded in time.
func tab(t *testing.T) context.Context {
	t.Helper()
	return tabFor(t, 30*time.Second)
}

// tabFor opens a tab of the browser for one test, bounded by d.
func tabFor(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	if browser == nil {
		if os.Getenv("CI") != "" {
			// .ci/run installs chromium: a skip there would hide a broken install.
			t.Fatal(noBrowser)
		}
		t.Skip(noBrowser)
	}
	ctx, cancel := context.WithTimeout(browser, d)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(cancelTab)
	return ctx
}

const browserToken = "b7e0c1d2a3f4"

// serve runs a seeded inspector on a loopback port, with a token.
func serve(t *testing.T) (*fixture, string) {
	t.Helper()
	f := newFixture(t, &Options{Token: browserToken})
	srv := httptest.NewServer(f.h)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

func TestBrowserPages(t *testing.T) {
	ctx := tab(t)
	f, base := serve(t)
	paris := f.outcome(t, "I moved to Paris back in May, I live in Paris now.").Fact.ID
	// The token opens the session and leaves the address.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?token="+browserToken), chromedp.WaitVisible("table.facts")); err != nil {
		t.Fatal(err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || strings.Contains(loc, "token") {
		t.Fatalf("location %q, %v", loc, err)
	}
	for _, p := range []struct{ path, sel, want string }{
		{"/", "table.facts", "I live in Paris now"},
		{"/?all=1", "table.facts", "I live in Lyon."},
		{"/facts/" + itoa(paris), "table.log", "superseded"},
		{"/timeline", "figure.diagram", "record time"},
		{"/decisions", "article.decision", "Undo"},
		{"/conflicts", "article.conflict", "Keep new"},
		{"/entity?name=Paris", "figure.diagram", "lives_in"},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+p.path), chromedp.WaitVisible(p.sel)); err != nil {
			t.Fatalf("%s: %v", p.path, err)
		}
		text, err := chromedp.Run(ctx, chromedp.Text("main"))
		if err != nil || !strings.Contains(text, p.want) {
			t.Errorf("%s: no %q (%v)", p.path, p.want, err)
		}
	}
	// The stylesheet loads under the page's Content-Security-Policy: the
	// header is white, as style.css makes it.
	bg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("header.top")).backgroundColor`))
	if err != nil || bg != "rgb(255, 255, 255)" {
		t.Errorf("header background %q, %v: style.css not applied", bg, err)
	}
}

// The header's search box asks the memory; the page's form asks again
// with history.
func TestBrowserSearch(t *testing.T) {
	ctx := tab(t)
	_, base := serve(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?token="+browserToken), chromedp.WaitVisible("form.quicksearch input"),
		chromedp.SendKeys("form.quicksearch input", "Where do I live?\n"), chromedp.WaitVisible("table.facts")); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Text("main"))
	if err != nil || !strings.Contains(text, "I live in Paris now") || strings.Contains(text, "I live in Lyon.") {
		t.Fatalf("search from the header: %q, %v", text, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`main input[name=all]`), chromedp.Click(`main button[type=submit]`), chromedp.WaitVisible("tr.superseded")); err != nil {
		t.Fatal(err)
	}
	if text, _ := chromedp.Run(ctx, chromedp.Text("main")); !strings.Contains(text, "I live in Lyon.") {
		t.Fatalf("search with history: %q", text)
	}
}

func TestBrowserUndo(t *testing.T) {
	ctx := tab(t)
	f, base := serve(t)
	o := f.outcome(t, "I now work at Contoso as a product manager.")
	sel := fmt.Sprintf("#d%d button[name=undo]", o.Decision.ID)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/decisions?token="+browserToken), chromedp.WaitVisible(sel), chromedp.Click(sel), chromedp.WaitVisible("p.notice")); err != nil {
		t.Fatal(err)
	}
	notice, err := chromedp.Run(ctx, chromedp.Text("p.notice"))
	if err != nil || notice != "Decision undone." {
		t.Fatalf("notice %q, %v", notice, err)
	}
	card, _ := chromedp.Run(ctx, chromedp.Text(fmt.Sprintf("#d%d footer", o.Decision.ID)))
	if !strings.Contains(card, "undone") {
		t.Fatalf("card footer %q", card)
	}
	ctxS := context.Background()
	if g, _ := f.s.Get(ctxS, "", o.Decision.Target); g.State() != memory.Current {
		t.Fatalf("target %s", g.State())
	}
	if g, _ := f.s.Get(ctxS, "", o.Fact.ID); g.State() != memory.Retracted {
		t.Fatalf("added %s", g.State())
	}
}

func TestBrowserResolve(t *testing.T) {
	ctx := tab(t)
	f, base := serve(t)
	cs, _ := f.s.Conflicts(context.Background(), "", nil)
	c := cs[0]
	sel := fmt.Sprintf("#c%d button[value=existing]", c.ID)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/conflicts?token="+browserToken), chromedp.WaitVisible(sel), chromedp.Click(sel), chromedp.WaitVisible("p.notice")); err != nil {
		t.Fatal(err)
	}
	text, _ := chromedp.Run(ctx, chromedp.Text("main"))
	if !strings.Contains(text, "the existing fact stays") || !strings.Contains(text, "No open conflicts") {
		t.Fatalf("page after resolve: %q", text)
	}
	ctxS := context.Background()
	if g, _ := f.s.Get(ctxS, "", c.New); g.State() != memory.Retracted {
		t.Fatalf("new %s", g.State())
	}
	if g, _ := f.s.Get(ctxS, "", c.Existing); g.State() != memory.Current {
		t.Fatalf("existing %s", g.State())
	}
}

// A form on another origin that posts to the inspector is refused by the
// real browser's request headers, with the session cookie sent.
func TestBrowserCrossOriginPost(t *testing.T) {
	ctx := tab(t)
	f, base := serve(t)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><form method="post" action="%s/facts/3/retract"><button id="go">win a prize</button></form>`, base)
	}))
	defer evil.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?token="+browserToken), chromedp.WaitVisible("table.facts"),
		chromedp.Navigate(evil.URL), chromedp.Click("#go"), chromedp.WaitVisible("section.error")); err != nil {
		t.Fatal(err)
	}
	text, _ := chromedp.Run(ctx, chromedp.Text("section.error"))
	if !strings.Contains(text, "403") || !strings.Contains(text, "another site") {
		t.Fatalf("refusal page %q", text)
	}
	if g, _ := f.s.Get(context.Background(), "", 3); g.State() != memory.Current {
		t.Fatal("the cross-origin post retracted the fact")
	}
}

// TestScreenshots writes the README's pictures, each page at a laptop's
// 1280×800 and a phone's 390×844 (NAME-1280.png, NAME-390.png):
//
//	go test ./inspect -run TestScreenshots -screenshots docs/screenshots
func TestScreenshots(t *testing.T) {
	if *screenshots == "" {
		t.Skip("no -screenshots folder given")
	}
	dir := *screenshots
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", dir) // from the module's root, not this package's folder
	}
	ctx := tab(t)
	f, base := serve(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	paris := f.outcome(t, "I moved to Paris back in May, I live in Paris now.").Fact.ID
	shots := []struct{ name, path string }{
		{"facts", "/?token=" + browserToken},
		{"fact", "/facts/" + itoa(paris)},
		{"timeline", "/timeline?at=2026-05-15&known=2026-08-01"},
		{"decisions", "/decisions?changed=1"},
		{"conflicts", "/conflicts"},
		{"entity", "/entity?name=Lyon"},
		{"search", "/search?q=Where+did+I+live%3F&all=1"},
	}
	for _, w := range widths {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.w, w.h)); err != nil {
			t.Fatal(err)
		}
		for _, s := range shots {
			png, err := chromedp.Run(ctx, screenshotOf(base+s.path))
			if err != nil {
				t.Fatalf("%s at %s: %v", s.name, w.name, err)
			}
			if err := os.WriteFile(filepath.Join(dir, s.name+"-"+w.name+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func screenshotOf(url string) chromedp.Action[[]byte] {
	return func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible("footer")); err != nil {
			return nil, err
		}
		return chromedp.CaptureScreenshot()(ctx, tg)
	}
}
