// Package reconcile talks to models: it embeds texts for the semantic
// lookup and, with the deciders, judges what a new fact does to the facts
// it may update or contradict. The model deciders share one protocol
// (chat.go: prompt, schema, parsing, one retry with the error fed back)
// over two transports in plain net/http: Ollama's /api/chat
// (ollama_decider.go) and an OpenAI-compatible /chat/completions
// (openai.go). Embeddings go to Ollama's /api/embed (embed.go) or an
// OpenAI-compatible /embeddings (openai.go).
//
// reconcile is the only package that imports the Ollama client (for its
// wire types). It knows
// nothing of storage or indexing and must not import bbolt, bleve or any
// other package of this module but the internal ones it shares with them
// (internal/fold, internal/clip, internal/term, internal/wordlist).
//
// The rules decider's marker phrases are data: markers/correction.txt and
// markers/change.txt, built in with go:embed; each file says its format.
package reconcile
