package kv

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory/internal/fsx"
	bolt "go.etcd.io/bbolt"
)

// resolve returns the file a store path names: the target of a symlink,
// so that the lock, a compaction's rename and everything else act on the
// one real file and a link to it stays a link. A dangling link is
// refused: creating its target would put a store where nobody asked.
func resolve(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return path, nil // missing or not a link: the open says what it is
	}
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		target, _ := os.Readlink(path)
		return "", fmt.Errorf("open %s: is a dangling symlink (to %s, which does not exist), %w", path, target, ErrNotStore)
	}
	if err != nil {
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	return real, nil
}

// checkKind refuses anything at path that cannot be a store before bbolt
// touches it: a FIFO would block the open, a directory or device would be
// misread, and a 0-byte file is nothing this package ever leaves (it
// creates a store whole), so taking it for a new store could hide a
// truncated one.
func checkKind(path string, st fs.FileInfo) error {
	var what string
	switch m := st.Mode(); {
	case m.IsDir():
		what = "is a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "is a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "is a socket"
	case m&fs.ModeCharDevice != 0:
		what = "is a character device"
	case m&fs.ModeDevice != 0:
		what = "is a block device"
	case !m.IsRegular():
		what = "is not a regular file"
	case st.Size() == 0:
		what = "is an empty file"
	default:
		return nil
	}
	return fmt.Errorf("open %s: %s, %w", path, what, ErrNotStore)
}

// openRegular is bbolt's OpenFile for an existing store: it never creates
// (a file gone since the check is created whole by create instead), and
// it checks what it opened, which the path may have been swapped for.
func openRegular(name string, flag int, mode os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(name, flag&^os.O_CREATE, mode)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = checkKind(name, st)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// newNamePrefix begins the temporary name a new store at path is made
// under, beside it, before create puts it in place.
func newNamePrefix(path string) string { return "." + filepath.Base(path) + ".new-" }

// errRetry says the path changed under an open; openLocked starts over.
var errRetry = errors.New("retry")

// create makes a new store at d.path whole: bbolt writes its first pages
// and the schema into a file of a temporary name beside it, which is then
// put into place (placeNew) without replacing anything, so that no
// process ever sees a store half made, and a crash leaves none. The
// handle keeps its lock, which is on the file now at the path. If another process created the store
// meanwhile, errRetry sends the caller to open that one.
func (d *DB) create() (*bolt.DB, error) {
	dir := filepath.Dir(d.path)
	sweepHalfMade(d.path)
	tmp := filepath.Join(dir, newNamePrefix(d.path)+rand.Text())
	opts := d.boltOptions()
	opts.OpenFile = func(name string, flag int, mode os.FileMode) (*os.File, error) {
		return os.OpenFile(name, flag|os.O_EXCL, mode)
	}
	b, err := bolt.Open(tmp, d.mode, opts)
	if err != nil {
		if !errors.Is(err, fs.ErrExist) {
			_ = os.Remove(tmp) // bbolt may have made it before a write failed
		}
		return nil, fmt.Errorf("create %s: %w", d.path, err)
	}
	fail := func(err error) (*bolt.DB, error) {
		_ = b.Close()
		_ = os.Remove(tmp)
		return nil, err
	}
	if err := d.initSchema(b); err != nil {
		return fail(err)
	}
	st, err := os.Stat(tmp)
	if err != nil {
		return fail(err)
	}
	if err := placeNew(tmp, d.path); err != nil {
		_ = b.Close()
		_ = os.Remove(tmp)
		if errors.Is(err, fs.ErrExist) {
			return nil, errRetry
		}
		// A file system without hard links (or renameat2): create in
		// place, as bbolt does, which a crash can leave half made.
		return d.createInPlace()
	}
	if !d.opts.NoSync {
		if err := syncDir(dir); err != nil {
			_ = os.Remove(d.path)
			_ = b.Close()
			return nil, fmt.Errorf("create %s: %w", d.path, err)
		}
	}
	d.created = st
	return b, nil
}

func (d *DB) createInPlace() (*bolt.DB, error) {
	opts := d.boltOptions()
	opts.OpenFile = func(name string, flag int, mode os.FileMode) (*os.File, error) {
		return os.OpenFile(name, flag|os.O_EXCL, mode)
	}
	b, err := bolt.Open(d.path, d.mode, opts)
	if errors.Is(err, fs.ErrExist) {
		return nil, errRetry
	}
	if err != nil {
		_ = os.Remove(d.path)
		return nil, fmt.Errorf("create %s: %w", d.path, err)
	}
	if err := d.initSchema(b); err != nil {
		_ = b.Close()
		_ = os.Remove(d.path)
		return nil, err
	}
	st, err := os.Stat(d.path)
	if err != nil {
		_ = b.Close()
		return nil, err
	}
	d.created = st
	return b, nil
}

// placeNew gives the new file at tmp the name path, never replacing what
// is there: an error wrapping fs.ErrExist if something is. renameat2 with
// RENAME_NOREPLACE does it in one step, so the store never has a second
// name; a system or file system without it falls back to a hard link.
func placeNew(tmp, path string) error {
	err := fsx.RenameNoReplace(tmp, path)
	if errors.Is(err, errors.ErrUnsupported) {
		return linkNew(tmp, path)
	}
	return err
}

// linkNew is placeNew by a hard link and the removal of the temporary
// name. A crash between the two leaves that name on the live store,
// where a compaction would keep deleted bytes: removeStrayNames, at the
// next writable Open, takes it away.
func linkNew(tmp, path string) error {
	if err := os.Link(tmp, path); err != nil {
		return err
	}
	_ = os.Remove(tmp)
	return nil
}

// removeStrayNames removes the temporary names of an interrupted create
// (see linkNew) that still name the store file. Only a hard link to this
// very file is removed: any other file of such a name may be another
// process's create under way. Called holding the write lock.
func (d *DB) removeStrayNames() {
	st, err := os.Stat(d.path)
	if err != nil || linkCount(st) < 2 {
		return // the common case costs one stat, not a directory read
	}
	dir := filepath.Dir(d.path)
	prefix := newNamePrefix(d.path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	removed := false
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		if other, err := os.Lstat(name); err == nil && os.SameFile(st, other) && os.Remove(name) == nil {
			removed = true
		}
	}
	if removed && !d.opts.NoSync {
		_ = syncDir(dir)
	}
}

// sweepHalfMade removes, beside the store at path, the files create began
// and a process that died before putting them in place left: named for
// the store, regular, of one name (a second name of the live store is
// removeStrayNames' to take away), locked by nobody (bbolt holds the lock
// on a file it is making) and older than a minute (bbolt makes the file
// before it locks it: a create takes milliseconds). They hold no data,
// only a schema.
func sweepHalfMade(path string) {
	dir, prefix := filepath.Dir(path), newNamePrefix(path)
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range es {
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		if st, err := f.Stat(); err == nil && linkCount(st) == 1 && time.Since(st.ModTime()) > time.Minute {
			if got, err := fsx.LockFile(f, false); err == nil && got {
				_ = os.Remove(name)
			}
		}
		_ = f.Close()
	}
}
