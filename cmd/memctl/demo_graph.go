package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
)

// claims prints what a fact just written states, as the graph sees it.
func (d *demo) claims(f memory.Fact) {
	if len(f.Claims) == 0 {
		d.printf("      claims: none\n")
		return
	}
	for _, c := range f.Claims {
		d.printf("      claim: %s\n", showClaim(c))
	}
}

// showEdge is one edge for the demo: who, what, whom, its state, its event
// interval and the facts behind it.
func showEdge(e memory.Edge) string {
	ids := make([]string, len(e.Support))
	for i, id := range e.Support {
		ids[i] = fmt.Sprintf("#%d", id)
	}
	return fmt.Sprintf("%s %s %s  %-9s  %s  (facts %s)", showSubject(e.Subject), e.Relation, e.Object, e.State, edgeSpan(e), strings.Join(ids, ", "))
}

// expectEdges prints edges and fails unless their objects are exactly want
// (in any order, compared without case).
func (d *demo) expectEdges(what string, got []memory.Edge, want ...string) error {
	for _, e := range got {
		d.printf("      %s\n", showEdge(e))
	}
	if len(got) == 0 {
		d.printf("      (nothing)\n")
	}
	objs := make([]string, len(got))
	for i, e := range got {
		objs[i] = strings.ToLower(e.Object)
	}
	wantObjs := make([]string, len(want))
	for i, w := range want {
		wantObjs[i] = strings.ToLower(w)
	}
	slices.Sort(objs)
	slices.Sort(wantObjs)
	if !slices.Equal(objs, wantObjs) {
		return fmt.Errorf("demo: %s returned edges to %v, the story expects %v", what, objs, wantObjs)
	}
	return nil
}

// supportedBy fails unless the one edge of edges is supported by exactly f.
func supportedBy(what string, edges []memory.Edge, f memory.Fact) error {
	if len(edges) != 1 || !slices.Equal(edges[0].Support, []uint64{f.ID}) {
		return fmt.Errorf("demo: %s: the story expects one edge supported by #%d", what, f.ID)
	}
	return nil
}

// graphQuestions asks the questions of step 3 of the graph, which answers
// them as At does: from the facts behind each edge, on both time axes.
func (d *demo) graphQuestions(a, b memory.Fact) error {
	for _, f := range []memory.Fact{a, b} {
		if len(f.Claims) == 0 {
			return fmt.Errorf("demo: the rules read no claim in %q, so the graph cannot answer the story's questions", f.Text)
		}
	}
	d.printf("\n    The same questions, asked of the graph: each fact's claims make edges,\n")
	d.printf("    and an edge is visible and true exactly when a fact behind it is.\n")
	for _, q := range []struct {
		question     string
		event, known time.Time
		want         memory.Fact
		object       string
	}{
		{"Where did I work in May?", date(2026, 5, 15), time.Time{}, a, "company A"},
		{"Where did I work in July?", date(2026, 7, 15), time.Time{}, b, "company B"},
		{"What did you believe on 1 August about July?", date(2026, 7, 15), date(2026, 8, 1), a, "company A"},
	} {
		known := "now"
		if !q.known.IsZero() {
			known = showTime(q.known)
		}
		call := fmt.Sprintf("Edges(works_at, event %s, known %s)", showTime(q.event), known)
		d.printf("\n    Q: %s\n    %s returns:\n", q.question, call)
		got, err := d.s.Edges(d.ctx, "", &memory.EdgeQuery{Relation: "works_at", Event: q.event, Known: q.known})
		if err != nil {
			return err
		}
		if err := d.expectEdges(call, got, q.object); err != nil {
			return err
		}
		if err := supportedBy(call, got, q.want); err != nil {
			return err
		}
	}
	d.printf("    (Only the relation asked about: no dog this time.)\n")
	return nil
}

// graph shows the graph at the end of the story: the edges now, the job's
// edge history left by the supersedes, and a hard delete taking its edge
// and entity with the fact.
func (d *demo) graph(a, b memory.Fact) error {
	ctx, s := d.ctx, d.s
	d.printf("\n9. The graph: edges derived from the facts, moving with them\n")
	d.printf("    Edges now (memctl graph):\n")
	now, err := s.Edges(ctx, "", nil)
	if err != nil {
		return err
	}
	if err := d.expectEdges("Edges now", now, "company B", "Rex"); err != nil {
		return err
	}
	d.printf("\n    Every works_at interval, ended ones too (memctl graph --relation works_at --all):\n")
	jobs, err := s.Edges(ctx, "", &memory.EdgeQuery{Relation: "works_at", All: true})
	if err != nil {
		return err
	}
	// The job's chain is A, B and the C Remember wrote: the edges are
	// exactly its facts' works_at claims (C's, if the rules read one, not
	// yet begun).
	chain, err := s.History(ctx, "", a.ID)
	if err != nil {
		return err
	}
	want := []string{}
	for _, f := range chain {
		for _, c := range f.Claims {
			if c.Relation == "works_at" && c.Subject == "" && !slices.ContainsFunc(want, func(o string) bool { return strings.EqualFold(o, c.Object) }) {
				want = append(want, c.Object)
			}
		}
	}
	if err := d.expectEdges("Edges(works_at, all)", jobs, want...); err != nil {
		return err
	}
	if !slices.ContainsFunc(want, func(o string) bool { return strings.EqualFold(o, "company B") }) {
		return fmt.Errorf("demo: the chain of #%d claims works_at %v, the story expects company B among them", a.ID, want)
	}
	for _, e := range jobs {
		if strings.EqualFold(e.Object, "company A") && (e.State != memory.EdgeEnded || !slices.Equal(e.Support, []uint64{a.ID})) {
			return fmt.Errorf("demo: the company A edge is %s with support %v, the story expects ended, from #%d", e.State, e.Support, a.ID)
		}
	}
	d.printf("    Nothing was retired by the graph itself: company A ended because #%d was\n", a.ID)
	d.printf("    superseded, and company B ends on %s because #%d does, where #%d begins.\n",
		showTime(chain[len(chain)-1].EventStart), b.ID, chain[len(chain)-1].ID)

	d.printf("\n    The timeline of company A on both axes (memctl graph --entity \"company A\" --all):\n")
	tl, err := s.EntityTimeline(ctx, "", "company A")
	if err != nil {
		return err
	}
	for _, e := range tl {
		d.printf("      %s  believed %s\n", showEdge(e), knownSpan(e))
	}
	if len(tl) != 2 || tl[0].EventEnd != nil || tl[1].EventEnd == nil {
		return fmt.Errorf("demo: the timeline of company A has %d intervals, the story expects two: open until 20 August, then ended on 1 June", len(tl))
	}
	d.printf("    Until 20 August the store believed company A open-ended; since, it knows it ended.\n")

	d.on(date(2026, 9, 22), `The user says: "I live in Kazan."`)
	kazan, err := s.Add(ctx, d.note("I live in Kazan."))
	if err != nil {
		return err
	}
	d.printf("    Add → %s\n", show(kazan))
	d.claims(kazan)
	d.printf("    Neighbours(Kazan) returns:\n")
	nb, err := s.Neighbours(ctx, "", "Kazan", time.Time{}, time.Time{})
	if err != nil {
		return err
	}
	if err := d.expectEdges("Neighbours(Kazan)", nb, "Kazan"); err != nil {
		return err
	}
	d.on(date(2026, 9, 23), `The user says: "Forget where I live."`)
	ids, err := s.Delete(ctx, "", kazan.ID, nil)
	if err != nil {
		return err
	}
	d.printf("    Delete #%d → erased %v\n", kazan.ID, ids)
	d.printf("    Neighbours(Kazan) returns:\n")
	if nb, err = s.Neighbours(ctx, "", "Kazan", time.Time{}, time.Time{}); err != nil && !errors.Is(err, memory.ErrNotFound) {
		return err
	}
	if err := d.expectEdges("Neighbours(Kazan) after the delete", nb); err != nil {
		return err
	}
	all, err := s.Edges(ctx, "", &memory.EdgeQuery{Relation: "lives_in", All: true})
	if err != nil {
		return err
	}
	if len(all) != 0 {
		return fmt.Errorf("demo: %d lives_in edges after the delete, the story expects none, not even ended ones", len(all))
	}
	raw, err := os.ReadFile(s.Path())
	if err != nil {
		return err
	}
	if strings.Contains(string(raw), "Kazan") {
		return errors.New("demo: the name Kazan is still in the store's file after its only fact was deleted")
	}
	if err := s.Check(ctx); err != nil {
		return fmt.Errorf("demo: Check after the delete: %w", err)
	}
	d.printf("    A hard delete takes the fact's claims with it: the edge had no other support,\n")
	d.printf("    so it is gone, not ended, and so is the entity Kazan, named by no other fact:\n")
	d.printf("    the store's file holds the name nowhere, and Check is clean.\n")
	return nil
}
