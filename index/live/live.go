package live

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/palimpsest-mem/memory/index"
)

// ErrClosed is returned by a lookup, or a build, once Close has begun. Its
// words are those of the store's own ErrClosed, to which package memory
// maps it: the index closes with its store, and a caller sees the store's
// error, worded as it always was.
var ErrClosed = errors.New("store is closed")

// Index is the candidate index beside a store, kept in line with its
// commits: built from the store by the first lookup, fed each committed
// write in the background, dropped when it fails or a Delete leaves
// deleted words in it, and built again by the next lookup. Its surface:
//
//	Sync    queue a committed write (the writer holds the write lock)
//	Search  run a function on the index once the user's changes are in,
//	        building the index first; rebuilt once if its files faulted
//	SearchAt, SyncUser, Follow
//	        the same for a store of per-user revisions (follow.go)
//	Check   compare the index with the store's current facts, and look
//	        at its folder (the caller holds the write lock)
//	Drop    close it and remove its files
//	Close   cancel a build, wait for it, drop: no index outlives the store
type Index struct {
	root string // the private directory beside the store file
	mode index.Mode
	// format names what the kept index's documents are to this build:
	// what the mode's analyzer makes of a text, and how documents are
	// keyed (index.Format). The kept index is marked with it.
	format   string
	readOnly bool
	keep     bool // the index is the kept one (Options.Keep)
	quick    bool // Options.QuickClose
	// purgeFrom is the size of index from which Purge purges rather than
	// drops it (purgeFromDefault; tests lower it).
	purgeFrom uint64
	src       Source
	// writes is the store's write lock, held by each writer from its
	// commit until its Sync: a build holds it so that no write commits
	// between the snapshot it reads and the moment it receives updates.
	writes sync.Locker
	// userWrites holds off one user's commits (Options.UserWrites).
	userWrites func(user string) sync.Locker

	// The analyzer is built on first use: the topics lexicons take tens
	// of milliseconds to load, which a store that never looks up need not pay.
	anOnce sync.Once
	an     *index.Analyzer
	anErr  error

	seen analyses

	// mu guards ix, which is nil until the first lookup builds it and
	// after a drop; the next lookup rebuilds it.
	mu sync.RWMutex
	ix *index.Index
	q  indexer

	// life ends at Close, first thing: it cancels a build in progress,
	// and a build that ends later finds it over and keeps no index.
	life context.Context
	end  context.CancelFunc

	// hookAfterBuild, when set by a test, runs when a build has filled
	// its index and before the index is put in use.
	hookAfterBuild func(*index.Index)
	// hookBuildPage, when set by a test, runs before a build reads the
	// first page of facts.
	hookBuildPage func()
}

// Source is how the index reads the store.
type Source struct {
	// Page returns up to n current facts after the key after, as
	// documents, and the key to go on from (nil at the end). The build
	// calls it holding the write lock.
	Page func(ctx context.Context, after []byte, n int) ([]index.Doc, []byte, error)
	// Vectors fills in the stored vectors of documents a commit wrote;
	// called without the write lock, it only reads.
	Vectors func(docs []index.Doc) error
	// Head names the store's newest commit, as Sync is given them; ok
	// false if the store cannot name it (it was written by a program that
	// logs no commits). Called with the write lock held. Needed with Keep.
	Head func(ctx context.Context) (commit []byte, ok bool, err error)
	// Since returns the final state of every record the commits after
	// commit touched, and the commit it read up to; ok false if the store
	// cannot tell (see kv.Tx.ChangedSince). Called with the write lock
	// held. Needed with Keep.
	Since func(ctx context.Context, commit []byte) (changes []Change, head []byte, ok bool, err error)
	// User, for a store whose users each have a revision of their own
	// (one other processes write too), reads user's current facts now,
	// at the revision it names, and which of the ids held (those the
	// index holds of the user) are gone from the store. With it the index
	// follows each user apart (follow.go): built empty, searched with
	// SearchAt, synced with SyncUser; Page, Head and Since are unused.
	// Called holding the user's commits off (Options.UserWrites).
	User func(ctx context.Context, user string, held []uint64) (UserFacts, error)
}

// Options configure an Index.
type Options struct {
	// Mode is the lookup mode, which makes the analyzer.
	Mode index.Mode
	// ReadOnly says the store is open for reading only, maybe beside other
	// handles: Open then removes from the folder of indexes only those no
	// open index holds (a writable store holds its file alone, so every
	// index there is a gone process's), and Check only asks whether the
	// folder is the store's (what others left is not its own to report).
	ReadOnly bool
	// Keep says the index is kept beside the store across processes
	// (index.OpenKept): the first lookup opens it and catches up from the
	// commit its marker names, or builds it when it cannot prove what it
	// holds, and Close leaves it. Only for the process holding the store
	// for writing. The semantic mode's vectors are not in it: the index
	// reads a user's from the store at the user's first lookup.
	Keep bool
	// Discard says the kept index may hold words of facts deleted by a
	// process that died before it purged them: Open removes it, and the
	// first lookup builds it again.
	Discard bool
	// QuickClose: Close does not wait for the kept index to reach its
	// files (the store skips fsync, for tests and benchmarks): the next
	// process catches up from an older commit, or builds the index again.
	QuickClose bool
	// Writes is the store's write lock (see Index).
	Writes sync.Locker
	// UserWrites, with Source.User, is the lock that holds off one user's
	// commits: a catch-up holds it from its read of the user's facts
	// until the index has them, so no commit of the user syncs between.
	UserWrites func(user string) sync.Locker
	// Source reads the store.
	Source Source
	// Root, when set, is the folder of indexes itself, for a store with
	// no file to put it beside (one on a cluster); path is then unused.
	Root string
}

// Open returns the index of the store file at path, in the folder
// <store>.index beside the file it really is (a symlink's target), and
// removes from that folder what processes now gone left. The index itself
// is built by the first Search.
func Open(path string, o Options) (*Index, error) {
	root := o.Root
	if root == "" {
		var err error
		if root, err = rootOf(path); err != nil {
			return nil, err
		}
	}
	// Removing what processes now gone left is worth a try, but a failure
	// must not keep the store from being read: a read-only handle fails
	// only on what is not its own (another user's folder); a writable one
	// tries again in Check, which reports what it could not remove, and
	// lookups say what stops them.
	_ = index.Sweep(root, !o.ReadOnly)
	if o.Keep && o.Discard {
		if err := index.RemoveKept(root); err != nil {
			return nil, fmt.Errorf("removing a candidate index that may hold deleted words: %w", err)
		}
	}
	if o.Keep && (o.ReadOnly || o.Source.Head == nil || o.Source.Since == nil) {
		return nil, errors.New("live: Options.Keep needs a writable store, and Source.Head and Since")
	}
	if o.Source.User != nil && (o.Keep || o.UserWrites == nil) {
		return nil, errors.New("live: Source.User needs Options.UserWrites, and no Keep")
	}
	l := &Index{root: root, mode: o.Mode, format: index.Format(o.Mode), readOnly: o.ReadOnly, keep: o.Keep, quick: o.QuickClose, writes: o.Writes, src: o.Source, purgeFrom: purgeFromDefault,
		userWrites: o.UserWrites, seen: analyses{kept: map[index.DocKey]analysed{}}}
	l.life, l.end = context.WithCancel(context.Background())
	l.q.init(l)
	return l, nil
}

// rootOf returns the directory where the index of the store file at path
// lives: beside the file it really is (a symlink's target).
func rootOf(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return "", fmt.Errorf("locating the candidate index: %w", err)
	}
	return real + ".index", nil
}

// Analyzer returns the text analyzer of the lookup mode.
func (l *Index) Analyzer() (*index.Analyzer, error) {
	l.anOnce.Do(func() { l.an, l.anErr = index.NewAnalyzer(l.mode) })
	return l.an, l.anErr
}

// Search runs fn on the index, building it first if needed, once every
// change committed before the call that can change user's candidates has
// reached it (read your writes). An index whose files faulted under fn
// (truncated or damaged while in use) is dropped and built again from the
// store, once. A store of per-user revisions, which other processes
// write too, is searched with SearchAt instead.
func (l *Index) Search(ctx context.Context, user string, fn func(*index.Index) error) error {
	if l.src.User != nil {
		return errors.New("live: Search on a store of per-user revisions: SearchAt names the revision to see")
	}
	return l.use(ctx, func(ctx context.Context) error { return l.q.waitUser(ctx, user) }, fn)
}

// use runs fn on the index once wait returns, building the index first if
// needed, and once more on an index built again if its files faulted.
func (l *Index) use(ctx context.Context, wait func(context.Context) error, fn func(*index.Index) error) error {
	return l.faulted(func() error { return l.try(ctx, wait, fn) })
}

// faulted runs try, and once more after dropping the index if its files
// faulted.
func (l *Index) faulted(try func() error) error {
	err := try()
	if errors.Is(err, index.ErrFault) {
		l.Drop()
		err = try()
		if errors.Is(err, index.ErrFault) {
			l.Drop()
		}
	}
	return err
}

func (l *Index) try(ctx context.Context, wait func(context.Context) error, fn func(*index.Index) error) error {
	for {
		if err := wait(ctx); err != nil {
			return err
		}
		l.mu.RLock()
		if ix := l.ix; ix != nil {
			defer l.mu.RUnlock()
			return fn(ix)
		}
		l.mu.RUnlock()
		if err := l.build(ctx); err != nil {
			return err
		}
	}
}

// built says whether an index is in use.
func (l *Index) built() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.ix != nil
}

// build fills a new index from the current facts in the store, holding
// the write lock from the snapshot it reads to the moment it is in use.
func (l *Index) build(ctx context.Context) error {
	l.writes.Lock()
	defer l.writes.Unlock()
	if l.life.Err() != nil {
		return ErrClosed
	}
	if l.built() {
		return nil
	}
	an, err := l.Analyzer()
	if err != nil {
		return err
	}
	// Close cancels the build: it waits for the write lock, which the
	// build holds.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(l.life, cancel)()
	ix, err := l.open(ctx, an)
	if err != nil {
		if l.life.Err() != nil {
			return fmt.Errorf("building the candidate index: %w", ErrClosed)
		}
		return fmt.Errorf("building the candidate index: %w", err)
	}
	if l.hookAfterBuild != nil {
		l.hookAfterBuild(ix)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.life.Err() != nil {
		return errors.Join(ErrClosed, ix.Close())
	}
	l.ix = ix
	l.q.skip() // the build read every commit so far
	return nil
}

// Drop closes the index and removes its files (the kept index's too), and
// forgets the analyses kept of lookups' hits; changes queued for it are
// moot, since the next lookup rebuilds it from the store.
func (l *Index) Drop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ix != nil {
		l.ix.Remove()
		l.ix = nil
	}
	l.q.skip()
	l.seen.forget()
}

// Close cancels a build in progress and waits for it to end, stops the
// background work and closes the index: a private one is removed, so that
// it does not outlive the store; the kept one stays for the next process. Lookups after it return ErrClosed; a Check that it overtakes
// tells by Closed.
func (l *Index) Close() {
	l.end()
	// A build holds the write lock from start to end: once it is ours,
	// none runs, and the ended life stops any later one. A Check holds it
	// too while it compares the index with the store: the queue stops only
	// then, for a stopped queue no longer brings the index up to date.
	l.writes.Lock()
	if l.keep && !l.quick && l.built() {
		// What is queued goes in first, so that the next process starts
		// from the last commit (a crash leaves it to catch up instead).
		l.q.wait(context.Background())
	}
	l.q.stop()
	l.mu.Lock()
	if l.ix != nil {
		// A kept index stays; a private one goes.
		if l.quick {
			l.ix.CloseNow()
		} else {
			l.ix.Close()
		}
		l.ix = nil
	}
	l.q.skip()
	l.seen.forget()
	l.mu.Unlock()
	l.writes.Unlock()
}

// Closed reports whether Close has begun.
func (l *Index) Closed() bool { return l.life.Err() != nil }
