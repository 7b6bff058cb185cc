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
	client *api.Client
	host   string
	model  string
}

// NewEmbedder returns an Embedder for model ("" means DefaultEmbedModel).
// It does not contact Ollama until Embed.
func NewEmbedder(model string, opts *OllamaOptions) (*Embedder, error) {
	c, host, err := newClient(opts)
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	return &Embedder{client: c, host: host, model: cmp.Or(model, DefaultEmbedModel)}, nil
}

// Model names the embedding model.
func (e *Embedder) Model() string { return e.model }

// Embed returns one vector per text, in order.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	resp, err := e.client.Embed(ctx, &api.EmbedRequest{Model: e.model, Input: texts})
	if err != nil {
		return nil, fmt.Errorf("ollama embed at %s with %s: %w", e.host, e.model, err)
	}
	if len(resp.Embeddings) != len(texts) {
		return nil, fmt.Errorf("ollama embed: %d vectors for %d texts", len(resp.Embeddings), len(texts))
	}
	dim := len(resp.Embeddings[0])
	for _, v := range resp.Embeddings {
		if len(v) == 0 || len(v) != dim {
			return nil, fmt.Errorf("ollama embed: vectors of unequal or zero length")
		}
	}
	return resp.Embeddings, nil
}
