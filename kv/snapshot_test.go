package kv

import (
	"bytes"
	"fmt"
	"maps"
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

// BenchmarkApplied is a commit of one fact (its record, its log step, its
// index entry) applied to the cached snapshot of a user of 100,000 facts,
// which the view cache of a cluster does at every commit.
func BenchmarkApplied(b *testing.B) {
	var entries []Entry
	for id := uint64(1); id <= 100_000; id++ {
		entries = append(entries, Entry{Bucket: "facts", Key: idKey(id), Value: make([]byte, 200)},
			Entry{Bucket: "facts", Key: eventKey(id, 0), Value: make([]byte, 40)},
			Entry{Bucket: "users", Key: userKey("u", id), Value: []byte{1}})
	}
	s := NewSnapshot(1, entries)
	id := uint64(100_001)
	for b.Loop() {
		ops := []Op{{Bucket: "facts", Key: idKey(id), Value: make([]byte, 200)}, {Bucket: "facts", Key: eventKey(id, 0), Value: make([]byte, 40)},
			{Bucket: "users", Key: userKey("u", id), Value: []byte{1}}}
		var ok bool
		if s, ok = Applied(s, s.Rev()+1, ops); !ok {
			b.Fatal("not applied")
		}
		id++
	}
}

// The chunks of a large snapshot, after many commits that split, empty
// and add chunks anywhere, read as a model of its keys does: every Get,
// and Scans of random ranges both ways.
func TestAppliedChunksMatchAModel(t *testing.T) {
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 3))
		key := func() []byte { return []byte{byte(r.IntN(40)), byte(r.IntN(60))} }
		model := map[string]string{}
		var entries []Entry
		for range r.IntN(3000) {
			e := Entry{Bucket: "b", Key: key(), Value: fmt.Append(nil, r.IntN(1000))}
			entries = append(entries, e)
			model[string(e.Key)] = string(e.Value)
		}
		s := NewSnapshot(1, entries)
		for commit := range 40 {
			var ops []Op
			for range r.IntN(200) {
				op := Op{Bucket: "b", Key: key()}
				if r.IntN(2) == 0 {
					op.Delete = true
					delete(model, string(op.Key))
				} else {
					op.Value = fmt.Append(nil, r.IntN(1000))
					model[string(op.Key)] = string(op.Value)
				}
				ops = append(ops, op)
			}
			var ok bool
			if s, ok = Applied(s, uint64(commit+2), ops); !ok {
				t.Fatal("not applied")
			}
			want := slices.Sorted(maps.Keys(model))
			for range 20 {
				k := string(key())
				if got := s.Get("b", []byte(k)); (got == nil) != (model[k] == "" && !slices.Contains(want, k)) || got != nil && string(got) != model[k] {
					t.Fatalf("seed %d commit %d: Get %x = %q, want %q", seed, commit, k, got, model[k])
				}
				from, to := key(), key()
				if bytes.Compare(from, to) > 0 {
					from, to = to, from
				}
				var in []string
				for _, k := range want {
					if k >= string(from) && k < string(to) {
						in = append(in, k)
					}
				}
				for _, reverse := range []bool{false, true} {
					var got []string
					_ = s.Scan("b", from, to, reverse, func(k, v []byte) bool {
						if string(v) != model[string(k)] {
							t.Fatalf("seed %d: Scan gives %x = %q, want %q", seed, k, v, model[string(k)])
						}
						got = append(got, string(k))
						return true
					})
					if reverse {
						slices.Reverse(got)
					}
					if !slices.Equal(got, in) {
						t.Fatalf("seed %d commit %d: Scan [%x, %x) reverse %v: %d keys, want %d", seed, commit, from, to, reverse, len(got), len(in))
					}
				}
			}
			var all []string
			_ = s.Scan("b", nil, nil, false, func(k, _ []byte) bool { all = append(all, string(k)); return true })
			if !slices.Equal(all, want) {
				t.Fatalf("seed %d commit %d: the whole bucket has %d keys, want %d", seed, commit, len(all), len(want))
			}
		}
	}
}
