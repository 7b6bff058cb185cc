//go:build unix

package kv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func names(t *testing.T, path string) uint64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return linkCount(st)
}

// A new store has one name from the moment it appears, and no temporary
// file is left beside it.
func TestCreateLeavesOneName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := names(t, path); n != 1 {
		t.Errorf("a new store has %d names", n)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".store.db.new-*")); len(left) != 0 {
		t.Errorf("left beside the new store: %v", left)
	}
}

// A create killed between placing its temporary file and removing that
// name leaves a second name of the live store: a writable Open removes it
// (and only a name of the same file), so that writes and a compaction
// concern one file.
func TestOpenRemovesTheTemporaryNameOfAnInterruptedCreate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "zzsecretpin")
	db.Close()
	leftover := filepath.Join(dir, ".store.db.new-KILLED")
	if err := os.Link(path, leftover); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	other := filepath.Join(dir, ".store.db.new-OTHER") // another file: not ours to judge
	if err := os.WriteFile(other, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(path, 0, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro.Close()
	if _, err := os.Lstat(leftover); err != nil {
		t.Errorf("a read-only Open removed a name: %v", err)
	}
	db, err = Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := os.Lstat(leftover); !os.IsNotExist(err) {
		t.Errorf("the interrupted create's name is still there: %v", err)
	}
	if n := names(t, path); n != 1 {
		t.Errorf("the store has %d names", n)
	}
	if _, err := os.Lstat(other); err != nil {
		t.Errorf("a file that is not the store was removed: %v", err)
	}
}

// Putting a new file into place never replaces what is at the path, and
// leaves it with one name; the link fallback of other systems too.
func TestPlaceNewNeverReplaces(t *testing.T) {
	for name, place := range map[string]func(string, string) error{"placeNew": placeNew, "linkNew": linkNew} {
		dir := t.TempDir()
		tmp, path := filepath.Join(dir, "tmp"), filepath.Join(dir, "path")
		if err := os.WriteFile(tmp, []byte("new"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := place(tmp, path); !errors.Is(err, fs.ErrExist) {
			t.Errorf("%s over a file: %v, want fs.ErrExist", name, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "old" {
			t.Errorf("%s replaced the file at the path: %q", name, b)
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := place(tmp, path); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
			t.Errorf("%s left the temporary name: %v", name, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "new" || names(t, path) != 1 {
			t.Errorf("%s: %q with %d names", name, b, names(t, path))
		}
	}
}
