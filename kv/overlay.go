package kv

import (
	"bytes"
	"maps"
	"slices"
	"sort"
)

// overlay is one user's data over a Backend as a space: reads see the
// snapshot under the transaction's own writes, which it keeps (sorted, per
// bucket) until they become the commit's ops. The snapshot is never
// changed, so one can be shared by every reader at its revision.
type overlay struct {
	snap    Snapshot
	write   bool
	buckets map[string]*overlayBucket
}

// bucketSeqs holds the buckets' sequences, a key per bucket: a Backend has
// keys and values only.
const bucketSeqs = "seqs"

func newOverlay(s Snapshot, write bool) *overlay {
	return &overlay{snap: s, write: write, buckets: map[string]*overlayBucket{}}
}

func (o *overlay) bucket(name []byte) bucket {
	b, ok := o.buckets[string(name)]
	if !ok {
		b = &overlayBucket{o: o, name: string(name)}
		if v := o.snap.Get(bucketSeqs, name); len(v) == 8 {
			b.seq = be.Uint64(v)
		}
		o.buckets[b.name] = b
	}
	return b
}

func (o *overlay) createBucket(name []byte) (bucket, error) {
	if !o.write {
		return nil, ErrReadOnly
	}
	return o.bucket(name), nil
}

func (o *overlay) writable() bool { return o.write }

// ops are the transaction's writes as a commit: what differs from the
// snapshot, bucket by bucket in name order, keys in order.
func (o *overlay) ops() []Op {
	var out []Op
	for _, name := range slices.Sorted(maps.Keys(o.buckets)) {
		b := o.buckets[name]
		for _, w := range b.writes {
			old := o.snap.Get(name, w.key)
			switch {
			case w.deleted && old == nil, !w.deleted && old != nil && bytes.Equal(old, w.value):
				continue // nothing changed
			case w.deleted:
				out = append(out, Op{Bucket: name, Key: w.key, Delete: true})
			default:
				out = append(out, Op{Bucket: name, Key: w.key, Value: w.value})
			}
		}
		if b.seqSet {
			out = append(out, Op{Bucket: bucketSeqs, Key: []byte(name), Value: be.AppendUint64(nil, b.seq)})
		}
	}
	return out
}

type write struct {
	key, value []byte
	deleted    bool
}

type overlayBucket struct {
	o      *overlay
	name   string
	writes []write // sorted by key
	seq    uint64
	seqSet bool
}

// find returns the index of the first write at or after key, and whether
// it is key's.
func (b *overlayBucket) find(key []byte) (int, bool) {
	i := sort.Search(len(b.writes), func(i int) bool { return bytes.Compare(b.writes[i].key, key) >= 0 })
	return i, i < len(b.writes) && bytes.Equal(b.writes[i].key, key)
}

func (b *overlayBucket) Get(key []byte) []byte {
	if i, ok := b.find(key); ok {
		if b.writes[i].deleted {
			return nil
		}
		return b.writes[i].value
	}
	return b.o.snap.Get(b.name, key)
}

func (b *overlayBucket) set(w write) error {
	if !b.o.write {
		return ErrReadOnly
	}
	i, ok := b.find(w.key)
	if ok {
		b.writes[i] = w
	} else {
		b.writes = slices.Insert(b.writes, i, w)
	}
	return nil
}

func (b *overlayBucket) Put(key, value []byte) error {
	if value == nil {
		value = []byte{}
	}
	return b.set(write{key: bytes.Clone(key), value: bytes.Clone(value)})
}

func (b *overlayBucket) Delete(key []byte) error {
	return b.set(write{key: bytes.Clone(key), deleted: true})
}

func (b *overlayBucket) Sequence() uint64 { return b.seq }

func (b *overlayBucket) SetSequence(v uint64) error {
	if !b.o.write {
		return ErrReadOnly
	}
	b.seq, b.seqSet = v, true
	return nil
}

func (b *overlayBucket) NextSequence() (uint64, error) {
	if err := b.SetSequence(b.seq + 1); err != nil {
		return 0, err
	}
	return b.seq, nil
}

func (b *overlayBucket) Cursor() cursor { return &overlayCursor{b: b} }

// overlayCursor merges the snapshot's keys with the writes: a write of a
// key hides the snapshot's, a delete hides it altogether.
type overlayCursor struct {
	b   *overlayBucket
	cur []byte // the key it is on; nil before the first move or past the end
}

func (c *overlayCursor) First() ([]byte, []byte) { return c.forward(nil, true) }
func (c *overlayCursor) Last() ([]byte, []byte)  { return c.backward(nil, true) }
func (c *overlayCursor) Seek(k []byte) ([]byte, []byte) {
	return c.forward(k, true)
}

func (c *overlayCursor) Next() ([]byte, []byte) {
	if c.cur == nil {
		return nil, nil
	}
	return c.forward(c.cur, false)
}

func (c *overlayCursor) Prev() ([]byte, []byte) {
	if c.cur == nil {
		return nil, nil
	}
	return c.backward(c.cur, false)
}

func (c *overlayCursor) Delete() error {
	if c.cur == nil {
		return nil
	}
	return c.b.Delete(c.cur)
}

// forward moves to the first key at (inclusive) or after from.
func (c *overlayCursor) forward(from []byte, inclusive bool) ([]byte, []byte) {
	for {
		start := from
		if !inclusive && from != nil {
			start = append(bytes.Clone(from), 0)
		}
		var sk, sv []byte
		_ = c.b.o.snap.Scan(c.b.name, start, nil, false, func(k, v []byte) bool { sk, sv = k, v; return false })
		i := 0
		if start != nil {
			i, _ = c.b.find(start)
		}
		if i < len(c.b.writes) && (sk == nil || bytes.Compare(c.b.writes[i].key, sk) <= 0) {
			w := c.b.writes[i]
			if w.deleted {
				from, inclusive = w.key, false
				continue
			}
			c.cur = w.key
			return w.key, w.value
		}
		c.cur = sk
		return sk, sv
	}
}

// backward moves to the last key at (inclusive) or before from; from nil
// is the end.
func (c *overlayCursor) backward(from []byte, inclusive bool) ([]byte, []byte) {
	for {
		// The snapshot's last key below the bound: Scan's upper bound is
		// exclusive, so an inclusive one reads one key more.
		var to []byte
		if from != nil {
			to = from
			if inclusive {
				to = append(bytes.Clone(from), 0)
			}
		}
		var sk, sv []byte
		_ = c.b.o.snap.Scan(c.b.name, nil, to, true, func(k, v []byte) bool { sk, sv = k, v; return false })
		j := len(c.b.writes) - 1
		if to != nil {
			i, _ := c.b.find(to)
			j = i - 1
		}
		if j >= 0 && (sk == nil || bytes.Compare(c.b.writes[j].key, sk) >= 0) {
			w := c.b.writes[j]
			if w.deleted {
				from, inclusive = w.key, false
				continue
			}
			c.cur = w.key
			return w.key, w.value
		}
		c.cur = sk
		return sk, sv
	}
}
