package index

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/palimpsest-mem/memory/internal/fsx"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// In a root of the store's, a sweep removes the indexes that no process
// holds, and nothing else: not a file, not a folder named like an index
// that holds something else, not a symlink; the root stays while they do.
func TestSweepRemovesOnlyDeadIndexes(t *testing.T) {
	an, err := NewAnalyzer(Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "ix")
	live, err := New(an, root)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	dead := filepath.Join(root, "h-dead")
	for _, d := range []string{filepath.Join(dead, bleveName), filepath.Join(root, "h-mine")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(dead, lockName), filepath.Join(root, "h-mine", "photo.jpg"), filepath.Join(root, "notes.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(root, "h-link")); err != nil {
		t.Fatal(err)
	}
	if err := Sweep(root, false); err != nil {
		t.Fatal(err)
	}
	want := []string{MarkerName, filepath.Base(live.Dir()), "h-link", "h-mine", "notes.txt"}
	slices.Sort(want)
	if got := names(t, root); !slices.Equal(got, want) {
		t.Errorf("after a sweep: %v, want %v", got, want)
	}
	if err := live.Close(); err != nil {
		t.Fatal(err)
	}
	if err := Sweep(root, true); err != nil {
		t.Fatal(err)
	}
	want = []string{MarkerName, "h-link", "h-mine", "notes.txt"}
	if got := names(t, root); !slices.Equal(got, want) {
		t.Errorf("after Close and a sweep of all: %v, want %v", got, want)
	}
}

// A root path that holds a folder without the marker, a file or a symlink
// is not swept and no index is made there.
func TestForeignRootIsLeftAlone(t *testing.T) {
	an, err := NewAnalyzer(Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plant := map[string]func(string) error{
		"folder": func(p string) error { return os.Mkdir(p, 0o755) },
		"file":   func(p string) error { return os.WriteFile(p, []byte("x"), 0o644) },
		"link":   func(p string) error { return os.Symlink(t.TempDir(), p) },
	}
	for name, mk := range plant {
		root := filepath.Join(dir, name)
		if err := mk(root); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Lstat(root)
		for _, all := range []bool{false, true} {
			if err := Sweep(root, all); !errors.Is(err, ErrDir) {
				t.Errorf("%s: a sweep: %v", name, err)
			}
		}
		if _, err := New(an, root); !errors.Is(err, ErrDir) {
			t.Errorf("%s: New: %v", name, err)
		}
		if err := Foreign(root); !errors.Is(err, ErrDir) {
			t.Errorf("%s: Foreign: %v", name, err)
		}
		after, err := os.Lstat(root)
		if err != nil || after.Mode() != before.Mode() || (after.IsDir() && len(names(t, root)) > 0) {
			t.Errorf("%s: changed: %v, %v", name, after, err)
		}
	}
	if err := Foreign(filepath.Join(dir, "none")); err != nil {
		t.Errorf("Foreign of nothing: %v", err)
	}
}

// A root that a process killed while making it left half made beside its
// path (a marked directory under a temporary name) goes when a root is next made;
// one still being made (locked), or holding anything else, stays.
func TestMakingARootRemovesRootsHalfMade(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "notes.db.index")
	mk := func(name string, files ...string) string {
		p := filepath.Join(dir, halfMadePrefix(root)+name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(p, f), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	dead := mk("1", MarkerName)
	empty := mk("2")
	mine := mk("3", MarkerName, "notes.txt")
	live := mk("4", MarkerName)
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, err := fsx.LockFile(f, false); err != nil || !got {
		t.Skipf("no file lock to hold here: %v, %v", got, err)
	}
	an, err := NewAnalyzer(Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := New(an, root) // makes the root, and sweeps what a make left
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for p, want := range map[string]bool{dead: false, empty: false, mine: true, live: true} {
		if _, err := os.Lstat(p); (err == nil) != want {
			t.Errorf("%s: after a root was made: %v; want kept %v", p, err, want)
		}
	}
}

// Indexes made and closed at once in one root, beside sweeps, all succeed:
// a root removed or half made by another is looked at again, never
// reported.
func TestRootsMadeAndSweptAtOnce(t *testing.T) {
	an, err := NewAnalyzer(Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "notes.db.index")
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for range 4 {
		wg.Go(func() {
			for range 10 {
				ix, err := New(an, root)
				if err == nil {
					err = ix.Close()
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Go(func() {
		for range 40 {
			if err := Sweep(root, false); err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, err := os.Lstat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the root after every index closed: %v", err)
	}
	if got := names(t, filepath.Dir(root)); len(got) > 0 {
		t.Errorf("left beside the root: %v", got)
	}
}

// An empty root is removed by moving it aside first (asideName): nothing
// is left at its path or beside it, and what a process killed after the
// move leaves (the folder aside, still holding its marker) the next
// makeRoot sweeps; at the path it would have been a folder without its
// marker, which the store would take for someone else's for good.
func TestRemoveRootIfEmptyNeverLeavesAnUnmarkedRoot(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "m.db.index")
	if err := makeRoot(root); err != nil {
		t.Fatal(err)
	}
	if err := removeRootIfEmpty(root); err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(parent); len(es) != 0 {
		t.Errorf("after the removal the folder holds %v", es)
	}

	// Killed between the move and the removals.
	if err := makeRoot(root); err != nil {
		t.Fatal(err)
	}
	aside := asideName(root)
	if err := os.Rename(root, aside); err != nil {
		t.Fatal(err)
	}
	if err := makeRoot(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(aside); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the folder a killed removal left aside is still there: %v", err)
	}
	if err := checkRoot(root); err != nil {
		t.Errorf("the root made again: %v", err)
	}
}
