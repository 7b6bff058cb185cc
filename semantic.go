package memory

import (
	"context"
	"fmt"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/reconcile"
)

// LookupSemantic fuses LookupTopics with the cosine similarity of
// embeddings (reciprocal rank fusion). It needs Options.Embedder.
const LookupSemantic = index.Semantic

// Embedder turns texts into vectors, one per text, in order.
// OllamaEmbedder returns one that asks Ollama.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// embedFact embeds the text of a new fact. A failure is not an error of
// the write, nor is a vector refused (see embed): the fact is stored
// without a vector and embedded again when the index is next built; until
// then only its words can find it.
func (s *Store) embedFact(ctx context.Context, text string) []float32 {
	if s.embedder == nil {
		return nil
	}
	vs, err := s.embed(ctx, []string{text}, true)
	if err != nil {
		return nil
	}
	return vs[0]
}

// embedQuery embeds a lookup's text, or says why it could not.
func (s *Store) embedQuery(ctx context.Context, text string) ([]float32, string) {
	if s.embedder == nil {
		return nil, "semantic lookup without an embedder: matched on words and topics only"
	}
	vs, err := s.embed(ctx, []string{text}, false)
	if err != nil {
		return nil, fmt.Sprintf("semantic lookup failed, matched on words and topics only: %v", err)
	}
	return vs[0], ""
}

// embed asks the embedder for the vectors of texts and refuses those no
// lookup could use, whatever embedder made them (the caller's own too): not
// one per text, empty, longer than reconcile.MaxVectorLen, holding NaN or
// Inf, or of another dimension than the vectors the store holds, which a
// lookup could not compare with them. A store with none yet takes the
// dimension of the first vector it keeps (keep); a query's is only
// compared.
func (s *Store) embed(ctx context.Context, texts []string, keep bool) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	vs, err := s.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if err := reconcile.CheckVectors(vs, len(texts)); err != nil {
		return nil, fmt.Errorf("embedder: %w", err)
	}
	if err := s.checkDim(ctx, len(vs[0]), keep); err != nil {
		return nil, err
	}
	return vs, nil
}

// checkDim refuses vectors of n values unless the store's vectors have n
// (or it has none, and keep makes n its dimension). The dimension is read
// from the file once and kept; the file lock makes this process the only
// writer, so no other can change it meanwhile.
func (s *Store) checkDim(ctx context.Context, n int, keep bool) error {
	d := s.vectorDim.Load()
	if d == 0 {
		var stored int
		// One dimension for the whole store: a lookup compares with
		// every user's vectors in one index.
		err := s.viewAll(ctx, func(tx *kv.Tx) error {
			var err error
			stored, err = tx.VectorDim()
			return err
		})
		if err != nil {
			return err
		}
		if stored > 0 {
			s.vectorDim.CompareAndSwap(0, int64(stored))
		} else if keep {
			s.vectorDim.CompareAndSwap(0, int64(n))
		}
		if d = s.vectorDim.Load(); d == 0 {
			return nil // a query before any vector: nothing to compare it with
		}
	}
	if int64(n) != d {
		return &reconcile.Failure{Reason: reconcile.ReasonVectorDim,
			Err: fmt.Errorf("embedder: vectors of %d values, but the store's have %d: another dimension, which a lookup cannot compare", n, d)}
	}
	return nil
}

// storedVectors fills in the embeddings of docs stored with their facts
// and returns the positions of those stored without one. It only reads:
// the indexer calls it after a write, holding no lock, and a fact changed
// since is the next change's to index. read runs the transaction: one
// user's, or every user's for the docs of a commit.
func (s *Store) storedVectors(docs []index.Doc, read func(fn func(tx *kv.Tx) error) error) (missing []int, err error) {
	if s.mode != LookupSemantic {
		return nil, nil
	}
	err = read(func(tx *kv.Tx) error {
		for i := range docs {
			tx.Use(docs[i].User) // ids are each user's
			v, err := tx.Vector(docs[i].ID)
			if err != nil {
				return err
			}
			docs[i].Vector = v
			if v == nil {
				missing = append(missing, i)
			}
		}
		return nil
	})
	return missing, err
}

// indexVectors fills in the stored embeddings of docs a commit wrote, for
// the candidate index that applies it.
func (s *Store) indexVectors(docs []index.Doc) error {
	if s.hookIndexApply != nil {
		s.hookIndexApply()
	}
	// A commit may hold writes of several users (the group commit), and
	// the index's callback has no context but the commit's, which is done.
	_, err := s.storedVectors(docs, func(fn func(tx *kv.Tx) error) error {
		return s.viewAll(context.Background(), fn)
	})
	return err
}

// userVectors reads the current facts of user with their embeddings, for
// the index to hold at the user's first semantic lookup (index.Nearest).
func (s *Store) userVectors(ctx context.Context, user string) ([]index.Doc, error) {
	var docs []index.Doc
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		return tx.UserIDs(user, true, func(id uint64, _ bool) error {
			r, err := tx.Get(id)
			if err != nil {
				return err
			}
			docs = append(docs, index.Doc{ID: r.ID, User: r.User, Text: r.Text})
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return docs, s.buildVectors(ctx, user, docs)
}

// buildVectors fills in the embeddings of docs for a user's first semantic
// lookup: those stored, and for facts stored without one what the
// embedder now returns (bounded by the lookup's context), which it keeps
// in the store (in memory only on a read-only store, where a user read
// again asks again). After a write nothing is asked again: a slow model
// must not hold every write. It writes in a transaction of its own,
// outside the group commit: a vector is no change the index must follow,
// and a fact changed since is the next change's to index.
func (s *Store) buildVectors(ctx context.Context, user string, docs []index.Doc) error {
	missing, err := s.storedVectors(docs, func(fn func(tx *kv.Tx) error) error {
		return s.view(ctx, user, fn)
	})
	if err != nil || len(missing) == 0 || s.embedder == nil {
		return err
	}
	texts := make([]string, len(missing))
	for j, i := range missing {
		texts[j] = docs[i].Text
	}
	vs, err := s.embed(ctx, texts, true)
	if err != nil {
		return nil // still unreachable, or its vectors refused: words will have to do
	}
	if s.db.ReadOnly() {
		for j, i := range missing {
			docs[i].Vector = vs[j]
		}
		return nil
	}
	return s.updateOutside(user, func(tx *kv.Tx) error {
		for j, i := range missing {
			if !tx.Has(docs[i].ID) {
				continue
			}
			if err := tx.PutVector(docs[i].ID, vs[j]); err != nil {
				return err
			}
			docs[i].Vector = vs[j]
		}
		return nil
	})
}
