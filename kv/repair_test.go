package kv

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// newestMetaPage returns which of the two meta pages holds the newest commit.
func newestMetaPage(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, size, _, err := newestMeta(b)
	if err != nil {
		t.Fatal(err)
	}
	if le.Uint64(b[uint64(size)+pageHeader+48:]) > le.Uint64(b[pageHeader+48:]) {
		return 1
	}
	return 0
}

// lostLegacyCommit writes, in the file of an older format at path, facts
// one commit each until the newest commit's meta is page 0, then zeroes
// that page, as lostCommit does for a current file.
func lostLegacyCommit(t *testing.T, path string) {
	t.Helper()
	for id := uint64(1); ; id++ {
		b, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		err = b.Update(func(btx *bolt.Tx) error {
			tx := newTx(btx, formatVersionV5)
			if err := tx.SetNextID(id + 1); err != nil {
				return err
			}
			return tx.Put(&Record{ID: id, Text: "the fact of the lost commit", RecordedAt: 1})
		})
		b.Close()
		if err != nil {
			t.Fatal(err)
		}
		if newestMetaPage(t, path) == 0 {
			break
		}
	}
	zeroFirstPage(t, path)
}

// zeroFirstPage is dd if=/dev/zero of=path bs=4096 count=1 conv=notrunc.
func zeroFirstPage(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, 4096), 0); err != nil {
		t.Fatal(err)
	}
}

// lostCommit writes facts one commit each until the newest commit's meta
// is page 0, then zeroes that page: the file reads as it was a commit
// earlier, and the last fact written is lost. It returns the lost id.
func lostCommit(t *testing.T, db *DB) uint64 {
	t.Helper()
	var id uint64
	for {
		id = putText(t, db, "the fact of the lost commit")
		if newestMetaPage(t, db.Path()) == 0 {
			break
		}
	}
	path := db.Path()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	zeroFirstPage(t, path)
	return id
}

// A newest meta page that fails its checksum is never silent: the store
// says it answers from an older commit, refuses every write until Repair,
// and Repair records the lost commit and moves the next id past every id
// that commit may have handed out.
func TestALostCommitIsReportedUntilRepaired(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	// A compaction left pending before the loss waits for the repair: it
	// would rewrite the file and with it the evidence of the lost ids.
	if err := db.Update(func(tx *Tx) error { return tx.MarkScrubPending() }); err != nil {
		t.Fatal(err)
	}
	path := db.Path()
	lost := lostCommit(t, db)

	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stale := db.Stale()
	if !errors.Is(stale, ErrStale) {
		t.Fatalf("Stale: %v, want ErrStale", stale)
	}
	var answered uint64
	_ = db.View(func(tx *Tx) error {
		answered = uint64(tx.tx.ID())
		if tx.Has(lost) {
			t.Errorf("fact %d of the lost commit is readable", lost)
		}
		if tx.PeekNextID() > lost {
			t.Errorf("test is void: the next id %d already skips the lost id %d", tx.PeekNextID(), lost)
		}
		return nil
	})
	if !strings.Contains(stale.Error(), "commit "+strconv.FormatUint(answered, 10)) {
		t.Errorf("Stale does not name the commit it answers from (%d): %v", answered, stale)
	}
	if !db.ScrubPending() {
		t.Error("Open of a stale file finished the pending compaction")
	}
	if err := db.Update(func(tx *Tx) error { _, err := tx.NextID(); return err }); !errors.Is(err, ErrStale) {
		t.Errorf("a write on a stale store: %v, want ErrStale", err)
	}
	if err := db.Compact(); !errors.Is(err, ErrStale) {
		t.Errorf("a compaction on a stale store: %v, want ErrStale", err)
	}
	if err := db.Check(); !errors.Is(err, ErrStale) || errors.Is(err, ErrCorrupt) {
		t.Errorf("Check of a stale store: %v, want ErrStale and not ErrCorrupt", err)
	}

	rep, err := db.Repair(42)
	if err != nil {
		t.Fatal(err)
	}
	if rep == nil || rep.At != 42 || rep.Answered != answered || rep.Lost != answered+1 {
		t.Fatalf("repair record %+v, want commit %d lost, answered from %d", rep, answered+1, answered)
	}
	if rep.FirstID > lost || rep.LastID < lost || rep.NextID <= lost {
		t.Errorf("repair record %+v: the lost id %d is not in its range or not skipped", rep, lost)
	}
	if err := db.Stale(); err != nil {
		t.Errorf("Stale after Repair: %v", err)
	}
	if db.ScrubPending() {
		t.Error("Repair did not finish the pending compaction")
	}
	if got := putText(t, db, "after the repair"); got <= lost {
		t.Errorf("the next fact got id %d, which the lost commit may have handed out (%d)", got, lost)
	}
	if err := db.Check(); err != nil {
		t.Errorf("Check after Repair: %v", err)
	}
	if again, err := db.Repair(43); again != nil || err != nil {
		t.Errorf("a second Repair: %+v %v, want nothing to do", again, err)
	}
	db.Close()

	db, err = Open(path, 0, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reps, err := db.Repairs()
	if err != nil || len(reps) != 1 || reps[0] != *rep {
		t.Errorf("Repairs after reopening: %+v %v, want [%+v]", reps, err, *rep)
	}
	if err := db.Stale(); err != nil {
		t.Errorf("Stale after reopening: %v", err)
	}
}

// When the damaged meta page is the older one, no commit was lost, and
// nothing in the file can tell which page was the newer: the store and
// its repair record say the commit after the one answered from may have
// been lost, never that it was.
func TestADamagedOlderMetaPageStatesNoLoss(t *testing.T) {
	db := openTest(t)
	for putText(t, db, "a fact"); newestMetaPage(t, db.Path()) != 1; {
		putText(t, db, "a fact")
	}
	path := db.Path()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	zeroFirstPage(t, path) // the older meta page
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Stale()
	if !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), "may have been lost") ||
		strings.Contains(err.Error(), "newest commit") {
		t.Errorf("Stale: %v, want a loss that may have happened", err)
	}
	if err := db.Check(); !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), "may have been lost") {
		t.Errorf("Check: %v", err)
	}
}

// A stale file of an earlier format is read as it was, and the Repair, its
// first write, makes it current (a version 2 file gets its log index): no
// record of a later version lands in a file still marked older.
func TestRepairMakesAnOlderFormatCurrent(t *testing.T) {
	for _, v := range []uint64{formatVersionV2, formatVersionV3} {
		path := filepath.Join(t.TempDir(), "m.db")
		makeLegacy(t, path, v, nil, nil, func(tx *Tx) error {
			if v == formatVersionV2 {
				if err := tx.tx.DeleteBucket(bucketLogUsers); err != nil {
					return err
				}
			}
			if err := tx.PutBlob(BucketConflicts, 1, []byte("ann:a1")); err != nil {
				return err
			}
			// Facts one commit each, until the newest commit's meta is
			// page 0: that page zeroed, the last is lost.
			return nil
		})
		lostLegacyCommit(t, path)
		db, err := Open(path, 0, &Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(db.Stale(), ErrStale) {
			t.Fatalf("version %d: the test is void: the file is not stale", v)
		}
		if _, err := db.Repair(1); err != nil {
			t.Fatal(err)
		}
		var got uint64
		_ = db.View(func(tx *Tx) error { got = be.Uint64(tx.meta.Get(keyVersion)); return nil })
		if got != formatVersion || !db.logsIndexed {
			t.Errorf("a stale version %d file after Repair: version %d, logs indexed %v", v, got, db.logsIndexed)
		}
		if err := checkIndexes(t, db); err != nil {
			t.Errorf("a stale version %d file after Repair: %v", v, err)
		}
		db.Close()
	}
}
