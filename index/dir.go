package index

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/palimpsest-mem/memory/internal/fsx"
)

// An index holds every word of every fact: it is personal data, so it lives
// only inside a root directory that belongs to one store (package memory
// puts it beside the store file), private to its owner. Each open index
// has a sub-directory of its own in the root, and holds an exclusive lock
// on the file lockName inside it for as long as it is open: several
// processes may have read-only handles of a store, and an index whose lock
// can be taken belongs to a process that is gone. The root itself is locked
// while a sub-directory is made or a sweep runs, so that a sweep never sees
// one half made.
//
// The path of the root may hold something of the user's: a root is the
// store's only if it is a directory (not a symlink) holding the file
// MarkerName, which is written before the root appears at its path. Nothing
// else is ever changed or removed, and in a root only the marker and the
// sub-directories that hold nothing but an index are.

const (
	lockName  = "lock"
	bleveName = "bleve"
	subPrefix = "h-"
	// MarkerName is the file that makes a directory a root of indexes.
	MarkerName = ".palimpsest-index"
)

const markerText = "This folder holds the candidate index of the Palimpsest store beside it: words of its facts,\n" +
	"rebuilt from the store when needed. It is safe to delete while no process has the store open.\n"

// ErrDir says that the root cannot be used: its path holds something that
// is not a root of indexes, or it cannot be written; or that a sweep could
// not remove what processes that are gone left in it.
var ErrDir = errors.New("problem with the candidate index's folder beside the store")

// handle is the sub-directory of one open index.
type handle struct {
	root, dir string
	lock      *os.File
	kept      bool // the kept index's (keptName), which outlives the process
}

// ownRoot says whether root is a root of indexes: nil if it is, an error
// wrapping fs.ErrNotExist if nothing is there, and one wrapping ErrDir if
// something else is (or it cannot be told). A folder without its marker
// may be the store's own root in the moment between the removal of its
// marker and of itself, which happens under the root's lock: so before
// calling it foreign, wait for that lock and look again. Not for a caller
// that holds the lock (see checkRoot).
func ownRoot(root string) error {
	err := checkRoot(root)
	if !errors.Is(err, errNoMarker) {
		return err
	}
	f, oerr := os.Open(root)
	if errors.Is(oerr, fs.ErrNotExist) {
		return oerr
	}
	if oerr != nil {
		return err
	}
	defer f.Close()
	if _, lerr := fsx.LockFile(f, true); lerr != nil {
		return err
	}
	// Under the lock whatever was removing the root has finished: it is
	// gone, or was given its marker back, or was never the store's.
	return checkRoot(root)
}

// errNoMarker marks the foreign verdict on a folder without a marker.
var errNoMarker = errors.New("no marker")

// checkRoot is ownRoot without the wait: what root is, as it is now.
func checkRoot(root string) error {
	if root == "" {
		return errors.New("index: no directory given")
	}
	st, err := os.Lstat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return foreign(root, "a symlink")
	case !st.IsDir():
		return foreign(root, "not a folder")
	}
	m, err := os.Lstat(filepath.Join(root, MarkerName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// %.0w wraps errNoMarker without printing it.
		return fmt.Errorf("%w%.0w", foreign(root, "a folder without the file "+MarkerName), errNoMarker)
	case err != nil:
		return fmt.Errorf("index: %w", err)
	case !m.Mode().IsRegular():
		return foreign(root, "a folder whose "+MarkerName+" is not a file")
	}
	return nil
}

func foreign(root, what string) error {
	return fmt.Errorf("index: %w: %s is %s, so the store did not make it and leaves it untouched; "+
		"lookups need that path for the store's candidate index: move it away", ErrDir, root, what)
}

// noAccess explains an error of making an index in root: the index lives
// only beside the store (it is personal data), so lookups need write
// access there even when the store is only read.
func noAccess(root string, err error) error {
	if errors.Is(err, ErrDir) || !(errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)) {
		return err
	}
	where := filepath.Dir(root)
	if _, err := os.Lstat(root); err == nil {
		where = root + " (if it is another user's, it goes when that user next opens the store)"
	}
	return fmt.Errorf("index: %w: lookups keep the store's candidate index in %s, beside the store and nowhere else, "+
		"so they need write access to %s, even to read (listing does not): %w", ErrDir, root, where, err)
}

// makeRoot makes root, with its marker, unless something is there already:
// the root is made whole beside its path and renamed into place, so that no
// process ever sees it without its marker. While it is made, the new
// directory is locked, so that a sweep removes only one whose maker died
// before the rename (see sweepHalfMade).
func makeRoot(root string) error {
	// What an interrupted make left holds only a marker; it goes when a
	// root is made next, so that an Open need not read the store's folder.
	sweepHalfMade(root)
	tmp, err := os.MkdirTemp(filepath.Dir(root), halfMadePrefix(root))
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	f, err := os.Open(tmp)
	if err == nil {
		defer f.Close()
		_, err = fsx.LockFile(f, true)
	}
	if err == nil {
		err = writeMarker(tmp)
	}
	if err == nil {
		err = renameNoReplace(tmp, root)
	}
	if err != nil {
		os.RemoveAll(tmp) // made just now, holding only the marker
		if errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, fs.ErrNotExist) {
			// Something is at root now, or a sweep took the new directory
			// for a dead process's before it was locked: look again.
			return nil
		}
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

func halfMadePrefix(root string) string { return "." + filepath.Base(root) + "-new-" }

// asideName is where removeRootIfEmpty moves an empty root before removing
// it: a half-made root's name, which makeRoot sweeps.
func asideName(root string) string {
	return filepath.Join(filepath.Dir(root), halfMadePrefix(root)+"gone-"+rand.Text())
}

// sweepHalfMade removes, beside root, the directories that makeRoot began
// and a process that is gone never renamed: named for root, unlocked, and
// holding nothing but a marker. They hold no data, so what cannot be
// removed is left quietly.
func sweepHalfMade(root string) {
	parent, prefix := filepath.Dir(root), halfMadePrefix(root)
	es, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range es {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(parent, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if got, err := fsx.LockFile(f, false); err == nil && got {
			if names, err := f.Readdirnames(-1); err == nil && (len(names) == 0 || (len(names) == 1 && names[0] == MarkerName)) {
				os.Remove(filepath.Join(p, MarkerName))
				os.Remove(p) // fails, as it should, if anything else came in meanwhile
			}
		}
		f.Close()
	}
}

func writeMarker(dir string) error {
	return os.WriteFile(filepath.Join(dir, MarkerName), []byte(markerText), 0o600)
}

// lockRoot locks root, a root of indexes, making it first if it is missing
// and create is set. A root removed by another handle's Close meanwhile is
// made again; without create its absence is an error wrapping
// fs.ErrNotExist.
func lockRoot(root string, create bool) (*os.File, error) {
	for {
		err := ownRoot(root)
		if errors.Is(err, fs.ErrNotExist) && create {
			if err := makeRoot(root); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		f, err := os.Open(root)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("index: %w", err)
		}
		if _, err := fsx.LockFile(f, true); err != nil {
			f.Close()
			return nil, fmt.Errorf("index: locking %s: %w", root, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Lstat(root)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			// Still the root that was checked (a symlink put in its place
			// is not): its marker is removed only under this lock.
			if err := checkRoot(root); err != nil {
				f.Close()
				return nil, err
			}
			return f, nil
		}
		f.Close()
		if err := errors.Join(err1, err2); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("index: %w", err)
		}
	}
}

// lockPrivateRoot locks root, making it if missing, and makes it private
// again if it was loosened: the root is the store's, whoever loosened it.
func lockPrivateRoot(root string) (*os.File, error) {
	rl, err := lockRoot(root, true)
	if err != nil {
		return nil, noAccess(root, err)
	}
	if st, err := rl.Stat(); err != nil || st.Mode().Perm()&0o077 != 0 {
		if err == nil {
			err = rl.Chmod(0o700) // the directory checked, whatever is at its path now
		}
		if err != nil {
			rl.Close()
			return nil, noAccess(root, fmt.Errorf("index: %w", err))
		}
	}
	return rl, nil
}

// newHandle makes a private sub-directory in root and locks it.
func newHandle(root string) (*handle, error) {
	rl, err := lockPrivateRoot(root)
	if err != nil {
		return nil, err
	}
	defer rl.Close()
	dir, err := os.MkdirTemp(root, subPrefix)
	if err != nil {
		return nil, noAccess(root, fmt.Errorf("index: %w", err))
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		if _, err = fsx.LockFile(lock, false); err != nil {
			lock.Close()
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("index: %w", err)
	}
	return &handle{root: root, dir: dir, lock: lock}, nil
}

// release lets the sub-directory go without removing it.
func (h *handle) release() error {
	if err := h.lock.Close(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// remove deletes the handle's sub-directory, then the root if no other
// index, nor anything else, is left in it.
func (h *handle) remove() error {
	err := os.RemoveAll(h.dir)
	h.lock.Close()
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	rl, err := lockRoot(h.root, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer rl.Close()
	return removeRootIfEmpty(h.root)
}

// removeRootIfEmpty removes root, a root of indexes locked by the caller,
// if it holds nothing but its marker.
func removeRootIfEmpty(root string) error {
	es, err := os.ReadDir(root)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	for _, e := range es {
		if e.Name() != MarkerName {
			return nil
		}
	}
	// Moved aside first, under a name of a half-made root: at the path a
	// folder without its marker would pass for someone else's, and a
	// process killed between the two removals would leave one there for
	// good. Aside, it holds only the marker, and the next makeRoot sweeps
	// it if this process dies before it is gone.
	gone := asideName(root)
	if err := os.Rename(root, gone); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if err := os.Remove(filepath.Join(gone, MarkerName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("index: %w", err)
	}
	if err := os.Remove(gone); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// isIndexDir says whether sub-directory dir of a root holds nothing but
// what newHandle and New put there, so that removing it removes nothing
// else. One that cannot be read is taken for an index: removing it fails
// and says so.
func isIndexDir(dir string) bool {
	es, err := os.ReadDir(dir)
	if err != nil {
		return true
	}
	for _, e := range es {
		if !(e.Name() == lockName && e.Type().IsRegular()) && !(e.Name() == bleveName && e.IsDir()) {
			return false
		}
	}
	return true
}

// Sweep removes from root, if it is a root of indexes, what earlier
// processes left behind: every index sub-directory whose lock no open
// index holds. With all set (the caller holds the store exclusively, so no
// other index of it can be open) it removes every index sub-directory. The
// root goes too when nothing but its marker is left in it (the roots that
// a process now gone began to make beside it go when a root is next made).
// Nothing else is touched. A missing root is no error; anything else at its path gives an
// error wrapping ErrDir, as does a failure to remove an index.
func Sweep(root string, all bool) error {
	rl, err := lockRoot(root, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if errors.Is(err, ErrDir) {
		return err
	}
	if err != nil {
		return swept(root, err)
	}
	defer rl.Close()
	es, err := os.ReadDir(root)
	if err != nil {
		return swept(root, err)
	}
	var errs []error
	for _, e := range es {
		p := filepath.Join(root, e.Name())
		if !e.IsDir() || !strings.HasPrefix(e.Name(), subPrefix) || !isIndexDir(p) {
			continue
		}
		if !all && inUse(p) {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return swept(root, err)
	}
	if err := removeRootIfEmpty(root); err != nil {
		return swept(root, err)
	}
	return nil
}

func swept(root string, err error) error {
	return fmt.Errorf("index: %w: could not remove the indexes that processes now gone left in %s, "+
		"which may hold words of deleted facts (remove them once no process has the store open): %w", ErrDir, root, err)
}

// inUse says whether an open index holds the lock of sub-directory dir.
func inUse(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false // made and locked under the root's lock, so never seen without its lock file while in use
	}
	if err != nil {
		return true // unsure is in use: never remove a live index
	}
	defer f.Close()
	got, err := fsx.LockFile(f, false)
	return err != nil || !got
}

// Foreign returns an error wrapping ErrDir if something that is not a
// root of indexes is at root's path, else nil (nil too when that cannot be
// told).
func Foreign(root string) error {
	if err := ownRoot(root); errors.Is(err, ErrDir) {
		return err
	}
	return nil
}
