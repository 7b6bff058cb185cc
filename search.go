package memory

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
)

// DefaultSearchResults is how many facts Search returns when
// SearchOptions.K is 0.
const DefaultSearchResults = 10

// MaxQueryRunes is the longest query Search takes: a message being
// answered may be longer than a fact.
const MaxQueryRunes = 4000

// Ranker is one independent ranking Search fuses.
type Ranker string

const (
	// RankText ranks by the question's words, stems, roots, synonym sets
	// and topics (the lookup mode's terms, without the words of asking):
	// BM25 in the candidate index for current facts, the same terms'
	// weights for the versions no longer current that the search may
	// return.
	RankText Ranker = "text"
	// RankGraph ranks the facts behind the graph's edges of the entities
	// the question names (a merged name reaches its entity's edges).
	RankGraph Ranker = "graph"
	// RankTime ranks the facts that began within the period the question
	// names ("in May 2026", "last summer"), and, among the facts the other
	// rankers found, those true at some time in it.
	RankTime Ranker = "time"
	// RankRecency orders the facts the other rankers found by how lately
	// they were told, confirmed or began, as Prompt's freshness does. It
	// finds nothing by itself.
	RankRecency Ranker = "recency"
	// RankSimilarity ranks by the embeddings' cosine similarity
	// (LookupSemantic with an embedder).
	RankSimilarity Ranker = "similarity"
)

// Rankers are every ranker, in the order hits list them.
var rankers = []Ranker{RankText, RankGraph, RankTime, RankSimilarity, RankRecency}

// Rankers returns every ranker Search knows.
func Rankers() []Ranker { return slices.Clone(rankers) }

// ParseRanker checks the name of a ranker.
func ParseRanker(s string) (Ranker, error) {
	if r := Ranker(s); slices.Contains(rankers, r) {
		return r, nil
	}
	return "", fmt.Errorf("%w: ranker %q, want one of %v", ErrInvalidSearch, s, rankers)
}

// SearchOptions shape Search; nil means the defaults: the
// DefaultSearchResults best of the facts current now, every ranker.
type SearchOptions struct {
	// K is how many facts to return at most, 1..MaxCandidates; 0 means
	// DefaultSearchResults.
	K int
	// Event, when set, keeps the facts true in the world then; Known asks
	// the store as it knew things then (record time): "what did I believe
	// on 1 August about July?" is Event July, Known 1 August. Zero means
	// no event filter and now.
	Event, Known time.Time
	// History adds the versions no longer current as of Known: superseded
	// ("where did I live before Munich?") and retracted ones.
	History bool
	// States, when set, are the states (as of Known) a hit may be in,
	// History adding to them; nil means Current, and with Event Current
	// and Superseded (what was true then, as At answers).
	States []State
	// Rankers are the rankers to fuse; nil means all. For measuring each
	// one's part.
	Rankers []Ranker
}

// RankOf is where one ranker placed a hit, from 1.
type RankOf struct {
	Ranker Ranker
	Rank   int
}

// SearchHit is a fact Search found, with why.
type SearchHit struct {
	Fact Fact
	// Score is the fused score: the sum over the rankers that found the
	// fact of its score there, the best of each scaled to 1, weighted.
	Score float64
	// Ranks are the rankers that placed it, each with its rank.
	Ranks []RankOf
	// Terms and Topics are what the question and the fact share.
	Terms  []Term
	Topics []string
	// Entities are the entities the question names that the fact's claims
	// are about, as the graph shows them.
	Entities []string
	// InPeriod says the fact began, or was true, within the period the
	// question names.
	InPeriod bool
	// Similarity is the embeddings' cosine similarity, 0 when unknown.
	Similarity float64
	// Current says the fact is current now; false for a version History
	// added.
	Current bool
}

// SearchResult is what Search found.
type SearchResult struct {
	Hits []SearchHit
	// Entities are the entities of the graph the question names.
	Entities []string
	// PeriodFrom and PeriodUntil (exclusive) are the period the question
	// names, zero when it names none.
	PeriodFrom, PeriodUntil time.Time
	// Mode is the lookup mode of the text ranker; Fallback says why the
	// search did less than its mode asks (an embedder unreachable), ""
	// when it did not.
	Mode     LookupMode
	Fallback string
}

// weight is each ranker's weight in the fusion. Recency only orders what
// the others found, so it weighs least: on the development questions any
// more of it cost recall (bench search), so it breaks ties.
func weight(r Ranker) float64 {
	switch r {
	case RankText, RankSimilarity:
		return 1
	case RankGraph, RankTime:
		return 0.5
	}
	return 0.02
}

// rankDepth is how deep each ranker's list goes.
const rankDepth = 60

// Search returns the facts of user that bear on query, a question or a
// message, best first: what an assistant asks the memory before it
// answers. Unlike Candidates (the facts a new fact may update), it drops
// the words of asking ("remind me", "what did I tell you about"), reaches
// the facts of the entities the question names through the graph, prefers
// facts of the period it names, and can look at the past (opts.Event,
// opts.Known, opts.History). Independent rankers (Ranker) are fused by
// their scaled scores. A query of only function words finds nothing.
//
// The query is refused with ErrEmpty, ErrTooLong (over MaxQueryRunes),
// ErrInvalidUTF8 or ErrControlChar; K outside 0..MaxCandidates with
// ErrInvalidK; times outside the years 1900 to 2199 with ErrInvalidTime;
// an unknown ranker with ErrInvalidSearch.
func (s *Store) Search(ctx context.Context, user, query string, opts *SearchOptions) (SearchResult, error) {
	var o SearchOptions
	if opts != nil {
		o = *opts
	}
	out := SearchResult{Mode: s.mode}
	q, err := validQuery(query)
	if err != nil {
		return out, err
	}
	if o.K == 0 {
		o.K = DefaultSearchResults
	}
	if o.K < 1 || o.K > MaxCandidates {
		return out, fmt.Errorf("%w: k = %d, want 1..%d", ErrInvalidK, o.K, MaxCandidates)
	}
	if err := validTime("event", o.Event); err != nil {
		return out, err
	}
	if err := validTime("known", o.Known); err != nil {
		return out, err
	}
	for _, st := range o.States {
		if st != Current && st != Superseded && st != Retracted {
			return out, fmt.Errorf("%w: state %d", ErrInvalidSearch, st)
		}
	}
	use := map[Ranker]bool{}
	pick := o.Rankers
	if pick == nil {
		pick = rankers
	}
	for _, r := range pick {
		if _, err := ParseRanker(string(r)); err != nil {
			return out, err
		}
		use[r] = true
	}
	if err := validUser(user); err != nil {
		return out, err
	}
	sr := searcher{s: s, o: o, use: use, user: user, now: s.now()}
	return sr.run(ctx, q)
}

// validQuery checks a query as a fact's text is checked, with its own
// bound, and returns it trimmed.
func validQuery(q string) (string, error) { return checkText("query", q, MaxQueryRunes, false) }

// searcher is one Search under way.
type searcher struct {
	s    *Store
	o    SearchOptions
	use  map[Ranker]bool
	user string
	now  int64

	tl  timeline
	vis map[uint64]int // the facts the search may return: id -> index in tl
	an  *index.Analyzer
	q   index.Terms
	gen uint64

	lists map[Ranker][]ranked // each ranker's facts, best first
	// past is the text ranker's order of the versions no longer current,
	// fused as a list of its own.
	past     []ranked
	similar  map[uint64]float64
	entities map[uint64][]string
	inPeriod map[uint64]bool
}

func (sr *searcher) run(ctx context.Context, query string) (SearchResult, error) {
	s := sr.s
	out := SearchResult{Mode: s.mode}
	// Before the store is read: the analyses a search keeps must not
	// outlive a Delete that commits meanwhile (see live.Index.Terms).
	sr.gen = s.live.Generation()
	var err error
	if sr.tl, err = s.userTimeline(ctx, sr.user); err != nil {
		return out, err
	}
	sr.visible()
	if sr.an, err = s.live.Analyzer(); err != nil {
		return out, fromLive(err)
	}
	words := sr.an.Question(query)
	sr.q = index.Union(words)
	sr.lists = map[Ranker][]ranked{}
	if len(sr.vis) == 0 {
		return out, nil
	}
	if err := sr.text(ctx, query, words, &out); err != nil {
		return out, err
	}
	if sr.use[RankGraph] {
		if err := sr.graph(ctx, words, &out); err != nil {
			return out, err
		}
	}
	if sr.use[RankTime] {
		sr.period(query, &out)
	}
	if sr.use[RankRecency] {
		sr.recency()
	}
	out.Hits = sr.fuse()
	return out, nil
}

// visible gathers the facts the options let the search return: told by
// Known, in a state (as of Known) the options allow, and with Event, true
// then.
func (sr *searcher) visible() {
	k := orNow(sr.o.Known, sr.now)
	e := orNow(sr.o.Event, sr.now)
	allowed := map[State]bool{}
	switch {
	case sr.o.States != nil:
		for _, st := range sr.o.States {
			allowed[st] = true
		}
	case !sr.o.Event.IsZero():
		// What was true then, as At answers: a fact superseded since
		// was true until its successor began.
		allowed[Current], allowed[Superseded] = true, true
	default:
		allowed[Current] = true
	}
	if sr.o.History {
		allowed[Superseded], allowed[Retracted] = true, true
	}
	sr.vis = make(map[uint64]int, len(sr.tl))
	for i := range sr.tl {
		r, evs := &sr.tl[i].rec, sr.tl[i].evs
		if r.RecordedAt > k {
			continue
		}
		p := spanAt(r, evs, k)
		st := Current
		switch {
		case !p.visible:
			st = Retracted
		case p.superseded:
			st = Superseded
		}
		// A retracted fact was never true: an event time filters the
		// others only.
		if allowed[st] && (sr.o.Event.IsZero() || st == Retracted || p.contains(e)) {
			sr.vis[r.ID] = i
		}
	}
}

// text runs the text ranker: the candidate index for current facts, and
// the question's terms over the visible versions it does not hold; with
// an embedder, the similarity ranker too.
func (sr *searcher) text(ctx context.Context, query string, words []index.Terms, out *SearchResult) error {
	s := sr.s
	var qv []float32
	if sr.use[RankSimilarity] && s.mode == LookupSemantic {
		qv, out.Fallback = s.embedQuery(ctx, query)
	}
	if !sr.use[RankText] && qv == nil {
		return nil
	}
	want := max(rankDepth, 3*sr.o.K)
	var hits, near []index.Hit
	err := s.searchIndex(ctx, sr.user, func(ix *index.Index) (err error) {
		if sr.use[RankText] && len(words) > 0 {
			if hits, err = ix.SearchWords(ctx, sr.user, words, want); err != nil {
				return err
			}
		}
		if qv != nil {
			near, err = ix.Nearest(ctx, sr.user, qv, want, s.userVectors)
		}
		return err
	})
	if err != nil {
		return fromLive(err)
	}
	for _, h := range hits {
		if i, ok := sr.vis[h.ID]; ok && sr.tl[i].rec.Current() {
			sr.lists[RankText] = append(sr.lists[RankText], ranked{h.ID, h.Score})
		}
	}
	if len(near) > 0 {
		sr.similar = map[uint64]float64{}
		for _, h := range near {
			if i, ok := sr.vis[h.ID]; ok && sr.tl[i].rec.Current() {
				sr.lists[RankSimilarity] = append(sr.lists[RankSimilarity], ranked{h.ID, h.Score})
				sr.similar[h.ID] = h.Score
			}
		}
	}
	if !sr.use[RankText] || sr.q.Empty() {
		return nil
	}
	// The versions the index does not hold: few beside the current ones.
	var past []ranked
	for id, i := range sr.vis {
		r := &sr.tl[i].rec
		if r.Current() {
			continue
		}
		if w := termWeight(index.Shared(sr.q, sr.terms(r))); w > 0 {
			past = append(past, ranked{id, w})
		}
	}
	sortRanked(past)
	sr.past = past[:min(len(past), rankDepth)]
	return nil
}

// termWeight scores what a question shares with a fact the index does
// not hold, as the index weighs its fields: a word or synonym set over a
// root over a topic.
func termWeight(w index.Why) float64 {
	x := 0.3 * float64(len(w.Topics))
	for _, t := range w.Terms {
		if t.Kind == TermRoot {
			x += 0.5
		} else {
			x++
		}
	}
	return x
}

// terms is the analysis of a fact's text, from the kept analyses.
func (sr *searcher) terms(r *kv.Record) index.Terms {
	return sr.s.live.Terms(sr.an, index.DocKey{User: r.User, ID: r.ID}, r.Text, sr.gen)
}

// recency runs the recency ranker over what the others found: each
// fact's freshness, as Prompt reckons it, halving every DefaultHalfLife
// from the latest of when it was told, last confirmed, or began.
func (sr *searcher) recency() {
	var l []ranked
	for _, id := range sr.found() {
		e := &sr.tl[sr.vis[id]]
		t := e.rec.RecordedAt
		if c := lastConfirmed(e.evs); c != 0 {
			t = max(t, c)
		}
		if e.rec.HasFrom && e.rec.EventFrom <= sr.now {
			t = max(t, e.rec.EventFrom)
		}
		l = append(l, ranked{id, math.Exp2(-float64(max(sr.now-t, 0)) / float64(DefaultHalfLife))})
	}
	sortRanked(l)
	sr.lists[RankRecency] = l
}

// found is every fact some finding ranker placed, in id order.
func (sr *searcher) found() []uint64 {
	seen := map[uint64]bool{}
	var ids []uint64
	add := func(l []ranked) {
		for _, x := range l {
			if !seen[x.id] {
				seen[x.id] = true
				ids = append(ids, x.id)
			}
		}
	}
	for _, r := range rankers {
		if r != RankRecency {
			add(sr.lists[r])
		}
	}
	add(sr.past)
	slices.Sort(ids)
	return ids
}

// fuse sums each fact's weighted scores, each ranker's scaled so that its
// best is 1 (recency's is a freshness, 0..1, already), and builds the k
// best hits. Scores, not only ranks, are fused: a fact sharing the
// question's rare words outranks one sharing a topic by more than one
// place.
func (sr *searcher) fuse() []SearchHit {
	score := map[uint64]float64{}
	ranks := map[uint64][]RankOf{}
	add := func(r Ranker, l []ranked) {
		best := 1.0
		if r != RankRecency && len(l) > 0 && l[0].score > 0 {
			best = l[0].score
		}
		for i, x := range l {
			score[x.id] += weight(r) * x.score / best
			ranks[x.id] = append(ranks[x.id], RankOf{r, i + 1})
		}
	}
	for _, r := range rankers {
		add(r, sr.lists[r])
	}
	add(RankText, sr.past)
	ids := make([]uint64, 0, len(score))
	for id := range score {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b uint64) int { return cmp.Or(cmp.Compare(score[b], score[a]), cmp.Compare(b, a)) })
	ids = ids[:min(len(ids), sr.o.K)]
	hits := make([]SearchHit, 0, len(ids))
	for _, id := range ids {
		e := &sr.tl[sr.vis[id]]
		why := index.Shared(sr.q, sr.terms(&e.rec))
		hits = append(hits, SearchHit{
			Fact: factWithLog(&e.rec, e.evs), Score: score[id], Ranks: ranks[id],
			Terms: why.Terms, Topics: why.Topics, Entities: sr.entities[id], InPeriod: sr.inPeriod[id],
			Similarity: sr.similar[id], Current: e.rec.Current(),
		})
	}
	return hits
}

// ranked is a fact a ranker placed, with its score there.
type ranked struct {
	id    uint64
	score float64
}

// sortRanked orders l best first, the newer fact first on a tie.
func sortRanked(l []ranked) {
	slices.SortFunc(l, func(a, b ranked) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.id, a.id)) })
}
