// Package inspect is the memory inspector: an http.Handler over a
// *memory.Store that shows a person what the assistant knows of them and
// what it believed before — current, upcoming, superseded and retracted
// facts, a fact's chain and lifecycle with provenance, the whole memory
// as lanes of chains as known at a chosen record time, a chain's
// bi-temporal diagram, the decision log with Undo, the conflict queue with Resolve, the
// candidates a fact was compared with, and an entity's edges over time.
//
// It owns the pages, their embedded templates and stylesheet, and the
// guards in front of them (loopback Host names only, an optional per-run
// token, http.CrossOriginProtection on every change, a change's form read
// once and refused unless it is a well-formed urlencoded form). It uses
// only the public API of package memory and must not import kv, index or
// reconcile.
// No page needs JavaScript.
package inspect
