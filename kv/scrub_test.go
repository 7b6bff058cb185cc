package kv

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A hard delete's scrub leaves no byte of the deleted text anywhere in
// the file, keeps every other record readable, and leaves both meta
// pages naming trees without the text: bbolt falls back to the older one
// when the newer is torn, and that one must not lead to zeroed pages.
func TestScrubZeroesFreedPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	for i := range 3000 {
		ids = append(ids, putText(t, db, fmt.Sprintf("fact number %d about the weather and work", i)))
	}
	secret := "SCRUB-SECRET-" + string(bytes.Repeat([]byte("x"), 5000)) // an overflow page too
	victim := putText(t, db, secret)
	// Rewrites leave stale copies of live pages behind; they go too.
	for _, id := range ids[:500] {
		if err := db.Update(func(tx *Tx) error {
			r, err := tx.Get(id)
			if err != nil {
				return err
			}
			r.Text += " (edited)"
			return tx.Put(&r)
		}); err != nil {
			t.Fatal(err)
		}
	}
	err = db.Update(func(tx *Tx) error {
		if err := tx.MarkScrubPending(); err != nil {
			return err
		}
		return tx.Delete(victim)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !fileHas(t, path, "SCRUB-SECRET-") {
		t.Fatal("test is void: the freed pages no longer hold the text")
	}
	if err := db.Scrub(); err != nil {
		t.Fatal(err)
	}
	if fileHas(t, path, "SCRUB-SECRET-") {
		t.Error("the deleted text is still in the file after Scrub")
	}
	if db.ScrubPending() {
		t.Error("the pending mark survived the scrub")
	}
	if err := db.Check(); err != nil {
		t.Errorf("Check after Scrub: %v", err)
	}
	readAll := func(db *DB) {
		t.Helper()
		err := db.View(func(tx *Tx) error {
			for i, id := range ids {
				r, err := tx.Get(id)
				if err != nil {
					return fmt.Errorf("fact %d: %w", id, err)
				}
				if want := fmt.Sprintf("fact number %d about", i); !bytes.HasPrefix([]byte(r.Text), []byte(want)) {
					return fmt.Errorf("fact %d reads %q", id, r.Text)
				}
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
	readAll(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// Tear the newer meta page: the file reads as the commit before, which
	// must be whole too.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	meta, pageSize, _, err := newestMeta(data)
	if err != nil {
		t.Fatal(err)
	}
	newest := 0
	if &data[int(pageSize)+pageHeader] == &meta[0] {
		newest = int(pageSize)
	}
	data[newest+pageHeader+20] ^= 0xff
	torn := filepath.Join(t.TempDir(), "torn.db")
	if err := os.WriteFile(torn, data, 0o600); err != nil {
		t.Fatal(err)
	}
	old, err := Open(torn, 0, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	readAll(old)
	if err := old.View(func(tx *Tx) error {
		if tx.Has(victim) {
			t.Error("the older commit still holds the deleted record")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A scrub clears the text of every record deleted before it, however
// many commits rewrote the pages that held it, and a second scrub keeps
// the file whole. (Pages freed by the scrub's own last commit are not
// zero: they hold the state after the delete, which the commit before
// that last one named.)
func TestScrubClearsEveryDeletedText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	marker := func(i int) string { return fmt.Sprintf("DELETED-%04d-", i) }
	var ids []uint64
	for i := range 400 {
		ids = append(ids, putText(t, db, marker(i)+string(bytes.Repeat([]byte("w"), i%50*20))))
	}
	for _, id := range ids[:200] {
		if err := db.Update(func(tx *Tx) error { return tx.Delete(id) }); err != nil {
			t.Fatal(err)
		}
	}
	left := 0
	for i := range 200 {
		if fileHas(t, path, marker(i)) {
			left++
		}
	}
	if left == 0 {
		t.Fatal("test is void: the freed pages no longer hold any deleted text")
	}
	for range 2 {
		if err := db.Scrub(); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 200 {
			if bytes.Contains(data, []byte(marker(i))) {
				t.Fatalf("the text of deleted record %d is in the file after Scrub", i)
			}
		}
		for i := 200; i < 400; i++ {
			if !bytes.Contains(data, []byte(marker(i))) {
				t.Fatalf("the text of record %d, never deleted, is gone", i)
			}
		}
		if err := db.Check(); err != nil {
			t.Error(err)
		}
	}
}

// Scrub refuses a read-only or closed store.
func TestScrubRefusals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	putText(t, db, "x")
	db.Close()
	if err := db.Scrub(); err != ErrClosed {
		t.Errorf("Scrub of a closed store: %v, want ErrClosed", err)
	}
	ro, err := Open(path, 0, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.Scrub(); err != ErrReadOnly {
		t.Errorf("Scrub of a read-only store: %v, want ErrReadOnly", err)
	}
}
