package kv

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// BenchmarkDurableCommit splits a durable commit of one new fact into its
// parts, each on a file of 10,000 facts: a raw bbolt put of the encoded
// record (the baseline the perf rows divide by), the record through
// Tx.Put (the record and its per-user index entry), and the same through
// DB.Update, which appends the change log's entry too. Beside them the
// same Tx.Put in the layout of format 5 (every user's data in one set of
// buckets), and a commit of 64 users' facts (the group commit's) in each
// layout: format 7 keeps each user's keys behind the user's prefix in
// shared buckets and the records in the order they were written, format
// 5 kept the records of every user in id order.
func BenchmarkDurableCommit(b *testing.B) {
	const prefill = 10_000
	rec := func(i int) *Record {
		r := benchRecord
		r.ID = uint64(i)
		r.User = "user-" + string(rune('a'+i%26))
		return &r
	}
	type kind struct {
		name string
		d    *DB
		fn   func(d *DB, i int) error
		took time.Duration
	}
	var kinds []kind
	for _, tc := range []struct {
		name string
		fn   func(d *DB, i int) error
	}{
		{"raw put", func(d *DB, i int) error {
			return d.bolt.Update(func(btx *bolt.Tx) error {
				bk, err := btx.CreateBucketIfNotExists([]byte("raw"))
				if err != nil {
					return err
				}
				return bk.Put(idKey(uint64(i)), appendRecord(nil, rec(i)))
			})
		}},
		{"Tx.Put without the log", func(d *DB, i int) error {
			return d.bolt.Update(func(btx *bolt.Tx) error { return d.newTx(btx).Put(rec(i)) })
		}},
		{"Update: Tx.Put and the change log", func(d *DB, i int) error {
			return d.Update(func(tx *Tx) error { return tx.Put(rec(i)) })
		}},
		{"Update, freelist not synced", func(d *DB, i int) error {
			d.bolt.NoFreelistSync = true
			return d.Update(func(tx *Tx) error { return tx.Put(rec(i)) })
		}},
		{"format 5 layout: Tx.Put without the log", func(d *DB, i int) error {
			return d.bolt.Update(func(btx *bolt.Tx) error { return newTx(btx, formatVersionV5).Put(rec(i)) })
		}},
		{"64 users in one commit", func(d *DB, i int) error {
			return d.bolt.Update(func(btx *bolt.Tx) error { return put64(d.newTx(btx), i) })
		}},
		{"format 5 layout: 64 users in one commit", func(d *DB, i int) error {
			return d.bolt.Update(func(btx *bolt.Tx) error { return put64(newTx(btx, formatVersionV5), i) })
		}},
	} {
		path := filepath.Join(b.TempDir(), "m.db")
		if strings.HasPrefix(tc.name, "format 5") {
			makeLegacy(b, path, formatVersionV5, nil, nil, nil)
		}
		d, err := Open(path, 0, &Options{NoSync: true, ReadOnly: strings.HasPrefix(tc.name, "format 5")})
		if err != nil {
			b.Fatal(err)
		}
		if d.opts.ReadOnly {
			// Written as a program of format 5 wrote: a read-only Open
			// leaves the layout as it is, and the bench writes below it.
			_ = d.bolt.Close()
			if d.bolt, err = bolt.Open(path, 0o600, &bolt.Options{NoSync: true}); err != nil {
				b.Fatal(err)
			}
		}
		defer d.Close()
		for i := 1; i <= prefill; i++ {
			if err := tc.fn(d, i); err != nil {
				b.Fatal(err)
			}
		}
		d.bolt.NoSync = false
		kinds = append(kinds, kind{tc.name, d, tc.fn, 0})
	}
	// In turns, so that each meets the same disk at the same moment.
	i := prefill
	for b.Loop() {
		i++
		for k := range kinds {
			start := time.Now()
			if err := kinds[k].fn(kinds[k].d, i); err != nil {
				b.Fatal(err)
			}
			kinds[k].took += time.Since(start)
		}
	}
	for _, k := range kinds[1:] {
		b.ReportMetric(float64(kinds[0].took)/float64(k.took), "ops/s÷raw:"+strings.ReplaceAll(k.name, " ", "_"))
	}
}

// put64 writes a fact of each of 64 users, ids from 64i on: a batch of
// the group commit.
func put64(tx *Tx, i int) error {
	for u := range 64 {
		r := benchRecord
		r.ID, r.User = uint64(i)*64+uint64(u), fmt.Sprintf("user-%02d", u)
		if err := tx.Put(&r); err != nil {
			return err
		}
	}
	return nil
}
