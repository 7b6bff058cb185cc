package kv

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A file filled beside the store takes its place only through Replace,
// and only when keep passes; until then the store reads as it was, and
// Discard leaves nothing behind.
func TestBesideReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := putText(t, db, "in the old file")
	src, err := db.Beside()
	if err != nil {
		t.Fatal(err)
	}
	id := putText(t, src, "in the new file")
	if err := db.View(func(tx *Tx) error {
		if r, err := tx.Get(old); err != nil || r.Text != "in the old file" {
			t.Errorf("the store reads %+v, %v before Replace", r, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	if err := db.Replace(src, func(*Tx) error { return refused }, nil); !errors.Is(err, refused) {
		t.Fatalf("Replace with keep refusing: %v", err)
	}
	if !fileHas(t, path, "in the old file") {
		t.Error("a refused Replace changed the store")
	}
	called := false
	if err := db.Replace(src, nil, func() { called = true }); err != nil {
		t.Fatal(err)
	}
	if !called {
		t.Error("Replace did not call after")
	}
	if err := db.View(func(tx *Tx) error {
		if r, err := tx.Get(id); err != nil || r.Text != "in the new file" {
			t.Errorf("after Replace the store reads %+v, %v", r, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	putText(t, db, "written after") // the new handle writes
	if err := src.Discard(); err != nil {
		t.Errorf("Discard after Replace: %v", err)
	}
	if _, err := os.Stat(path + besideSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the file beside is still there: %v", err)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}

	// Discarded, a file beside leaves nothing.
	other, err := db.Beside()
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Discard(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %v, want the store only", entries)
	}
	if err := db.Discard(); err == nil {
		t.Error("Discard of the store itself was taken")
	}
}

// A file beside left by a process that died is removed by the next
// writable Open; within a process, a second Beside waits for the first to
// end (ErrBusy), since both would have its name.
func TestBesideLeftoverRemovedAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "x")
	src, err := db.Beside()
	if err != nil {
		t.Fatal(err)
	}
	putText(t, src, "half an import")
	_ = src.bolt.Close() // dies: neither Replace nor Discard
	if _, err := db.Beside(); !errors.Is(err, ErrBusy) {
		t.Errorf("a second Beside while the first is unfinished: %v, want ErrBusy", err)
	}
	db.Close()
	if _, err := os.Stat(path + besideSuffix); err != nil {
		t.Fatalf("test is void: no leftover: %v", err)
	}
	db, err = Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := os.Stat(path + besideSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open left the leftover: %v", err)
	}
}

// A store created anew where an import had died beside an older one
// removes the leftover too.
func TestBesideLeftoverRemovedAtCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	if err := os.WriteFile(path+besideSuffix, []byte("half an import"), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := os.Stat(path + besideSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open left the leftover: %v", err)
	}
}
