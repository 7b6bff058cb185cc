package kv

import (
	"errors"
	"os"
	"testing"
)

// A panic in a transaction's closure is a bug, not corruption: it passes
// through Update and View with its own value, and the store stays usable.
func TestABugInAClosurePanicsThrough(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	var nilMap map[string]int
	var nilRecord *Record
	bugs := map[string]func(*Tx) error{
		"panic":           func(*Tx) error { panic("bug") },
		"nil map write":   func(*Tx) error { nilMap["x"] = 1; return nil },
		"nil dereference": func(*Tx) error { return errors.New(nilRecord.Text) },
		"index":           func(tx *Tx) error { ids := []uint64{}; _, err := tx.Get(ids[len(ids)]); return err },
	}
	for name, fn := range bugs {
		for _, run := range []struct {
			how string
			do  func(func(*Tx) error) error
		}{{"Update", db.Update}, {"View", db.View}} {
			t.Run(name+" in "+run.how, func(t *testing.T) {
				var err error
				r := func() (r any) {
					defer func() { r = recover() }()
					err = run.do(fn)
					return nil
				}()
				if r == nil {
					t.Fatalf("no panic came through; the call returned %v", err)
				}
				if name == "panic" && r != "bug" {
					t.Errorf("panic value %v, want the closure's own", r)
				}
				if e, ok := r.(error); ok && errors.Is(e, ErrCorrupt) {
					t.Errorf("the bug passed for corruption: %v", e)
				}
			})
		}
	}
	// bbolt rolled the transactions back and released its locks.
	putText(t, db, "still writable")
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// A fault on the mapped file is corruption, whichever code touched the
// bytes: here the file shrinks under an open store, and reading a record
// whose page is gone faults inside package kv's own decoding.
func TestAFaultOnTheMappedFileIsCorruption(t *testing.T) {
	db := openTest(t)
	for i := range 400 {
		putText(t, db, "a fact that fills pages "+string(rune('a'+i%26)))
	}
	if err := os.Truncate(db.Path(), 2*4096); err != nil {
		t.Fatal(err)
	}
	err := db.View(func(tx *Tx) error {
		return tx.ForEach(func(Record) error { return nil })
	})
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("reading a truncated file: %v, want ErrCorrupt", err)
	}
}
