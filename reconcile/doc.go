// Package reconcile talks to local models through Ollama: it embeds texts
// for the semantic lookup and, with the deciders, judges what a new fact does
// to the facts it may update or contradict.
//
// reconcile is the only package that imports the Ollama client. It knows
// nothing of storage or indexing and must not import bbolt, bleve or any
// other package of this module but the internal ones it shares with them
// (internal/fold, internal/clip, internal/term, internal/wordlist).
//
// The rules decider's marker phrases are data: markers/correction.txt and
// markers/change.txt, built in with go:embed; each file says its format.
package reconcile
