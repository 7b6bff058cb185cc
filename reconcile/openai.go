package reconcile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultOpenAIBaseURL is OpenAI's API, the base URL unless the options
// name another. As in OpenAI's SDKs, the base includes the version: chat
// goes to base+"/chat/completions", embeddings to base+"/embeddings".
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// OpenAIOptions say where an OpenAI-compatible server is, how to
// authenticate, and how long to wait for it. The package reads no
// environment variable: a command maps $OPENAI_BASE_URL and
// $OPENAI_API_KEY onto these itself.
type OpenAIOptions struct {
	// BaseURL is the server's API base, as the OpenAI SDKs take it
	// (https://api.openai.com/v1, http://127.0.0.1:8080/v1 for llama.cpp's
	// server, http://127.0.0.1:1234/v1 for LM Studio,
	// http://127.0.0.1:11434/v1 for Ollama); "" means DefaultOpenAIBaseURL.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer KEY"; "" sends no
	// Authorization header (local servers). It never appears in an error,
	// a decision or a description.
	APIKey string
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
}

// String shows the options without the key.
func (o OpenAIOptions) String() string {
	key := "none"
	if o.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("{BaseURL:%s APIKey:%s Timeout:%s}", o.BaseURL, key, o.Timeout)
}

// GoString shows the options without the key, for %#v.
func (o OpenAIOptions) GoString() string { return "reconcile.OpenAIOptions" + o.String() }

// newOpenAIEndpoint checks the options and returns the endpoint they name.
func newOpenAIEndpoint(o *OpenAIOptions) (*endpoint, error) {
	var opts OpenAIOptions
	if o != nil {
		opts = *o
	}
	timeout, err := checkTimeout(opts.Timeout)
	if err != nil {
		return nil, err
	}
	base, err := parseBaseURL(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	// A key read from a file keeps its newline: it is trimmed, and a
	// break inside it refused, as it would forge a header.
	key := strings.TrimSpace(opts.APIKey)
	if strings.ContainsAny(key, "\r\n") {
		return nil, fmt.Errorf("the API key holds a line break")
	}
	ep := &endpoint{client: newHTTPClient(timeout), base: base,
		header: http.Header{}, redact: func(s string) string { return s }}
	if key != "" {
		ep.header.Set("Authorization", "Bearer "+key)
		// A server may echo what it was sent (a proxy's error page, a
		// message quoting the key, a header): the key, and any prefix of
		// it a clip may have left, is cut from every text the server
		// sends before it is clipped or reaches an error.
		ep.redact = keyRedactor(key)
	}
	return ep, nil
}

// parseBaseURL checks an OpenAI base URL: http or https, a host, no query
// or fragment, no credentials (the key goes in APIKey). A trailing slash
// is dropped, so base+"/chat/completions" is what the SDKs request.
func parseBaseURL(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultOpenAIBaseURL, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("openai base URL: %w", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("openai base URL %q: scheme %q, want http or https", u.Redacted(), u.Scheme)
	case u.Host == "":
		return "", fmt.Errorf("openai base URL %q: no host", u.Redacted())
	case u.User != nil:
		return "", fmt.Errorf("openai base URL %q: credentials in the URL; give the key as the API key", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("openai base URL %q: a query or fragment, want a base such as %s", u.Redacted(), DefaultOpenAIBaseURL)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// OpenAI decides with a chat model behind an OpenAI-compatible Chat
// Completions endpoint (OpenAI, llama.cpp's server, LM Studio, vLLM,
// Ollama's /v1), through structured output with a strict JSON schema:
// the same protocol as Ollama, over another transport.
type OpenAI struct {
	modelDecider
}

// NewOpenAI returns an OpenAI-compatible decider for model ("" gives an
// error that wraps ErrNoModel: no server has a default). It does not
// contact the server until Decide.
func NewOpenAI(model string, opts *OpenAIOptions) (*OpenAI, error) {
	if strings.TrimSpace(model) == "" {
		return nil, fmt.Errorf("openai decider: %w", ErrNoModel)
	}
	ep, err := newOpenAIEndpoint(opts)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	t := openAIChat{ep: ep, model: model, defaultTemperature: new(atomic.Bool)}
	return &OpenAI{modelDecider{name: "openai", model: model, base: ep.base, t: t}}, nil
}

// openAIChat speaks POST {base}/chat/completions with
// response_format json_schema (strict), the nested form that OpenAI,
// Ollama's /v1, llama.cpp's server and LM Studio all read.
type openAIChat struct {
	ep    *endpoint
	model string
	// defaultTemperature is set once the server refused temperature 0
	// for this model (OpenAI's reasoning models take only their default).
	defaultTemperature *atomic.Bool
}

type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openAIChatRequest struct {
	Model               string          `json:"model"`
	Messages            []openAIMessage `json:"messages"`
	Temperature         *float64        `json:"temperature,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	Stream              bool            `json:"stream"`
	ResponseFormat      struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string          `json:"name"`
			Strict bool            `json:"strict"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

type openAIChatResponse struct {
	// Error is an error object some proxies send with a 200.
	Error   json.RawMessage `json:"error"`
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
}

func (c openAIChat) chat(ctx context.Context, msgs []chatMessage, name string, schema json.RawMessage) (chatReply, error) {
	req := openAIChatRequest{Model: c.model, MaxCompletionTokens: MaxAnswerTokens}
	if !c.defaultTemperature.Load() {
		req.Temperature = new(float64) // 0: the same facts, the same verdict
	}
	for _, m := range msgs {
		req.Messages = append(req.Messages, openAIMessage{Role: m.Role, Content: m.Content})
	}
	req.ResponseFormat.Type = "json_schema"
	req.ResponseFormat.JSONSchema.Name = name
	req.ResponseFormat.JSONSchema.Strict = true
	req.ResponseFormat.JSONSchema.Schema = schema
	var resp openAIChatResponse
	err := c.ep.post(ctx, "/chat/completions", &req, &resp)
	var se *StatusError
	if req.Temperature != nil && errors.As(err, &se) && se.Code == http.StatusBadRequest && se.Param == "temperature" {
		c.defaultTemperature.Store(true)
		req.Temperature = nil
		resp = openAIChatResponse{}
		err = c.ep.post(ctx, "/chat/completions", &req, &resp)
	}
	if err != nil {
		return chatReply{}, err
	}
	if len(resp.Choices) == 0 {
		if pe := providerError(resp.Error); len(resp.Error) > 0 && pe.msg != "" {
			return chatReply{}, &Failure{Reason: ReasonNoChoices, Code: errorCode(pe.code, pe.typ),
				Err: fmt.Errorf("the reply holds no choices but an error: %s", c.ep.text(pe.message(), 1000))}
		}
		return chatReply{}, &Failure{Reason: ReasonNoChoices, Err: errors.New("the reply holds no choices")}
	}
	ch := resp.Choices[0]
	var r chatReply
	if ch.Message.Content != nil {
		r.content = c.ep.redact(*ch.Message.Content)
	}
	if ch.Message.Refusal != nil && strings.TrimSpace(*ch.Message.Refusal) != "" {
		r.refusal = c.ep.redact(*ch.Message.Refusal)
	}
	if ch.FinishReason != nil {
		r.finish = *ch.FinishReason
	}
	return r, nil
}

// maxEmbedBatch bounds the texts of one embeddings request (OpenAI takes
// at most 2048).
const maxEmbedBatch = 256

// OpenAIEmbedder turns texts into vectors with an OpenAI-compatible
// POST {base}/embeddings.
type OpenAIEmbedder struct {
	ep    *endpoint
	model string
}

// NewOpenAIEmbedder returns an embedder for model ("" gives an error that
// wraps ErrNoModel). It does not contact the server until Embed.
func NewOpenAIEmbedder(model string, opts *OpenAIOptions) (*OpenAIEmbedder, error) {
	if strings.TrimSpace(model) == "" {
		return nil, fmt.Errorf("openai embedder: %w", ErrNoModel)
	}
	ep, err := newOpenAIEndpoint(opts)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	return &OpenAIEmbedder{ep: ep, model: model}, nil
}

// Model names the embedding model.
func (e *OpenAIEmbedder) Model() string { return e.model }

// Describe says what the embedder waits for: "MODEL at BASEURL".
func (e *OpenAIEmbedder) Describe() string { return e.model + " at " + e.ep.base }

// String is Describe, so that printing an embedder never shows its key.
func (e *OpenAIEmbedder) String() string { return "openai embedder " + e.Describe() }

type openAIEmbedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type openAIEmbedResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed returns one vector per text, in order: the reply's data are put
// in the order of their index, each index 0..n-1 exactly once.
func (e *OpenAIEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var out [][]float32
	for start := 0; start < len(texts); start += maxEmbedBatch {
		batch := texts[start:min(start+maxEmbedBatch, len(texts))]
		vs, err := e.embed(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("openai embed at %s with %s: %w", e.ep.base, e.model, err)
		}
		out = append(out, vs...)
	}
	if err := CheckVectors(out, len(texts)); err != nil {
		return nil, fmt.Errorf("openai embed at %s with %s: %w", e.ep.base, e.model, err)
	}
	return out, nil
}

func (e *OpenAIEmbedder) embed(ctx context.Context, texts []string) ([][]float32, error) {
	var resp openAIEmbedResponse
	if err := e.ep.post(ctx, "/embeddings", &openAIEmbedRequest{Model: e.model, Input: texts}, &resp); err != nil {
		return nil, err
	}
	// Counted per batch: a long batch beside a short one would sum right
	// and pair texts with the wrong vectors.
	if len(resp.Data) != len(texts) {
		return nil, &Failure{Reason: ReasonVectorCount, Err: fmt.Errorf("%d vectors for %d texts", len(resp.Data), len(texts))}
	}
	data := resp.Data
	sort.SliceStable(data, func(i, j int) bool { return idx(data[i].Index) < idx(data[j].Index) })
	vs := make([][]float32, len(data))
	for i, d := range data {
		if d.Index == nil || *d.Index != i {
			return nil, &Failure{Reason: ReasonVectorCount, Err: fmt.Errorf("the reply's indexes are not 0 to %d, each once", len(texts)-1)}
		}
		vs[i] = d.Embedding
	}
	return vs, nil
}

func idx(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}
