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
// changes, and a pending one waits at Open instead of failing it.
func TestCompactionRefusesAFileWithTwoNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "zzsecretpin")
	if err := db.Update(func(tx *Tx) error { return tx.MarkCompactionPending() }); err != nil {
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
	db, err = Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatalf("Open with a compaction pending and two names: %v", err)
	}
	if !db.CompactionPending() {
		t.Error("the compaction is no longer pending")
	}
	a, _ := os.Stat(path)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) || !fileHas(t, other, "zzsecretpin") {
		t.Error("the two names no longer name one file")
	}
	db.Close()
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.CompactionPending() || db.SoleName() != nil {
		t.Error("with one name, Open did not finish the compaction")
	}
}
