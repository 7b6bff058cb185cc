// Package index finds the current facts a new fact may update or
// contradict: its candidates. It owns text analysis (words, stems, roots,
// topics), the Bleve index of the current facts and the in-memory vectors
// of the semantic mode.
//
// index is the only package that imports bleve. Its data is derived: the
// caller rebuilds it from the store at open and feeds it every change after
// commit, so it is never the source of truth. It must not import bbolt, the
// Ollama client or any other package of this module but the internal ones
// (internal/fold, internal/term, internal/wordlist).
package index
