package memory

import (
	"context"
	"errors"
	"fmt"
	"slices"

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
func (s *Store) Candidates(ctx context.Context, user, text string, k int) (Lookup, error) {
	out := Lookup{Mode: s.mode}
	if k < 1 || k > MaxCandidates {
		return out, fmt.Errorf("%w: k = %d, want 1..%d", ErrInvalidK, k, MaxCandidates)
	}
	if err := validUser(user); err != nil {
		return out, err
	}
	an, err := s.analyzer()
	if err != nil {
		return out, err
	}
	q := an.Analyze(text)
	if q.Empty() {
		return out, nil
	}
	// Ask for more than k: hits that changed since the search are dropped.
	want := min(k+8, MaxCandidates)
	var qv []float32
	if s.mode == LookupSemantic {
		qv, out.Fallback = s.embedQuery(ctx, text)
	}
	var hits []index.Hit
	similar := map[uint64]float64{}
	err = s.withIndex(ctx, user, func(ix *index.Index) (err error) {
		if hits, err = ix.Search(ctx, user, q, want); err != nil || qv == nil {
			return err
		}
		near := ix.Nearest(user, qv, want)
		for _, h := range near {
			similar[h.ID] = h.Score
		}
		hits = index.Fuse(hits, near)
		return nil
	})
	if err != nil {
		return out, err
	}
	err = s.view(ctx, func(tx *kv.Tx) error {
		for _, h := range hits {
			r, err := tx.Get(h.ID)
			if err != nil || r.User != user || !r.Current() {
				continue // changed since the search; the next lookup will not see it
			}
			d := an.Analyze(r.Text)
			why := index.Shared(q, d)
			out.Candidates = append(out.Candidates, Candidate{Fact: factOf(&r), Score: h.Score, Terms: why.Terms,
				Topics: why.Topics, Similarity: similar[h.ID], Overlap: overlap(q, d, why)})
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	if len(out.Candidates) > k {
		out.Candidates = out.Candidates[:k]
	}
	// The k best by score are the candidates; among them, a shared topic
	// alone is weaker evidence than a shared word or a close embedding, so
	// such candidates are listed last.
	weak := func(c Candidate) bool { return len(c.Terms) == 0 && c.Similarity == 0 }
	slices.SortStableFunc(out.Candidates, func(a, b Candidate) int { return boolRank(weak(a)) - boolRank(weak(b)) })
	return out, nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// withIndex runs fn on the candidate index, building it first if needed.
// An index whose files faulted under fn (truncated or damaged while in
// use) is dropped and built again from the store, once.
func (s *Store) withIndex(ctx context.Context, user string, fn func(*index.Index) error) error {
	err := s.tryIndex(ctx, user, fn)
	if errors.Is(err, index.ErrFault) {
		s.dropIndex()
		err = s.tryIndex(ctx, user, fn)
		if errors.Is(err, index.ErrFault) {
			s.dropIndex()
		}
	}
	return err
}

func (s *Store) tryIndex(ctx context.Context, user string, fn func(*index.Index) error) error {
	// Read your writes: wait until every change to user's facts committed
	// before this lookup has reached the index.
	if err := s.indexer.waitUser(ctx, user); err != nil {
		return err
	}
	s.ixMu.RLock()
	ix := s.ix
	if ix != nil {
		defer s.ixMu.RUnlock()
		return fn(ix)
	}
	s.ixMu.RUnlock()
	if err := s.buildIndex(ctx); err != nil {
		return err
	}
	return s.tryIndex(ctx, user, fn)
}

// buildIndex fills a new index from the current facts in the store. It
// holds writeMu so that no write commits between the snapshot it reads and
// the moment the index starts receiving updates.
func (s *Store) buildIndex(ctx context.Context) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.ixMu.RLock()
	built := s.ix != nil
	s.ixMu.RUnlock()
	if s.life.Err() != nil {
		return ErrClosed
	}
	if built {
		return nil
	}
	an, err := s.analyzer()
	if err != nil {
		return err
	}
	// Close cancels the build: it waits for writeMu, which the build holds.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	ix, err := index.New(an, s.ixRoot)
	if err != nil {
		return fmt.Errorf("building the candidate index: %w", err)
	}
	// Batches come from short read transactions, one at a time as the
	// index takes them; writeMu keeps the store still in between. Of the
	// sizes tried (500 to 12,500), batches of 1,000 built a 100k index
	// fastest, with nearly the least memory: larger ones leave bleve more
	// and bigger unpersisted segments to merge.
	const batch = 1000
	var after []byte
	done := false
	err = ix.Bulk(func() ([]index.Doc, error) {
		if done {
			return nil, nil
		}
		if after == nil && s.hookBuildPage != nil {
			s.hookBuildPage()
		}
		if s.life.Err() != nil {
			return nil, ErrClosed
		}
		var page []kv.Record
		err := s.view(ctx, func(tx *kv.Tx) (err error) {
			page, after, err = tx.CurrentPage(after, batch)
			return err
		})
		if err != nil {
			return nil, err
		}
		done = after == nil
		docs := make([]index.Doc, len(page))
		for i, r := range page {
			docs[i] = index.Doc{ID: r.ID, User: r.User, Text: r.Text}
		}
		return docs, s.attachVectors(ctx, docs, true)
	})
	if err != nil {
		err = errors.Join(err, ix.Close())
		if s.life.Err() != nil {
			return fmt.Errorf("building the candidate index: %w", ErrClosed)
		}
		return fmt.Errorf("building the candidate index: %w", err)
	}
	if s.hookAfterBuild != nil {
		s.hookAfterBuild(ix)
	}
	s.ixMu.Lock()
	defer s.ixMu.Unlock()
	if s.life.Err() != nil {
		return errors.Join(ErrClosed, ix.Close())
	}
	s.ix = ix
	s.indexer.skip() // the build read every commit so far
	return nil
}

// dropIndex closes the index and removes its files; changes queued for it
// are moot, since the next lookup rebuilds it from the store.
func (s *Store) dropIndex() {
	s.ixMu.Lock()
	defer s.ixMu.Unlock()
	if s.ix != nil {
		s.ix.Close()
		s.ix = nil
	}
	s.indexer.skip()
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
