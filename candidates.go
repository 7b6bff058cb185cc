package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/internal/term"
	"github.com/palimpsest-mem/memory/kv"
)

// LookupMode is how Candidates finds the facts a new one may update or
// contradict.
type LookupMode = index.Mode

const (
	// LookupKeywords4 matches lowercased words of 4+ letters, unstemmed:
	// the original behaviour, fast but blind to inflection.
	LookupKeywords4 = index.Keywords4
	// LookupStems matches English and Russian stems and stem roots, without
	// stop words.
	LookupStems = index.Stems
	// LookupTopics adds lexicons of everyday personal topics to
	// LookupStems. It is the default: of the word lookups it finds the
	// most of the facts a new one updates.
	LookupTopics = index.Topics
)

// ParseLookupMode checks the name of a lookup mode.
func ParseLookupMode(s string) (LookupMode, error) { return index.ParseMode(s) }

// DefaultCandidates is how many candidates reconciliation considers.
const DefaultCandidates = 12

// MaxCandidates is the largest k Candidates accepts.
const MaxCandidates = 100

// Term is a term a candidate shares with the text looked up: Text is the
// word, stem, root or synonym set's name, unmarked, and Kind says which
// (TermWord, TermRoot or TermSynonym). Its String, and its form in JSON, is
// what people see: a root ends in "…" ("pian…"), a synonym set begins with
// "≈" ("≈mother"), a word is itself; UnmarshalText reads that form back.
type Term = term.Term

// TermKind says what a shared term is.
type TermKind = term.Kind

const (
	// TermWord is a word (LookupKeywords4) or a stem both texts hold.
	TermWord = term.Word
	// TermRoot is a stem prefix both hold, which joins derived words:
	// "pian" of piano and pianist.
	TermRoot = term.Root
	// TermSynonym is a synonym set both hold a word of (LookupTopics),
	// named by its first word: "mother" for mum and mother.
	TermSynonym = term.Synonym
)

// Candidate is a current fact similar to a text, with the evidence.
type Candidate struct {
	Fact  Fact
	Score float64
	// Terms are the words or stems and synonym sets both share, then the
	// roots, longest first.
	Terms []Term
	// Topics are the topic tags both share (LookupTopics).
	Topics []string
	// Similarity is the cosine similarity of the embeddings
	// (LookupSemantic), 0 when unknown.
	Similarity float64
	// Overlap is the share of the two texts' words (stems, synonym sets)
	// they have in common, 0..1: near 1 for a restatement.
	Overlap float64
	// Relation is a single-valued relation (lives_in, works_at, …) that
	// both claim of the same subject: a second current claim is a question
	// for the decider (a move, a new job, or a second one), even when the
	// texts share no word. "" when none.
	Relation Relation
	// RelationDiffers says the two claim different objects of Relation
	// (Lisbon, Porto): a second value, not the same one told again.
	RelationDiffers bool
	// ClaimsDiffer says the text and the fact both claim some relation,
	// but no claim of one is a claim of the other: "My sister lives in
	// Kazan" beside "I live in Lyon" (lives_in of another subject and
	// object). Shared words then speak of different things.
	ClaimsDiffer bool
	// AboutOther says, further, that every relation both claim is claimed
	// of different subjects: the fact is about someone or something else
	// (the sister, not the user), so it neither restates nor replaces it.
	AboutOther bool
	// OtherRelations says the text claims relations and the fact claims
	// none of them: "I have a cat named Luna" (has_pet) beside "My name is
	// Maria Keller". A topic both touch is then no sign that one concerns
	// the other.
	OtherRelations bool
}

// Lookup is the result of Candidates.
type Lookup struct {
	Mode       LookupMode
	Candidates []Candidate
	// Fallback says why the lookup did less than its mode asks, e.g. a
	// semantic lookup that could not reach the embedder; "" when it did not.
	Fallback string
}

// Candidates returns up to k current facts of user that text may update or
// contradict, best first: facts sharing words or roots before facts that
// share only a topic. Empty or letter-less text gives no candidates; k must
// be within 1..MaxCandidates. The first lookup after Open builds the index
// from the store, in the folder <store>.index beside it: ErrIndexDir when
// it cannot (something the store did not make is at that path, or the
// folder cannot be written: lookups need write access beside the store).
//
// Current facts that claim, for a subject and a single-valued relation the
// text claims of it (claims.Extract), any object are candidates too, with
// their Relation set, whatever words they share: "I'm based in Porto now"
// finds "my flat in Lisbon" when both claim lives_in. They come after the
// candidates sharing words and before those sharing only a topic, and keep
// at least a quarter of the k places.
func (s *Store) Candidates(ctx context.Context, user, text string, k int) (Lookup, error) {
	return s.candidates(ctx, user, text, claims.Extract(text), k)
}

// candidates is Candidates for a text whose claims are cs.
func (s *Store) candidates(ctx context.Context, user, text string, cs []Claim, k int) (Lookup, error) {
	out := Lookup{Mode: s.mode}
	if k < 1 || k > MaxCandidates {
		return out, fmt.Errorf("%w: k = %d, want 1..%d", ErrInvalidK, k, MaxCandidates)
	}
	if err := validUser(user); err != nil {
		return out, err
	}
	an, err := s.live.Analyzer()
	if err != nil {
		return out, err
	}
	q := an.Analyze(text)
	if q.Empty() && len(cs) == 0 {
		return out, nil
	}
	// Ask for more than k: hits that changed since the search are dropped.
	want := min(k+8, MaxCandidates)
	var qv []float32
	if s.mode == LookupSemantic {
		qv, out.Fallback = s.embedQuery(ctx, text)
	}
	gen := s.live.Generation() // before the store is read (at, on a Backend): see live.Index.Terms
	var hits []index.Hit
	similar := map[uint64]float64{}
	at, err := s.searchIndexAt(ctx, user, func(ix *index.Index) (err error) {
		if q.Empty() {
			return nil
		}
		if hits, err = ix.SearchWords(ctx, user, an.Words(text), want); err != nil || qv == nil {
			return err
		}
		near, err := ix.Nearest(ctx, user, qv, want, s.userVectors)
		if err != nil {
			return err
		}
		for _, h := range near {
			similar[h.ID] = h.Score
		}
		hits = index.Fuse(hits, near)
		return nil
	})
	if err != nil {
		return out, fromLive(err)
	}
	var peers []peer
	if singleValued(cs) {
		g, err := s.graph(ctx, user)
		if err != nil {
			return out, err
		}
		peers = g.functionalPeers(cs)
	}
	err = s.viewAt(ctx, user, at, func(tx *kv.Tx) error {
		// Hits come best first, and only the first k that are still
		// current are kept: the rest need not be read or analysed again.
		for _, h := range hits {
			if len(out.Candidates) == k {
				break
			}
			r, err := tx.Get(h.ID)
			if err != nil || r.User != user || !r.Current() {
				continue // changed since the search; the next lookup will not see it
			}
			out.Candidates = append(out.Candidates, s.candidateOf(an, q, &r, h.Score, similar[h.ID], gen))
		}
		for _, p := range peers {
			if i := slices.IndexFunc(out.Candidates, func(c Candidate) bool { return c.Fact.ID == p.id }); i >= 0 {
				out.Candidates[i].Relation, out.Candidates[i].RelationDiffers = p.rel, p.differs
				continue
			}
			r, err := tx.Get(p.id)
			if err != nil || r.User != user || !r.Current() {
				continue // changed since the graph was read, like a hit
			}
			c := s.candidateOf(an, q, &r, 0, 0, gen)
			c.Relation, c.RelationDiffers = p.rel, p.differs
			out.Candidates = append(out.Candidates, c)
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	// The k best by score are the candidates; among them, a shared topic
	// alone is weaker evidence than a shared word, a close embedding or a
	// single-valued relation, so such candidates are listed last and go
	// first when there are more than k. The relation's peers keep at least
	// a quarter of the k places (one at least), taken from the lowest of
	// the word matches, so that many shared words cannot hide a second
	// current value of a single-valued relation.
	rank := func(c Candidate) int {
		switch {
		case len(c.Terms) > 0 || c.Similarity != 0:
			return 0
		case c.Relation != "":
			return 1
		}
		return 2
	}
	slices.SortStableFunc(out.Candidates, func(a, b Candidate) int { return rank(a) - rank(b) })
	if len(out.Candidates) > k {
		reserve := max(1, k/4)
		var keep, rest []Candidate
		for _, c := range out.Candidates {
			if c.Relation != "" && reserve > 0 {
				keep, reserve = append(keep, c), reserve-1
			} else {
				rest = append(rest, c)
			}
		}
		rest = rest[:k-len(keep)]
		out.Candidates = append(rest, keep...)
		slices.SortStableFunc(out.Candidates, func(a, b Candidate) int { return rank(a) - rank(b) })
	}
	for i := range out.Candidates {
		c := &out.Candidates[i]
		c.ClaimsDiffer, c.AboutOther = claimsDiffer(cs, c.Fact.Claims)
		c.OtherRelations = otherRelations(cs, c.Fact.Claims)
	}
	return out, nil
}

// claimsDiffer reports whether a and b claim a relation in common but no
// claim in common (names compared as the graph normalizes them), and
// whether, further, each such pair is of different subjects. Two subjects
// are one when they are the same name, or when the other fact names one
// of them too: "My sister Clara lives in Kazan" claims lives_in of
// "sister" and names Clara (sibling), so "Clara moved to Omsk" is about
// the same person. The user ("") is named by nearly every fact, so naming
// the user makes no subject the user.
func claimsDiffer(a, b []Claim) (differ, otherSubject bool) {
	var namedA, namedB map[string]bool // built when two named subjects differ
	related, sameSubject := false, false
	for _, x := range a {
		for _, y := range b {
			if x.Relation != y.Relation {
				continue
			}
			xs, ys := claims.Normalize(x.Subject), claims.Normalize(y.Subject)
			subject := xs == ys
			if !subject && xs != "" && ys != "" {
				if namedA == nil {
					namedA, namedB = namesOf(a), namesOf(b)
				}
				subject = namedB[xs] || namedA[ys]
			}
			if subject && claims.Normalize(x.Object) == claims.Normalize(y.Object) {
				return false, false
			}
			related, sameSubject = true, sameSubject || subject
		}
	}
	return related, related && !sameSubject
}

// otherRelations reports whether a claims relations and b claims none of
// them, of any subject.
func otherRelations(a, b []Claim) bool {
	for _, x := range a {
		if slices.ContainsFunc(b, func(y Claim) bool { return y.Relation == x.Relation }) {
			return false
		}
	}
	return len(a) > 0
}

// namesOf is every name cs give other than the user's: subjects and
// objects, normalized.
func namesOf(cs []Claim) map[string]bool {
	m := make(map[string]bool, 2*len(cs))
	for _, c := range cs {
		for _, n := range []string{claims.Normalize(c.Subject), claims.Normalize(c.Object)} {
			if n != "" {
				m[n] = true
			}
		}
	}
	return m
}

// candidateOf is the candidate r is for a text analysed as q, read by a
// lookup that took generation gen of the kept analyses.
func (s *Store) candidateOf(an *index.Analyzer, q index.Terms, r *kv.Record, score, similarity float64, gen uint64) Candidate {
	d := s.live.Terms(an, index.DocKey{User: r.User, ID: r.ID}, r.Text, gen)
	why := index.Shared(q, d)
	return Candidate{Fact: factOf(r), Score: score, Terms: why.Terms, Topics: why.Topics, Similarity: similarity,
		Overlap: overlap(q, d, why)}
}

type peer struct {
	id  uint64
	rel Relation
	// differs says the peer claims another object than the text looked
	// up: a second value, where the same object would be a restatement.
	differs bool
}

// maxPeers bounds the facts one lookup adds by relation.
const maxPeers = MaxCandidates

// functionalPeers are the user's current facts that claim, for a subject
// and a single-valued relation of cs, any object: newest first. They are
// read from the user's graph, which follows each write by patching (see
// patchGraph), rather than from every fact of the user.
func (g *userGraph) functionalPeers(cs []Claim) []peer {
	var out []peer
	seen := map[uint64]bool{}
	for _, c := range cs {
		if !c.Relation.SingleValued() {
			continue
		}
		subject := g.res.root(claims.Normalize(c.Subject)) // a merged name is its entity's
		object := g.res.root(claims.Normalize(c.Object))
		for _, k := range g.byEntity[subject] {
			if k.subject != subject || k.relation != c.Relation {
				continue
			}
			for _, ref := range g.support[k] {
				r := &g.tl[ref.fact].rec
				if r.Current() && !seen[r.ID] {
					seen[r.ID] = true
					out = append(out, peer{r.ID, k.relation, k.object != object})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b peer) int { return cmp.Compare(b.id, a.id) })
	if len(out) > maxPeers {
		out = out[:maxPeers]
	}
	return out
}

// singleValued reports whether some claim of cs is of a single-valued
// relation.
func singleValued(cs []Claim) bool {
	return slices.ContainsFunc(cs, func(c Claim) bool { return c.Relation.SingleValued() })
}

// indexPage reads up to n current facts after the key after for a build
// of the candidate index. The build holds writeMu. Their embeddings are
// read a user at a time, at the user's first semantic lookup
// (userVectors).
func (s *Store) indexPage(ctx context.Context, after []byte, n int) ([]index.Doc, []byte, error) {
	var page []kv.Record
	// The index holds every user's facts, and is built in one pass (on a
	// Backend it takes each user apart: backend_catchup.go).
	err := s.viewAll(ctx, func(tx *kv.Tx) (err error) {
		page, after, err = tx.CurrentPage(after, n)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	docs := make([]index.Doc, len(page))
	for i, r := range page {
		docs[i] = index.Doc{ID: r.ID, User: r.User, Text: r.Text}
	}
	return docs, after, nil
}

// overlap is the Jaccard similarity of two texts' words, given what they
// share (shared roots do not count: they are not whole words).
func overlap(q, d index.Terms, why index.Why) float64 {
	shared := 0
	for _, t := range why.Terms {
		if t.Kind != TermRoot {
			shared++
		}
	}
	if union := len(q.Words) + len(d.Words) - shared; union > 0 {
		return float64(shared) / float64(union)
	}
	return 0
}
