package kv

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// Applied gives the snapshot a fresh read after the commit would: the
// same keys and values in every bucket, from random snapshots and ops,
// and leaves the snapshot it started from as it was.
func TestAppliedIsTheCommittedSnapshot(t *testing.T) {
	all := func(s Snapshot) []string {
		var out []string
		for _, b := range []string{"a", "b", "c"} {
			_ = s.Scan(b, nil, nil, false, func(k, v []byte) bool { out = append(out, b+"/"+string(k)+"="+string(v)); return true })
		}
		return out
	}
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 2))
		model := map[string]Entry{}
		var entries []Entry
		for range r.IntN(10) {
			e := Entry{Bucket: string(rune('a' + r.IntN(3))), Key: []byte{byte('k' + r.IntN(6))}, Value: fmt.Append(nil, r.IntN(100))}
			entries = append(entries, e)
			model[e.Bucket+"/"+string(e.Key)] = e
		}
		s := NewSnapshot(1, entries)
		before := all(s)
		var ops []Op
		for range r.IntN(8) {
			op := Op{Bucket: string(rune('a' + r.IntN(3))), Key: []byte{byte('k' + r.IntN(6))}}
			if r.IntN(3) == 0 {
				op.Delete = true
				delete(model, op.Bucket+"/"+string(op.Key))
			} else {
				op.Value = fmt.Append(nil, 100+r.IntN(100))
				model[op.Bucket+"/"+string(op.Key)] = Entry{Bucket: op.Bucket, Key: op.Key, Value: op.Value}
			}
			ops = append(ops, op)
		}
		got, ok := Applied(s, 2, ops)
		if !ok || got.Rev() != 2 {
			t.Fatalf("seed %d: Applied ok %v, rev %d", seed, ok, got.Rev())
		}
		var want []Entry
		for _, e := range model {
			want = append(want, e)
		}
		if a, b := all(got), all(NewSnapshot(2, want)); !slices.Equal(a, b) {
			t.Fatalf("seed %d: Applied %q, a fresh read %q", seed, a, b)
		}
		if after := all(s); !slices.Equal(after, before) {
			t.Fatalf("seed %d: the snapshot changed under Applied: %q, was %q", seed, after, before)
		}
	}
}
