package reconcile

import (
	"cmp"
	"context"
	"fmt"

	"github.com/ollama/ollama/api"
)

// DefaultEmbedModel is the embedding model used unless one is named.
const DefaultEmbedModel = "nomic-embed-text"

// Embedder turns texts into vectors with Ollama's /api/embed.
type Embedder struct {
	ep    *endpoint
	model string
}

// NewEmbedder returns an Embedder for model ("" means DefaultEmbedModel).
// It does not contact Ollama until Embed.
func NewEmbedder(model string, opts *OllamaOptions) (*Embedder, error) {
	ep, err := newOllamaEndpoint(opts)
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	return &Embedder{ep: ep, model: cmp.Or(model, DefaultEmbedModel)}, nil
}

// Model names the embedding model.
func (e *Embedder) Model() string { return e.model }

// Describe says what the embedder waits for: "MODEL at HOST".
func (e *Embedder) Describe() string { return e.model + " at " + e.ep.base }

// Embed returns one vector per text, in order.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	var resp api.EmbedResponse
	if err := e.ep.post(ctx, "/api/embed", &api.EmbedRequest{Model: e.model, Input: texts}, &resp); err != nil {
		return nil, fmt.Errorf("ollama embed at %s with %s: %w", e.ep.base, e.model, err)
	}
	if err := checkVectors(resp.Embeddings, len(texts)); err != nil {
		return nil, fmt.Errorf("ollama embed at %s with %s: %w", e.ep.base, e.model, err)
	}
	return resp.Embeddings, nil
}

// checkVectors refuses a reply that is not one vector per text, all of
// one non-zero length.
func checkVectors(vs [][]float32, n int) error {
	if len(vs) != n {
		return fmt.Errorf("%d vectors for %d texts", len(vs), n)
	}
	for _, v := range vs {
		if len(v) == 0 || len(v) != len(vs[0]) {
			return fmt.Errorf("vectors of unequal or zero length")
		}
	}
	return nil
}
