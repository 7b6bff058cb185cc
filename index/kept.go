package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/palimpsest-mem/memory/internal/fsx"
)

// The kept index outlives the process that writes it, so that the next one
// answers at once instead of building an index of every fact. It lives in
// the sub-directory keptName of the root, beside the private ones, and is
// opened by one process at a time: the one holding the store for writing
// (its lock file is held for as long as it is open). What it holds is told
// by its marker (Marked), which its owner writes in the batch that brings
// the index to a commit of the store, and by nothing else: a snapshot
// scorch could not load, a crash before a persist, an index of another
// store all show as a marker that is missing or names another commit.
const keptName = "kept"

// Internal keys of a kept index: its commit marker, and its user numbering
// (see userKey), which terms are written under and must outlive the process.
var (
	markKey  = []byte("palimpsest.commit")
	usersKey = []byte("palimpsest.users")
)

// ErrKeptBusy says that another open index holds the kept index.
var ErrKeptBusy = errors.New("index: the kept index is open in another process")

// OpenKept opens the kept index in root (made 0700 if missing), or makes
// an empty one where there is none or what is there cannot be opened: it
// is derived data, and its owner rebuilds it from the store when its
// marker does not say what it holds. fresh says it was made empty.
func OpenKept(an *Analyzer, root string) (ix *Index, fresh bool, err error) {
	h, err := keptHandle(root)
	if err != nil {
		return nil, false, err
	}
	path := filepath.Join(h.dir, bleveName)
	if _, err := os.Lstat(path); err == nil {
		b, err := openBleve(path)
		if err == nil {
			ix, err := made(an, h, b)
			if err != nil {
				return nil, false, err
			}
			if err := ix.loadUsers(); err == nil {
				if err := ix.removeOrphans(); err != nil {
					return nil, false, errors.Join(err, ix.Close())
				}
				return ix, false, nil
			}
			// A numbering that cannot be read makes the terms unreadable.
			ix.closeBleve()
		}
		if err := os.RemoveAll(path); err != nil {
			return nil, false, errors.Join(fmt.Errorf("index: removing a kept index that does not open: %w", err), h.release())
		}
	}
	b, err := bleve.NewUsing(path, newMapping(), scorch.Name, scorch.Name, scorchConfig(true))
	if err != nil {
		return nil, false, errors.Join(fmt.Errorf("index: %w", err), h.remove())
	}
	ix, err = made(an, h, b)
	return ix, true, err
}

// openBleve opens a kept index's bleve folder; a fault reading its files
// (damaged under it) is an error like any other.
func openBleve(path string) (b bleve.Index, err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return bleve.OpenUsing(path, scorchConfig(true))
}

// keptHandle locks the kept index's sub-directory of root, making it (and
// root) if missing.
func keptHandle(root string) (*handle, error) {
	rl, err := lockPrivateRoot(root)
	if err != nil {
		return nil, err
	}
	defer rl.Close()
	dir := filepath.Join(root, keptName)
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(dir, 0o700); err != nil {
			return nil, noAccess(root, fmt.Errorf("index: %w", err))
		}
	case err != nil:
		return nil, fmt.Errorf("index: %w", err)
	case !st.IsDir() || !isIndexDir(dir):
		// Never touch what the store did not make.
		return nil, fmt.Errorf("index: %w: %s holds something other than the kept index, "+
			"so the store leaves it untouched: move it away", ErrDir, dir)
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	got, err := fsx.LockFile(lock, false)
	if err != nil || !got {
		lock.Close()
		if err == nil {
			err = ErrKeptBusy
		}
		return nil, fmt.Errorf("index: %w", err)
	}
	return &handle{root: root, dir: dir, lock: lock, kept: true}, nil
}

// HasKept says whether root holds a kept index (or something in its place).
func HasKept(root string) bool {
	_, err := os.Lstat(filepath.Join(root, keptName))
	return !errors.Is(err, fs.ErrNotExist)
}

// RemoveKept removes the kept index in root, if there is one: it may hold
// words of facts deleted by a process that died before it purged them.
func RemoveKept(root string) error {
	if !HasKept(root) {
		return nil
	}
	h, err := keptHandle(root)
	if err != nil {
		return err
	}
	return h.remove()
}

// Marked returns the marker of a kept index as of its newest snapshot:
// right after OpenKept, the one scorch last persisted; nil if none was.
func (ix *Index) Marked() (m []byte, err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.bleve == nil {
		return nil, ErrClosed
	}
	return ix.bleve.GetInternal(markKey)
}

// Apply deletes del and adds or replaces put in one batch, with the marker
// mark in a kept index (nil: none).
func (ix *Index) Apply(put []Doc, del []DocKey, mark []byte) error {
	terms := ix.analyze(put)
	return ix.markedBatch(func(b *bleve.Batch) error {
		ix.deleteKeys(b, del)
		return ix.fill(b, put, terms)
	}, mark)
}

// Mark writes the marker of a kept index, with the whole user numbering:
// as after Bulk, whose batches go in in no set order.
func (ix *Index) Mark(mark []byte) error {
	return ix.markedBatch(func(*bleve.Batch) error { return nil }, mark)
}

// usersToKeep returns the user numbering to write in a batch of a kept
// index: when it grew since last written, or always with a marker.
func (ix *Index) usersToKeep(always bool) []byte {
	ix.usersMu.Lock()
	defer ix.usersMu.Unlock()
	if !ix.usersGrew && !always {
		return nil
	}
	ix.usersGrew = false
	b, _ := json.Marshal(ix.users) // a map of strings cannot fail
	return b
}

// loadUsers reads the user numbering of a kept index.
func (ix *Index) loadUsers() (err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	b, err := ix.bleve.GetInternal(usersKey)
	if err != nil || b == nil {
		return err
	}
	users := map[string]string{}
	if err := json.Unmarshal(b, &users); err != nil {
		return fmt.Errorf("index: the kept index's user numbering: %w", err)
	}
	seen := map[string]bool{}
	for _, k := range users {
		if seen[k] {
			return fmt.Errorf("index: the kept index's user numbering gives %q twice", k)
		}
		seen[k] = true
	}
	ix.users = users
	return nil
}

// removeOrphans removes the segment files of the kept index that its
// newest snapshot does not use and a merge replaced: the process before may
// have closed before scorch removed them, and one may hold words of a fact
// deleted since.
func (ix *Index) removeOrphans() error {
	s, err := ix.scorch()
	if err != nil {
		return err
	}
	files, err := ix.replacedFiles(s)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("index: removing a segment file no snapshot uses: %w", err)
		}
	}
	return nil
}

// replacedFiles lists the segment files on disk that the newest snapshot
// does not use and a merge replaced. A file of a later segment than any in
// use may be a merge being written now, and is not listed.
func (ix *Index) replacedFiles(s *scorch.Scorch) ([]string, error) {
	if ix.h == nil {
		return nil, nil
	}
	inUse := map[string]bool{}
	var newest uint64
	err := snapshotSegments(s, func(segs []*scorch.SegmentSnapshot) error {
		for _, ss := range segs {
			if p, ok := ss.Segment().(segment.PersistedSegment); ok {
				inUse[filepath.Base(p.Path())] = true
				newest = max(newest, ss.Id())
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(ix.h.dir, bleveName, "store")
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	var out []string
	for _, e := range es {
		id, err := strconv.ParseUint(strings.TrimSuffix(e.Name(), ".zap"), 16, 64)
		if err != nil || !strings.HasSuffix(e.Name(), ".zap") || inUse[e.Name()] || id >= newest {
			continue
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out, nil
}
