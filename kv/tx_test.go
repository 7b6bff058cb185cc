package kv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func openTest(t *testing.T) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// seed writes three facts of two users: ann's 1 superseded by her 2, and
// bob's 3 (his counter set so), each with log entries, so that records
// and logs interleave in the facts buckets.
func seed(t *testing.T, db *DB) {
	t.Helper()
	err := db.Update(func(tx *Tx) error {
		for _, r := range []Record{
			{User: "ann", Text: "I work at company A.", RecordedAt: 1},
			{User: "ann", Text: "I work at company B.", RecordedAt: 2, Auto: true},
			{User: "bob", Text: "I like tea.", RecordedAt: 3},
		} {
			tx.Use(r.User)
			if r.User == "bob" {
				if err := tx.SetNextID(3); err != nil {
					return err
				}
			}
			id, err := tx.NextID()
			if err != nil {
				return err
			}
			r.ID = id
			if err := tx.Put(&r); err != nil {
				return err
			}
			if err := tx.Append(id, &Event{Kind: Recorded, At: r.RecordedAt}); err != nil {
				return err
			}
		}
		tx.Use("ann")
		old, err := tx.Get(1)
		if err != nil {
			return err
		}
		old.ValidUntil, old.SupersededBy = 2, 2
		if err := tx.Put(&old); err != nil {
			return err
		}
		return tx.Append(1, &Event{Kind: Superseded, At: 2, By: 2})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestLayoutReadsBack(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	err := db.View(func(tx *Tx) error {
		tx.Use("ann")
		if got := tx.PeekNextID(); got != 3 {
			t.Errorf("ann's next id %d, want 3", got)
		}
		var all, cur []uint64
		var autos []bool
		_ = tx.UserIDs("ann", false, func(id uint64, _ bool) error { all = append(all, id); return nil })
		_ = tx.UserIDs("ann", true, func(id uint64, auto bool) error { cur, autos = append(cur, id), append(autos, auto); return nil })
		if !slices.Equal(all, []uint64{1, 2}) || !slices.Equal(cur, []uint64{2}) || !slices.Equal(autos, []bool{true}) {
			t.Errorf("ann: all %v, current %v auto %v", all, cur, autos)
		}
		ev, err := tx.Events(1)
		if err != nil || len(ev) != 2 || ev[1].Kind != Superseded || ev[1].By != 2 {
			t.Errorf("events of 1: %+v, %v", ev, err)
		}
		var ids []uint64
		_ = tx.ForEach(func(r Record) error { ids = append(ids, r.ID); return nil })
		if !slices.Equal(ids, []uint64{1, 2}) {
			t.Errorf("ForEach yields %v of ann's: log entries must not read as records", ids)
		}
		var current []uint64
		_ = tx.ForEachCurrent(func(r Record) error { current = append(current, r.ID); return nil })
		if !slices.Equal(current, []uint64{2}) {
			t.Errorf("ForEachCurrent yields %v of ann's", current)
		}
		if errs := tx.CheckIndexes(); len(errs) > 0 {
			t.Errorf("clean store, ann: %v", errs)
		}
		tx.Use("bob")
		if errs := tx.CheckIndexes(); len(errs) > 0 {
			t.Errorf("clean store, bob: %v", errs)
		}
		if got := tx.PeekNextID(); got != 4 {
			t.Errorf("bob's next id %d, want 4", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Deleting a record takes its log entries and index key, and nothing of
	// its neighbours.
	if err := db.Update(func(tx *Tx) error { tx.Use("ann"); return tx.Delete(2) }); err != nil {
		t.Fatal(err)
	}
	_ = db.View(func(tx *Tx) error {
		tx.Use("ann")
		if ev, _ := tx.Events(2); len(ev) != 0 {
			t.Errorf("log of a deleted fact: %+v", ev)
		}
		if ev, _ := tx.Events(1); len(ev) != 2 {
			t.Errorf("log of the fact before: %+v", ev)
		}
		if tx.PeekNextID() != 3 {
			t.Error("a delete freed an id")
		}
		if errs := tx.CheckIndexes(); len(errs) != 0 {
			t.Errorf("after delete: %v", errs)
		}
		tx.Use("bob")
		if ev, _ := tx.Events(3); len(ev) != 1 {
			t.Errorf("log of bob's fact: %+v", ev)
		}
		return nil
	})
}

// The id counter is the facts bucket's sequence: compaction must carry it.
func TestNextIDSurvivesCompaction(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	if err := db.Update(func(tx *Tx) error { return tx.SetNextID(40) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(); err != nil {
		t.Fatal(err)
	}
	_ = db.View(func(tx *Tx) error {
		if got := tx.PeekNextID(); got != 40 {
			t.Errorf("next id after compaction %d, want 40", got)
		}
		return nil
	})
	if err := db.Update(func(tx *Tx) error { return tx.SetNextID(0) }); err == nil {
		t.Error("next id 0 accepted")
	}
}

// CheckIndexes finds each way the users bucket or the log can disagree with
// the records.
func TestCheckIndexesFindsDamage(t *testing.T) {
	for name, tc := range map[string]struct {
		user   string
		damage func(tx *bolt.Tx) error
		want   string
	}{
		"stale state": {"ann", func(tx *bolt.Tx) error {
			return inUser(tx, "ann", bucketUsers).Put(userKey("ann", 1), []byte{userCurrent})
		}, "holds state"},
		"stray key": {"ann", func(tx *bolt.Tx) error {
			return inUser(tx, "ann", bucketUsers).Put(userKey("eve", 9), []byte{userCurrent})
		}, "stray key"},
		"missing key": {"bob", func(tx *bolt.Tx) error {
			return inUser(tx, "bob", bucketUsers).Delete(userKey("bob", 3))
		}, "records imply"},
		"orphan log entry": {"ann", func(tx *bolt.Tx) error {
			return inUser(tx, "ann", bucketFacts).Put(eventKey(7, 0), appendEvent(nil, &Event{Kind: Recorded, At: 1}))
		}, "belongs to no fact"},
		"another user's record": {"ann", func(tx *bolt.Tx) error {
			return inUser(tx, "ann", bucketFacts).Put(idKey(5), appendRecord(nil, &Record{ID: 5, User: "bob", Text: "x", RecordedAt: 1}))
		}, "kept with user"},
	} {
		t.Run(name, func(t *testing.T) {
			db := openTest(t)
			seed(t, db)
			if err := db.bolt.Update(tc.damage); err != nil {
				t.Fatal(err)
			}
			_ = db.View(func(tx *Tx) error {
				tx.Use(tc.user)
				errs := tx.CheckIndexes()
				if err := errors.Join(errs...); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("got %v, want an error saying %q", err, tc.want)
				}
				return nil
			})
		})
	}
}

func TestOtherFormatVersionRefused(t *testing.T) {
	db := openTest(t)
	path := db.Path()
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyVersion, be.AppendUint64(nil, 1))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(path, 0, nil); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "format version 1") {
		t.Errorf("a version 1 file: %v", err)
	}
}

// A version 3 file, whose records a version 3 program can decode, is read
// as it is read-only and marked current by a writable Open, before any
// record of version 3 can be written; a newer format is refused.
func TestVersion3FileBecomesCurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	makeLegacy(t, path, formatVersionV3, nil, nil, nil)
	version := func(db *DB) (v uint64) {
		_ = db.View(func(tx *Tx) error { v = be.Uint64(tx.meta.Get(keyVersion)); return nil })
		return v
	}
	ro, err := Open(path, 0, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if v := version(ro); v != formatVersionV3 || !ro.logsIndexed {
		t.Errorf("read-only: version %d, logs indexed %v; want %d, true", v, ro.logsIndexed, formatVersionV3)
	}
	ro.Close()
	db, err := Open(path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := version(db); v != formatVersion {
		t.Errorf("after a writable open: version %d, want %d", v, formatVersion)
	}
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyVersion, be.AppendUint64(nil, formatVersion+1))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(path, 0, nil); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("format version %d", formatVersion+1)) {
		t.Errorf("a newer file: %v", err)
	}
}

// Records arrive in id order, so the facts bucket's pages split full: a
// large import writes about half the pages bbolt's default split would.
func TestAppendedRecordsFillTheirPages(t *testing.T) {
	db := openTest(t)
	err := db.Update(func(tx *Tx) error {
		tx.Use("ann")
		for range 3000 {
			id, err := tx.NextID()
			if err != nil {
				return err
			}
			r := Record{ID: id, User: "ann", Text: strings.Repeat("I like green tea. ", 8), RecordedAt: int64(id)}
			if err := tx.Put(&r); err != nil {
				return err
			}
			if err := tx.Append(id, &Event{Kind: Recorded, At: r.RecordedAt}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		facts, _ := flatRoot(tx, bucketRecords, false)
		st := facts.Stats()
		if fill := float64(st.LeafInuse) / float64(st.LeafAlloc); fill < 0.85 {
			t.Errorf("leaf pages %.0f%% full, want ≥ 85%%", 100*fill)
		}
		return nil
	})
}

// Paging through the current records in short transactions yields each
// once, in the order one long walk does.
func TestCurrentPagesCoverEveryCurrentRecord(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	var walk []uint64
	_ = db.View(func(tx *Tx) error {
		return tx.EachUser(func(string) error {
			return tx.ForEachCurrent(func(r Record) error { walk = append(walk, r.ID); return nil })
		})
	})
	for _, n := range []int{1, 2, 5} {
		var paged []uint64
		var after []byte
		for {
			var page []Record
			var next []byte
			err := db.View(func(tx *Tx) (err error) { page, next, err = tx.CurrentPage(after, n); return err })
			if err != nil {
				t.Fatal(err)
			}
			if len(page) > n {
				t.Fatalf("page of %d records, asked for %d", len(page), n)
			}
			for _, r := range page {
				paged = append(paged, r.ID)
			}
			if next == nil {
				break
			}
			after = next
		}
		if !slices.Equal(paged, walk) || len(walk) != 2 {
			t.Errorf("pages of %d: %v, one walk: %v", n, paged, walk)
		}
	}
}

// A meta page that fails its checksum makes bbolt read the file as it was a
// commit earlier; Open still succeeds, but the store is stale and Check
// says the newest commit may have been lost rather than answering from the older
// state in silence.
func TestDamagedMetaPageIsReported(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	path := db.Path()
	if err := db.Check(); err != nil {
		t.Fatalf("clean file: %v", err)
	}
	db.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, size, _, err := newestMeta(b)
	if err != nil {
		t.Fatal(err)
	}
	// Damage the checksum of the meta page written last.
	newest := uint64(0)
	if le.Uint64(b[size+pageHeader+48:]) > le.Uint64(b[pageHeader+48:]) {
		newest = uint64(size)
	}
	b[newest+pageHeader+56] ^= 0xff
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatalf("bbolt falls back to the other meta page: %v", err)
	}
	defer db.Close()
	if err := db.Check(); !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), "may have been lost") {
		t.Errorf("Check: %v", err)
	}
}

// bbolt's own check asserts that each page's header names the page, in a
// goroutine where the panic would end the process: Check finds a header
// that names another page first, on a meta page as on a data page.
func TestPageHeaderNamingAnotherPageIsReported(t *testing.T) {
	for name, page := range map[string]func(size uint64, b []byte) uint64{
		"meta page 0": func(uint64, []byte) uint64 { return 0 },
		"meta page 1": func(uint64, []byte) uint64 { return 1 },
		"root page": func(size uint64, b []byte) uint64 {
			meta, _, _, _ := newestMeta(b)
			return le.Uint64(meta[16:])
		},
	} {
		t.Run(name, func(t *testing.T) {
			db := openTest(t)
			seed(t, db)
			path := db.Path()
			db.Close()
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, size, _, _ := newestMeta(b)
			id := page(uint64(size), b)
			b[id*uint64(size)] ^= 0x40 // the low byte of the header's page id
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			db, err = Open(path, 0, &Options{NoSync: true, ReadOnly: true})
			if err != nil {
				return // refused at Open: reported too
			}
			defer db.Close()
			if err := db.Check(); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Check: %v", err)
			}
		})
	}
}

// Opening a store that has all its buckets writes nothing: an empty bbolt
// transaction would still commit a meta page and fsync twice.
func TestOpenOfACompleteStoreCommitsNothing(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	path := db.Path()
	txid := func(db *DB) (id int) {
		_ = db.bolt.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil })
		return id
	}
	before := txid(db)
	db.Close()
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if after := txid(db); after != before {
		t.Errorf("Open committed: transaction id %d, was %d", after, before)
	}
}

// TouchedUsers names each user a transaction changed, with the ids of the
// facts written, deleted or only logged, and a user touched for other data
// with none.
func TestTouchedUsers(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	got := map[string][]uint64{}
	err := db.Update(func(tx *Tx) error {
		if err := tx.Put(&Record{ID: 9, User: "ann", Text: "new", RecordedAt: 4}); err != nil {
			return err
		}
		tx.Use("bob")
		if err := tx.Append(3, &Event{Kind: Pinned, At: 4}); err != nil { // bob's, record unwritten
			return err
		}
		tx.Use("ann")
		if err := tx.Delete(2); err != nil {
			return err
		}
		tx.TouchUser("carol")
		if err := tx.Append(99, &Event{Kind: Pinned, At: 4}); !errors.Is(err, ErrNotFound) {
			t.Errorf("a step for a fact that is not there: %v, want ErrNotFound", err)
		}
		tx.TouchedUsers(func(user string, ids []uint64) { got[user] = ids })
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]uint64{"ann": {9, 2}, "bob": {3}, "carol": nil}
	if len(got) != len(want) {
		t.Fatalf("touched users %v, want %v", got, want)
	}
	for u, ids := range want {
		if g, ok := got[u]; !ok || !slices.Equal(g, ids) {
			t.Errorf("%s: %v, want %v", u, got[u], ids)
		}
	}
}
