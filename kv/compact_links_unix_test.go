//go:build unix

package kv

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A compaction of a file with a second name would leave the old inode,
// free pages and all, under that name: it is refused before anything
// changes. A hard delete's scrub works in place, so a pending one is
// finished at Open all the same, and the text leaves both names.
func TestCompactionRefusesAFileWithTwoNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	id := putText(t, db, "zzsecretpin")
	if err := db.Update(func(tx *Tx) error {
		if err := tx.MarkScrubPending(); err != nil {
			return err
		}
		return tx.Delete(id)
	}); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	if err := os.Link(path, other); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if err := db.Compact(); !errors.Is(err, ErrLinked) {
		t.Errorf("Compact of a file with two names: %v, want ErrLinked", err)
	}
	if err := db.SoleName(); !errors.Is(err, ErrLinked) {
		t.Errorf("SoleName: %v, want ErrLinked", err)
	}
	db.Close()
	if !fileHas(t, other, "zzsecretpin") {
		t.Fatal("test is void: the freed page no longer holds the text")
	}
	db, err = Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatalf("Open with a scrub pending and two names: %v", err)
	}
	defer db.Close()
	if db.ScrubPending() {
		t.Error("Open did not finish the scrub")
	}
	a, _ := os.Stat(path)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the two names no longer name one file")
	}
	if fileHas(t, other, "zzsecretpin") {
		t.Error("the deleted text is still under the second name")
	}
}

// Replacing a file with a second name would leave the old one under it:
// Beside refuses it with ErrLinked.
func TestBesideRefusesAFileWithTwoNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	putText(t, db, "x")
	if err := os.Link(path, filepath.Join(dir, "other.db")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if _, err := db.Beside(); !errors.Is(err, ErrLinked) {
		t.Errorf("Beside of a file with two names: %v, want ErrLinked", err)
	}
}
