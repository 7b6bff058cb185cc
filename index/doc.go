// Package index finds the current facts a new fact may update or
// contradict: its candidates. It owns text analysis (words, stems, roots,
// topics), the Bleve index of the current facts, each a document named by
// its user and id (DocKey: ids are unique only within a user's facts), and
// the in-memory vectors of the semantic mode.
//
// index is for package memory and index/live, which keeps an Index in line
// with the store (and for the bench and tests); it is not a public API. It is the only package that imports bleve, besides internal/indextest,
// which reads its segment files for tests. Its data is derived: the caller
// builds it from the store, or opens the one it kept (OpenKept) and brings
// it up to date from the commit its marker names, and feeds it every change
// after commit, so it is never the source of truth. It imports of this module only the
// internal packages (internal/fold, internal/fsx, internal/term,
// internal/wordlist).
//
// Stable: what package memory re-exports, Mode with its constants (as
// memory.LookupMode) and ErrDir (as memory.ErrIndexDir); every other
// identifier changes with package memory. The imports test (imports_test.go
// in the module root) enforces that bleve is imported by index and
// internal/indextest alone, and that index imports of this module only
// internal packages.
package index
