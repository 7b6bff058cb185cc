package kv

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// A file of format 5 (every user's data in one set of buckets, ids the
// store's) is moved into each user's data by a writable Open, in one
// commit: every record, log step, index key, embedding and log entry
// under the id it had, each user's counters where the file's were, the
// old buckets gone; and the data is what PerUser's snapshots read.
func TestUpgradeMovesEachUsersData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	makeLegacy(t, path, formatVersionV5, testOwner, testFacts, func(tx *Tx) error {
		for _, r := range []Record{
			{ID: 1, User: "ann", Text: "I work at company A.", RecordedAt: 1, ValidUntil: 2, SupersededBy: 2},
			{ID: 2, User: "ann", Text: "I work at company B.", RecordedAt: 2, Supersedes: 1},
			{ID: 3, User: "bob", Text: "I like tea.", RecordedAt: 3},
			{ID: 5, User: "", Text: "I live in Oslo.", RecordedAt: 5},
		} {
			if err := tx.Put(&r); err != nil {
				return err
			}
			if err := tx.Append(r.ID, &Event{Kind: Recorded, At: r.RecordedAt}); err != nil {
				return err
			}
		}
		if err := tx.Append(1, &Event{Kind: Superseded, At: 2, By: 2}); err != nil {
			return err
		}
		if err := tx.PutVector(3, []float32{1, 2}); err != nil {
			return err
		}
		for id, v := range map[uint64]string{1: "ann:1,2", 2: "bob:3"} {
			if err := tx.PutBlob(BucketConflicts, id, []byte(v)); err != nil {
				return err
			}
		}
		if err := tx.PutBlob(BucketDecisions, 7, []byte("bob:decided")); err != nil {
			return err
		}
		if err := tx.SetBlobSeq(BucketDecisions, 9); err != nil {
			return err
		}
		return tx.SetNextID(8) // fact 6 and 7 were hard-deleted
	})
	var upgraded []uint64
	db, err := Open(path, 0, &Options{NoSync: true, LogOwner: testOwner, LogFacts: testFacts,
		Upgrade: func(tx *Tx, from uint64) error {
			upgraded = append(upgraded, from)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.Current() || !slices.Equal(upgraded, []uint64{formatVersionV5}) {
		t.Fatalf("current %v, upgrades %v", db.Current(), upgraded)
	}
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		for _, name := range movedBuckets {
			if tx.Bucket(name) != nil {
				t.Errorf("bucket %s of the old layout is left", name)
			}
		}
		return nil
	})
	want := map[string][]uint64{"": {5}, "ann": {1, 2}, "bob": {3}}
	err = db.View(func(tx *Tx) error {
		users, err := tx.Users()
		if err != nil || !slices.Equal(users, []string{"", "ann", "bob"}) {
			t.Errorf("users %q, %v", users, err)
		}
		for user, ids := range want {
			tx.Use(user)
			var got []uint64
			if err := tx.ForEach(func(r Record) error { got = append(got, r.ID); return nil }); err != nil {
				return err
			}
			if !slices.Equal(got, ids) {
				t.Errorf("%q's facts %v, want %v", user, got, ids)
			}
			if next := tx.PeekNextID(); next != 8 {
				t.Errorf("%q's next id %d, want 8: an id the file gave is never given again", user, next)
			}
			if errs := tx.CheckIndexes(); len(errs) > 0 {
				t.Errorf("%q: %v", user, errs)
			}
		}
		tx.Use("ann")
		if ev, err := tx.Events(1); err != nil || len(ev) != 2 || ev[1].By != 2 {
			t.Errorf("ann's log of 1: %+v, %v", ev, err)
		}
		if got := factBlobsIn(tx, 2); !slices.Equal(got, []string{"ann:1,2"}) {
			t.Errorf("ann's conflicts on fact 2: %q", got)
		}
		tx.Use("bob")
		if v, err := tx.Vector(3); err != nil || len(v) != 2 {
			t.Errorf("bob's embedding: %v, %v", v, err)
		}
		if got, err := tx.Blob(BucketDecisions, 7); err != nil || string(got) != "bob:decided" {
			t.Errorf("bob's decision: %q, %v", got, err)
		}
		if seq := tx.BlobSeq(BucketDecisions); seq != 9 {
			t.Errorf("bob's decision counter %d, want 9", seq)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// PerUser reads the same layout.
	snap, err := db.PerUser().Snapshot(context.Background(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	if snap.Get(string(bucketFacts), idKey(2)) == nil || snap.Get(bucketSeqs, bucketFacts) == nil {
		t.Error("PerUser's snapshot of ann lacks her fact 2 or her counter")
	}
	// A new fact of ann's takes her next id, and one of a new user starts
	// at 1.
	err = db.Update(func(tx *Tx) error {
		tx.Use("ann")
		if id, err := tx.NextID(); err != nil || id != 8 {
			t.Errorf("ann's next fact: %d, %v; want 8", id, err)
		}
		tx.Use("carol")
		if id, err := tx.NextID(); err != nil || id != 1 {
			t.Errorf("carol's first fact: %d, %v; want 1", id, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// An upgrade that cannot finish (a log step of no record) changes
// nothing: the file stays as it was, of its format, and says why.
func TestUpgradeOfADamagedFileChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	makeLegacy(t, path, formatVersionV5, nil, nil, func(tx *Tx) error {
		if err := tx.Put(&Record{ID: 1, User: "ann", Text: "x", RecordedAt: 1}); err != nil {
			return err
		}
		return tx.tx.Bucket(bucketFacts).Put(eventKey(4, 0), appendEvent(nil, &Event{Kind: Recorded, At: 1}))
	})
	if _, err := Open(path, 0, &Options{NoSync: true}); err == nil {
		t.Fatal("a file with a log of no record was upgraded")
	}
	ro, err := Open(path, 0, &Options{NoSync: true, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if ro.Current() {
		t.Error("the failed upgrade marked the file current")
	}
	_ = ro.View(func(tx *Tx) error {
		if _, err := tx.Get(1); err != nil {
			t.Errorf("fact 1 after the failed upgrade: %v", err)
		}
		return nil
	})
}

func factBlobsIn(tx *Tx, fact uint64) []string {
	var out []string
	_ = tx.ForEachFactBlob(BucketConflicts, fact, func(_ uint64, v []byte) error {
		out = append(out, string(v))
		return nil
	})
	return out
}

// A file of format 6 is moved into format 7's shared buckets by a
// writable Open, in one commit: every user's every key and revision as
// PerUser read them before, the users' buckets gone. Read-only, it is
// read as it is.
func TestUpgradeFromFormat6KeepsEveryKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	makeLegacy(t, path, formatVersionV6, testOwner, testFacts, func(tx *Tx) error {
		for _, r := range []Record{
			{ID: 1, User: "ann", Text: "I work at company A.", RecordedAt: 1, ValidUntil: 2, SupersededBy: 2},
			{ID: 2, User: "ann", Text: "I work at company B.", RecordedAt: 2, Supersedes: 1},
			{ID: 1, User: "bob", Text: "I like tea.", RecordedAt: 3},
			{ID: 4, User: "", Text: "I live in Oslo.", RecordedAt: 5},
		} {
			tx.Use(r.User)
			if err := tx.Put(&r); err != nil {
				return err
			}
			if err := tx.Append(r.ID, &Event{Kind: Recorded, At: r.RecordedAt}); err != nil {
				return err
			}
			if err := tx.SetNextID(r.ID + 2); err != nil {
				return err
			}
		}
		tx.Use("bob")
		if err := tx.PutVector(1, []float32{1, 2}); err != nil {
			return err
		}
		if err := tx.PutBlob(BucketConflicts, 1, []byte("bob:1")); err != nil {
			return err
		}
		tx.Use("ann")
		return tx.PutBlob(BucketDecisions, 3, []byte("ann:decided"))
	})
	users := []string{"", "ann", "bob"}
	read := func(db *DB) map[string]string {
		out := map[string]string{}
		for _, u := range users {
			s, err := db.PerUser().Snapshot(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, b := range []string{"facts", "users", "vectors", "conflicts", "decisions", "logusers", "seqs"} {
				_ = s.Scan(b, nil, nil, false, func(k, v []byte) bool {
					all = append(all, fmt.Sprintf("%s %x=%x", b, k, v))
					return true
				})
			}
			out[u] = fmt.Sprint(s.Rev(), all)
		}
		return out
	}
	ro, err := Open(path, 0, &Options{NoSync: true, ReadOnly: true, LogOwner: testOwner, LogFacts: testFacts})
	if err != nil {
		t.Fatal(err)
	}
	before := read(ro)
	ro.Close()
	if !strings.Contains(before["bob"], "vectors") || !strings.Contains(before["ann"], "decisions") {
		t.Fatalf("test is void: the format 6 file reads %v", before)
	}
	db, err := Open(path, 0, &Options{NoSync: true, LogOwner: testOwner, LogFacts: testFacts})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.Current() {
		t.Fatal("the file is not current after a writable Open")
	}
	if after := read(db); !maps.Equal(after, before) {
		t.Errorf("after the upgrade\n%v\nwant\n%v", after, before)
	}
	_ = db.bolt.View(func(btx *bolt.Tx) error {
		if btx.Bucket(bucketPerUser) != nil {
			t.Error("the users' buckets of format 6 are still there")
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *Tx) error {
		tx.Use("bob")
		if id, err := tx.NextID(); err != nil || id != 3 {
			t.Errorf("bob's next id after the upgrade: %d, %v; want 3", id, err)
		}
		return nil
	})
}

// The move of 100,000 facts of 100 users into format 7, from format 5 and
// from format 6 (in each: a record, a log step and an index entry a fact).
func BenchmarkUpgrade(b *testing.B) {
	const facts, users = 100_000, 100
	fill := func(tx *Tx, perUser bool) error {
		for i := range facts {
			r := benchRecord
			r.User = fmt.Sprintf("user-%02d", i%users)
			r.ID = uint64(i + 1)
			if perUser {
				tx.Use(r.User)
				r.ID = uint64(i/users + 1)
			}
			if err := tx.Put(&r); err != nil {
				return err
			}
			if err := tx.Append(r.ID, &Event{Kind: Recorded, At: 1}); err != nil {
				return err
			}
		}
		return nil
	}
	for _, from := range []uint64{formatVersionV5, formatVersionV6} {
		b.Run(fmt.Sprintf("from%d", from), func(b *testing.B) {
			src := filepath.Join(b.TempDir(), "src.db")
			makeLegacy(b, src, from, testOwner, testFacts, func(tx *Tx) error { return fill(tx, from == formatVersionV6) })
			data, err := os.ReadFile(src)
			if err != nil {
				b.Fatal(err)
			}
			var alloc uint64
			for b.Loop() {
				b.StopTimer()
				path := filepath.Join(b.TempDir(), "m.db")
				if err := os.WriteFile(path, data, 0o600); err != nil {
					b.Fatal(err)
				}
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				b.StartTimer()
				db, err := Open(path, 0, &Options{NoSync: true, LogOwner: testOwner, LogFacts: testFacts})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				runtime.ReadMemStats(&m1)
				alloc += m1.TotalAlloc - m0.TotalAlloc
				st, _ := os.Stat(path)
				b.ReportMetric(float64(st.Size())/float64(len(data)), "size-after÷before")
				db.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(alloc)/float64(b.N)/1e6, "MB-allocated/op")
		})
	}
}
