package kv

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// putText writes one record holding text in its own transaction.
func putText(t *testing.T, db *DB, text string) uint64 {
	t.Helper()
	var id uint64
	err := db.Update(func(tx *Tx) error {
		var err error
		if id, err = tx.NextID(); err != nil {
			return err
		}
		return tx.Put(&Record{ID: id, Text: text, RecordedAt: int64(id)})
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func fileHas(t *testing.T, path, needle string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(b, []byte(needle))
}

// A store opened through a symlink is the link's target: a compaction
// replaces the target, not the link, so the store stays one file and the
// deleted text leaves the file that holds it.
func TestCompactionThroughASymlinkKeepsOneStore(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "store.db")
	if err := os.Mkdir(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := Open(real, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "the store exists before the link")
	db.Close()
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(filepath.Join("real", "store.db"), link); err != nil {
		t.Fatal(err)
	}
	db, err = Open(link, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	secret := "my PIN is 4917-SECRET"
	id := putText(t, db, secret)
	putText(t, db, "I like tea.")
	if !fileHas(t, real, secret) {
		t.Fatal("test is void: the secret never reached the real file")
	}
	if err := db.Update(func(tx *Tx) error {
		if err := tx.MarkScrubPending(); err != nil {
			return err
		}
		return tx.Delete(id)
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is no longer a symlink: %v %v", st.Mode(), err)
	}
	if fileHas(t, real, secret) {
		t.Error("the real file still holds the deleted text")
	}
	putText(t, db, "written after the compaction")
	if !fileHas(t, real, "written after the compaction") {
		t.Error("a write after the compaction did not reach the real file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the directory holds %d entries, want the link and the real folder", len(entries))
	}
}

func TestOpenRefusesADanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(filepath.Join(dir, "missing", "store.db"), link); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		_, err := Open(link, 0, &Options{ReadOnly: ro})
		if !errors.Is(err, ErrNotStore) || !strings.Contains(err.Error(), "symlink") {
			t.Errorf("read-only %v: %v, want ErrNotStore naming the symlink", ro, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open created something at the link's target: %v", err)
	}
}

// A 0-byte file is not a store; the store never leaves one (it creates
// its file whole), so refusing it loses nothing.
func TestOpenRefusesAnEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		_, err := Open(path, 0, &Options{ReadOnly: ro})
		if !errors.Is(err, ErrNotStore) || !strings.Contains(err.Error(), "is an empty file") {
			t.Errorf("read-only %v: %v, want ErrNotStore saying it is an empty file", ro, err)
		}
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 0 {
		t.Errorf("Open changed the empty file: %v %v", st.Size(), err)
	}
}

func TestOpenRefusesADirectory(t *testing.T) {
	path := t.TempDir()
	for _, ro := range []bool{false, true} {
		_, err := Open(path, 0, &Options{ReadOnly: ro})
		if !errors.Is(err, ErrNotStore) || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("read-only %v: %v, want ErrNotStore saying it is a directory", ro, err)
		}
	}
}

// A new store appears at its path whole, never as a file bbolt is still
// writing: Open builds it under a temporary name and links it into place.
func TestNewStoreLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.db")
	db, err := Open(path, 0o640, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "a fact")
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "m.db" {
		t.Errorf("directory holds %v, want m.db only", entries)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&^0o640 != 0 {
		t.Errorf("mode %o, asked for 0640", st.Mode().Perm())
	}
	db, err = Open(path, 0, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// A store this Open created and nothing was ever committed to is removed
// again at Close: a refused first write leaves no file behind.
func TestCloseRemovesANewStoreNothingWasWrittenTo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	if err := db.Update(func(tx *Tx) error {
		if err := tx.Put(&Record{ID: 1, Text: "half a write"}); err != nil {
			return err
		}
		return refused
	}); !errors.Is(err, refused) {
		t.Fatal(err)
	}
	// A second name for the file keeps a copy to open again below.
	keep := filepath.Join(t.TempDir(), "kept.db")
	if err := os.Link(path, keep); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the directory holds %v after Close, want nothing", entries)
	}

	// A store that existed before this Open stays, even with nothing in it.
	db, err = Open(keep, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("an existing empty store was removed: %v", err)
	}

	// One committed write keeps a new store.
	db, err = Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "kept")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if !fileHas(t, path, "kept") {
		t.Error("a store with a committed write was removed")
	}
}

// A new store at a relative path is created in the working directory,
// synced like any other.
func TestNewStoreAtARelativePath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db, err := Open("m.db", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "a fact")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if !fileHas(t, filepath.Join(dir, "m.db"), "a fact") {
		t.Error("the store is not in the working directory")
	}
}

// Opens racing to create one store all end in the same file: the losers
// of the link open the winner's store, and one that waited for a store
// removed at Close (nothing written) creates it again.
func TestConcurrentOpensOfANewPathShareOneStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			db, err := Open(path, 0, &Options{NoSync: true, LockTimeout: time.Minute})
			if err != nil {
				errs <- err
				return
			}
			if i%2 == 0 { // half write, half leave their store unwritten
				err = db.Update(func(tx *Tx) error {
					id, err := tx.NextID()
					if err != nil {
						return err
					}
					return tx.Put(&Record{ID: id, Text: "from an opener", RecordedAt: 1})
				})
			}
			errs <- errors.Join(err, db.Close())
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	db, err := Open(path, 0, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := 0
	if err := db.View(func(tx *Tx) error {
		return tx.ForEach(func(Record) error { count++; return nil })
	}); err != nil {
		t.Fatal(err)
	}
	if count != n/2 {
		t.Errorf("the store holds %d records, want the %d written", count, n/2)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("the folder holds %v, want the store only", entries)
	}
}
