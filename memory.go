package memory

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/index/live"
	"github.com/palimpsest-mem/memory/kv"
)

// DefaultMaxTextRunes is the longest fact text, in runes, unless
// Options.MaxTextRunes says otherwise.
const DefaultMaxTextRunes = 600

// MaxUserLen is the longest user name, in bytes.
const MaxUserLen = 128

// Options configure a Store. A nil *Options means all defaults.
type Options struct {
	// Clock returns the current record time; nil means time.Now. Tests inject
	// their own to tell stories that span months.
	Clock func() time.Time
	// LockTimeout bounds the wait for another process's lock on the file;
	// 0 means one second. Past it Open returns ErrLocked.
	LockTimeout time.Duration
	// ReadOnly opens the file for reading only; writes return ErrReadOnly.
	ReadOnly bool
	// NoSync skips fsync on commit, and Close does not wait for the kept
	// candidate index to reach its files (the next Open catches up): for
	// tests and benchmarks only.
	NoSync bool
	// MaxTextRunes caps the length of a fact's text; 0 means DefaultMaxTextRunes.
	MaxTextRunes int
	// AutoBudget caps the current facts of OriginAuto per user; 0 means no cap.
	// Past it, writing another returns ErrBudgetExceeded. Facts the user stated
	// are never capped.
	AutoBudget int
	// Lookup is how Candidates, and so Remember, find similar facts; ""
	// means LookupTopics, which finds the most of what a new fact updates.
	Lookup LookupMode
	// Embedder computes embeddings for LookupSemantic; nil means
	// OllamaEmbedder("", nil): Ollama on this machine with
	// DefaultEmbedModel. When it fails, a semantic lookup falls back to
	// words and says so. Other lookups do not use it.
	Embedder Embedder

	// Decider decides what Remember does with a new fact; nil means
	// RulesDecider() (no model). See AddDecider and OllamaDecider, or
	// implement one.
	Decider Decider
	// Claimer states the claims of a new fact where the decider's answer
	// does not carry them — a RulesDecider, AddDecider or a Decider of your
	// own — in one extra, small model call per Remember (see OllamaClaimer,
	// OpenAIClaimer). nil means none: the rules' claims are stored. A model
	// decider needs none: its decisions carry the claims. When the call
	// fails, the rules' claims are stored and the decision says why. Add
	// and Supersede, which log no decision to say so, never call it: they
	// store the note's claims or the rules'.
	Claimer Claimer
	// Fallback is what Remember does when the decider fails or times out:
	// FallbackAdd (the default) adds the fact, FallbackError refuses it.
	// Either way the decision records the fallback and its reason.
	Fallback FallbackPolicy
}

// Store is an open memory: a file (Open) or a cluster (OpenBackend).
type Store struct {
	db *kv.DB
	// be is the backend of a store opened by OpenBackend (db is nil then),
	// beOpts what its transactions need of this package.
	be     kv.Backend
	beOpts *kv.UserOptions
	// beAll is held shared by every commit on a backend and exclusively by
	// what must see no commit run (the index's build, Check); beUsers
	// orders each user's commits (updateBackend).
	beAll    sync.RWMutex
	beUsers  [64]sync.Mutex
	clock    func() time.Time
	maxRunes int
	budget   int
	mode     LookupMode
	// live is the candidate index beside the store file, in its private
	// directory <store>.index: the index is personal data, so it stays
	// with the store, not in a shared temporary directory.
	live     *live.Index
	embedder Embedder // nil unless the lookup is semantic
	decider  Decider
	claimer  Claimer // nil: none
	fallback FallbackPolicy

	// writeMu is held by each commit until the candidate index has
	// queued its changes, so the index sees changes in commit order, and
	// by what must see the store still: an index build, Check, Repair.
	writeMu sync.Mutex
	// deleting is held shared by each Delete from its commit until its
	// scrub ends, and exclusively by Check, so a Check beside a Delete
	// waits for its scrub instead of reporting it pending.
	deleting sync.RWMutex
	commit   committer
	lists    listCache

	// hookAfterInsert, when set by a test, runs inside Supersede between
	// writing the new fact and marking the old one.
	hookAfterInsert func() error
	// hookBeforeScrub, when set by a test, runs in Delete between its
	// commit and its scrub.
	hookBeforeScrub func()
	// hookIndexApply, when set by a test, runs when the candidate index
	// applies a batch of commits, before it reads their vectors.
	hookIndexApply func()

	// vectorDim is the dimension of the store's vectors, 0 until known
	// (semantic.go, checkDim).
	vectorDim atomic.Int64
}

// Open opens the store at path, creating it if it does not exist. mode is the
// permission of a new file; 0 means 0600, as a file of personal data should
// be. A file locked by another process gives ErrLocked after
// Options.LockTimeout; a damaged file gives ErrCorrupt; a directory, FIFO,
// socket, device, empty file or dangling symlink gives ErrNotStore at once.
// A symlink is followed: the store is its target, and stays one file.
// A new store is created whole, and removed again at Close if nothing was
// ever written to it (a successful Import is a write, even of no fact).
// A store one of whose meta pages failed its checksum opens, but is
// stale (see Stale and Repair). Open removes from the folder
// <store>.index, if the store made it, the candidate indexes of processes
// that are gone; it touches nothing else there, and never fails on it.
func Open(path string, mode os.FileMode, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	// Options are checked before the file is touched: a bad one opens,
	// creates and sweeps nothing.
	s, err := newStore(o)
	if err != nil {
		return nil, err
	}
	db, err := kv.Open(path, mode, &kv.Options{LockTimeout: o.LockTimeout, ReadOnly: o.ReadOnly, NoSync: o.NoSync, LogOwner: logOwner, LogFacts: conflictFacts,
		Upgrade: upgradeConflicts(o.Clock)})
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	s.db = db
	// The process that holds the store for writing keeps its candidate
	// index beside it, for the next process to open at once (the semantic
	// mode's vectors stay in the store, read a user at a time).
	keep := !db.ReadOnly()
	s.live, err = live.Open(db.Path(), live.Options{Mode: s.mode, ReadOnly: db.ReadOnly(), Keep: keep, Discard: db.PendingAtOpen(), QuickClose: o.NoSync, Writes: &s.writeMu,
		Source: live.Source{Page: s.indexPage, Vectors: s.indexVectors, Head: s.indexHead, Since: s.indexSince}})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("memory: %w", err)
	}
	return s, nil
}

// newStore is a Store of options o, checked, without its storage.
func newStore(o Options) (*Store, error) {
	if o.MaxTextRunes < 0 {
		return nil, fmt.Errorf("memory: Options.MaxTextRunes = %d, want 0 (DefaultMaxTextRunes) or more", o.MaxTextRunes)
	}
	if o.AutoBudget < 0 {
		return nil, fmt.Errorf("memory: Options.AutoBudget = %d, want 0 (no cap) or more", o.AutoBudget)
	}
	if o.Lookup == "" {
		o.Lookup = LookupTopics
	}
	if _, err := index.ParseMode(string(o.Lookup)); err != nil {
		return nil, fmt.Errorf("memory: Options.Lookup: %w", err)
	}
	fallback, err := fallbackPolicy(o.Fallback)
	if err != nil {
		return nil, fmt.Errorf("memory: Options.Fallback: %w", err)
	}
	var embedder Embedder
	if o.Lookup == LookupSemantic {
		if embedder = o.Embedder; embedder == nil {
			if embedder, err = OllamaEmbedder("", nil); err != nil {
				return nil, err
			}
		}
	}
	s := &Store{clock: o.Clock, maxRunes: o.MaxTextRunes, budget: o.AutoBudget, mode: o.Lookup}
	s.decider = o.Decider
	if s.decider == nil {
		s.decider = RulesDecider()
	}
	s.fallback, s.embedder, s.claimer = fallback, embedder, o.Claimer
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.maxRunes == 0 {
		s.maxRunes = DefaultMaxTextRunes
	}
	return s, nil
}

// Close releases the file and its lock and removes the candidate index. It
// cancels an index build in progress and waits for it to end, so that no
// index outlives the store. A Check under way ends first; one that Close
// overtakes returns ErrClosed, as every call after Close does.
func (s *Store) Close() error {
	s.live.Close()
	if s.be != nil {
		return s.be.Close()
	}
	return s.db.Close()
}

// Path returns the file the store lives in; "" for a store on a cluster
// (OpenBackend).
func (s *Store) Path() string {
	if s.be != nil {
		return "" // no file: a cluster
	}
	return s.db.Path()
}

// ValidRecordTime returns nil for a time a store can record, else an
// error wrapping ErrInvalidClock. A record time is the clock's reading in
// Unix nanoseconds, which hold 1677-09-21T00:12:43.145224192Z to
// 2262-04-11T23:47:16.854775807Z; the zero time is outside (it meant "no
// clock given" to memctl). Event times keep to the narrower years 1900 to
// 2199 (ErrInvalidTime). A program checks a clock taken from outside with
// it, before the write that would refuse it.
func ValidRecordTime(t time.Time) error {
	if t.IsZero() || !t.Equal(time.Unix(0, t.UnixNano())) {
		return fmt.Errorf("%s: %w", t.UTC().Format(time.RFC3339Nano), ErrInvalidClock)
	}
	return nil
}

// checkClock refuses a write while the clock reads a time no record can
// hold: outside Unix nanoseconds it wrapped (1600 was stored as 2184, 2263
// as 1970). Every write passes it before anything runs (update, Repair).
func (s *Store) checkClock() error {
	if err := ValidRecordTime(s.clock()); err != nil {
		return fmt.Errorf("the store's clock reads %w", err)
	}
	return nil
}

// now is the record time of a write, taken inside its transaction so that
// record times follow commit order; checkClock has let the write through.
// Zero marks "unset" in records, so the one instant that encodes as zero
// (the Unix epoch) is recorded a nanosecond later; a clock that left the
// range since the check is held at its edge rather than wrapped.
func (s *Store) now() int64 {
	t := s.clock()
	switch {
	case ValidRecordTime(t) == nil:
		return cmp.Or(t.UnixNano(), 1)
	case t.Before(time.Unix(0, 0)):
		return math.MinInt64
	}
	return math.MaxInt64
}

// view runs fn in a read transaction of user's data. fn reads that user's
// facts and logs only: the helpers it reads through (getUser, getLog,
// UserIDs) refuse or skip another user's. On the bbolt file one
// transaction sees every user; a backend that keeps each user apart gives
// fn a snapshot of user alone, so a read that spans users goes through
// viewAll, never through here.
func (s *Store) view(ctx context.Context, user string, fn func(tx *kv.Tx) error) error {
	if s.be != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		return kv.ViewUser(ctx, s.be, user, s.beOpts, fn)
	}
	return s.viewAll(ctx, func(tx *kv.Tx) error {
		tx.Use(user)
		return fn(tx)
	})
}

// viewAll runs fn in a read transaction over every user's data, for the
// few readers that must span users (the users list, Export, Check, the
// candidate index's build and catch-up and a commit's vectors, Import's
// emptiness test, the store's vector dimension); each call says why it
// cannot be one user's.
func (s *Store) viewAll(ctx context.Context, fn func(tx *kv.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.be != nil {
		return fmt.Errorf("a read across users: %w", ErrUnsupported)
	}
	return s.db.View(fn)
}
