package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"
	zap "github.com/blevesearch/zapx/v17"

	"github.com/palimpsest-mem/memory/internal/term"
)

// Index fields. Each holds terms produced by an Analyzer, joined by spaces.
const (
	fieldUser   = "u"
	fieldWords  = "w"
	fieldRoots  = "r"
	fieldTopics = "t"
)

// Weights of the fields in a query: a shared word counts most; a shared
// root less; a shared topic least, so that direct word matches rank before
// topic-only ones.
const (
	boostWords  = 1.0
	boostRoots  = 0.5
	boostTopics = 2.0
)

// maxQueryTerms bounds the clauses of one lookup.
const maxQueryTerms = 96

// Doc is one current fact as the index sees it.
type Doc struct {
	ID     uint64
	User   string
	Text   string
	Vector []float32 // its embedding, in the semantic mode; nil if it has none
}

// Hit is one candidate: its key (the user's, in a search of one user)
// and its score.
type Hit struct {
	DocKey
	Score float64
}

// Index holds the current facts of every user in a Bleve scorch index in a
// private directory of its own inside a root that belongs to one store,
// removed by Close. It is safe for concurrent use.
type Index struct {
	an *Analyzer
	h  *handle

	mu    sync.RWMutex // guards bleve against Close
	bleve bleve.Index

	usersMu sync.Mutex
	users   map[string]string // user -> term prefix
	// usersGrew: a user was numbered since the numbering was last put in
	// a batch of a kept index.
	usersGrew bool
	vecs      *vectors // nil unless the mode is Semantic
}

// ErrClosed is returned by an Index after Close.
var ErrClosed = errors.New("index is closed")

// ErrFault says that reading the index's memory-mapped files faulted: they
// were truncated or damaged under it. The index is unusable; its owner
// drops it and builds another.
var ErrFault = errors.New("index: its files were damaged while in use (a fault reading them)")

// guard turns a fault reading a mapped file, made a panic by
// debug.SetPanicOnFault, into ErrFault; any other panic is a bug and goes on.
func guard(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if f, ok := r.(interface{ Addr() uintptr }); ok {
		*err = fmt.Errorf("%w: %v", ErrFault, f)
		return
	}
	panic(r)
}

// New creates an empty index that analyses text with an, in a private
// sub-directory of root (made 0700 if missing; see Sweep), removed by Close.
func New(an *Analyzer, root string) (ix *Index, err error) {
	h, err := newHandle(root)
	if err != nil {
		return nil, err
	}
	b, err := bleve.NewUsing(filepath.Join(h.dir, bleveName), newMapping(), scorch.Name, scorch.Name, scorchConfig(false))
	if err != nil {
		return nil, errors.Join(fmt.Errorf("index: %w", err), h.remove())
	}
	return made(an, h, b)
}

// newMapping is the mapping of every index: the term fields, analysed
// already (see addTerms), neither stored nor with term vectors.
func newMapping() *mapping.IndexMappingImpl {
	im := bleve.NewIndexMapping()
	dm := bleve.NewDocumentStaticMapping()
	for _, f := range []string{fieldUser, fieldWords, fieldRoots, fieldTopics} {
		fm := mapping.NewTextFieldMapping()
		fm.Analyzer, fm.Store, fm.IncludeTermVectors, fm.IncludeInAll, fm.DocValues = "keyword", false, false, false, false
		dm.AddFieldMappingsAt(f, fm)
	}
	im.DefaultMapping = dm
	im.DefaultAnalyzer = "keyword"
	return im
}

// scorchConfig is scorch's configuration, for a private index or a kept
// one (OpenKept).
func scorchConfig(kept bool) map[string]any {
	c := map[string]any{
		// Batches return once they are searchable, not once they are on
		// disk: a private index lives only as long as the process, and a
		// kept one proves what it holds by its commit marker (Marked),
		// written in the batch that brings it there, so a snapshot lost
		// to a crash leaves an older marker, not a lie.
		"unsafe_batch": true,
		// One segment format, the one internal/indextest reads: scorch's
		// default changes with bleve, and a reader of the files must not
		// have to guess among seven.
		"forceSegmentType":    zap.Type,
		"forceSegmentVersion": int(zap.Version),
		// The persister fsyncs its own bbolt file after every snapshot it
		// writes; napping between persists lets small updates gather in
		// memory instead of costing a disk flush each, beside the store's
		// (without a nap a durable Add ran at 0.55 of a raw bbolt Update,
		// with one at 0.8). Until persisted, each batch is a segment of
		// its own that every lookup reads, and memory the build cannot
		// give back: 200 ms keeps a Remember loop's lookups over a few
		// dozen segments (2 s let hundreds gather: 3.4 ms a topics Remember
		// instead of 2.1) and a 100k build's heap at 15 MB instead of 70,
		// for a build about a quarter slower.
		"scorchPersisterOptions": map[string]any{"PersisterNapTimeMSec": 200, "PersisterNapUnderNumFiles": 1000},
	}
	if kept {
		// Segments stay small, so that purging a hard delete's words
		// (Purge) rewrites a few of them, not the whole index: no merge
		// makes a segment of more live documents than this.
		c["scorchMergePlanOptions"] = map[string]any{"MaxSegmentSize": keptSegmentSize}
	}
	return c
}

// keptSegmentSize bounds the live documents of a kept index's segments.
// At 20,000 a purge rewrote a segment in about 0.14 s on two cores, and
// a million documents made about 75 segments, which open in 1–2 ms.
const keptSegmentSize = 20000

// made wraps a new or opened bleve index.
func made(an *Analyzer, h *handle, b bleve.Index) (*Index, error) {
	// bleve creates its metadata file 0666 less the umask; every other file
	// it writes is 0600. Make that one private too.
	if err := os.Chmod(filepath.Join(h.dir, bleveName, "index_meta.json"), 0o600); err != nil {
		return nil, errors.Join(fmt.Errorf("index: %w", err), b.Close(), h.remove())
	}
	ix := &Index{an: an, h: h, bleve: b, users: map[string]string{}}
	if an.Mode() == Semantic {
		ix.vecs = newVectors()
	}
	return ix, nil
}

// Analyzer returns the analyzer of the index.
func (ix *Index) Analyzer() *Analyzer { return ix.an }

// Dir returns the private directory the index lives in.
func (ix *Index) Dir() string { return ix.h.dir }

// Close closes the index. A private index (New) is removed with its
// directory, and the root too if no other index is left in it; a kept one
// (OpenKept) stays for the next process, Remove removes it.
func (ix *Index) Close() error { return ix.close(true) }

// CloseNow is Close without the wait for a kept index's newest snapshot to
// persist: what was not yet on disk is lost, and its next owner catches up
// from the older snapshot's marker (or builds it again).
func (ix *Index) CloseNow() error { return ix.close(false) }

func (ix *Index) close(wait bool) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.bleve == nil {
		return nil
	}
	var err error
	if ix.h.kept && wait {
		// scorch's Close drops what it has not persisted yet: wait for
		// it, so that the next process need not catch up (a crash leaves
		// an older snapshot, which its marker tells).
		err = ix.persisted(context.Background())
	}
	err = errors.Join(err, ix.closeBleve())
	ix.bleve = nil
	if ix.h.kept {
		return errors.Join(err, ix.h.release())
	}
	return errors.Join(err, ix.h.remove())
}

// Remove closes the index and removes its directory, kept or not.
func (ix *Index) Remove() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var err error
	if ix.bleve != nil {
		err = ix.closeBleve()
		ix.bleve = nil
	}
	return errors.Join(err, ix.h.remove())
}

func (ix *Index) closeBleve() (err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return ix.bleve.Close()
}

// Put adds or replaces docs, in one batch.
func (ix *Index) Put(docs ...Doc) error { return ix.put(docs, ix.analyze(docs)) }

// Bulk adds distinct docs in batches that next hands out until it returns
// none, as when the index is built. It keeps every core busy: bleve builds
// a segment on the goroutine that hands it a batch, so batches go in from
// several goroutines at once, each analysing its own. next is called by one
// goroutine at a time; reading batches as they are needed keeps only a few
// of them in memory.
func (ix *Index) Bulk(next func() ([]Doc, error)) error {
	var mu sync.Mutex
	var failed bool
	take := func() ([]Doc, error) {
		mu.Lock()
		defer mu.Unlock()
		if failed {
			return nil, nil
		}
		docs, err := next()
		failed = err != nil
		return docs, err
	}
	errs := make([]error, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range errs {
		wg.Go(func() {
			for {
				docs, err := take()
				if err == nil && len(docs) > 0 {
					err = ix.put(docs, ix.analyze(docs))
				}
				if err != nil {
					errs[w] = err
					mu.Lock()
					failed = true
					mu.Unlock()
				}
				if err != nil || len(docs) == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (ix *Index) analyze(docs []Doc) []Terms {
	out := make([]Terms, len(docs))
	for i, d := range docs {
		out[i] = ix.an.Analyze(d.Text)
	}
	return out
}

func (ix *Index) put(docs []Doc, terms []Terms) error {
	return ix.batch(func(b *bleve.Batch) error { return ix.fill(b, docs, terms) })
}

// fill adds docs, analysed as terms, to b.
func (ix *Index) fill(b *bleve.Batch, docs []Doc, terms []Terms) error {
	for i, d := range docs {
		doc := document.NewDocument(docID(d.Key()))
		// The user is also a single exact term, checked by a filter on
		// every search: a second guard between users.
		doc.AddField(document.NewTextFieldCustom(fieldUser, nil, []byte(d.User), bindex.IndexField, nil))
		key, _ := ix.userKey(d.User, true)
		ix.addTerms(doc, fieldWords, key, terms[i].Words)
		ix.addTerms(doc, fieldRoots, key, terms[i].Roots)
		ix.addTerms(doc, fieldTopics, key, terms[i].Topics)
		if err := b.IndexAdvanced(doc); err != nil {
			return err
		}
		if ix.vecs != nil {
			ix.vecs.put(d.Key(), d.Vector)
		}
	}
	return nil
}

// addTerms indexes terms under the user's key, so that each posting list
// holds one user's facts and a lookup reads only that user's postings, not
// those of every user who ever used the word.
func (ix *Index) addTerms(doc *document.Document, field, key string, terms []string) {
	if len(terms) == 0 {
		return
	}
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(key)
		b.WriteString(t)
	}
	doc.AddField(document.NewTextFieldCustom(field, nil, []byte(b.String()), bindex.IndexField, spaceSplitter{}))
}

// spaceSplitter is the analyzer of the term fields: the terms come
// analysed already, joined by single spaces, so splitting on the byte is
// all that is left to do (bleve's generic tokenizer costs far more).
type spaceSplitter struct{}

func (spaceSplitter) Analyze(b []byte) analysis.TokenStream {
	out := make(analysis.TokenStream, 0, bytes.Count(b, []byte{' '})+1)
	toks := make([]analysis.Token, 0, cap(out))
	for pos, start := 1, 0; start < len(b); pos++ {
		end := bytes.IndexByte(b[start:], ' ')
		if end < 0 {
			end = len(b)
		} else {
			end += start
		}
		toks = append(toks, analysis.Token{Start: start, End: end, Term: b[start:end], Position: pos, Type: analysis.AlphaNumeric})
		out = append(out, &toks[len(toks)-1])
		start = end + 1
	}
	return out
}

// userKey returns the short prefix naming user inside terms, assigning one
// on first use: a small number in base 36, so that terms stay short and
// the term dictionary small. The numbering lives as long as the index.
func (ix *Index) userKey(user string, assign bool) (string, bool) {
	ix.usersMu.Lock()
	defer ix.usersMu.Unlock()
	k, ok := ix.users[user]
	if !ok && assign {
		k = strconv.FormatUint(uint64(len(ix.users)), 36) + "|"
		ix.users[user] = k
		ix.usersGrew = true
		ok = true
	}
	return k, ok
}

// Delete removes docs by key; a key not in the index is ignored.
func (ix *Index) Delete(keys ...DocKey) error {
	return ix.batch(func(b *bleve.Batch) error {
		ix.deleteKeys(b, keys)
		return nil
	})
}

func (ix *Index) deleteKeys(b *bleve.Batch, keys []DocKey) {
	for _, k := range keys {
		b.Delete(docID(k))
		if ix.vecs != nil {
			ix.vecs.delete(k)
		}
	}
}

func (ix *Index) batch(fill func(*bleve.Batch) error) error { return ix.markedBatch(fill, nil) }

// markedBatch applies what fill puts in one batch; in a kept index, with
// the marker mark (if not nil) and the user numbering if it grew, which
// reach the files in the same snapshot as the documents.
func (ix *Index) markedBatch(fill func(*bleve.Batch) error, mark []byte) (err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.bleve == nil {
		return ErrClosed
	}
	b := ix.bleve.NewBatch()
	if err := fill(b); err != nil {
		return err
	}
	if ix.h.kept {
		if users := ix.usersToKeep(mark != nil); users != nil {
			b.SetInternal(usersKey, users)
		}
		if mark != nil {
			b.SetInternal(markKey, mark)
		}
	}
	return ix.bleve.Batch(b)
}

// Count returns the number of documents.
func (ix *Index) Count() (n uint64, err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.bleve == nil {
		return 0, ErrClosed
	}
	return ix.bleve.DocCount()
}

// DocKeys returns the key of every document, for checking the index
// against the store. A document id that is not a key is an error.
func (ix *Index) DocKeys(ctx context.Context) (_ map[DocKey]bool, err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	keys, err := ix.keysMatching(ctx, query.NewMatchAllQuery())
	if err != nil {
		return nil, err
	}
	out := make(map[DocKey]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out, nil
}

// UserKeys returns the keys of user's documents: what a store whose users
// are each read apart compares with the user's facts (live's catch-up).
// Its cost grows with the user's documents, not the index's.
func (ix *Index) UserKeys(ctx context.Context, user string) (_ []DocKey, err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	if _, known := ix.userKey(user, false); !known {
		return nil, nil // no fact of this user was ever indexed
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	uq := query.NewTermQuery(user)
	uq.SetField(fieldUser)
	keys, err := ix.keysMatching(ctx, uq)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if k.User != user {
			return nil, fmt.Errorf("index: document %q of another user among those of user %q", docID(k), user)
		}
	}
	return keys, nil
}

// keysMatching returns the keys of every document q matches, a Purge's
// sentinel left out; a document id that is not a key is an error. The
// caller holds ix.mu.
func (ix *Index) keysMatching(ctx context.Context, q query.Query) ([]DocKey, error) {
	if ix.bleve == nil {
		return nil, ErrClosed
	}
	n, err := ix.bleve.DocCount()
	if err != nil {
		return nil, err
	}
	req := bleve.NewSearchRequestOptions(q, int(n), 0, false)
	req.Fields = []string{}
	req.Score = "none"
	res, err := ix.bleve.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	out := make([]DocKey, 0, len(res.Hits))
	for _, h := range res.Hits {
		if h.ID == sentinelID {
			continue // a Purge's, deleted again before it returns
		}
		k, err := parseDocID(h.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// KeysOf returns the keys of the documents of ids, whatever their users:
// for a store that cannot tell whose a deleted record was (see
// live.Change).
func (ix *Index) KeysOf(ids []uint64) (_ []DocKey, err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.bleve == nil {
		return nil, ErrClosed
	}
	var out []DocKey
	for _, id := range ids {
		// Every document of id, and no other, is under this prefix of
		// bleve's dictionary of document ids (see docID).
		d, err := ix.bleve.FieldDictPrefix("_id", []byte(strconv.FormatUint(id, 10)+"/"))
		if err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		for {
			e, err := d.Next()
			if err != nil || e == nil {
				if cerr := d.Close(); err == nil && cerr != nil {
					err = cerr
				}
				if err != nil {
					return nil, fmt.Errorf("index: %w", err)
				}
				break
			}
			k, err := parseDocID(e.Term)
			if err != nil || k.ID != id {
				d.Close()
				return nil, fmt.Errorf("index: bad document id %q", e.Term)
			}
			out = append(out, k)
		}
	}
	return out, nil
}

// Persisted reports whether every segment the searches read is in a file
// they map, none in memory only. For tests that damage the files: damage
// to a mapped file meets a search as a fault (ErrFault), but a file bleve
// is still writing, truncated, is written on past the hole and opened as
// it is, zeros and all, and answers nothing, with no fault to tell.
func (ix *Index) Persisted() bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.bleve == nil {
		return false
	}
	st, _ := ix.bleve.StatsMap()["index"].(map[string]any)
	return st["num_root_memorysegments"] == uint64(0) && st["num_root_filesegments"] != uint64(0)
}

// Nearest returns up to k facts of user whose embeddings are closest to v
// by cosine similarity (the score), best first. Only the Semantic mode
// keeps embeddings; other modes return nothing. The index holds the
// vectors of the users looked up last; for another, read gives the user's
// current facts with their vectors first (the store keeps them). While a
// lookup beside reads them, this one finds none.
func (ix *Index) Nearest(ctx context.Context, user string, v []float32, k int, read func(context.Context, string) ([]Doc, error)) ([]Hit, error) {
	if ix.vecs == nil {
		return nil, nil
	}
	if err := ix.vecs.load(ctx, user, read); err != nil {
		return nil, err
	}
	return ix.vecs.nearest(user, v, k), nil
}

// Search returns up to k facts of user that share terms with q, best first.
// A fault reading the index's files on this goroutine gives ErrFault.
func (ix *Index) Search(ctx context.Context, user string, q Terms, k int) (_ []Hit, err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	key, known := ix.userKey(user, false)
	if !known {
		return nil, nil // no fact of this user was ever indexed
	}
	var cl clauses
	cl.add(fieldWords, q.Words, boostWords)
	cl.add(fieldRoots, q.Roots, boostRoots)
	cl.add(fieldTopics, q.Topics, boostTopics)
	return ix.search(ctx, user, key, cl, k)
}

// SearchWords is Search for a text analysed word by word (Analyzer.Words):
// the n topic tags of a word each weigh 1/√n of a tag in Search, and so do
// its n synonym sets, so that a word in a dozen frames ("night") counts
// less over a word in one than its number of tags says. (A weight of 1/n,
// each word's tags together weighing one, ranked the old fact of a dev
// update first more often but found fewer of them within 12.)
func (ix *Index) SearchWords(ctx context.Context, user string, words []Terms, k int) (_ []Hit, err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	key, known := ix.userKey(user, false)
	if !known {
		return nil, nil
	}
	var cl clauses
	for _, w := range words {
		var stems, sets []string
		for _, t := range w.Words {
			if strings.HasPrefix(t, term.SynonymMark) {
				sets = append(sets, t)
			} else {
				stems = append(stems, t)
			}
		}
		cl.add(fieldWords, stems, boostWords)
		cl.add(fieldWords, sets, boostWords/math.Sqrt(float64(max(1, len(sets)))))
		cl.add(fieldRoots, w.Roots, boostRoots)
		cl.add(fieldTopics, w.Topics, boostTopics/math.Sqrt(float64(max(1, len(w.Topics)))))
	}
	return ix.search(ctx, user, key, cl, k)
}

// clauses are the terms of a query, per field, each with its boost.
type clauses struct {
	order []clause
	at    map[clause]int
	boost []float64
}

type clause struct{ field, term string }

// add adds terms of field with boost; a term added again keeps its
// greatest boost, so that two words sharing a tag do not count it twice.
func (c *clauses) add(field string, terms []string, boost float64) {
	if c.at == nil {
		c.at = map[clause]int{}
	}
	for _, t := range terms {
		k := clause{field, t}
		if i, ok := c.at[k]; ok {
			c.boost[i] = max(c.boost[i], boost)
			continue
		}
		if len(c.order) == maxQueryTerms {
			continue
		}
		c.at[k] = len(c.order)
		c.order = append(c.order, k)
		c.boost = append(c.boost, boost)
	}
}

func (ix *Index) search(ctx context.Context, user, key string, cl clauses, k int) ([]Hit, error) {
	var should []query.Query
	for i, c := range cl.order {
		tq := query.NewTermQuery(key + c.term)
		tq.SetField(c.field)
		tq.SetBoost(cl.boost[i])
		should = append(should, tq)
	}
	if len(should) == 0 {
		return nil, nil
	}
	uq := query.NewTermQuery(user)
	uq.SetField(fieldUser)
	bq := query.NewBooleanQuery(nil, should, nil)
	bq.AddFilter(uq)
	req := bleve.NewSearchRequestOptions(bq, k, 0, false)
	req.SortBy([]string{"-_score", "_id"})

	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.bleve == nil {
		return nil, ErrClosed
	}
	res, err := ix.bleve.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		k, err := parseDocID(h.ID)
		if err == nil && k.User != user {
			// The filter on the user field let it through: the fields
			// disagree, which only damage makes.
			err = fmt.Errorf("index: document %q of another user in a search of user %q", h.ID, user)
		}
		if err != nil {
			return nil, err
		}
		hits = append(hits, Hit{DocKey: k, Score: h.Score})
	}
	return hits, nil
}
