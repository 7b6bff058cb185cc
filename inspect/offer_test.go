package inspect

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// card is the <article> of id (d12, c1) on a page, "" when none.
func card(body, id string) string {
	m := regexp.MustCompile(`(?s)<article [^>]*id="` + id + `">.*?</article>`).FindString(body)
	return m
}

// Every decision on the page has an Undo button exactly when the store
// would undo it (CanUndo), and where not, says why; each state of a
// decision is checked by clicking: an offered Undo is done, one refused
// answers 409 and changes nothing. Before, Undo was offered on decisions
// whose facts had changed since, and answered "409 · facts changed since
// the decision".
func TestUndoOfferedOnlyWhereItCanSucceed(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		which string // the text of the decision
		since func(f *fixture, o memory.Outcome)
		offer bool
		why   string // what the card says instead of the button
	}{
		{name: "an update, untouched", which: "I now work at Contoso as a product manager.", offer: true},
		{name: "a restatement", which: "I have a dog named Rex.", offer: true},
		{name: "an add", which: "I speak Spanish and a little Portuguese.", offer: true},
		{name: "its new fact retracted since", which: "I now work at Contoso as a product manager.",
			since: func(f *fixture, o memory.Outcome) {
				f.s.Invalidate(ctx, "", o.Fact.ID, memory.Change{Reason: "not so"})
			},
			why: "Cannot be undone now: #10, the fact it stored, was retracted since."},
		{name: "its old fact restored since", which: "I moved to Paris back in May, I live in Paris now.",
			since: func(f *fixture, o memory.Outcome) {
				f.s.Restore(ctx, "", o.Decision.Target, memory.Change{Reason: "both"})
			},
			why: "Cannot be undone now: #1, the fact it superseded, is current again."},
		{name: "the fact it retracted restored since", which: "I was wrong, the team offsite is on Wednesday, not Tuesday.",
			since: func(f *fixture, o memory.Outcome) { f.s.Restore(ctx, "", o.Decision.Target, memory.Change{}) },
			why:   "Cannot be undone now: #7, the fact it retracted, is current again."},
		{name: "its new fact superseded since", which: "I moved to Paris back in May, I live in Paris now.",
			since: func(f *fixture, o memory.Outcome) {
				f.s.Supersede(ctx, "", o.Fact.ID, memory.Note{Text: "I live in Rome now."})
			},
			why: "Cannot be undone now: #9, the fact it stored, was superseded since."},
		{name: "its conflict settled against it", which: "I am no longer allergic to peanuts.",
			since: func(f *fixture, o memory.Outcome) {
				f.s.ResolveConflict(ctx, "", o.Decision.Conflict, memory.KeepExisting)
			},
			why: "Cannot be undone now: #11, the fact it stored, was retracted since."},
		{name: "undone before", which: "I now work at Contoso as a product manager.",
			since: func(f *fixture, o memory.Outcome) { f.s.Undo(ctx, "", o.Decision.ID) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			o := f.outcome(t, tc.which)
			if tc.since != nil {
				tc.since(f, o)
			}
			body := f.do(t, "GET", "/decisions", nil).Body.String()
			// The page agrees with the store on every decision.
			ds, _ := f.s.Decisions(ctx, "", 0)
			for _, d := range ds {
				c := card(body, "d"+itoa(d.ID))
				button := strings.Contains(c, `action="/decisions/`+itoa(d.ID)+`/undo"`)
				can := d.UndoneAt == nil && f.s.CanUndo(ctx, "", d.ID) == nil
				if button != can {
					t.Errorf("decision %d: Undo offered %v, the store would undo it %v", d.ID, button, can)
				}
				if !button && d.UndoneAt == nil && !strings.Contains(c, `class="whynot"`) {
					t.Errorf("decision %d: no Undo and no word why", d.ID)
				}
			}
			c := card(body, "d"+itoa(o.Decision.ID))
			if tc.why != "" && !strings.Contains(textOf(c), tc.why) {
				t.Errorf("the card says %q, want %q", textOf(c), tc.why)
			}
			if tc.since != nil && tc.why == "" && !strings.Contains(textOf(c), "undone 2026") {
				t.Errorf("an undone decision's card: %q", textOf(c))
			}
			before := snapshotFacts(t, f.s, "")
			w := f.do(t, "POST", "/decisions/"+itoa(o.Decision.ID)+"/undo", url.Values{})
			switch {
			case tc.offer && w.Code != http.StatusSeeOther:
				t.Errorf("the offered Undo answered %d\n%s", w.Code, w.Body)
			case !tc.offer && w.Code != http.StatusConflict:
				t.Errorf("Undo not offered, but the POST answered %d", w.Code)
			case !tc.offer && snapshotFacts(t, f.s, "") != before:
				t.Error("a refused Undo changed the facts")
			}
		})
	}
}

// Each way to settle a conflict is a button exactly when the store would
// take it (CanResolve); a refused one says why; a conflict none of whose
// ways can be taken now says why once. Each is checked by clicking.
func TestResolveOfferedOnlyWhereItCanSucceed(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		user    string
		setup   func(t *testing.T, f *fixture)
		offered []memory.Keep
		why     string
	}{
		{name: "open", offered: []memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth}},
		{name: "the new fact starts before the existing one's own start", user: "ann",
			setup: func(t *testing.T, f *fixture) {
				if _, err := f.s.Add(ctx, memory.Note{User: "ann", Text: "I live in Berlin.", EventFrom: mustDay("2026-12-01"), Pinned: true}); err != nil {
					t.Fatal(err)
				}
				if o, err := f.s.Remember(ctx, memory.Note{User: "ann", Text: "I live in Madrid now."}); err != nil || o.Decision.Conflict == 0 {
					t.Fatalf("setup: %+v, %v", o.Decision, err)
				}
			},
			offered: []memory.Keep{memory.KeepExisting, memory.KeepBoth},
			why:     "No “Keep new”: the existing fact starts after the new one, so the new one cannot be what replaced it."},
	} {
		for _, keep := range []memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth} {
			t.Run(tc.name+"/"+string(keep), func(t *testing.T) {
				f := newFixture(t, nil)
				if tc.setup != nil {
					tc.setup(t, f)
				}
				cs, _ := f.s.Conflicts(ctx, tc.user, nil)
				if len(cs) != 1 {
					t.Fatalf("%d open conflicts", len(cs))
				}
				c := cs[0]
				body := card(f.do(t, "GET", href("/conflicts", tc.user), nil).Body.String(), "c"+itoa(c.ID))
				offered := false
				for _, k := range tc.offered {
					offered = offered || k == keep
				}
				button := strings.Contains(body, `name="keep" value="`+string(keep)+`"`)
				if button != offered || button != (f.s.CanResolve(ctx, tc.user, c.ID, keep) == nil) {
					t.Errorf("keep %s: button %v, want %v", keep, button, offered)
				}
				if tc.why != "" && !strings.Contains(textOf(body), tc.why) {
					t.Errorf("the card says %q, want %q", textOf(body), tc.why)
				}
				before := snapshotFacts(t, f.s, tc.user)
				w := f.do(t, "POST", "/conflicts/"+itoa(c.ID)+"/resolve", url.Values{"user": {tc.user}, "keep": {string(keep)}})
				if (w.Code == http.StatusSeeOther) != offered {
					t.Errorf("keep %s: offered %v, the POST answered %d", keep, offered, w.Code)
				}
				if !offered && snapshotFacts(t, f.s, tc.user) != before {
					t.Error("a refused resolve changed the facts")
				}
			})
		}
	}
}

// A store opened read-only offers neither Undo nor Resolve, and says why.
func TestNothingOfferedOnAReadOnlyStore(t *testing.T) {
	f := newFixture(t, nil)
	path := f.s.Path()
	if err := f.s.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := memory.Open(path, 0, &memory.Options{ReadOnly: true, Clock: f.c.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	if f.h, err = New(ro, &Options{Clock: f.c.Now}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, button, why string }{
		{"/decisions", `/undo"`, "Cannot be undone now: the store is open read-only."},
		{"/conflicts", `name="keep"`, "Cannot be resolved now: the store is open read-only."},
	} {
		body := f.do(t, "GET", tc.path, nil).Body.String()
		if strings.Contains(body, tc.button) {
			t.Errorf("%s offers %s on a read-only store", tc.path, tc.button)
		}
		if !strings.Contains(textOf(body), tc.why) {
			t.Errorf("%s does not say %q", tc.path, tc.why)
		}
	}
}

// snapshotFacts is every fact of user with its state.
func snapshotFacts(t *testing.T, s *memory.Store, user string) string {
	t.Helper()
	all, err := s.List(context.Background(), user, &memory.ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range all {
		b.WriteString(itoa(f.ID) + " " + f.State().String() + " " + f.Text + "\n")
	}
	return b.String()
}
