package kv

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// An overlay's bucket behaves as a plain sorted map of its snapshot with
// the writes applied: Get, and every cursor move, from a random snapshot
// under random writes (deletes of keys there and not, puts over them).
func TestOverlayIsTheSnapshotWithItsWrites(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 1))
		key := func() []byte { return []byte{byte('a' + r.IntN(12))} }
		model := map[string]string{}
		var entries []Entry
		for range r.IntN(8) {
			k := key()
			v := fmt.Sprint(r.IntN(100))
			entries = append(entries, Entry{Bucket: "b", Key: k, Value: []byte(v)})
			model[string(k)] = v
		}
		o := newOverlay(NewSnapshot(1, entries), true)
		b := o.bucket([]byte("b"))
		for range r.IntN(10) {
			k := key()
			if r.IntN(2) == 0 {
				v := fmt.Sprint(100 + r.IntN(100))
				_ = b.Put(k, []byte(v))
				model[string(k)] = v
			} else {
				_ = b.Delete(k)
				delete(model, string(k))
			}
		}
		keys := slices.Sorted(maps.Keys(model))
		for c := byte('a'); c < 'a'+12; c++ {
			got, want := b.Get([]byte{c}), model[string(c)]
			if (got == nil) != (want == "") || string(got) != want {
				t.Fatalf("seed %d: Get(%c) = %q, want %q", seed, c, got, want)
			}
		}
		var fwd, back []string
		cur := b.Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			fwd = append(fwd, string(k))
			if string(v) != model[string(k)] {
				t.Fatalf("seed %d: cursor at %s gives %q, want %q", seed, k, v, model[string(k)])
			}
		}
		for k, _ := cur.Last(); k != nil; k, _ = cur.Prev() {
			back = append(back, string(k))
		}
		slices.Reverse(back)
		if !slices.Equal(fwd, keys) || !slices.Equal(back, keys) {
			t.Fatalf("seed %d: forward %q, backward %q, want %q", seed, fwd, back, keys)
		}
		for c := byte('a' - 1); c <= 'a'+12; c++ {
			i, _ := slices.BinarySearch(keys, string(c))
			k, _ := cur.Seek([]byte{c})
			if i < len(keys) != (k != nil) || k != nil && string(k) != keys[i] {
				t.Fatalf("seed %d: Seek(%c) = %q, want index %d of %q", seed, c, k, i, keys)
			}
		}
		// Deleting where the cursor stands, as bbolt's cursors may.
		n := 0
		for k, _ := cur.First(); k != nil; k, _ = cur.Next() {
			if n%2 == 0 {
				if err := cur.Delete(); err != nil {
					t.Fatal(err)
				}
				delete(model, string(k))
			}
			n++
		}
		var left []string
		for k, _ := cur.First(); k != nil; k, _ = cur.Next() {
			left = append(left, string(k))
		}
		if len(left) != len(model) {
			t.Fatalf("seed %d: %q left after deleting every other key, model %v", seed, left, model)
		}
		// The ops are exactly the difference from the snapshot.
		snap := NewSnapshot(1, entries)
		applied := map[string][]byte{}
		_ = snap.Scan("b", nil, nil, false, func(k, v []byte) bool { applied[string(k)] = v; return true })
		for _, op := range o.ops() {
			if op.Delete {
				delete(applied, string(op.Key))
			} else {
				applied[string(op.Key)] = op.Value
			}
		}
		if len(applied) != len(model) {
			t.Fatalf("seed %d: ops give %d keys, want %d", seed, len(applied), len(model))
		}
		for k, v := range applied {
			if !bytes.Equal(v, []byte(model[k])) {
				t.Fatalf("seed %d: ops give %s=%q, want %q", seed, k, v, model[k])
			}
		}
	}
}
