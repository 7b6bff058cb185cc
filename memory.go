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
// (storage) with the semantics of states and time; it is the only package
// users import.
package memory

import (
	"context"
	"fmt"
	"os"
	"time"

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
	// NoSync skips fsync on commit: for tests and benchmarks only.
	NoSync bool
	// MaxTextRunes caps the length of a fact's text; 0 means DefaultMaxTextRunes.
	MaxTextRunes int
	// AutoBudget caps the current facts of OriginAuto per user; 0 means no cap.
	// Past it, writing another returns ErrBudgetExceeded. Facts the user stated
	// are never capped.
	AutoBudget int
}

// Store is an open memory file.
type Store struct {
	db       *kv.DB
	clock    func() time.Time
	maxRunes int
	budget   int

	// hookAfterInsert, when set by a test, runs inside Supersede between
	// writing the new fact and marking the old one.
	hookAfterInsert func() error
}

// Open opens the store at path, creating it if it does not exist. mode is the
// permission of a new file; 0 means 0600, as a file of personal data should
// be. A file locked by another process gives ErrLocked after
// Options.LockTimeout; a damaged file gives ErrCorrupt.
func Open(path string, mode os.FileMode, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxTextRunes < 0 || o.AutoBudget < 0 {
		return nil, fmt.Errorf("memory: negative limit in options")
	}
	db, err := kv.Open(path, mode, &kv.Options{LockTimeout: o.LockTimeout, ReadOnly: o.ReadOnly, NoSync: o.NoSync})
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	s := &Store{db: db, clock: o.Clock, maxRunes: o.MaxTextRunes, budget: o.AutoBudget}
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.maxRunes == 0 {
		s.maxRunes = DefaultMaxTextRunes
	}
	return s, nil
}

// Close releases the file and its lock.
func (s *Store) Close() error { return s.db.Close() }

// Path returns the file the store lives in.
func (s *Store) Path() string { return s.db.Path() }

// now is the record time of a write, taken inside its transaction so that
// record times follow commit order.
func (s *Store) now() int64 { return s.clock().UTC().UnixNano() }

func (s *Store) update(ctx context.Context, fn func(tx *kv.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(fn)
}

func (s *Store) view(ctx context.Context, fn func(tx *kv.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(fn)
}
