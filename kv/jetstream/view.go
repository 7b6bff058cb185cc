package jetstream

import (
	"bytes"
	"slices"
	"sync"

	"github.com/palimpsest-mem/memory/kv"
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

// apply returns the view at rev that ops make of v: the buckets ops touch
// are copied, the others shared (views are never modified).
func (v *view) apply(rev uint64, ops []kv.Op) *view {
	buckets := make(map[string][]entry, len(v.buckets))
	for b, es := range v.buckets {
		buckets[b] = es
	}
	touched := map[string]map[string][]byte{} // bucket -> key -> value, nil when deleted
	for _, op := range ops {
		if touched[op.Bucket] == nil {
			touched[op.Bucket] = map[string][]byte{}
		}
		var val []byte
		if !op.Delete {
			val = append([]byte{}, op.Value...)
		}
		touched[op.Bucket][string(op.Key)] = val
	}
	for b, writes := range touched {
		es := make([]entry, 0, len(buckets[b])+len(writes))
		for _, e := range buckets[b] {
			if _, ok := writes[string(e.key)]; !ok {
				es = append(es, e)
			}
		}
		for k, val := range writes {
			if val != nil {
				es = append(es, entry{key: []byte(k), value: val})
			}
		}
		slices.SortFunc(es, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
		if len(es) == 0 {
			delete(buckets, b)
		} else {
			buckets[b] = es
		}
	}
	return &view{rev: rev, buckets: buckets}
}

// viewCache keeps the last view of recently read users: a view at the
// revision the leader reports is the user's data, so a snapshot costs one
// read of the head while nobody else writes. Bounded, with an arbitrary
// entry dropped when full.
type viewCache struct {
	mu    sync.Mutex
	max   int
	views map[string]*view
}

func (c *viewCache) get(user string, rev uint64) *view {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v := c.views[user]; v != nil && v.rev == rev {
		return v
	}
	return nil
}

func (c *viewCache) put(user string, v *view) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.views[user]; old != nil && old.rev >= v.rev {
		return
	}
	if _, ok := c.views[user]; !ok && len(c.views) >= c.max {
		for u := range c.views {
			delete(c.views, u)
			break
		}
	}
	c.views[user] = v
}

// committed records that ops took user from rev to newRev.
func (c *viewCache) committed(user string, rev, newRev uint64, ops []kv.Op) {
	if v := c.get(user, rev); v != nil {
		c.put(user, v.apply(newRev, ops))
	}
}
