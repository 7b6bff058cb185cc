// Package reconcile talks to models: it embeds texts for the semantic
// lookup and, with the deciders, judges what a new fact does to the facts
// it may update or contradict. The model deciders share one protocol
// (chat.go: prompt, schema, parsing, one retry with the error fed back)
// over two transports in plain net/http: Ollama's /api/chat
// (ollama_decider.go) and an OpenAI-compatible /chat/completions
// (openai.go). Embeddings go to Ollama's /api/embed (embed.go) or an
// OpenAI-compatible /embeddings (openai.go).
//
// reconcile is for package memory, which composes it with the store, and for
// callers who write their own Decider or Claimer against memory's aliases. It
// is the only package that imports the Ollama client (for its wire types). It
// knows nothing of storage or indexing: of this module it imports claims (the
// relations a Claimer answers with), eventtime (the range a model's dates are
// held to) and internal packages (internal/fold, internal/clip,
// internal/term, internal/wordlist), never package memory, kv or index.
//
// Stable: what package memory re-exports as aliases (Decider, Input,
// Candidate, Verdict, Action and its values, Claimer, ClaimsAnswer, the
// Default* settings, ErrNoModel, MaxRaw); every other identifier changes with
// package memory. The imports test (imports_test.go in the module root)
// enforces that reconcile imports of this module only claims, eventtime and
// internal packages.
//
// The rules decider's marker phrases are data: markers/correction.txt and
// markers/change.txt, built in with go:embed; each file says its format.
package reconcile
