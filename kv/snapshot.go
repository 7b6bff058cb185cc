package kv

import (
	"bytes"
	"maps"
	"slices"
	"sort"
)

// Entry is one key of a user's data, for NewSnapshot.
type Entry struct {
	Bucket     string
	Key, Value []byte
}

// memSnapshot is a user's data read whole into memory: a backend whose
// reads cannot stay open (a cluster's messages, a bbolt transaction that
// must end) hands one out.
type memSnapshot struct {
	rev     uint64
	buckets map[string][]Entry // sorted by key
}

// NewSnapshot is a Snapshot at rev of entries, which it takes (and
// sorts); a later entry of the same bucket and key wins.
func NewSnapshot(rev uint64, entries []Entry) Snapshot {
	s := &memSnapshot{rev: rev, buckets: map[string][]Entry{}}
	for _, e := range entries {
		if e.Value == nil {
			e.Value = []byte{} // a key with an empty value is there
		}
		s.buckets[e.Bucket] = append(s.buckets[e.Bucket], e)
	}
	for b, es := range s.buckets {
		slices.SortStableFunc(es, func(x, y Entry) int { return bytes.Compare(x.Key, y.Key) })
		// Keep the last of equal keys.
		out := es[:0]
		for i, e := range es {
			if i+1 < len(es) && bytes.Equal(es[i+1].Key, e.Key) {
				continue
			}
			out = append(out, e)
		}
		s.buckets[b] = out
	}
	return s
}

func (s *memSnapshot) Rev() uint64 { return s.rev }

func (s *memSnapshot) Get(bucket string, key []byte) []byte {
	es := s.buckets[bucket]
	i := sort.Search(len(es), func(i int) bool { return bytes.Compare(es[i].Key, key) >= 0 })
	if i < len(es) && bytes.Equal(es[i].Key, key) {
		return es[i].Value
	}
	return nil
}

func (s *memSnapshot) Scan(bucket string, from, to []byte, reverse bool, fn func(key, value []byte) bool) error {
	es := s.buckets[bucket]
	lo := 0
	if from != nil {
		lo = sort.Search(len(es), func(i int) bool { return bytes.Compare(es[i].Key, from) >= 0 })
	}
	hi := len(es)
	if to != nil {
		hi = sort.Search(len(es), func(i int) bool { return bytes.Compare(es[i].Key, to) >= 0 })
	}
	if lo >= hi {
		return nil
	}
	if reverse {
		for i := hi - 1; i >= lo; i-- {
			if !fn(es[i].Key, es[i].Value) {
				return nil
			}
		}
		return nil
	}
	for i := lo; i < hi; i++ {
		if !fn(es[i].Key, es[i].Value) {
			return nil
		}
	}
	return nil
}

// Applied is s after a commit of ops took it to rev: the buckets ops
// touch are copied, the others shared, s itself unchanged. ok is false
// when s is not one NewSnapshot made.
func Applied(s Snapshot, rev uint64, ops []Op) (_ Snapshot, ok bool) {
	m, ok := s.(*memSnapshot)
	if !ok {
		return nil, false
	}
	out := &memSnapshot{rev: rev, buckets: maps.Clone(m.buckets)}
	touched := map[string]map[string]Op{} // bucket -> key -> the last write
	for _, op := range ops {
		if touched[op.Bucket] == nil {
			touched[op.Bucket] = map[string]Op{}
		}
		touched[op.Bucket][string(op.Key)] = op
	}
	for b, writes := range touched {
		es := make([]Entry, 0, len(m.buckets[b])+len(writes))
		for _, e := range m.buckets[b] {
			if _, ok := writes[string(e.Key)]; !ok {
				es = append(es, e)
			}
		}
		for k, op := range writes {
			if !op.Delete {
				es = append(es, Entry{Bucket: b, Key: []byte(k), Value: append([]byte{}, op.Value...)})
			}
		}
		slices.SortFunc(es, func(x, y Entry) int { return bytes.Compare(x.Key, y.Key) })
		if len(es) == 0 {
			delete(out.buckets, b)
		} else {
			out.buckets[b] = es
		}
	}
	return out, true
}
