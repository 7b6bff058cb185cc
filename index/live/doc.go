// Package live keeps the candidate index of an open store in line with
// its commits: it owns the index's life beside the store, from Open (which
// sweeps what processes now gone left in the store's folder of indexes)
// through the first lookup, which builds the index or opens the kept one
// and catches up from the commit it names, the background indexer that
// feeds it each committed write, the purge after a Delete, the drop after a
// fault and the rebuild that follows, to Close, after which only the kept
// index is left. For a store whose users each have a revision of their
// own, which other processes write too (one on a cluster), it owns the
// catch-up of each user instead: the revision of each user the index
// holds, and the read of the user again when a lookup needs a later one
// (follow.go). It also keeps the analyses of the facts lookups returned
// lately.
//
// live is for package memory (and its tests); it is not a public API. Its
// surface is Open, Index.Sync, Index.Search, Index.Purge, Index.Check,
// Index.Drop and Index.Close, and for a store of per-user revisions
// Index.SearchAt, Index.SyncUser and Index.Follow, with the few calls a
// lookup needs beside them (Analyzer, Generation, Terms, Closed); what a
// store is to it is a Source, a Change and UserFacts. It reads the store
// only through the Source it is given, so what a fact is to the index is
// the store's to say.
//
// Stable: nothing; every identifier changes with package memory, which maps
// ErrClosed to its own. The imports test (imports_test.go in the module
// root) enforces that live imports of this module only index and internal
// packages: never kv, nor package memory, nor bleve, which it reaches
// through package index.
package live
