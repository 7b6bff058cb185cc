package jetstream

import (
	"bytes"
	"slices"
)

// view is a kv.Snapshot held in memory: the user's latest value of every
// key as of one revision, each bucket's keys sorted.
type view struct {
	rev     uint64
	buckets map[string][]entry
}

type entry struct {
	key, value []byte
}

func newView(rev uint64, buckets map[string][]entry) *view {
	for _, es := range buckets {
		slices.SortFunc(es, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
	}
	return &view{rev: rev, buckets: buckets}
}

func (v *view) Rev() uint64 { return v.rev }

func (v *view) Get(bucket string, key []byte) []byte {
	es := v.buckets[bucket]
	i, ok := slices.BinarySearchFunc(es, key, func(e entry, k []byte) int { return bytes.Compare(e.key, k) })
	if !ok {
		return nil
	}
	return es[i].value
}

func (v *view) Scan(bucket string, from, to []byte, reverse bool, fn func(key, value []byte) bool) error {
	es := v.buckets[bucket]
	lo, hi := 0, len(es)
	if from != nil {
		lo, _ = slices.BinarySearchFunc(es, from, func(e entry, k []byte) int { return bytes.Compare(e.key, k) })
	}
	if to != nil {
		hi, _ = slices.BinarySearchFunc(es, to, func(e entry, k []byte) int { return bytes.Compare(e.key, k) })
	}
	if reverse {
		for i := hi - 1; i >= lo; i-- {
			if !fn(es[i].key, es[i].value) {
				return nil
			}
		}
		return nil
	}
	for i := lo; i < hi; i++ {
		if !fn(es[i].key, es[i].value) {
			return nil
		}
	}
	return nil
}
