// Package kv owns the bbolt file behind a memory store: its buckets, the
// binary encoding of fact records and lifecycle events, transactions,
// compaction and the file-level consistency check.
//
// kv is for package memory (and the bench and tests, which open files
// below the public API); it is not a public API. It is the only package that
// imports bbolt. It knows nothing of event-time semantics, reconciliation or
// indexing: it stores what package memory hands it and keeps the per-user
// key indexes in step with each record.
//
// Stable: only the sentinel errors package memory re-exports (ErrNotFound,
// ErrLocked, ErrReadOnly, ErrCorrupt, ErrClosed, ErrNotStore, ErrStale,
// ErrLinked, ErrIDsExhausted); every other identifier changes with package
// memory. The imports test (imports_test.go in the module root) enforces
// that kv alone imports bbolt and that kv imports nothing of this module
// but internal/fsx.
package kv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Errors returned by this package; package memory re-exports them.
var (
	ErrNotFound = errors.New("not found")
	ErrLocked   = errors.New("store is locked by another process")
	ErrReadOnly = errors.New("store is open read-only")
	ErrCorrupt  = errors.New("store file is corrupt")
	ErrClosed   = errors.New("store is closed")
	// ErrNotStore: the path names something that cannot be a store: a
	// directory, a FIFO, a socket, a device, an empty file or a dangling
	// symlink. Unlike ErrCorrupt it says nothing about damage: nothing
	// at the path was ever a store of this package.
	ErrNotStore = errors.New("not a memory store")
	// ErrStale: a meta page failed its checksum, so the file may answer as
	// it was a commit earlier and the newest commit may have been lost
	// (which page was the newer cannot be told once one is damaged: if it
	// was the older, nothing was lost). Reads go on;
	// writes are refused until Repair.
	ErrStale = errors.New("store is answering from an older commit")
	// ErrLinked: the store file has more than one name (hard link). A
	// hard delete compacts the file into a new one under the store's
	// name; every other name would keep the old file, deleted text and
	// all, and the store would be split in two.
	ErrLinked = errors.New("store file has more than one name (hard link)")
	// ErrBusy: Beside while the file an earlier Beside made is still
	// being filled (another import is under way): both would have its name.
	ErrBusy = errors.New("a new file is already being filled beside the store (another import is under way)")
)

// formatVersion is written to the meta bucket of every new file; Open refuses
// a file of any other format rather than misreading it. Version 2 keeps the
// log beside the records and one per-user bucket; no store of version 1 was
// ever released. Version 3 indexes the conflicts and merges by user
// (userlogs.go): a writable Open makes a version 2 file version 3, and a
// program that reads version 2 only refuses it then, as it must, for its
// writes would leave the index behind. Version 4 may hold records of
// version 3 (where an event's end came from, record.go), which a program
// of version 3 could not decode: a writable Open marks the file version 4
// before any such record is written, so that program refuses the file at
// Open instead of calling its facts corrupt. Version 5 may hold records of
// version 4 (a fact that replaced several), and its open conflicts name
// only current facts: the upgrade runs Options.Upgrade in its commit.
// Version 6 keeps each user's data apart, with ids and counters of its
// own (userspace.go, upgrade6.go), in buckets of each user's; version 7
// keeps the same keys in buckets shared by every user, behind each user's
// prefix, and the records in the order they were written (byuser.go,
// places.go), so that a commit of many users writes about the pages
// format 5 did. A writable Open moves an older file into that layout, a
// read-only one reads it as it is.
const (
	formatVersion   = 7
	formatVersionV6 = 6
	formatVersionV5 = 5
	formatVersionV4 = 4
	formatVersionV3 = 3
	formatVersionV2 = 2
)

// Options configure Open. The zero value means defaults.
type Options struct {
	// LockTimeout bounds the wait for the file lock; 0 means one second.
	// bbolt's own default waits forever, which turns a second process into a hang.
	LockTimeout time.Duration
	// ReadOnly opens the file with a shared lock; writes fail with ErrReadOnly.
	ReadOnly bool
	// NoSync skips fsync on commit. For tests and benchmarks only: a crash
	// can lose or corrupt acknowledged writes.
	NoSync bool
	// LogOwner names the user of a conflict or merge, for the per-user
	// index of those logs; nil indexes every entry as of no known user,
	// which each user's read then visits.
	LogOwner LogOwner
	// LogFacts names the facts an entry of the log is found by; nil
	// indexes none.
	LogFacts LogFacts
	// Upgrade, when set, runs in the commit that makes a file of an
	// earlier format (from) current, after kv's own changes: what the
	// caller's data must hold from that format on.
	Upgrade func(tx *Tx, from uint64) error
}

// DB is an open store file. It is safe for concurrent use.
type DB struct {
	// mu is held shared by every transaction and exclusively by Compact and
	// Close, which replace or drop the bbolt handle.
	mu   sync.RWMutex
	bolt *bolt.DB
	path string // the real file: a symlink is resolved at Open
	mode os.FileMode
	opts Options
	// created is the file this Open created, nil if it existed: Close
	// removes it again if nothing was ever written to it.
	created os.FileInfo
	// stale is set when a meta page failed its checksum at Open: bbolt
	// then reads the file as it was a commit earlier. Writes are refused
	// until Repair, whose commit rewrites that page.
	stale *staleState
	// logsIndexed: the file is of format 3 or later, its log index whole.
	logsIndexed bool
	// pendingAtOpen: a hard delete's compaction was pending at Open.
	pendingAtOpen bool
	// format is the file's format version as opened (or made current).
	format uint64
	// of is the store whose Beside made this one, for Replace to put in
	// place (nil for a store opened). filling is the one Beside made of
	// this store and neither Replace nor Discard has ended yet: one at a
	// time, since both would have the same name.
	of      *DB
	filling *DB
	// chown, when set by a test, stands in for (*os.File).Chown.
	chown func(f *os.File, uid, gid int) error
}

type staleState struct{ answered, lost uint64 }

// Open opens or creates the store file at path. mode is used when the file
// is created; 0 means 0600, since the file holds personal data. A symlink
// is followed: the store is its target. Anything at path that cannot be a
// store (a directory, FIFO, socket, device, empty file or dangling
// symlink) gives ErrNotStore at once. A writable Open removes a second
// name of the file that an interrupted create left beside it.
func Open(path string, mode os.FileMode, opts *Options) (db *DB, err error) {
	if mode == 0 {
		mode = 0o600
	}
	real, err := resolve(path)
	if err != nil {
		return nil, err
	}
	d := &DB{path: real, mode: mode}
	if opts != nil {
		d.opts = *opts
	}
	if d.opts.LockTimeout <= 0 {
		d.opts.LockTimeout = time.Second
	}
	defer recoverCorrupt(&err, guard())
	b, err := d.openLocked()
	if err != nil {
		return nil, err
	}
	d.bolt = b
	if !d.opts.ReadOnly {
		// An import a dead process left half done, beside a store of any
		// age: it holds what was being imported.
		d.removeBeside()
	}
	if d.created != nil {
		return d, nil // made whole by create: nothing to verify or finish
	}
	if !d.opts.ReadOnly {
		d.removeStrayNames()
	}
	if metaPageLost(real) {
		var answered uint64
		_ = b.View(func(tx *bolt.Tx) error { answered = uint64(tx.ID()); return nil })
		d.stale = &staleState{answered: answered, lost: answered + 1}
	}
	if err := d.initSchema(b); err != nil {
		_ = b.Close()
		return nil, err
	}
	// A stale file keeps its pending scrub for Repair: the scrub would
	// zero the pages that show which ids the lost commit handed out.
	d.pendingAtOpen = !d.opts.ReadOnly && d.ScrubPending()
	if d.stale == nil && d.pendingAtOpen {
		if err := d.Scrub(); err != nil {
			_ = d.Close()
			return nil, fmt.Errorf("open %s: finishing an interrupted hard delete's scrub: %w", path, err)
		}
	}
	return d, nil
}

// PendingAtOpen reports whether the file held a hard delete's unfinished
// compaction when it was opened for writing (Open may have finished it
// since); false for a read-only Open, which does not look. A process
// died in a delete, and data derived from the file beside it may still
// hold what it deleted.
func (d *DB) PendingAtOpen() bool { return d.pendingAtOpen }

// ScrubPending reports whether a hard delete's scrub has not
// finished: until it does, the deleted bytes may remain in free pages.
func (d *DB) ScrubPending() bool {
	pending := false
	_ = d.View(func(tx *Tx) error {
		pending = tx.meta.Get(keyScrub) != nil
		return nil
	})
	return pending
}

// openLocked opens the file with bbolt, or creates it, and makes sure the
// lock it got is on the file now at the path: Compact of another process
// replaces the file by a rename while this one may be waiting for the lock
// on the old one, and a new store this one waited for may be removed again.
func (d *DB) openLocked() (*bolt.DB, error) {
	deadline := time.Now().Add(d.opts.LockTimeout)
	for {
		b, err := d.openOnce(deadline)
		if !errors.Is(err, errRetry) {
			return b, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("open %s: %w", d.path, ErrLocked)
		}
	}
}

func (d *DB) openOnce(deadline time.Time) (*bolt.DB, error) {
	st, err := os.Stat(d.path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !d.opts.ReadOnly:
		return d.create()
	case err != nil:
		return nil, fmt.Errorf("open %s: %w", d.path, err)
	}
	if err := checkKind(d.path, st); err != nil {
		return nil, err
	}
	var f *os.File
	opts := d.boltOptions()
	opts.Timeout = max(time.Until(deadline), time.Millisecond)
	opts.OpenFile = func(name string, flag int, mode os.FileMode) (*os.File, error) {
		var err error
		f, err = openRegular(name, flag, mode)
		return f, err
	}
	b, err := bolt.Open(d.path, d.mode, opts)
	if errors.Is(err, fs.ErrNotExist) && !d.opts.ReadOnly {
		return nil, errRetry // removed since the Stat: create it
	}
	if err != nil {
		return nil, openError(d.path, err)
	}
	if sameFile(f, d.path) {
		return b, nil
	}
	_ = b.Close()
	return nil, errRetry
}

func sameFile(f *os.File, path string) bool {
	if f == nil {
		return true
	}
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

func (d *DB) boltOptions() *bolt.Options {
	return &bolt.Options{
		Timeout:  d.opts.LockTimeout,
		ReadOnly: d.opts.ReadOnly,
		NoSync:   d.opts.NoSync,
	}
}

func openError(path string, err error) error {
	var pe *os.PathError
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return fmt.Errorf("open %s: %w", path, ErrLocked)
	case errors.Is(err, ErrNotStore):
		return err
	case errors.As(err, &pe):
		return fmt.Errorf("open %s: %w", path, err) // missing, permission, I/O: not the content's fault
	}
	// Anything else bbolt refuses (bad meta pages, checksum, version, a file
	// too small) is about the file's content.
	return fmt.Errorf("open %s: %w: %v", path, ErrCorrupt, err)
}

// Path returns the file the store lives in: the target, if Open was given
// a symlink.
func (d *DB) Path() string { return d.path }

// ReadOnly reports whether the store was opened read-only.
func (d *DB) ReadOnly() bool { return d.opts.ReadOnly }

// Close releases the file and its lock.
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bolt == nil {
		return nil
	}
	var rmErr error
	if d.created != nil && d.unwritten() {
		// Unlinked while the lock is still held, so no other process opens
		// it in between; one waiting for the lock sees it gone and retries.
		if st, err := os.Stat(d.path); err == nil && os.SameFile(st, d.created) {
			if rmErr = os.Remove(d.path); rmErr == nil && !d.opts.NoSync {
				rmErr = syncDir(filepath.Dir(d.path))
			}
		}
	}
	err := d.bolt.Close()
	d.bolt = nil
	return errors.Join(rmErr, err)
}

// unwritten reports whether the file holds nothing but its schema: no
// key beyond the format version and no id ever allocated. Any doubt
// (a read that fails) keeps the file.
func (d *DB) unwritten() (empty bool) {
	old := guard()
	defer func() {
		debug.SetPanicOnFault(old)
		if recover() != nil {
			empty = false
		}
	}()
	err := d.bolt.View(func(tx *bolt.Tx) error {
		empty = true
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if string(name) == string(bucketChanges) {
				// The commits of a file with no content touched no record.
				empty = empty && loggedNoRecord(b)
				return nil
			}
			if b.Sequence() != 0 {
				empty = false
			}
			c := b.Cursor()
			for k, v := c.First(); k != nil && empty; k, v = c.Next() {
				empty = string(name) == string(bucketMeta) && string(k) == string(keyVersion) &&
					string(v) == string(be.AppendUint64(nil, formatVersion))
			}
			return nil
		})
	})
	return err == nil && empty
}

// Update runs fn in a read-write transaction, committed when fn returns nil
// and rolled back otherwise.
func (d *DB) Update(fn func(*Tx) error) (err error) {
	if d.opts.ReadOnly {
		return ErrReadOnly
	}
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.bolt == nil {
		return ErrClosed
	}
	if err := d.staleLocked(); err != nil {
		return fmt.Errorf("write refused until the store is repaired: %w", err)
	}
	defer recoverCorrupt(&err, guard())
	return d.bolt.Update(func(btx *bolt.Tx) error {
		tx := d.newTx(btx)
		if err := fn(tx); err != nil {
			return err
		}
		return tx.logCommit()
	})
}

// View runs fn in a read-only transaction that sees one consistent snapshot.
func (d *DB) View(fn func(*Tx) error) (err error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.bolt == nil {
		return ErrClosed
	}
	defer recoverCorrupt(&err, guard())
	return d.bolt.View(func(tx *bolt.Tx) error { return fn(d.newTx(tx)) })
}

// newTx is a transaction of d, knowing its log index.
func (d *DB) newTx(btx *bolt.Tx) *Tx {
	t := newTx(btx, d.format)
	t.owner, t.logsIndexed = d.opts.LogOwner, d.logsIndexed
	t.factKeys, t.factsIndexed = d.opts.LogFacts, d.format >= formatVersionV5
	return t
}

// Compact rewrites the file with only its live data and atomically replaces
// the old one, so bytes bbolt left in freed pages are gone from the file.
// It holds every transaction off while it runs.
func (d *DB) Compact() error { return d.exclusive("compaction", d.compactLocked) }

// exclusive runs fn, a job on the whole file (what names it), with every
// transaction held off; a read-only, closed or stale store refuses it.
func (d *DB) exclusive(what string, fn func() error) (err error) {
	if d.opts.ReadOnly {
		return ErrReadOnly
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bolt == nil {
		return ErrClosed
	}
	if err := d.staleLocked(); err != nil {
		return fmt.Errorf("%s refused until the store is repaired: %w", what, err)
	}
	defer recoverCorrupt(&err, guard())
	return fn()
}

// SoleName returns nil, or an error wrapping ErrLinked that names the
// count when the store file has more than one name (a hard link): a
// compaction replaces the file at the store's path by a new one, so
// every other name would keep the old file with the bytes a hard delete
// was to erase, and writes through the two names would go to two files.
func (d *DB) SoleName() error {
	st, err := os.Stat(d.path)
	if err != nil {
		return err
	}
	if n := linkCount(st); n > 1 {
		return fmt.Errorf("%w: %s has %d names; a hard delete would leave the deleted text in the file under the others and split the store in two; remove the other names first",
			ErrLinked, d.path, n)
	}
	return nil
}

// Replaceable returns nil when a compaction may replace the store file,
// else why not: the file has other names (SoleName: ErrLinked), or this
// process cannot give a new file the store's owner and group (an error
// wrapping fs.ErrPermission). A hard delete asks before it changes
// anything.
func (d *DB) Replaceable() error {
	if err := d.SoleName(); err != nil {
		return err
	}
	return d.ownerKept()
}

// compactLocked is Compact with d.mu held. It refuses a file with other
// names (see SoleName), or whose owner and group the new file cannot be
// given (keepOwner), before it changes anything.
func (d *DB) compactLocked() error {
	if err := d.SoleName(); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	tmp := d.path + ".compact"
	dst, err := d.newBeside(tmp)
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	fail := func(err error) error {
		_ = dst.Close()
		_ = os.Remove(tmp)
		return fmt.Errorf("compact: %w", err)
	}
	if err := bolt.Compact(dst, d.bolt, 64<<20); err != nil {
		return fail(err)
	}
	if err := dst.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketMeta).Delete(keyScrub); err != nil {
			return err
		}
		return logCompaction(tx)
	}); err != nil {
		return fail(err)
	}
	if placed, err := d.swapLocked(dst, tmp); !placed {
		return fail(err)
	} else if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	return nil
}

// newBeside creates the bbolt file tmp beside the store, to be put in its
// place by swapLocked, and opens it without syncs (swapLocked syncs it
// once). It takes the store file's permission, not the mode this process
// opened with: that mode applies to a new store only, and a looser one
// must not expose a file its owner had kept private. It takes the old
// one's owner and group too, before a page is written. A file left at
// tmp by a process that died is replaced.
func (d *DB) newBeside(tmp string) (*bolt.DB, error) {
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	old, err := os.Stat(d.path)
	if err != nil {
		return nil, err
	}
	mode := old.Mode().Perm()
	opts := d.boltOptions()
	opts.NoSync = true
	opts.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		if err != nil {
			return nil, err
		}
		if err := d.keepOwner(f, old); err != nil {
			_ = f.Close()
			return nil, err
		}
		return f, nil
	}
	dst, err := bolt.Open(tmp, mode, opts)
	if err != nil {
		// bbolt creates the file before it writes its first pages; on a full
		// disk the write fails and the empty file would stay behind.
		_ = os.Remove(tmp)
		return nil, err
	}
	// Exactly the old permission, whatever the umask took off at creation.
	if err := os.Chmod(tmp, mode); err != nil {
		_ = dst.Close()
		_ = os.Remove(tmp)
		return nil, err
	}
	return dst, nil
}

// swapLocked makes dst, opened by newBeside at tmp, the store: synced, it
// is renamed over the store's path and its handle becomes d's. d.mu is
// held. Until placed, the store is as it was and dst is the caller's;
// once placed, dst is d's, and an error says the rename may not be
// durable yet.
func (d *DB) swapLocked(dst *bolt.DB, tmp string) (placed bool, err error) {
	// A store that skips fsync (tests, benchmarks) skips these too.
	if !d.opts.NoSync {
		if err := dst.Sync(); err != nil {
			return false, err
		}
	}
	if err := os.Rename(tmp, d.path); err != nil {
		return false, err
	}
	// The new handle already holds the lock on the renamed file; a process
	// that was waiting on the old one sees that it was replaced and retries.
	_ = d.bolt.Close()
	dst.NoSync = d.opts.NoSync
	d.bolt = dst
	d.created = nil // a new inode, and one written to
	if d.opts.NoSync {
		return true, nil
	}
	if err := syncDir(filepath.Dir(d.path)); err != nil {
		return true, fmt.Errorf("the new file is in place, but syncing its folder failed: %w", err)
	}
	return true, nil
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// Check runs bbolt's page-level consistency check and returns every problem
// it finds joined into one error wrapping ErrCorrupt. A file without
// damage that answers from an older commit gives the error of Stale;
// else Check returns nil.
func (d *DB) Check() (err error) {
	// bbolt checks in a goroutine of its own, where a panic on a damaged page
	// cannot be recovered. A structural walk of the file's pages, and then
	// touching every key (a bad page panics where recoverCorrupt catches
	// it), come first; bbolt's check runs only on a file that passed both.
	d.mu.RLock()
	stale := d.stale != nil
	err = checkPages(d.path, stale)
	d.mu.RUnlock()
	if err != nil {
		return err
	}
	err = d.View(func(tx *Tx) error {
		return tx.tx.ForEach(func(_ []byte, b *bolt.Bucket) error { return touchKeys(b, 0) })
	})
	if err != nil {
		return err
	}
	if stale {
		// bbolt's check asserts on both meta pages' headers, in a goroutine
		// where the panic would end the process; it runs after Repair.
		return d.Stale()
	}
	var errs []error
	err = d.View(func(tx *Tx) error {
		for e := range tx.tx.Check() {
			errs = append(errs, e)
		}
		if len(errs) == 0 {
			errs = tx.checkPlaces()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrCorrupt, errors.Join(errs...))
	}
	return d.Stale()
}

// touchKeys reads every key of b and of the buckets in it (the buckets of
// format 7 are in the byuser bucket, those of a user of format 6 in the
// peruser bucket).
func touchKeys(b *bolt.Bucket, depth int) error {
	if depth > maxWalkDepth {
		return fmt.Errorf("%w: buckets nested %d deep", ErrCorrupt, depth)
	}
	return b.ForEach(func(k, v []byte) error {
		if v == nil {
			if nb := b.Bucket(k); nb != nil {
				return touchKeys(nb, depth+1)
			}
		}
		return nil
	})
}

// Stale returns nil, or an error wrapping ErrStale that names the commit
// the store answers from and the one that may have been lost. It lasts until
// Repair.
func (d *DB) Stale() error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.staleLocked()
}

func (d *DB) staleLocked() error {
	if d.stale == nil {
		return nil
	}
	return fmt.Errorf("%w: commit %d; a meta page failed its checksum, so commit %d may have been lost",
		ErrStale, d.stale.answered, d.stale.lost)
}

// initSchema creates the buckets of a new file, or verifies that an existing
// file is a store of a format this code can read.
func (d *DB) initSchema(b *bolt.DB) error {
	version := func(tx *bolt.Tx) uint64 { return be.Uint64(tx.Bucket(bucketMeta).Get(keyVersion)) }
	check := func(tx *bolt.Tx) error {
		m := tx.Bucket(bucketMeta)
		if m == nil {
			return fmt.Errorf("%w: %s is not a memory store", ErrCorrupt, d.path)
		}
		v := m.Get(keyVersion)
		if len(v) != 8 {
			return fmt.Errorf("%w: missing format version", ErrCorrupt)
		}
		if got := be.Uint64(v); got < formatVersionV2 || got > formatVersion {
			return fmt.Errorf("%w: format version %d, this program reads %d to %d", ErrCorrupt, got, formatVersionV2, formatVersion)
		}
		if version(tx) < formatVersionV6 {
			for _, name := range allBuckets {
				if tx.Bucket(name) == nil {
					return fmt.Errorf("%w: bucket %q missing", ErrCorrupt, name)
				}
			}
		}
		return nil
	}
	current := func(tx *bolt.Tx) bool { return version(tx) == formatVersion }
	// A stale file is written by Repair only.
	if d.opts.ReadOnly || d.stale != nil {
		return b.View(func(tx *bolt.Tx) error {
			if err := check(tx); err != nil {
				return err
			}
			d.logsIndexed = version(tx) >= formatVersionV3
			d.format = version(tx)
			return nil
		})
	}
	// A store with all its buckets needs no write, and an empty bbolt
	// transaction still commits (a meta page and two fsyncs per Open).
	// Anything missing or wrong is created or reported by the write below.
	complete := false
	if err := b.View(func(tx *bolt.Tx) error {
		complete = check(tx) == nil && current(tx) && tx.Bucket(bucketChanges) != nil
		return nil
	}); err != nil {
		return err
	}
	if complete {
		d.logsIndexed, d.format = true, formatVersion
		return nil
	}
	return b.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) == nil {
			empty := true
			_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if !empty {
				return fmt.Errorf("%w: %s is a bbolt file of something else", ErrCorrupt, d.path)
			}
			m, err := tx.CreateBucket(bucketMeta)
			if err != nil {
				return err
			}
			if err := m.Put(keyVersion, be.AppendUint64(nil, formatVersion)); err != nil {
				return err
			}
		}
		if err := check(tx); err != nil {
			return err
		}
		if _, err := tx.CreateBucketIfNotExists(bucketChanges); err != nil {
			return err
		}
		if err := d.upgrade(tx); err != nil {
			return err
		}
		d.logsIndexed, d.format = true, formatVersion
		return nil
	})
}

// Current reports whether the file is of the format this program writes;
// a read-only (or stale) Open of an older file reads it as it is.
func (d *DB) Current() bool { return d.format == formatVersion }

// upgrade makes a file of an earlier format current in tx: a version 2
// file has its logs indexed by user, in the commit that marks it current.
// Every write to the file follows it (a writable Open, or the Repair of a
// file opened stale, which is read as it was until then).
func (d *DB) upgrade(tx *bolt.Tx) error {
	v := be.Uint64(tx.Bucket(bucketMeta).Get(keyVersion))
	if v == formatVersion {
		return nil
	}
	move := moveToUsers
	if v == formatVersionV6 {
		move = moveOutOfUserBuckets
	}
	if err := move(tx, d.opts.LogOwner, d.opts.LogFacts); err != nil {
		return fmt.Errorf("upgrade from format %d: %w", v, err)
	}
	if d.opts.Upgrade != nil {
		t := newTx(tx, formatVersion)
		t.owner, t.logsIndexed = d.opts.LogOwner, true
		t.factKeys, t.factsIndexed = d.opts.LogFacts, true
		if err := d.opts.Upgrade(t, v); err != nil {
			return fmt.Errorf("upgrade from format %d: %w", v, err)
		}
	}
	return tx.Bucket(bucketMeta).Put(keyVersion, be.AppendUint64(nil, formatVersion))
}
