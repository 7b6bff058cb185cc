//go:build unix

package kv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// nobody is the uid and gid a test as root gives the store to.
const nobody = 65534

func ownerOf(t *testing.T, path string) (int, int) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	uid, gid, _ := owner(st)
	return uid, gid
}

// storeOwnedByNobody makes a store with a text in it, owned by nobody, and
// opens it as root.
func storeOwnedByNobody(t *testing.T) (*DB, string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give the store to another user")
	}
	path := filepath.Join(t.TempDir(), "store.db")
	db, err := Open(path, 0o640, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "zzsecretpin")
	db.Close()
	if err := os.Chown(path, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if db, err = Open(path, 0, &Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// A compaction run by root keeps the store's owner and group, and its
// mode; it made the file root's, which its owner could no longer open.
func TestCompactionKeepsOwner(t *testing.T) {
	db, path := storeOwnedByNobody(t)
	if err := db.Compact(); err != nil {
		t.Fatal(err)
	}
	if uid, gid := ownerOf(t, path); uid != nobody || gid != nobody {
		t.Errorf("after compaction the store is %d:%d, want %d:%d", uid, gid, nobody, nobody)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("after compaction the mode is %o, want 640", st.Mode().Perm())
	}
}

// Where the owner cannot be given to the new file, the compaction is
// refused before it replaces anything: the store is the same file, its
// owner's, with its bytes, and no temporary file is left.
func TestCompactionRefusedUnlessOwnerKept(t *testing.T) {
	db, path := storeOwnedByNobody(t)
	if err := db.Update(func(tx *Tx) error { return tx.MarkScrubPending() }); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	db.chown = func(f *os.File, uid, gid int) error {
		return &fs.PathError{Op: "fchown", Path: f.Name(), Err: syscall.EPERM}
	}
	if err := db.Replaceable(); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Replaceable = %v, want an error wrapping fs.ErrPermission", err)
	}
	err := db.Compact()
	if !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("Compact = %v, want an error wrapping fs.ErrPermission", err)
	}
	t.Log(err)
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) || !fileHas(t, path, "zzsecretpin") || !db.ScrubPending() {
		t.Error("the refused compaction changed the store")
	}
	if uid, gid := ownerOf(t, path); uid != nobody || gid != nobody {
		t.Errorf("the store is %d:%d, want %d:%d", uid, gid, nobody, nobody)
	}
	if es, _ := os.ReadDir(filepath.Dir(path)); len(es) != 1 {
		t.Errorf("left beside the store: %v", es)
	}
}
