package memory_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Candidates are current facts of the same user only, and the index
// follows every change of state.
func TestCandidatesFollowState(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{Lookup: memory.LookupStems})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at Northwind Bank."}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "bob", Text: "I work at Northwind Bank."}))
	q := "I'm working at a different bank now"
	if got := candidateIDs(t, s, "", q); !slices.Equal(got, []uint64{a.ID}) {
		t.Fatalf("candidates %v, want [%d]", got, a.ID)
	}
	c.set("2026-02-01")
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I work at Contoso Bank."}))
	if got := candidateIDs(t, s, "", q); !slices.Equal(got, []uint64{b.ID}) {
		t.Errorf("after supersede %v, want [%d]", got, b.ID)
	}
	must[memory.Fact](t)(s.Invalidate(ctx, "", b.ID, memory.Change{}))
	if got := candidateIDs(t, s, "", q); len(got) != 0 {
		t.Errorf("after invalidate %v", got)
	}
	must[memory.Fact](t)(s.Restore(ctx, "", a.ID, memory.Change{}))
	if got := candidateIDs(t, s, "", q); !slices.Equal(got, []uint64{a.ID}) {
		t.Errorf("after restore %v", got)
	}
	must[[]uint64](t)(s.Delete(ctx, "", a.ID, nil))
	if got := candidateIDs(t, s, "", q); len(got) != 0 {
		t.Errorf("after delete %v", got)
	}
	if got := candidateIDs(t, s, "bob", q); len(got) != 1 {
		t.Errorf("bob's candidates %v", got)
	}
}

func TestCandidatesExplain(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), &memory.Options{Lookup: memory.LookupStems})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I take piano lessons every Saturday."}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Oslo."}))
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "The pianist who taught me on Saturdays retired.", 5))
	if l.Mode != memory.LookupStems || len(l.Candidates) != 1 {
		t.Fatalf("lookup %+v", l)
	}
	terms := strings.Join(termStrings(l.Candidates[0].Terms), " ")
	if !strings.Contains(terms, "saturday") || !strings.Contains(terms, "pian…") || l.Candidates[0].Score <= 0 {
		t.Errorf("evidence %+v", l.Candidates[0])
	}
}

// TestCandidatesTermKinds checks that a candidate's terms say their kind,
// readable with package memory alone, and show as the marked strings.
func TestCandidatesTermKinds(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), &memory.Options{Lookup: memory.LookupTopics})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Mother was a pianist; Saturdays were hers."}))
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "My mum gave me piano lessons every Saturday.", 5))
	if len(l.Candidates) != 1 {
		t.Fatalf("lookup %+v", l)
	}
	c := l.Candidates[0]
	want := []memory.Term{{Text: "saturday", Kind: memory.TermWord}, {Text: "mother", Kind: memory.TermSynonym},
		{Text: "piano", Kind: memory.TermSynonym}, {Text: "pian", Kind: memory.TermRoot}}
	if !slices.Equal(c.Terms, want) {
		t.Errorf("terms %v, want %v", c.Terms, want)
	}
	if got := strings.Join(termStrings(c.Terms), ","); got != "saturday,≈mother,≈piano,pian…" {
		t.Errorf("shown as %q", got)
	}
}

// termStrings renders terms as they are shown.
func termStrings(ts []memory.Term) []string {
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		out = append(out, t.String())
	}
	return out
}

func TestCandidatesBadInput(t *testing.T) {
	s, _ := open(t, nil, nil)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "something about coffee"}))
	for _, k := range []int{0, -1, 101} {
		if _, err := s.Candidates(ctx, "", "coffee", k); !errors.Is(err, memory.ErrInvalidK) {
			t.Errorf("k=%d: %v", k, err)
		}
	}
	for _, text := range []string{"", "   ", "?!", "12 34", "\xff\xfe"} {
		l, err := s.Candidates(ctx, "", text, 12)
		if err != nil || len(l.Candidates) != 0 {
			t.Errorf("%q: %+v, %v", text, l, err)
		}
	}
	long := strings.Repeat("coffee tea milk sugar ", 50000)
	if l, err := s.Candidates(ctx, "", long, 12); err != nil || len(l.Candidates) != 1 {
		t.Errorf("long text: %+v, %v", l, err)
	}
}

// Words shared directly rank before a topic alone.
func TestDirectMatchesBeforeTopics(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), &memory.Options{Lookup: memory.LookupTopics})
	topicOnly := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I play the cello."}))
	direct := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "The instrument shop closed."}))
	got := candidateIDs(t, s, "", "These days my instrument is the violin.")
	if len(got) != 2 || got[0] != direct.ID || got[1] != topicOnly.ID {
		t.Errorf("order %v, want [%d %d]", got, direct.ID, topicOnly.ID)
	}
}

// A hard delete leaves no term of the text in the index's files either.
func TestDeleteScrubsIndex(t *testing.T) {
	dir := t.TempDir()
	s, err := memory.Open(filepath.Join(dir, "m.db"), 0, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Quixotically zanzibarian marmalade"}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "ordinary marmalade"}))
	if got := candidateIDs(t, s, "", "zanzibarian"); len(got) != 1 {
		t.Fatalf("candidates %v", got)
	}
	if !dirContains(t, dir, "zanzibarian") {
		t.Fatal("test is void: the term never reached the index files")
	}
	must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
	if dirContains(t, dir, "zanzibarian") {
		t.Error("a term of the deleted fact is still in the store's files")
	}
	if got := candidateIDs(t, s, "", "marmalade"); len(got) != 1 {
		t.Errorf("after delete and rebuild: %v", got)
	}
}

// One default lookup, topics, for every caller: a store opened without
// options finds by topic what keywords4 cannot.
func TestDefaultLookupIsTopics(t *testing.T) {
	s, _ := open(t, nil, nil)
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I take piano lessons every Saturday."}))
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "The pianist retired.", memory.DefaultCandidates))
	if l.Mode != memory.LookupTopics || len(l.Candidates) != 1 || l.Candidates[0].Fact.ID != f.ID {
		t.Errorf("default lookup: %+v", l)
	}
	k := must[*memory.Store](t)(memory.Open(t.TempDir()+"/k.db", 0, &memory.Options{NoSync: true, Lookup: memory.LookupKeywords4}))
	defer k.Close()
	must[memory.Fact](t)(k.Add(ctx, memory.Note{Text: "I take piano lessons every Saturday."}))
	if l := must[memory.Lookup](t)(k.Candidates(ctx, "", "The pianist retired.", memory.DefaultCandidates)); l.Mode != memory.LookupKeywords4 || len(l.Candidates) != 0 {
		t.Errorf("keywords4 still selectable: %+v", l)
	}
}
