package kv

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// testOwner reads "user:rest" values; anything else names nobody.
func testOwner(_, v []byte) (string, bool) {
	u, _, ok := strings.Cut(string(v), ":")
	return u, ok
}

func openOwned(t *testing.T, path string, readOnly bool) *DB {
	t.Helper()
	db, err := Open(path, 0, &Options{NoSync: true, ReadOnly: readOnly, LogOwner: testOwner})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// userBlobs is what ForEachUserBlob hands over for user, in its order.
func userBlobs(t *testing.T, db *DB, bucket []byte, user string, reverse bool) []string {
	t.Helper()
	var out []string
	err := db.View(func(tx *Tx) error {
		tx.Use(user)
		return tx.ForEachUserBlob(bucket, user, reverse, func(_ uint64, v []byte) error {
			out = append(out, string(v))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func checkIndexes(t *testing.T, db *DB) error {
	t.Helper()
	var errs []error
	_ = db.View(func(tx *Tx) error {
		return tx.EachUser(func(user string) error {
			for _, err := range tx.CheckIndexes() {
				errs = append(errs, fmt.Errorf("user %q: %w", user, err))
			}
			return nil
		})
	})
	return errors.Join(errs...)
}

// putOwned writes each value to its owner's data (testOwner; a value that
// names nobody, to the default user's), as package memory writes under a
// scope.
func putOwned(tx *Tx, bucket []byte, id uint64, v string) error {
	owner, _ := testOwner(bucket, []byte(v))
	tx.Use(owner)
	return tx.PutBlob(bucket, id, []byte(v))
}

// A user's read of the conflicts or merges visits that user's entries:
// PutBlob and DeleteBlob keep the index in step; the decisions, not
// indexed, are read whole.
func TestForEachUserBlob(t *testing.T) {
	db := openOwned(t, filepath.Join(t.TempDir(), "m.db"), false)
	err := db.Update(func(tx *Tx) error {
		for id, v := range map[uint64]string{1: "ann:a1", 2: "bob:b1", 3: "ann:a2", 5: "annie:x", 6: "bob:b2"} {
			for _, b := range [][]byte{BucketConflicts, BucketMerges, BucketDecisions} {
				if err := putOwned(tx, b, id, v); err != nil {
					return err
				}
			}
		}
		tx.Use("ann")
		return tx.PutBlob(BucketConflicts, 4, []byte("garbage")) // in ann's data, owned by nobody
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := userBlobs(t, db, BucketConflicts, "ann", false); !slices.Equal(got, []string{"ann:a1", "ann:a2", "garbage"}) {
		t.Errorf("conflicts of ann: %q", got)
	}
	if got := userBlobs(t, db, BucketMerges, "ann", false); !slices.Equal(got, []string{"ann:a1", "ann:a2"}) {
		t.Errorf("merges of ann: %q", got)
	}
	for _, b := range [][]byte{BucketConflicts, BucketMerges} {
		if got := userBlobs(t, db, b, "bob", true); !slices.Equal(got, []string{"bob:b2", "bob:b1"}) {
			t.Errorf("%s of bob, newest first: %q", b, got)
		}
	}
	if got := userBlobs(t, db, BucketDecisions, "ann", false); len(got) != 2 {
		t.Errorf("decisions of ann: %q, want her two", got)
	}
	if err := checkIndexes(t, db); err != nil {
		t.Fatalf("clean index: %v", err)
	}
	err = db.Update(func(tx *Tx) error {
		if err := putOwned(tx, BucketConflicts, 2, "ann:a3"); err != nil { // ann's 2, not bob's
			return err
		}
		if err := tx.DeleteBlob(BucketConflicts, 1); err != nil {
			return err
		}
		return putOwned(tx, BucketConflicts, 4, "bob:b3")
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := userBlobs(t, db, BucketConflicts, "ann", false); !slices.Equal(got, []string{"ann:a3", "ann:a2", "garbage"}) {
		t.Errorf("ann after the changes: %q", got)
	}
	if got := userBlobs(t, db, BucketConflicts, "bob", false); !slices.Equal(got, []string{"bob:b1", "bob:b3", "bob:b2"}) {
		t.Errorf("bob after the changes: %q", got)
	}
	if err := checkIndexes(t, db); err != nil {
		t.Fatalf("index after the changes: %v", err)
	}

	// A key missing and one astray are both reported.
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		ix := inUser(tx, "bob", bucketLogUsers)
		if err := ix.Delete(append(append([]byte{1, logOwned}, userPrefix("bob")...), idKey(6)...)); err != nil {
			return err
		}
		return ix.Put(append(append([]byte{2, logOwned}, userPrefix("eve")...), idKey(9)...), nil)
	}); err != nil {
		t.Fatal(err)
	}
	if err := checkIndexes(t, db); err == nil || !strings.Contains(err.Error(), "stray key") || !strings.Contains(err.Error(), "lacks 1 keys") {
		t.Errorf("damaged index: %v", err)
	}
}

// A file of format version 2 has no log index: read-only, a user's read
// scans every entry; a writable Open moves each entry to its owner's data
// (one that names nobody to the default user's), indexed.
func TestLogIndexUpgradesVersion2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	makeLegacy(t, path, formatVersionV2, testOwner, nil, func(tx *Tx) error {
		if err := tx.tx.DeleteBucket(bucketLogUsers); err != nil {
			return err
		}
		for id, v := range map[uint64]string{1: "ann:a1", 2: "bob:b1", 3: "garbage", 4: "ann:a2"} {
			if err := tx.tx.Bucket(BucketConflicts).Put(idKey(id), sealed([]byte(v), 0)); err != nil {
				return err
			}
		}
		return nil
	})
	ro := openOwned(t, path, true)
	if got := userBlobs(t, ro, BucketConflicts, "ann", false); len(got) != 4 {
		t.Errorf("version 2, read-only: ann's read %q, want every entry", got)
	}
	if err := checkIndexes(t, ro); err != nil {
		t.Errorf("version 2 has no index to check: %v", err)
	}
	ro.Close()

	rw := openOwned(t, path, false)
	var version uint64
	_ = rw.View(func(tx *Tx) error { version = be.Uint64(tx.meta.Get(keyVersion)); return nil })
	if version != formatVersion {
		t.Errorf("format version %d after a writable open, want %d", version, formatVersion)
	}
	if got := userBlobs(t, rw, BucketConflicts, "ann", false); !slices.Equal(got, []string{"ann:a1", "ann:a2"}) {
		t.Errorf("upgraded: ann's read %q", got)
	}
	if got := userBlobs(t, rw, BucketConflicts, "", false); !slices.Equal(got, []string{"garbage"}) {
		t.Errorf("upgraded: the entry of no owner went to %q, want the default user's", got)
	}
	if err := checkIndexes(t, rw); err != nil {
		t.Errorf("upgraded index: %v", err)
	}
}

// testFacts reads "user:fact,fact:…" values: the facts after the user.
func testFacts(_, v []byte) []uint64 {
	_, rest, ok := strings.Cut(string(v), ":")
	if !ok {
		return nil
	}
	var out []uint64
	for _, f := range strings.Split(rest, ",") {
		var n uint64
		for _, c := range f {
			if c < '0' || c > '9' {
				n = 0
				break
			}
			n = n*10 + uint64(c-'0')
		}
		if n != 0 {
			out = append(out, n)
		}
	}
	return out
}

func factBlobs(t *testing.T, db *DB, fact uint64) []string {
	t.Helper()
	var out []string
	err := db.View(func(tx *Tx) error {
		tx.Use("ann")
		return tx.ForEachFactBlob(BucketConflicts, fact, func(_ uint64, v []byte) error {
			out = append(out, string(v))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A read of the entries standing on a fact visits those LogFacts names
// it in, as PutBlob and DeleteBlob keep them; an upgrade from format 4
// builds those keys and runs Options.Upgrade in its commit.
func TestForEachFactBlob(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	var upgrades []uint64
	opts := &Options{NoSync: true, LogOwner: testOwner, LogFacts: testFacts,
		Upgrade: func(tx *Tx, from uint64) error { upgrades = append(upgrades, from); return nil }}
	db, err := Open(path, 0, opts)
	if err != nil {
		t.Fatal(err)
	}
	put := func(id uint64, v string) {
		t.Helper()
		if err := db.Update(func(tx *Tx) error { return putOwned(tx, BucketConflicts, id, v) }); err != nil {
			t.Fatal(err)
		}
	}
	put(1, "ann:7,9")
	put(2, "ann:9,12")
	put(3, "bob:")
	if got := factBlobs(t, db, 9); !slices.Equal(got, []string{"ann:7,9", "ann:9,12"}) {
		t.Errorf("fact 9: %q", got)
	}
	put(1, "ann:") // no longer standing on 7 and 9
	if got := factBlobs(t, db, 9); !slices.Equal(got, []string{"ann:9,12"}) {
		t.Errorf("fact 9 after the change: %q", got)
	}
	if got := factBlobs(t, db, 7); len(got) != 0 {
		t.Errorf("fact 7: %q", got)
	}
	if err := db.Update(func(tx *Tx) error { tx.Use("ann"); return tx.DeleteBlob(BucketConflicts, 2) }); err != nil {
		t.Fatal(err)
	}
	if got := factBlobs(t, db, 12); len(got) != 0 {
		t.Errorf("fact 12 after the delete: %q", got)
	}
	put(4, "ann:12")
	if err := checkIndexes(t, db); err != nil {
		t.Fatal(err)
	}
	if len(upgrades) != 0 {
		t.Errorf("a new file was upgraded from %v", upgrades)
	}
	db.Close()

	// A file of format 4 holds no fact keys.
	path = filepath.Join(t.TempDir(), "v4.db")
	makeLegacy(t, path, formatVersionV4, testOwner, nil, func(tx *Tx) error {
		for id, v := range map[uint64]string{1: "ann:", 3: "bob:", 4: "ann:12"} {
			if err := tx.PutBlob(BucketConflicts, id, []byte(v)); err != nil {
				return err
			}
		}
		return nil
	})
	ro, err := Open(path, 0, &Options{NoSync: true, ReadOnly: true, LogOwner: testOwner, LogFacts: testFacts})
	if err != nil {
		t.Fatal(err)
	}
	// Read-only, it scans: every value is handed over.
	if got := factBlobs(t, ro, 12); len(got) != 3 {
		t.Errorf("fact 12 in a format 4 file: %q, want every entry", got)
	}
	if err := checkIndexes(t, ro); err != nil {
		t.Errorf("format 4 file: %v", err)
	}
	ro.Close()
	db, err = Open(path, 0, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !slices.Equal(upgrades, []uint64{formatVersionV4}) || !db.Current() {
		t.Errorf("upgrades %v, current %v", upgrades, db.Current())
	}
	if got := factBlobs(t, db, 12); !slices.Equal(got, []string{"ann:12"}) {
		t.Errorf("fact 12 after the upgrade: %q", got)
	}
	if err := checkIndexes(t, db); err != nil {
		t.Fatal(err)
	}
}
