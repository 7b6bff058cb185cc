package memory_test

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/claims"
)

func worksAt(company string) []memory.Claim {
	return []memory.Claim{{Relation: memory.RelWorksAt, Object: company, Kind: "company"}}
}

// edgeLine is an edge as a line to compare: object, state, support, interval.
func edgeLine(e memory.Edge) string {
	day := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.Format(time.DateOnly)
	}
	return fmt.Sprintf("%s %s %s %s %v %s..%s", e.Subject, e.Relation, e.Object, e.State, e.Support, day(e.EventStart), day(e.EventEnd))
}

func edgeLines(es []memory.Edge) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, edgeLine(e))
	}
	return out
}

func wantEdges(t *testing.T, s *memory.Store, user string, q *memory.EdgeQuery, want ...string) {
	t.Helper()
	got := edgeLines(must[[]memory.Edge](t)(s.Edges(ctx, user, q)))
	if want == nil {
		want = []string{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Edges %+v:\n got %q\nwant %q", q, got, want)
	}
}

// The README's story: "I work at company A." told in March; "I work at
// company B." from 1 June, told on 20 August, superseding it. The graph
// answers like At: May is A, July is B, and July as believed on 1 August
// is A.
func TestGraphReadmeStory(t *testing.T) {
	c := newClock("2026-03-10")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at company A.", Claims: worksAt("company A")}))
	c.set("2026-08-20")
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I work at company B.",
		EventFrom: date("2026-06-01"), Claims: worksAt("company B")}))
	q := func(event, known string) *memory.EdgeQuery {
		return &memory.EdgeQuery{Relation: memory.RelWorksAt, Event: dateOrZero(event), Known: dateOrZero(known)}
	}
	wantEdges(t, s, "", q("2026-05-15", ""), fmt.Sprintf(" works_at company A current [%d] 2026-03-10..2026-06-01", a.ID))
	wantEdges(t, s, "", q("2026-07-15", ""), fmt.Sprintf(" works_at company B current [%d] 2026-06-01..-", b.ID))
	wantEdges(t, s, "", q("2026-07-15", "2026-08-01"), fmt.Sprintf(" works_at company A current [%d] 2026-03-10..-", a.ID))
	wantEdges(t, s, "", q("2026-02-01", "")) // before anything was true
	wantEdges(t, s, "", &memory.EdgeQuery{All: true},
		fmt.Sprintf(" works_at company A ended [%d] 2026-03-10..2026-06-01", a.ID),
		fmt.Sprintf(" works_at company B current [%d] 2026-06-01..-", b.ID))
	// The same answers as At.
	for _, c := range []struct{ event, known string }{{"2026-05-15", ""}, {"2026-07-15", ""}, {"2026-07-15", "2026-08-01"}} {
		facts := must[[]memory.Fact](t)(s.At(ctx, "", dateOrZero(c.event), dateOrZero(c.known)))
		edges := must[[]memory.Edge](t)(s.Edges(ctx, "", q(c.event, c.known)))
		if len(facts) != 1 || len(edges) != 1 || !slices.Equal(edges[0].Support, []uint64{facts[0].ID}) {
			t.Errorf("%v: At %v, Edges %q", c, ids(facts), edgeLines(edges))
		}
	}
	// Why names the facts, the log and the supersede.
	e := must[[]memory.Edge](t)(s.Edges(ctx, "", q("2026-05-15", "")))[0]
	why := must[[]memory.Support](t)(s.Why(ctx, "", e))
	if len(why) != 1 || why[0].Fact.ID != a.ID || why[0].Fact.Text != "I work at company A." ||
		why[0].Claim.Object != "company A" || len(why[0].Events) != 2 || why[0].Events[1].Kind != memory.EventSuperseded {
		t.Errorf("Why: %+v", why)
	}
}

// Re-asserting a claim after its interval ended gives a second interval,
// never the first revived; a supersede that keeps the claim continues it.
func TestGraphReassertGivesSecondInterval(t *testing.T) {
	c := newClock("2026-01-10")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Acme.", Claims: worksAt("Acme")}))
	c.set("2026-03-10")
	a2 := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I work at Acme as a lead.", Claims: worksAt("acme")}))
	c.set("2026-05-10")
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a2.ID, memory.Note{Text: "I work at Initech.", Claims: worksAt("Initech")}))
	c.set("2026-09-10")
	a3 := must[memory.Fact](t)(s.Supersede(ctx, "", b.ID, memory.Note{Text: "I am back at Acme.", Claims: worksAt("ACME")}))
	wantEdges(t, s, "", &memory.EdgeQuery{All: true},
		fmt.Sprintf(" works_at acme ended [%d %d] 2026-01-10..2026-05-10", a.ID, a2.ID),
		fmt.Sprintf(" works_at ACME current [%d] 2026-09-10..-", a3.ID),
		fmt.Sprintf(" works_at Initech ended [%d] 2026-05-10..2026-09-10", b.ID))
	// The timeline of the entity: on both axes.
	tl := must[[]memory.Edge](t)(s.EntityTimeline(ctx, "", "Acme"))
	var lines []string
	for _, e := range tl {
		until := "-"
		if e.KnownUntil != nil {
			until = e.KnownUntil.Format(time.DateOnly)
		}
		lines = append(lines, edgeLine(e)+" known "+e.KnownFrom.Format(time.DateOnly)+".."+until)
	}
	want := []string{
		fmt.Sprintf(" works_at Acme current [%d] 2026-01-10..- known 2026-01-10..2026-03-10", a.ID),
		fmt.Sprintf(" works_at acme current [%d %d] 2026-01-10..- known 2026-03-10..2026-05-10", a.ID, a2.ID),
		fmt.Sprintf(" works_at acme ended [%d %d] 2026-01-10..2026-05-10 known 2026-05-10..-", a.ID, a2.ID),
		fmt.Sprintf(" works_at ACME current [%d] 2026-09-10..- known 2026-09-10..-", a3.ID),
	}
	if !slices.Equal(lines, want) {
		t.Errorf("EntityTimeline:\n got %q\nwant %q", lines, want)
	}
}

// Retract, restore and undo carry edges; the graph never ends one itself.
func TestGraphFollowsRetractRestore(t *testing.T) {
	c := newClock("2026-01-10")
	s, _ := open(t, c, nil)
	lives := []memory.Claim{{Relation: memory.RelLivesIn, Object: "Lisbon", Kind: "city"}}
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lisbon.", Claims: lives}))
	sister := []memory.Claim{{Subject: "sister", Relation: memory.RelLivesIn, Object: "Kazan", Kind: "city"}}
	k := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Kazan.", Claims: sister}))
	c.set("2026-02-10")
	must[memory.Fact](t)(s.Invalidate(ctx, "", a.ID, memory.Change{Reason: "never"}))
	wantEdges(t, s, "", &memory.EdgeQuery{Relation: memory.RelLivesIn},
		fmt.Sprintf("sister lives_in Kazan current [%d] 2026-01-10..-", k.ID))
	wantEdges(t, s, "", &memory.EdgeQuery{Relation: memory.RelLivesIn, All: true},
		fmt.Sprintf(" lives_in Lisbon retracted [%d] 2026-01-10..-", a.ID),
		fmt.Sprintf("sister lives_in Kazan current [%d] 2026-01-10..-", k.ID))
	// As known before the retraction, it was there.
	wantEdges(t, s, "", &memory.EdgeQuery{Subject: memory.UserSubject, Known: date("2026-01-20")},
		fmt.Sprintf(" lives_in Lisbon current [%d] 2026-01-10..-", a.ID))
	c.set("2026-03-10")
	must[memory.Fact](t)(s.Restore(ctx, "", a.ID, memory.Change{Reason: "it was true"}))
	wantEdges(t, s, "", &memory.EdgeQuery{Subject: memory.UserSubject},
		fmt.Sprintf(" lives_in Lisbon current [%d] 2026-01-10..-", a.ID))
	// Neighbours of an entity, by either end.
	if got := edgeLines(must[[]memory.Edge](t)(s.Neighbours(ctx, "", "kazan", time.Time{}, time.Time{}))); len(got) != 1 ||
		!strings.HasPrefix(got[0], "sister lives_in Kazan current") {
		t.Errorf("Neighbours of Kazan: %q", got)
	}
	if got := must[[]memory.Edge](t)(s.Neighbours(ctx, "", "Sister", time.Time{}, time.Time{})); len(got) != 1 {
		t.Errorf("Neighbours of sister: %q", edgeLines(got))
	}
	// Another user sees none of it.
	wantEdges(t, s, "bob", &memory.EdgeQuery{All: true})
	if _, err := s.Why(ctx, "bob", memory.Edge{Relation: memory.RelLivesIn, Object: "Lisbon", Support: []uint64{a.ID}}); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("Why of another user's fact: %v", err)
	}
	if _, err := s.Why(ctx, "", memory.Edge{Relation: memory.RelLivesIn, Object: "Porto", Support: []uint64{a.ID}}); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("Why of a claim the fact does not make: %v", err)
	}
}

// A note's claims are validated: a bad one writes nothing.
func TestNoteClaimsValidated(t *testing.T) {
	s, _ := open(t, nil, nil)
	for name, cs := range map[string][]memory.Claim{
		"unknown relation": {{Relation: "hates", Object: "x"}},
		"empty object":     {{Relation: memory.RelLivesIn, Object: "  "}},
		"unknown kind":     {{Relation: memory.RelLivesIn, Object: "Oslo", Kind: "planet"}},
		"control char":     {{Relation: memory.RelLivesIn, Object: "Os\x01lo"}},
		"too many":         slices.Repeat([]memory.Claim{{Relation: memory.RelLikes, Object: "tea"}}, memory.MaxClaims+1),
	} {
		if _, err := s.Add(ctx, memory.Note{Text: "I live in Oslo.", Claims: cs}); !errors.Is(err, memory.ErrInvalidClaim) {
			t.Errorf("%s: %v, want ErrInvalidClaim", name, err)
		}
	}
	if n := len(allFacts(t, s, "")); n != 0 {
		t.Errorf("refused notes left %d facts", n)
	}
	// An empty, non-nil slice is exactly no claims; given claims are kept.
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Oslo.", Claims: []memory.Claim{}}))
	if f.Claims != nil {
		t.Errorf("claims of a note that says none: %v", f.Claims)
	}
	cs := []memory.Claim{{Relation: memory.RelLivesIn, Object: "Oslo", Kind: "city"}}
	g := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Oslo.", Claims: cs}))
	if got := getFact(t, s, "", g.ID).Claims; !slices.Equal(got, cs) {
		t.Errorf("stored claims %v, want %v", got, cs)
	}
}

// withoutClaims drops the facts' claims from an export, for comparing a
// re-export of an export written before claims existed with it.
func withoutClaims(export string) string {
	return claimsField.ReplaceAllString(export, "")
}

var claimsField = regexp.MustCompile(`,"claims":\[[^\]]*\]`)

// givenEnds is an export of a version before 8 as the current version
// writes it again: each fact's end has its source, the caller's, since
// only a caller could set one then.
func givenEnds(export string) string {
	return factEnd.ReplaceAllString(export, `$1,"event_until_source":"given"`)
}

var factEnd = regexp.MustCompile(`("event_until":"[^"]*"(?:,"event_source":"[a-z]+")?)`)

// An export written before claims existed (testdata/export-v1.jsonl) gets
// its facts' claims by extraction, as a write without claims does; an
// export of version 3 says them, and one of an earlier version may not.
func TestImportClaimsByVersion(t *testing.T) {
	old := string(must[[]byte](t)(os.ReadFile("testdata/export-v1.jsonl")))
	s, _ := open(t, newClock("2026-06-01"), nil)
	must[int](t)(s.Import(ctx, strings.NewReader(old), nil))
	for _, user := range []string{"", "bob", "Zoë"} {
		for _, f := range allFacts(t, s, user) {
			if want := claims.Extract(f.Text); !slices.Equal(f.Claims, want) {
				t.Errorf("fact %d %q: claims %v, want %v", f.ID, f.Text, f.Claims, want)
			}
		}
	}
	v3 := strings.Replace(old, `"version":1,`, `"version":3,`, 1)
	withClaims := strings.Replace(v3, `"text":"I work at Acme.",`, `"text":"I work at Acme.","claims":[{"subject":"","relation":"works_at","object":"Acme","kind":"company"}],`, 1)
	s3, _ := open(t, newClock("2026-06-01"), nil)
	must[int](t)(s3.Import(ctx, strings.NewReader(withClaims), nil))
	if got := getFact(t, s3, "", 1).Claims; !slices.Equal(got, worksAt("Acme")) {
		t.Errorf("claims of a version 3 export: %v", got)
	}
	for name, bad := range map[string]string{
		"claims in version 1": strings.Replace(old, `"text":"I work at Acme.",`, `"text":"I work at Acme.","claims":[],`, 1),
		"an invalid claim":    strings.Replace(withClaims, `"works_at"`, `"worked_at"`, 1),
	} {
		s, _ := open(t, nil, nil)
		if _, err := s.Import(ctx, strings.NewReader(bad), nil); !errors.Is(err, memory.ErrBadImport) {
			t.Errorf("%s: %v, want ErrBadImport", name, err)
		}
	}
}

func memoryExtract(text string) []memory.Claim { return claims.Extract(text) }

// The story again with claims found by the rules (Note.Claims nil), through
// Remember as an assistant would write: May is Acme, July is Initech, and
// July as believed on 1 August is Acme.
func TestGraphStoryByExtraction(t *testing.T) {
	c := newClock("2026-03-10")
	dec := &funcDecider{name: "custom", fn: alwaysUpdate1}
	s, _ := open(t, c, &memory.Options{Decider: dec})
	a := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I work at Acme."})).Fact
	c.set("2026-08-20")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I work at Initech.", EventFrom: date("2026-06-01")}))
	if out.Decision.Action != memory.ActionUpdate || out.Decision.Target != a.ID {
		t.Fatalf("decision %+v", out.Decision)
	}
	q := func(event, known string) *memory.EdgeQuery {
		return &memory.EdgeQuery{Relation: memory.RelWorksAt, Event: dateOrZero(event), Known: dateOrZero(known)}
	}
	wantEdges(t, s, "", q("2026-05-15", ""), fmt.Sprintf(" works_at Acme current [%d] 2026-03-10..2026-06-01", a.ID))
	wantEdges(t, s, "", q("2026-07-15", ""), fmt.Sprintf(" works_at Initech current [%d] 2026-06-01..-", out.Fact.ID))
	wantEdges(t, s, "", q("2026-07-15", "2026-08-01"), fmt.Sprintf(" works_at Acme current [%d] 2026-03-10..-", a.ID))
	// Why names the decision that ended Acme's interval.
	e := must[[]memory.Edge](t)(s.Edges(ctx, "", q("2026-05-15", "")))[0]
	why := must[[]memory.Support](t)(s.Why(ctx, "", e))
	if len(why) != 1 || !slices.ContainsFunc(why[0].Decisions, func(d memory.Decision) bool { return d.ID == out.Decision.ID }) {
		t.Errorf("Why: %+v", why)
	}
	// Undo carries the edge back.
	must[memory.Decision](t)(s.Undo(ctx, "", out.Decision.ID))
	wantEdges(t, s, "", q("2026-07-15", ""), fmt.Sprintf(" works_at Acme current [%d] 2026-03-10..-", a.ID))
}
