package inspect

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// flagsOf are the conflict flags of a fact's row or card, as text.
func flagsOf(h string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?s)<p class="conflictflag">(.*?)</p>`).FindAllStringSubmatch(h, -1) {
		out = append(out, textOf(m[1]))
	}
	return out
}

// navCount is the count of open conflicts the nav shows, "" when none.
func navCount(body string) string {
	m := regexp.MustCompile(`<span class="navcount">(\d+)<span class="vh"> open</span></span>`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return m[1]
}

// Every fact in an open conflict is flagged on its row of the facts list
// and on its page, with the other fact's text and a link to settle it that
// opens the conflict; no other fact is; the nav counts the open conflicts.
// Checked against Conflicts for each state of the store. Before, no page
// but /conflicts said a fact was in one.
func TestOpenConflictsFlaggedWhereFactsAreShown(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		since func(t *testing.T, f *fixture)
		open  int
	}{
		{name: "the seeded story", open: 1},
		{name: "a decision unsure which of two, beside it", open: 3, since: func(t *testing.T, f *fixture) {
			if _, err := f.s.Pin(ctx, "", 12); err != nil {
				t.Fatal(err)
			}
			o, err := f.s.Remember(ctx, memory.Note{Text: "I no longer speak Spanish, only Portuguese."})
			if err != nil || o.Decision.Conflict == 0 {
				t.Fatalf("setup: %+v, %v", o.Decision, err)
			}
		}},
		{name: "resolved", open: 0, since: func(t *testing.T, f *fixture) {
			cs, _ := f.s.Conflicts(ctx, "", nil)
			if _, err := f.s.ResolveConflict(ctx, "", cs[0].ID, memory.KeepBoth); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			if tc.since != nil {
				tc.since(t, f)
			}
			cs, err := f.s.Conflicts(ctx, "", nil)
			if err != nil || len(cs) != tc.open {
				t.Fatalf("%d open conflicts (%v), want %d", len(cs), err, tc.open)
			}
			// want: for each fact, the flags it must show.
			want := map[uint64][]string{}
			for _, c := range cs {
				for _, side := range [][2]uint64{{c.New, c.Existing}, {c.Existing, c.New}} {
					other, err := f.s.Get(ctx, "", side[1])
					if err != nil {
						t.Fatal(err)
					}
					want[side[0]] = append(want[side[0]], "conflict In open conflict "+itoa(c.ID)+" with #"+itoa(other.ID)+" “"+other.Text+"” — settle it")
				}
			}
			list := f.do(t, "GET", "/?all=1", nil).Body.String()
			wantCount := ""
			if tc.open > 0 {
				wantCount = itoa(uint64(tc.open))
			}
			if got := navCount(list); got != wantCount {
				t.Errorf("the nav counts %q open conflicts, want %q", got, wantCount)
			}
			rows := tableRows(list, "facts")
			if len(rows) == 0 {
				t.Fatal("no rows")
			}
			for _, r := range rows {
				id := strings.TrimSpace(r.Text[0])
				var w []string
				for fid, fl := range want {
					if itoa(fid) == id {
						w = fl
					}
				}
				if got := flagsOf(r.HTML[1]); strings.Join(got, "\n") != strings.Join(w, "\n") {
					t.Errorf("row #%s flags %q, want %q", id, got, w)
				}
			}
			for fid, w := range want {
				page := f.do(t, "GET", "/facts/"+itoa(fid), nil).Body.String()
				if got := flagsOf(page); strings.Join(got, "\n") != strings.Join(w, "\n") {
					t.Errorf("the page of #%d flags %q, want %q", fid, got, w)
				}
				if got := navCount(page); got != wantCount {
					t.Errorf("the page of #%d: the nav counts %q", fid, got)
				}
			}
			// Each link to settle one opens the page that holds its card.
			for _, c := range cs {
				link := href("/conflicts", "", "id", itoa(c.ID)) + "#c" + itoa(c.ID)
				if !strings.Contains(list, `href="`+strings.ReplaceAll(link, "&", "&amp;")+`"`) {
					t.Errorf("no link %q on the facts list", link)
				}
				path, anchor, _ := strings.Cut(link, "#")
				if body := f.do(t, "GET", path, nil).Body.String(); !strings.Contains(body, `id="`+anchor+`"`) || !strings.Contains(card(body, anchor), `name="keep"`) {
					t.Errorf("%s does not open conflict %d with its buttons", link, c.ID)
				}
			}
		})
	}
}

// On a time-travel page a fact is flagged with the conflicts open at the
// record time asked: none before it was raised, and one since resolved
// says how it ended, with a link to it among the resolved ones.
func TestConflictFlagsAsKnownThen(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	cs, _ := f.s.Conflicts(ctx, "", nil)
	c := cs[0] // #11 "no longer allergic" beside the pinned #5, raised 2026-07-20
	if _, err := f.s.ResolveConflict(ctx, "", c.ID, memory.KeepExisting); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want []string // the flags of #5's row
	}{
		{"/?at=2026-07-25&known=2026-07-01", nil},
		{"/?at=2026-07-25&known=2026-08-01", []string{"conflict Then in open conflict " + itoa(c.ID) + " with #11 “I am no longer allergic to peanuts.” — resolved 2026-10-01: kept existing"}},
		{"/?at=2026-07-25", nil},
	} {
		body := f.do(t, "GET", tc.path, nil).Body.String()
		found := false
		for _, r := range tableRows(body, "facts") {
			if r.Text[0] == "5" {
				found = true
				if got := flagsOf(r.HTML[1]); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Errorf("%s: #5 flags %q, want %q", tc.path, got, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no row of #5", tc.path)
		}
		if tc.want != nil && !strings.Contains(body, `href="/conflicts?all=1&amp;id=`+itoa(c.ID)+`#c`+itoa(c.ID)+`"`) {
			t.Errorf("%s: no link to the resolved conflict", tc.path)
		}
	}
}
