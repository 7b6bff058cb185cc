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
// must end) hands one out. Each bucket's entries are sorted and cut into
// chunks, so that Applied copies the chunks a commit touches and shares
// the rest: a commit of a few keys costs about the same for a user of ten
// facts as for one of a hundred thousand.
type memSnapshot struct {
	rev     uint64
	buckets map[string][][]Entry // sorted by key, in chunks of 1 to maxChunk
}

// A chunk is split in two once it grows past maxChunk entries.
const (
	chunkSize = 256
	maxChunk  = 2 * chunkSize
)

// NewSnapshot is a Snapshot at rev of entries, which it takes (and
// sorts); a later entry of the same bucket and key wins.
func NewSnapshot(rev uint64, entries []Entry) Snapshot {
	byBucket := map[string][]Entry{}
	for _, e := range entries {
		if e.Value == nil {
			e.Value = []byte{} // a key with an empty value is there
		}
		byBucket[e.Bucket] = append(byBucket[e.Bucket], e)
	}
	s := &memSnapshot{rev: rev, buckets: map[string][][]Entry{}}
	for b, es := range byBucket {
		slices.SortStableFunc(es, func(x, y Entry) int { return bytes.Compare(x.Key, y.Key) })
		// Keep the last of equal keys.
		out := es[:0]
		for i, e := range es {
			if i+1 < len(es) && bytes.Equal(es[i+1].Key, e.Key) {
				continue
			}
			out = append(out, e)
		}
		s.buckets[b] = chunksOf(out)
	}
	return s
}

// chunksOf cuts sorted entries into chunks of chunkSize.
func chunksOf(es []Entry) [][]Entry {
	var out [][]Entry
	for len(es) > 0 {
		n := min(len(es), chunkSize)
		out = append(out, es[:n:n])
		es = es[n:]
	}
	return out
}

// chunkOf is the index of the chunk key belongs in: the last whose first
// key is at most key, or 0.
func chunkOf(cs [][]Entry, key []byte) int {
	i := sort.Search(len(cs), func(i int) bool { return bytes.Compare(cs[i][0].Key, key) > 0 })
	return max(i-1, 0)
}

func (s *memSnapshot) Rev() uint64 { return s.rev }

func (s *memSnapshot) Get(bucket string, key []byte) []byte {
	cs := s.buckets[bucket]
	if len(cs) == 0 {
		return nil
	}
	es := cs[chunkOf(cs, key)]
	i := sort.Search(len(es), func(i int) bool { return bytes.Compare(es[i].Key, key) >= 0 })
	if i < len(es) && bytes.Equal(es[i].Key, key) {
		return es[i].Value
	}
	return nil
}

func (s *memSnapshot) Scan(bucket string, from, to []byte, reverse bool, fn func(key, value []byte) bool) error {
	cs := s.buckets[bucket]
	in := func(k []byte) bool {
		return (from == nil || bytes.Compare(k, from) >= 0) && (to == nil || bytes.Compare(k, to) < 0)
	}
	if reverse {
		start := len(cs) - 1
		if to != nil && len(cs) > 0 {
			start = chunkOf(cs, to)
		}
		for c := start; c >= 0; c-- {
			for i := len(cs[c]) - 1; i >= 0; i-- {
				e := cs[c][i]
				if to != nil && bytes.Compare(e.Key, to) >= 0 {
					continue
				}
				if !in(e.Key) {
					return nil
				}
				if !fn(e.Key, e.Value) {
					return nil
				}
			}
		}
		return nil
	}
	start := 0
	if from != nil && len(cs) > 0 {
		start = chunkOf(cs, from)
	}
	for c := start; c < len(cs); c++ {
		for _, e := range cs[c] {
			if from != nil && bytes.Compare(e.Key, from) < 0 {
				continue
			}
			if !in(e.Key) {
				return nil
			}
			if !fn(e.Key, e.Value) {
				return nil
			}
		}
	}
	return nil
}

// Applied is s after a commit of ops took it to rev: the chunks ops
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
		keys := slices.Sorted(maps.Keys(writes))
		old := m.buckets[b]
		var cs [][]Entry
		next := 0 // the first chunk of old not yet in cs
		for len(keys) > 0 {
			c := 0
			if len(old) > 0 {
				c = chunkOf(old, []byte(keys[0]))
			}
			cs = append(cs, old[next:min(c, len(old))]...)
			// The writes that fall in chunk c: those before the next
			// chunk's first key.
			n := len(keys)
			if c+1 < len(old) {
				first := string(old[c+1][0].Key)
				n = sort.SearchStrings(keys, first)
			}
			var chunk []Entry
			if c < len(old) {
				chunk = old[c]
			}
			cs = append(cs, split(mergeWrites(b, chunk, keys[:n], writes))...)
			keys, next = keys[n:], c+1
		}
		if next < len(old) {
			cs = append(cs, old[next:]...)
		}
		if len(cs) == 0 {
			delete(out.buckets, b)
		} else {
			out.buckets[b] = cs
		}
	}
	return out, true
}

// mergeWrites is the sorted entries es with the writes to keys (sorted)
// made, in a new slice: the runs of es between them are copied whole.
func mergeWrites(bucket string, es []Entry, keys []string, writes map[string]Op) []Entry {
	out := make([]Entry, 0, len(es)+len(keys))
	i := 0
	for _, k := range keys {
		kb := []byte(k)
		j := i + sort.Search(len(es)-i, func(j int) bool { return bytes.Compare(es[i+j].Key, kb) >= 0 })
		out = append(out, es[i:j]...)
		if i = j; i < len(es) && bytes.Equal(es[i].Key, kb) {
			i++ // replaced or deleted
		}
		if op := writes[k]; !op.Delete {
			out = append(out, Entry{Bucket: bucket, Key: kb, Value: append([]byte{}, op.Value...)})
		}
	}
	return append(out, es[i:]...)
}

// split cuts a chunk grown past maxChunk in chunks of chunkSize; an empty
// one is no chunk.
func split(es []Entry) [][]Entry {
	if len(es) <= maxChunk {
		if len(es) == 0 {
			return nil
		}
		return [][]Entry{es}
	}
	return chunksOf(es)
}
