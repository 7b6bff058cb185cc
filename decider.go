package memory

import (
	"fmt"
	"time"

	"github.com/palimpsest-mem/memory/reconcile"
)

// Decider decides what Remember does with a new fact: add it beside the
// candidates, update or invalidate one, or nothing (noop). Build one with
// RulesDecider, AddDecider, OllamaDecider or OpenAIDecider, or implement
// it: Decide gets the new fact and its candidates, numbered 1..n, and
// answers a Verdict naming one by its number. A verdict that updates or
// invalidates a pinned candidate is kept as an add in conflict with it:
// automation never changes a pinned fact, and the conflict queue shows
// the disagreement.
type Decider = reconcile.Decider

// DecideInput is what a Decider decides on: the new fact, when it was said,
// and its candidates.
type DecideInput = reconcile.Input

// DecideCandidate is a stored fact as a Decider sees it, with the lookup's
// evidence.
type DecideCandidate = reconcile.Candidate

// Verdict is a Decider's answer. Remember validates it against the input
// and logs it as a Decision. A Decider that sets ClaimsGiven gives the new
// fact's claims in Claims (maybe none); Remember validates each, drops and
// lists the invalid ones (Decision.ClaimsNote), and stores the rest with
// the fact instead of the rules' claims.
type Verdict = reconcile.Verdict

// DefaultModelTimeout bounds one request to a model unless OllamaOptions
// or OpenAIOptions say otherwise: a chat model on a CPU can take tens of
// seconds.
const DefaultModelTimeout = reconcile.DefaultTimeout

// DefaultEmbedModel is the embedding model of OllamaEmbedder unless one is
// named.
const DefaultEmbedModel = reconcile.DefaultEmbedModel

// DefaultOllamaHost is where Ollama is unless OllamaOptions say otherwise.
const DefaultOllamaHost = reconcile.DefaultHost

// DefaultOpenAIBaseURL is OpenAI's API, where OpenAIDecider and
// OpenAIEmbedder go unless OpenAIOptions say otherwise.
const DefaultOpenAIBaseURL = reconcile.DefaultOpenAIBaseURL

// ErrNoModel: OllamaDecider, OpenAIDecider or OpenAIEmbedder without a
// model name.
var ErrNoModel = reconcile.ErrNoModel

// OllamaOptions say where Ollama is and how long to wait for it. A nil
// *OllamaOptions means all defaults.
type OllamaOptions struct {
	// Host is Ollama's address in the forms $OLLAMA_HOST takes (a URL, or
	// host[:port] meaning http on port 11434 unless one is given); ""
	// means DefaultOllamaHost. The library does not read $OLLAMA_HOST:
	// memctl does, and passes it here.
	Host string
	// Timeout bounds each request to the model; 0 means
	// DefaultModelTimeout.
	Timeout time.Duration
}

func (o *OllamaOptions) reconcile() *reconcile.OllamaOptions {
	if o == nil {
		return nil
	}
	return &reconcile.OllamaOptions{Host: o.Host, Timeout: o.Timeout}
}

// OpenAIOptions say where an OpenAI-compatible server is, how to
// authenticate, and how long to wait for it. A nil *OpenAIOptions means
// all defaults: OpenAI's API, no key, DefaultModelTimeout.
type OpenAIOptions struct {
	// BaseURL is the API base as the OpenAI SDKs take it, version
	// included; requests go to BaseURL+"/chat/completions" and
	// BaseURL+"/embeddings". "" means DefaultOpenAIBaseURL. Local servers:
	// http://127.0.0.1:8080/v1 (llama.cpp's llama-server),
	// http://127.0.0.1:1234/v1 (LM Studio), http://127.0.0.1:11434/v1
	// (Ollama). The library does not read $OPENAI_BASE_URL: memctl does,
	// and passes it here.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer KEY"; "" sends none, as
	// local servers want. It is never written to the store, a decision,
	// an error message or a description.
	APIKey string
	// Timeout bounds each request to the model; 0 means
	// DefaultModelTimeout.
	Timeout time.Duration
}

// String shows the options without the key.
func (o OpenAIOptions) String() string { return o.reconcile().String() }

// GoString shows the options without the key, for %#v.
func (o OpenAIOptions) GoString() string { return "memory.OpenAIOptions" + o.String() }

func (o *OpenAIOptions) reconcile() *reconcile.OpenAIOptions {
	if o == nil {
		return nil
	}
	return &reconcile.OpenAIOptions{BaseURL: o.BaseURL, APIKey: o.APIKey, Timeout: o.Timeout}
}

// Describer is what the model deciders and embedders of this package
// implement besides Decider or Embedder: Describe says what they wait
// for, "MODEL at URL" (the URL without credentials, never the key), so a
// program can tell its user while a model call takes long.
type Describer interface {
	Describe() string
}

// RulesDecider decides without a model: it acts only on explicit markers
// ("now", "moved", "I was wrong") and otherwise adds. It is the decider of
// a store whose Options.Decider is nil.
func RulesDecider() Decider { return reconcile.Rules{} }

// AddDecider always adds, as the system this project grew from did; it is
// kept for comparison.
func AddDecider() Decider { return reconcile.AddAll{} }

// OllamaDecider asks a local chat model through Ollama's structured output,
// and once more with the error fed back if the answer is invalid. model
// must be named (else the error wraps ErrNoModel). It does not contact
// Ollama until Remember asks it.
func OllamaDecider(model string, opts *OllamaOptions) (Decider, error) {
	d, err := reconcile.NewOllama(model, opts.reconcile())
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return d, nil
}

// OllamaEmbedder embeds texts with Ollama's embed endpoint, for
// LookupSemantic; model "" means DefaultEmbedModel. It does not contact
// Ollama until the first embedding.
func OllamaEmbedder(model string, opts *OllamaOptions) (Embedder, error) {
	e, err := reconcile.NewEmbedder(model, opts.reconcile())
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return e, nil
}

// OpenAIDecider asks a chat model behind an OpenAI-compatible
// POST {BaseURL}/chat/completions (OpenAI, llama.cpp's server, LM Studio,
// vLLM, Ollama's /v1) with a strict JSON schema, in the same protocol as
// OllamaDecider: the same prompt, temperature 0, and once more with the
// error fed back if the answer is invalid. model must be named (else the
// error wraps ErrNoModel). It does not contact the server until Remember
// asks it.
func OpenAIDecider(model string, opts *OpenAIOptions) (Decider, error) {
	d, err := reconcile.NewOpenAI(model, opts.reconcile())
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return d, nil
}

// OpenAIEmbedder embeds texts with an OpenAI-compatible
// POST {BaseURL}/embeddings, for LookupSemantic. model must be named (else
// the error wraps ErrNoModel): OpenAI-compatible servers have no common
// default. It does not contact the server until the first embedding.
func OpenAIEmbedder(model string, opts *OpenAIOptions) (Embedder, error) {
	e, err := reconcile.NewOpenAIEmbedder(model, opts.reconcile())
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return e, nil
}

// Claimer states the claims of a fact without deciding anything: Remember
// asks Options.Claimer where the decider's answer carries no claims. Its
// answer's claims are validated again before they are stored.
type Claimer = reconcile.Claimer

// ClaimsAnswer is a Claimer's answer: the claims, and what of the model's
// answer was dropped and why.
type ClaimsAnswer = reconcile.ClaimsAnswer

// OllamaClaimer asks a local chat model through Ollama's structured output
// for a fact's claims alone, with its own small schema, for Options.Claimer.
// model must be named (else the error wraps ErrNoModel).
func OllamaClaimer(model string, opts *OllamaOptions) (Claimer, error) {
	d, err := reconcile.NewOllama(model, opts.reconcile())
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return d, nil
}

// OpenAIClaimer asks a chat model behind an OpenAI-compatible
// POST {BaseURL}/chat/completions, with a strict schema, for a fact's
// claims alone, for Options.Claimer. model must be named (else the error
// wraps ErrNoModel).
func OpenAIClaimer(model string, opts *OpenAIOptions) (Claimer, error) {
	d, err := reconcile.NewOpenAI(model, opts.reconcile())
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return d, nil
}

// MaxDecisionText bounds, in bytes, the Reason and Raw of a Verdict kept
// in the decision log; longer ones are cut at a rune boundary.
const MaxDecisionText = reconcile.MaxRaw
