package memory_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// searchStore holds one user's small life: a move (Porto superseded by
// Lisbon), a sister named in several facts, a knee, and facts of May 2026.
type searchStore struct {
	s                                        *memory.Store
	c                                        *clock
	porto, lisbon, anna, annaJazz, knee, may memory.Fact
}

func newSearchStore(t testing.TB) *searchStore {
	t.Helper()
	ctx := context.Background()
	c := newClock("2026-01-10")
	s, _ := open(t, c, nil)
	add := func(text string, from string) memory.Fact {
		n := memory.Note{User: "u", Text: text}
		if from != "" {
			n.EventFrom = date(from)
		}
		return must[memory.Fact](t)(s.Add(ctx, n))
	}
	st := &searchStore{s: s, c: c}
	st.porto = add("I live in Porto, in a flat near the river.", "")
	for _, text := range []string{
		"I told my manager I want to work remotely on Fridays.",
		"My favourite food is ramen.",
		"I remind myself to drink water with an app.",
		"We have a cat called Mango.",
	} {
		add(text, "")
	}
	st.anna = add("My sister Anna lives in Kazan.", "")
	st.knee = add("My left knee hurts after long runs.", "")
	c.set("2026-03-01")
	st.annaJazz = add("Anna loves jazz and plays the saxophone.", "")
	c.set("2026-06-20")
	st.may = add("I started a pottery course at the community centre.", "2026-05-12")
	c.set("2026-08-01")
	st.lisbon = must[memory.Fact](t)(s.Supersede(ctx, "u", st.porto.ID, memory.Note{User: "u", Text: "I moved to Lisbon for a new job."}))
	c.set("2026-09-01")
	return st
}

func hitIDs(r memory.SearchResult) []uint64 {
	var out []uint64
	for _, h := range r.Hits {
		out = append(out, h.Fact.ID)
	}
	return out
}

func TestSearchDropsTheWordsOfAsking(t *testing.T) {
	st := newSearchStore(t)
	r := must[memory.SearchResult](t)(st.s.Search(context.Background(), "u", "Remind me what I told you about my knee", nil))
	if len(r.Hits) == 0 || r.Hits[0].Fact.ID != st.knee.ID {
		t.Fatalf("hits %v, want the knee (%d) first: remind and told are words of asking", hitIDs(r), st.knee.ID)
	}
	if !slices.ContainsFunc(r.Hits[0].Ranks, func(x memory.RankOf) bool { return x.Ranker == memory.RankText && x.Rank == 1 }) {
		t.Errorf("ranks %v, want the text ranker's first", r.Hits[0].Ranks)
	}
	// A question of only function and asking words finds nothing, not
	// everything.
	for _, q := range []string{"what do you know?", "Что ты знаешь?", "remind me of anything"} {
		r := must[memory.SearchResult](t)(st.s.Search(context.Background(), "u", q, nil))
		if len(r.Hits) != 0 {
			t.Errorf("Search(%q) = %v, want nothing", q, hitIDs(r))
		}
	}
}

func TestSearchShowsOnlyCurrentFactsUnlessHistoryIsAsked(t *testing.T) {
	st := newSearchStore(t)
	ctx := context.Background()
	q := "where do I live?"
	r := must[memory.SearchResult](t)(st.s.Search(ctx, "u", q, nil))
	if slices.Contains(hitIDs(r), st.porto.ID) {
		t.Errorf("hits %v hold Porto (%d), superseded, without History", hitIDs(r), st.porto.ID)
	}
	r = must[memory.SearchResult](t)(st.s.Search(ctx, "u", "where did I live before, in Porto?", &memory.SearchOptions{History: true}))
	if len(r.Hits) == 0 || r.Hits[0].Fact.ID != st.porto.ID || r.Hits[0].Current {
		t.Fatalf("hits %v, want Porto (%d) first, not current", hitIDs(r), st.porto.ID)
	}
	// As the store knew it in July, Porto was current and Lisbon unknown.
	r = must[memory.SearchResult](t)(st.s.Search(ctx, "u", "Porto Lisbon flat", &memory.SearchOptions{Known: date("2026-07-01")}))
	if got := hitIDs(r); !slices.Contains(got, st.porto.ID) || slices.Contains(got, st.lisbon.ID) {
		t.Errorf("known July: hits %v, want Porto (%d) and not Lisbon (%d)", got, st.porto.ID, st.lisbon.ID)
	}
	// True in the world in February: Anna's jazz was told in March (its
	// start is its record time), so the event filter leaves it out.
	r = must[memory.SearchResult](t)(st.s.Search(ctx, "u", "Anna", &memory.SearchOptions{Event: date("2026-02-01")}))
	if got := hitIDs(r); !slices.Contains(got, st.anna.ID) || slices.Contains(got, st.annaJazz.ID) {
		t.Errorf("event February: hits %v, want %d and not %d", got, st.anna.ID, st.annaJazz.ID)
	}
}

func TestSearchReachesAnEntityThroughItsMergedName(t *testing.T) {
	st := newSearchStore(t)
	ctx := context.Background()
	// Annie is no name of any claim: only the merge leads the graph to
	// Anna's facts.
	graphOnly := &memory.SearchOptions{Rankers: []memory.Ranker{memory.RankGraph}}
	if r := must[memory.SearchResult](t)(st.s.Search(ctx, "u", "Tell me about Annie", graphOnly)); len(r.Hits) != 0 {
		t.Fatalf("before the merge: hits %v, want none", hitIDs(r))
	}
	must[memory.Fact](t)(st.s.Add(ctx, memory.Note{User: "u", Text: "My sister Annie is a nurse."}))
	must[memory.Merge](t)(st.s.MergeEntities(ctx, "u", "Annie", "Anna", "the same sister"))
	r := must[memory.SearchResult](t)(st.s.Search(ctx, "u", "Tell me about Annie", graphOnly))
	got := hitIDs(r)
	if !slices.Contains(got, st.anna.ID) || !slices.Contains(got, st.annaJazz.ID) {
		t.Fatalf("graph hits %v (entities %v), want Anna's facts %d and %d", got, r.Entities, st.anna.ID, st.annaJazz.ID)
	}
	if !slices.Contains(r.Entities, "Anna") {
		t.Errorf("entities %v, want Anna", r.Entities)
	}
	for _, h := range r.Hits {
		if h.Fact.ID == st.anna.ID && !slices.Contains(h.Entities, "Anna") {
			t.Errorf("hit %d: entities %v, want Anna", h.Fact.ID, h.Entities)
		}
	}
}

func TestSearchPrefersThePeriodTheQuestionNames(t *testing.T) {
	st := newSearchStore(t)
	r := must[memory.SearchResult](t)(st.s.Search(context.Background(), "u", "What did I begin in May 2026?", nil))
	if !r.PeriodFrom.Equal(date("2026-05-01")) || !r.PeriodUntil.Equal(date("2026-06-01")) {
		t.Errorf("period %v..%v, want May 2026", r.PeriodFrom, r.PeriodUntil)
	}
	if len(r.Hits) == 0 || r.Hits[0].Fact.ID != st.may.ID || !r.Hits[0].InPeriod {
		t.Fatalf("hits %v, want the pottery course (%d), begun in May, first", hitIDs(r), st.may.ID)
	}
	// Without the time ranker nothing shares a word with the question.
	r = must[memory.SearchResult](t)(st.s.Search(context.Background(), "u", "What did I begin in May 2026?",
		&memory.SearchOptions{Rankers: []memory.Ranker{memory.RankText}}))
	if slices.Contains(hitIDs(r), st.may.ID) {
		t.Errorf("text alone: hits %v hold %d", hitIDs(r), st.may.ID)
	}
}

func TestSearchRefusesBadInput(t *testing.T) {
	st := newSearchStore(t)
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		query string
		opts  *memory.SearchOptions
		want  error
	}{
		{"empty", "  ", nil, memory.ErrEmpty},
		{"too long", strings.Repeat("a", memory.MaxQueryRunes+1), nil, memory.ErrTooLong},
		{"invalid UTF-8", "knee \xff", nil, memory.ErrInvalidUTF8},
		{"control", "knee\x00", nil, memory.ErrControlChar},
		{"k negative", "knee", &memory.SearchOptions{K: -1}, memory.ErrInvalidK},
		{"k huge", "knee", &memory.SearchOptions{K: memory.MaxCandidates + 1}, memory.ErrInvalidK},
		{"event out of range", "knee", &memory.SearchOptions{Event: time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC)}, memory.ErrInvalidTime},
		{"known out of range", "knee", &memory.SearchOptions{Known: time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)}, memory.ErrInvalidTime},
		{"unknown ranker", "knee", &memory.SearchOptions{Rankers: []memory.Ranker{"bm99"}}, memory.ErrInvalidSearch},
	} {
		if _, err := st.s.Search(ctx, "u", c.query, c.opts); !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := st.s.Search(ctx, "bad\x00user", "knee", nil); !errors.Is(err, memory.ErrInvalidUser) {
		t.Errorf("bad user: err %v, want ErrInvalidUser", err)
	}
	// k bounds the hits; an unknown user has none.
	if r := must[memory.SearchResult](t)(st.s.Search(ctx, "u", "I", &memory.SearchOptions{K: 1})); len(r.Hits) > 1 {
		t.Errorf("k 1: %d hits", len(r.Hits))
	}
	if r := must[memory.SearchResult](t)(st.s.Search(ctx, "nobody", "knee", nil)); len(r.Hits) != 0 {
		t.Errorf("unknown user: hits %v", hitIDs(r))
	}
}

func TestSearchIsUnchangedByItsOwnCalls(t *testing.T) {
	st := newSearchStore(t)
	before := snapshot(t, st.s)
	for range 3 {
		must[memory.SearchResult](t)(st.s.Search(context.Background(), "u", "Anna jazz knee Lisbon in May", &memory.SearchOptions{History: true}))
	}
	if after := snapshot(t, st.s); after != before {
		t.Error("a search changed the store")
	}
}

func TestSearchFollowsRolesAndRelationsThroughTheGraph(t *testing.T) {
	st := newSearchStore(t)
	ctx := context.Background()
	graphOnly := &memory.SearchOptions{Rankers: []memory.Ranker{memory.RankGraph}, History: true}
	// "sister" is Anna by the sibling claim of "My sister Anna lives in
	// Kazan": Anna's jazz, which says nothing of a sister, is reached.
	r := must[memory.SearchResult](t)(st.s.Search(ctx, "u", "What does my sister enjoy?", graphOnly))
	if !slices.Contains(hitIDs(r), st.annaJazz.ID) || !slices.Contains(r.Entities, "Anna") {
		t.Errorf("sister: hits %v, entities %v, want %d through Anna", hitIDs(r), r.Entities, st.annaJazz.ID)
	}
	// "live" says lives_in: the user's facts claiming it, the superseded
	// Porto with History, and not the sister's Kazan, which is hers.
	r = must[memory.SearchResult](t)(st.s.Search(ctx, "u", "Where have I lived?", graphOnly))
	got := hitIDs(r)
	if !slices.Contains(got, st.porto.ID) || !slices.Contains(got, st.lisbon.ID) || slices.Contains(got, st.anna.ID) {
		t.Errorf("lived: hits %v, want Porto %d and Lisbon %d, not Anna's %d", got, st.porto.ID, st.lisbon.ID, st.anna.ID)
	}
	r = must[memory.SearchResult](t)(st.s.Search(ctx, "u", "Where does my sister live?", graphOnly))
	if got := hitIDs(r); len(got) == 0 || got[0] != st.anna.ID || slices.Contains(got, st.lisbon.ID) {
		t.Errorf("sister lives: hits %v, want Anna's Kazan %d first and not the user's Lisbon %d", got, st.anna.ID, st.lisbon.ID)
	}
}

// With an embedder, the similarity ranker finds a fact that shares no
// word, stem or topic with the question; without it the search says so
// and answers from the other rankers.
func TestSearchWithEmbeddings(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Embed = conceptEmbed
	s := semanticStore(t, srv)
	target := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My hobby is florp."}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I keep a zint at home."}))
	r := must[memory.SearchResult](t)(s.Search(ctx, "", "Do I ever quab?", nil))
	if r.Fallback != "" || len(r.Hits) == 0 || r.Hits[0].Fact.ID != target.ID || r.Hits[0].Similarity < 0.9 {
		t.Fatalf("search %+v", r)
	}
	if !slices.ContainsFunc(r.Hits[0].Ranks, func(x memory.RankOf) bool { return x.Ranker == memory.RankSimilarity }) {
		t.Errorf("ranks %v: want the similarity ranker's", r.Hits[0].Ranks)
	}
	srv.SetFault(ollamatest.Error500)
	r = must[memory.SearchResult](t)(s.Search(ctx, "", "my hobby", nil))
	if r.Fallback == "" || len(r.Hits) == 0 || r.Hits[0].Fact.ID != target.ID {
		t.Errorf("embedder down: %+v, want the words' hit and a fallback", r)
	}
}

func TestSearchStates(t *testing.T) {
	st := newSearchStore(t)
	ctx := context.Background()
	wrong := must[memory.Fact](t)(st.s.Add(ctx, memory.Note{User: "u", Text: "I live in Faro."}))
	must[memory.Fact](t)(st.s.Invalidate(ctx, "u", wrong.ID, memory.Change{Reason: "misheard"}))
	q := "Where do I live, Porto, Lisbon or Faro?"
	for _, c := range []struct {
		name string
		opts *memory.SearchOptions
		want []uint64 // exactly these among the hits of the three
	}{
		{"default: current", nil, []uint64{st.lisbon.ID}},
		{"retracted only", &memory.SearchOptions{States: []memory.State{memory.Retracted}}, []uint64{wrong.ID}},
		{"superseded only", &memory.SearchOptions{States: []memory.State{memory.Superseded}}, []uint64{st.porto.ID}},
		{"history", &memory.SearchOptions{History: true}, []uint64{st.porto.ID, st.lisbon.ID, wrong.ID}},
	} {
		r := must[memory.SearchResult](t)(st.s.Search(ctx, "u", q, c.opts))
		var got []uint64
		for _, id := range hitIDs(r) {
			if id == st.porto.ID || id == st.lisbon.ID || id == wrong.ID {
				got = append(got, id)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if _, err := st.s.Search(ctx, "u", q, &memory.SearchOptions{States: []memory.State{9}}); !errors.Is(err, memory.ErrInvalidSearch) {
		t.Errorf("state 9: %v, want ErrInvalidSearch", err)
	}
}
