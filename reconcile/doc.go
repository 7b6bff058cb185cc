// Package reconcile talks to local models through Ollama: it embeds texts
// for the semantic lookup and, with the deciders, judges what a new fact does
// to the facts it may update or contradict.
//
// reconcile is the only package that imports the Ollama client. It knows
// nothing of storage or indexing and must not import bbolt, bleve or any
// other package of this module but the internal ones it shares with them
// (internal/term: the evidence terms of its input).
package reconcile
