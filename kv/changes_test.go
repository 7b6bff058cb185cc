package kv

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// head returns the change log's head as a reader sees it.
func head(t *testing.T, db *DB) (Commit, bool) {
	t.Helper()
	var c Commit
	var ok bool
	if err := db.View(func(tx *Tx) error { c, ok = tx.Head(); return nil }); err != nil {
		t.Fatal(err)
	}
	return c, ok
}

// since returns the ids the commits after from touched, sorted and
// without repeats, and whether the log could tell.
func since(t *testing.T, db *DB, from Commit) ([]Changed, Commit, bool) {
	t.Helper()
	var ids []Changed
	var h Commit
	var ok bool
	err := db.View(func(tx *Tx) error {
		var err error
		h, ok, err = tx.ChangedSince(from, func(c Changed) { ids = append(ids, c) })
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(ids, func(a, b Changed) int { return cmp.Or(strings.Compare(a.User, b.User), cmp.Compare(a.ID, b.ID)) })
	return slices.Compact(ids), h, ok
}

// of names facts of user, as the change log does.
func of(user string, ids ...uint64) []Changed {
	var out []Changed
	for _, id := range ids {
		out = append(out, Changed{User: user, UserKnown: true, ID: id})
	}
	return out
}

// put writes one new record and returns the commit that wrote it.
func put(t *testing.T, db *DB, user, text string) (uint64, Commit) {
	t.Helper()
	var id uint64
	var c func() Commit
	err := db.Update(func(tx *Tx) error {
		tx.Use(user)
		var err error
		if id, err = tx.NextID(); err != nil {
			return err
		}
		c = tx.Commit
		return tx.Put(&Record{ID: id, User: user, Text: text, RecordedAt: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	return id, c()
}

func TestChangeLogNamesWhatEachCommitTouched(t *testing.T) {
	db := openTest(t)
	a, ca := put(t, db, "ann", "I work at company A.")
	b, cb := put(t, db, "ann", "I work at company B.")
	if cb.Seq != ca.Seq+1 || ca.Tag == cb.Tag {
		t.Fatalf("commits %v then %v, want consecutive sequences with their own tags", ca, cb)
	}
	if h, ok := head(t, db); !ok || h != cb {
		t.Fatalf("head = %v, %v; want %v", h, ok, cb)
	}
	var cd func() Commit
	if err := db.Update(func(tx *Tx) error { cd = tx.Commit; tx.Use("ann"); return tx.Delete(a) }); err != nil {
		t.Fatal(err)
	}
	ids, h, ok := since(t, db, ca)
	if !ok || h != cd() || !slices.Equal(ids, of("ann", a, b)) {
		t.Fatalf("since %v: %v up to %v, %v; want [%d %d] up to %v", ca, ids, h, ok, a, b, cd())
	}
	if ids, _, ok := since(t, db, cd()); !ok || len(ids) != 0 {
		t.Fatalf("since the head: %v, %v; want nothing, known", ids, ok)
	}
	// A commit of the same sequence and another tag is another history's
	// (a restored backup written on): the log cannot tell from it.
	if _, _, ok := since(t, db, Commit{Seq: ca.Seq, Tag: ca.Tag + 1}); ok {
		t.Fatal("a commit with a foreign tag was taken for the file's")
	}
	if _, _, ok := since(t, db, Commit{Seq: cd().Seq + 1, Tag: 7}); ok {
		t.Fatal("a commit ahead of the file was taken for the file's")
	}
}

func TestChangeLogTellsAWriteThatKeptNoLog(t *testing.T) {
	db := openTest(t)
	_, c := put(t, db, "ann", "I like tea.")
	// A program that keeps no log (an older version) writes a record.
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put([]byte("other"), []byte{1})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := head(t, db); ok {
		t.Fatal("head known after a write that kept no log")
	}
	if _, _, ok := since(t, db, c); ok {
		t.Fatal("changes told past a write that kept no log")
	}
	// The next logged commit does not make the gap good.
	put(t, db, "ann", "I like coffee.")
	if _, _, ok := since(t, db, c); ok {
		t.Fatal("changes told across a gap")
	}
}

func TestChangeLogGoesOnAcrossACompaction(t *testing.T) {
	db := openTest(t)
	_, c := put(t, db, "ann", "I like tea.")
	b, _ := put(t, db, "ann", "I like coffee.")
	if err := db.Compact(); err != nil {
		t.Fatal(err)
	}
	ids, h, ok := since(t, db, c)
	if !ok || !slices.Equal(ids, of("ann", b)) || h.Seq != c.Seq+2 {
		t.Fatalf("since %v after a compaction: %v up to %v, %v; want [%d] up to commit %d", c, ids, h, ok, b, c.Seq+2)
	}
	d, _ := put(t, db, "bob", "I like juice.")
	if ids, _, ok := since(t, db, c); !ok || !slices.Equal(ids, append(of("ann", b), of("bob", d)...)) {
		t.Fatalf("since %v after a write on the compacted file: %v, %v", c, ids, ok)
	}
}

func TestChangeLogMarksALargeCommitWhole(t *testing.T) {
	db := openTest(t)
	_, c := put(t, db, "ann", "I like tea.")
	err := db.Update(func(tx *Tx) error {
		tx.Use("ann")
		for range maxChangeIDs + 1 {
			id, err := tx.NextID()
			if err != nil {
				return err
			}
			if err := tx.Put(&Record{ID: id, User: "ann", Text: "a fact", RecordedAt: 1}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := since(t, db, c); ok {
		t.Fatal("a commit too large to list was listed")
	}
	if _, ok := head(t, db); !ok {
		t.Fatal("the head is unknown after a large commit")
	}
}

func TestChangeLogKeepsTheNewestEntries(t *testing.T) {
	db := openTest(t)
	_, first := put(t, db, "ann", "I like tea.")
	// The log trims once it holds changeTrim more than it keeps, down to
	// the newest maxChanges: the first entry goes, and the oldest kept is
	// the one changeTrim commits after it.
	var second func() Commit
	for i := range maxChanges + changeTrim {
		if err := db.Update(func(tx *Tx) error {
			if i == changeTrim {
				second = tx.Commit
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, ok := since(t, db, first); ok {
		t.Fatal("an entry trimmed away was still found")
	}
	if _, _, ok := since(t, db, second()); !ok {
		t.Fatal("the oldest entry kept was not found")
	}
	n := 0
	if err := db.bolt.View(func(tx *bolt.Tx) error { n = tx.Bucket(bucketChanges).Stats().KeyN; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != maxChanges {
		t.Fatalf("the log keeps %d entries, want %d", n, maxChanges)
	}
}
