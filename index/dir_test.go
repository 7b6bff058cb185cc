package index

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
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
