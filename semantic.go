package memory

import (
	"context"
	"fmt"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
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
// the write: the fact is stored without a vector and embedded again when
// the index is next built; until then only its words can find it.
func (s *Store) embedFact(ctx context.Context, text string) []float32 {
	if s.embedder == nil {
		return nil
	}
	vs, err := s.embedder.Embed(ctx, []string{text})
	if err != nil || len(vs) != 1 {
		return nil
	}
	return vs[0]
}

// embedQuery embeds a lookup's text, or says why it could not.
func (s *Store) embedQuery(ctx context.Context, text string) ([]float32, string) {
	if s.embedder == nil {
		return nil, "semantic lookup without an embedder: matched on words and topics only"
	}
	vs, err := s.embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Sprintf("semantic lookup failed, matched on words and topics only: %v", err)
	}
	if len(vs) != 1 {
		return nil, "semantic lookup got no vector, matched on words and topics only"
	}
	return vs[0], ""
}

// storedVectors fills in the embeddings of docs stored with their facts
// and returns the positions of those stored without one. It only reads:
// the indexer calls it after a write, holding no lock, and a fact changed
// since is the next change's to index.
func (s *Store) storedVectors(docs []index.Doc) (missing []int, err error) {
	if s.mode != LookupSemantic {
		return nil, nil
	}
	err = s.db.View(func(tx *kv.Tx) error {
		for i := range docs {
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

// buildVectors fills in the embeddings of docs for a build of the index:
// those stored, and for facts stored without one what the embedder now
// returns (bounded by the lookup's context), which it keeps in the store
// (in memory only on a read-only store). After a write nothing is asked
// again: a slow model must not hold every write. It writes in a
// transaction of its own, outside the group commit: the build holds
// writeMu, so no commit runs beside it, and a vector is no change the
// index must follow.
func (s *Store) buildVectors(ctx context.Context, docs []index.Doc) error {
	missing, err := s.storedVectors(docs)
	if err != nil || len(missing) == 0 || s.embedder == nil {
		return err
	}
	texts := make([]string, len(missing))
	for j, i := range missing {
		texts[j] = docs[i].Text
	}
	vs, err := s.embedder.Embed(ctx, texts)
	if err != nil || len(vs) != len(texts) {
		return nil // still unreachable: words will have to do
	}
	if s.db.ReadOnly() {
		for j, i := range missing {
			docs[i].Vector = vs[j]
		}
		return nil
	}
	return s.db.Update(func(tx *kv.Tx) error {
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
