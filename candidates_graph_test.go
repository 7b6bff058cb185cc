package memory_test

import (
	"context"
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/claims"
)

// Facts that claim the same single-valued relation of the same subject are
// candidates for each other though they share no word; a relation that
// holds many (likes) or another subject is no such signal.
func TestCandidatesBySingleValuedRelation(t *testing.T) {
	s, _ := open(t, newClock("2026-01-10"), nil)
	lisbon := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My flat in Lisbon.",
		Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: "Lisbon", Kind: "city"}}}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister's flat in Kazan.",
		Claims: []memory.Claim{{Subject: "sister", Relation: memory.RelLivesIn, Object: "Kazan", Kind: "city"}}}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Green tea, always.",
		Claims: []memory.Claim{{Relation: memory.RelLikes, Object: "green tea"}}}))
	const text = "I'm based in Porto now"
	if got := memory.Claim((claimsOf(text))); got.Relation != memory.RelLivesIn {
		t.Fatalf("the rules find no lives_in in %q: %+v", text, got)
	}
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", text, 5))
	if len(l.Candidates) != 1 || l.Candidates[0].Fact.ID != lisbon.ID || l.Candidates[0].Relation != memory.RelLivesIn ||
		len(l.Candidates[0].Terms) != 0 {
		t.Errorf("candidates for %q: %+v", text, l.Candidates)
	}
	// A relation holding many objects finds no peers.
	if l := must[memory.Lookup](t)(s.Candidates(ctx, "", "I like black coffee", 5)); slices.ContainsFunc(l.Candidates,
		func(c memory.Candidate) bool { return c.Relation != "" }) {
		t.Errorf("likes gave relation candidates: %+v", l.Candidates)
	}
	// Not for another user.
	if l := must[memory.Lookup](t)(s.Candidates(ctx, "bob", text, 5)); len(l.Candidates) != 0 {
		t.Errorf("bob's candidates: %+v", l.Candidates)
	}
}

// The peers by relation stay within k, ahead of candidates found by a topic
// alone, and word matches keep their place.
func TestCandidatesRelationPeersWithinK(t *testing.T) {
	s, _ := open(t, newClock("2026-01-10"), nil)
	var peers []uint64
	for _, city := range []string{"Lisbon", "Braga", "Faro"} {
		f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "A flat in " + city + ".",
			Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: city}}}))
		peers = append(peers, f.ID)
	}
	word := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Porto has the best bridges.", Claims: []memory.Claim{}}))
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "I'm based in Porto now", 2))
	var got []uint64
	for _, c := range l.Candidates {
		got = append(got, c.Fact.ID)
	}
	if len(got) != 2 || got[0] != word.ID || !slices.Contains(peers, got[1]) {
		t.Errorf("candidates %v: want the word match %d then one of the peers %v", got, word.ID, peers)
	}
}

func claimsOf(text string) memory.Claim {
	for _, c := range memoryExtract(text) {
		return c
	}
	return memory.Claim{}
}

// The decider sees a candidate found by relation, with the relation named:
// the signal to judge, never a replacement by itself.
func TestDeciderSeesRelationCandidate(t *testing.T) {
	var seen []memory.DecideInput
	dec := &funcDecider{name: "custom", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		seen = append(seen, in)
		return memory.Verdict{Action: memory.ActionAdd, Reason: "two homes", Decider: "custom"}, nil
	}}
	s, _ := open(t, newClock("2026-01-10"), &memory.Options{Decider: dec})
	lisbon := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My flat in Lisbon.",
		Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: "Lisbon", Kind: "city"}}}))
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I'm based in Porto now"}))
	if len(seen) != 1 || len(seen[0].Candidates) != 1 || seen[0].Candidates[0].Text != lisbon.Text ||
		seen[0].Candidates[0].Relation != string(memory.RelLivesIn) {
		t.Fatalf("the decider saw %+v", seen)
	}
	// It added: both stay current, two values of lives_in.
	if es := must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{Relation: memory.RelLivesIn})); len(es) != 2 {
		t.Errorf("current lives_in edges: %q", edgeLines(es))
	}
}

// A subject merged into another is that entity for the single-valued
// relation peers too: "Елена lives in Porto" finds "Lena lives in Lisbon"
// once Елена is merged into Lena.
func TestCandidatesBySingleValuedRelationFollowMerges(t *testing.T) {
	s, _ := open(t, newClock("2026-01-10"), nil)
	lisbon := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "A flat in Lisbon.",
		Claims: []memory.Claim{{Subject: "Lena", Relation: memory.RelLivesIn, Object: "Lisbon", Kind: "city"}}}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Елена is my friend.",
		Claims: []memory.Claim{{Relation: memory.RelFriend, Object: "Елена", Kind: "person"}}}))
	const text = "Елена lives in Porto."
	if cs := claims.Extract(text); len(cs) != 1 || cs[0].Subject != "Елена" || cs[0].Relation != memory.RelLivesIn {
		t.Fatalf("the rules read %q as %+v", text, cs)
	}
	has := func() bool {
		l := must[memory.Lookup](t)(s.Candidates(ctx, "", text, memory.DefaultCandidates))
		return slices.ContainsFunc(l.Candidates, func(c memory.Candidate) bool {
			return c.Fact.ID == lisbon.ID && c.Relation == memory.RelLivesIn
		})
	}
	if has() {
		t.Fatal("Lena's home is a candidate for Елена's before any merge")
	}
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Елена", "Lena", "the same friend"))
	if !has() {
		t.Error("after the merge, Lena's home is not a candidate for Елена's")
	}
}

// A peer by relation says whether it claims another object than the text
// looked up: a second value (Porto after Lisbon) or the same one again.
func TestCandidatesRelationDiffers(t *testing.T) {
	s, _ := open(t, newClock("2026-01-10"), nil)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My flat in Lisbon.",
		Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: "Lisbon", Kind: "city"}}}))
	for text, differs := range map[string]bool{"I'm based in Porto now": true, "I'm based in Lisbon now": false} {
		if got := memory.Claim(claimsOf(text)); got.Relation != memory.RelLivesIn {
			t.Fatalf("the rules find no lives_in in %q: %+v", text, got)
		}
		l := must[memory.Lookup](t)(s.Candidates(ctx, "", text, 5))
		if len(l.Candidates) != 1 || l.Candidates[0].Relation != memory.RelLivesIn || l.Candidates[0].RelationDiffers != differs {
			t.Errorf("candidates for %q: %+v, want RelationDiffers %v", text, l.Candidates, differs)
		}
	}
}
