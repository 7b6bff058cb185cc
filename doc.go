// Package memory is a bi-temporal memory of facts about an assistant's user.
//
// Every fact carries two time axes. Record time says when the store learned a
// fact (RecordedAt) and when it stopped believing it (ValidUntil). Event time
// says when the fact was true in the world (EventFrom, EventUntil). A fact
// that stops being true is marked, never erased: Supersede and Invalidate set
// ValidUntil, Restore clears it, and each step is kept in an append-only
// lifecycle log, so At can answer both "where did I work in May?" and "what
// did you believe on 1 August?". Only Delete erases, and then every copy.
//
// A Store is one bbolt file, safe for concurrent use by many goroutines and
// locked against other processes. Package memory composes the kv package
// (storage), the index package (candidate lookup) and the reconcile package
// (deciders and embeddings) with the semantics of states and time. The
// README's guide by operation and its "What the store promises" section
// state that semantics; errors.go lists every sentinel error.
//
// # Source map
//
// The public API and its semantics:
//
//	memory.go      Open, Close, Options, the Store and its time checks
//	fact.go        Fact, Note, Change, Source, State, Event; input checks
//	lifecycle.go   Add, Supersede, Invalidate, Restore, Pin, Unpin
//	transition.go  the transition table of a fact's states (next): step,
//	               the one way every write moves a fact on, and replay,
//	               the fold of a log Check and Import compare with a record
//	query.go       Get, List, Events, History
//	users.go       Users, ValidUser: the users a store holds, a name's check
//	timeline.go    At: event intervals as known at a record time
//	prompt.go      Prompt, ExplainPrompt: the facts ranked (pinned, relevance,
//	               freshness) within a budget, with notes on open conflicts
//	search.go      Search: a question's read path, its options, the text and
//	               recency rankers and the fusion; search_graph.go the
//	               entities, roles and relations a question names;
//	               search_time.go the period it names
//	remember.go    Remember: candidates, the decider's verdict, the executor
//	plan.go        Remember's verdict and its plan, decided before any write
//	decider.go     Decider and Embedder values: rules, add, Ollama,
//	               OpenAI-compatible; Describer
//	decision.go    Decisions, Undo, Conflicts, ResolveConflict
//	can.go         CanUndo, CanResolve: whether Undo or ResolveConflict would
//	               be done now, by the rule the write applies, without writing
//	conflicts.go   the conflict upkeep of every commit: a conflict moot when
//	               a fact of it changes, one derived from two current values
//	               of a single-valued relation, and Check's part for them
//	decision_delete.go  DeleteDecision: the hard delete of a decision no
//	               fact holds (a refusal), and its scrub
//	claim.go       Claim, Relation, EntityKind: what a fact states, and its checks
//	graph.go       Edges, Neighbours, EntityTimeline, Why: the graph derived
//	               from the facts' claims on both time axes
//	entity.go      MergeEntities, UndoMerge, Merges, Entities: the merge log
//	               of entities, applied as of the record time asked about
//	delete.go      Delete: the hard delete, and the scrub of the file's free pages
//	quote.go       what of a decision may quote a deleted fact, removed with it
//	export.go      Export: JSON Lines of everything
//	import.go      Import: the strict reader of an export, into an empty store
//	check.go       Check: bbolt's page check plus the store's invariants
//	logcheck.go    the invariants of decisions and conflicts, shared by the
//	               writes, Import and Check (merges': entity.go)
//	repair.go      Stale, Repair, Repairs: a store whose newest commit was lost
//	errors.go      the sentinel errors of the store
//
// Machinery beneath it:
//
//	commit.go      group commit: writes from many goroutines share transactions,
//	               each write scoped to the one user it is for (kv.Tx.Scope)
//	candidates.go  Candidates: what a candidate is, ranking, overlap
//	semantic.go    the semantic mode's embeddings, stored per fact
//	listcache.go   users' decoded lists, kept between writes
//
// Packages: kv (bbolt: records, logs, transactions, the scrub; the only
// importer of bbolt), index (text analysis, the lexicons in index/lexicons,
// the Bleve index; the only importer of bleve but the test-support package
// internal/indextest), index/live (the live candidate index beside the
// store: its build, the background indexer that follows commits, search,
// check, drop, close; on index, never kv or this package), internal/fold (ё folding and
// rune prefixes shared by index and reconcile), internal/clip (cutting a
// text to a byte bound at a rune boundary, for the root and reconcile),
// internal/term (the typed evidence term: word, root or synonym set, made
// by index, read by the root and reconcile), internal/wordlist (the strict
// line reader of the built-in word lists: index's lexicons, reconcile's
// markers, the claim patterns), claims (claim extraction by rules, English
// and Russian, patterns in claims/patterns), internal/claimscore (scoring
// labelled claims), reconcile (the deciders and embedders: the rules, and one
// model protocol over Ollama's /api/chat or an OpenAI-compatible
// /chat/completions, in plain net/http; the only importer of the Ollama
// client's types), eventtime (event time from English and Russian words),
// internal/ollamatest and internal/openaitest (fake Ollama and
// OpenAI-compatible servers for tests),
// inspect (the web inspector, an http.Handler on the public API alone),
// mcpserver (the store over the Model Context Protocol, on the public API
// and the official Go SDK: tools, their JSON shapes, a prompt, a stdio
// transport that survives malformed lines), bench (go run ./bench: speed,
// recall, decisions, dates, crashes, MCP calls) and cmd/memctl (the
// command line, on the public API alone; memctl mcp serves mcpserver).
package memory
