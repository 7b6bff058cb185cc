package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"
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

const (
	lockName  = "lock"
	bleveName = "bleve"
	subPrefix = "h-"
)

// handle is the sub-directory of one open index.
type handle struct {
	root, dir string
	lock      *os.File
}

// openRoot makes root if it is missing and checks that it is a private
// directory: not a symlink (which could send the index anywhere), not
// readable by others.
func openRoot(root string) error {
	if root == "" {
		return errors.New("index: no directory given")
	}
	if err := os.Mkdir(root, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("index: %w", err)
	}
	st, err := os.Lstat(root)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("index: %s is not a directory (%s)", root, st.Mode().Type())
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(root, 0o700); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

// lockRoot locks root, making it first if needed. A root removed by
// another handle's Close between the two steps is made again.
func lockRoot(root string) (*os.File, error) {
	for {
		if err := openRoot(root); err != nil {
			return nil, err
		}
		f, err := os.Open(root)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("index: %w", err)
		}
		if _, err := lockFile(f, true); err != nil {
			f.Close()
			return nil, fmt.Errorf("index: locking %s: %w", root, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Lstat(root)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
		if err := errors.Join(err1, err2); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("index: %w", err)
		}
	}
}

// newHandle makes a private sub-directory in root and locks it.
func newHandle(root string) (*handle, error) {
	rl, err := lockRoot(root)
	if err != nil {
		return nil, err
	}
	defer rl.Close()
	dir, err := os.MkdirTemp(root, subPrefix)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		if _, err = lockFile(lock, false); err != nil {
			lock.Close()
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("index: %w", err)
	}
	return &handle{root: root, dir: dir, lock: lock}, nil
}

// remove deletes the handle's sub-directory, then the root if no other
// index is left in it.
func (h *handle) remove() error {
	err := os.RemoveAll(h.dir)
	h.lock.Close()
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return removeRootIfEmpty(h.root)
}

func removeRootIfEmpty(root string) error {
	rl, err := os.Open(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer rl.Close()
	if _, err := lockFile(rl, true); err != nil {
		return fmt.Errorf("index: locking %s: %w", root, err)
	}
	// Fails, as it should, while another index lives in the root.
	if err := os.Remove(root); err != nil && !errors.Is(err, fs.ErrNotExist) && !isNotEmpty(root) {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

func isNotEmpty(dir string) bool {
	es, err := os.ReadDir(dir)
	return err == nil && len(es) > 0
}

// Sweep removes from root what earlier processes left behind: every
// sub-directory whose lock no open index holds, and anything else that is
// not an index. With all set (the caller holds the store exclusively, so
// no other index of it can be open) it removes every sub-directory. The
// root goes too when nothing is left in it. A missing root is no error.
func Sweep(root string, all bool) error {
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	rl, err := lockRoot(root)
	if err != nil {
		return err
	}
	defer rl.Close()
	es, err := os.ReadDir(root)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	var errs []error
	for _, e := range es {
		p := filepath.Join(root, e.Name())
		if e.IsDir() && !all && strings.HasPrefix(e.Name(), subPrefix) && inUse(p) {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("index: removing what earlier processes left in %s: %w", root, err)
	}
	if err := os.Remove(root); err != nil && !isNotEmpty(root) {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// inUse says whether an open index holds the lock of sub-directory dir.
func inUse(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR, 0)
	if err != nil {
		return false // made and locked under the root's lock, so never seen without its lock file while in use
	}
	defer f.Close()
	got, err := lockFile(f, false)
	return err != nil || !got // unsure is in use: never remove a live index
}

// ListTerms opens, read-only, every index found under dir (an index's own
// directory, or a root holding several) and returns every term of every
// field, sorted, without repeats. It is for tests and checks that a
// deleted fact left no term behind; an index still open elsewhere cannot
// be read (its files are locked) and gives an error.
func ListTerms(dir string) ([]string, error) {
	var metas []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "index_meta.json" {
			metas = append(metas, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	seen := map[string]bool{}
	for _, p := range metas {
		if err := termsOf(p, seen); err != nil {
			return nil, fmt.Errorf("index: %s: %w", p, err)
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	slices.Sort(out)
	return out, nil
}

func termsOf(path string, seen map[string]bool) error {
	store := filepath.Join(path, "store")
	// An index made but killed before scorch wrote its root holds no
	// segment yet (scorch writes the root first).
	// Nor does one killed while bbolt was making that root: bbolt's four
	// first pages are not all there (and a read-only open would try to
	// write them).
	if st, err := os.Lstat(filepath.Join(store, "root.bolt")); errors.Is(err, fs.ErrNotExist) || (err == nil && st.Size() < 4*int64(os.Getpagesize())) {
		return nil
	}
	// Scorch itself, not bleve's index over it: a process killed right
	// after making its index may not have persisted the mapping bleve
	// would read first.
	q := bindex.NewAnalysisQueue(1)
	defer q.Close()
	sc, err := scorch.NewScorch(scorch.Name, map[string]any{"path": store, "read_only": true, "bolt_timeout": "1s"}, q)
	if err != nil {
		return err
	}
	if err := sc.Open(); err != nil {
		return err
	}
	defer sc.Close()
	r, err := sc.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	fields, err := r.Fields()
	if err != nil {
		return err
	}
	for _, f := range fields {
		d, err := r.FieldDict(f)
		if err != nil {
			return err
		}
		for {
			e, err := d.Next()
			if err != nil {
				d.Close()
				return err
			}
			if e == nil {
				break
			}
			seen[e.Term] = true
		}
		if err := d.Close(); err != nil {
			return err
		}
	}
	return nil
}
