package reconcile

import (
	"cmp"
	"context"
	"fmt"
	"math"

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
	if err := CheckVectors(resp.Embeddings, len(texts)); err != nil {
		return nil, fmt.Errorf("ollama embed at %s with %s: %w", e.ep.base, e.model, err)
	}
	return resp.Embeddings, nil
}

// MaxVectorLen bounds the values of one embedding. The largest models
// give 4,096; a reply far beyond that is a fault, and would fill the store
// (a vector is kept per fact).
const MaxVectorLen = 16384

// CheckVectors refuses embeddings no lookup can use: not one vector per
// text, a vector that is empty, longer than MaxVectorLen or holds NaN or
// Inf, or vectors of unequal lengths. Its errors are *Failure.
func CheckVectors(vs [][]float32, n int) error {
	if len(vs) != n {
		return &Failure{Reason: ReasonVectorCount, Err: fmt.Errorf("%d vectors for %d texts", len(vs), n)}
	}
	for i, v := range vs {
		switch {
		case len(v) == 0:
			return &Failure{Reason: ReasonVectorEmpty, Err: fmt.Errorf("vector %d of %d is empty", i+1, n)}
		case len(v) > MaxVectorLen:
			return &Failure{Reason: ReasonVectorLong, Err: fmt.Errorf("vector %d of %d has %d values, more than %d", i+1, n, len(v), MaxVectorLen)}
		case len(v) != len(vs[0]):
			return &Failure{Reason: ReasonVectorUnequal, Err: fmt.Errorf("vectors of unequal length: %d values, then %d", len(vs[0]), len(v))}
		}
		for j, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return &Failure{Reason: ReasonVectorValue, Err: fmt.Errorf("vector %d of %d holds %v at %d: NaN or Inf", i+1, n, x, j)}
			}
		}
	}
	return nil
}
