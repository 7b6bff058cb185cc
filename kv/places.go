package kv

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// A user's facts bucket in format 7 (byuser.go) holds records (id) and
// their logs (id ‖ seq) as in every other layout, but the file keeps them
// in the order they were first written, whoever's they are: a commit of
// many users appends their records to the same last pages, as format 5's
// one set of ids did, where a range per user puts each user's new record
// on a page of its own (64 users: 64 pages). Each fact has a place, given
// from one counter of the file when its first key is written, kept in the
// user's index entry of the fact, which every write of the fact writes
// anyway: a second index of places would be one more page a user.
//
//	byuser/\x00records  place ‖ rest -> value, for the user's key id ‖ rest
//	byuser/users        prefix ‖ K -> place ‖ present ‖ value: the user's
//	                    index entry K (userKey: prefix ‖ id), if present
//	                    is 1, and the place of the fact whose group K
//	                    names (K = prefix ‖ the key's first 8 bytes), if
//	                    not 0
//
// A fact's place goes with its index entry and its last key. The user's
// bucket is the places in id order, each with its keys: a cursor walks
// both (placesCursor).
var bucketRecords = []byte("\x00records")

// placedBucket is a user's facts bucket in format 7.
type placedBucket struct {
	s      *userSpace
	prefix []byte
	index  *flatBucket // the user's index entries as stored
	recs   *bolt.Bucket
	// known are the places looked up or given in the transaction, by
	// group (0: none), each dropped when its index entry changes.
	known map[string]uint64
	ctr   *flatBucket // the counter of the user's ids, once used
}

func newPlacedBucket(s *userSpace) *placedBucket {
	prefix := userPrefix(s.user)
	index := &flatBucket{s: s, name: bucketUsers, prefix: prefix, seen: map[string][]byte{}}
	return &placedBucket{s: s, prefix: prefix, index: index, known: map[string]uint64{}}
}

// indexKey is the index entry that keeps the place of key's group.
func (b *placedBucket) indexKey(key []byte) []byte {
	id, _ := group(key)
	return append(append(make([]byte, 0, len(b.prefix)+len(id)), b.prefix...), id...)
}

func (b *placedBucket) records(create bool) (*bolt.Bucket, error) {
	if b.recs != nil {
		return b.recs, nil
	}
	if create && !b.s.writable() {
		return nil, ErrReadOnly
	}
	bb, err := flatRoot(b.s.t.tx, bucketRecords, create)
	if bb != nil {
		// Places only grow, so records are appended: pages split full.
		bb.FillPercent = factsFillPercent
		b.recs = bb
	}
	return bb, err
}

// group splits key into the fact it is of (its first 8 bytes, the id)
// and the rest. A Backend's keys may be shorter: such a key is a group of
// its own, which keeps the groups in the order of their keys.
func group(key []byte) (id, rest []byte) {
	n := min(8, len(key))
	return key[:n], key[n:]
}

// writing returns the records for a write, which moves the user's
// revision on.
func (b *placedBucket) writing() (*bolt.Bucket, error) {
	recs, err := b.records(true)
	if err != nil {
		return nil, err
	}
	return recs, b.s.wrote()
}

// place is where the keys of key's group are, 0 when it has none.
func (b *placedBucket) place(key []byte) uint64 {
	if len(key) == 0 {
		return 0
	}
	id, _ := group(key)
	if p, ok := b.known[string(id)]; ok {
		return p
	}
	p := placeOf(b.index.Get(b.indexKey(key)))
	b.known[string(id)] = p
	return p
}

// changed drops what is known of the place of index entry ik's group.
func (b *placedBucket) changed(ik []byte) {
	if bytes.HasPrefix(ik, b.prefix) {
		delete(b.known, string(ik[len(b.prefix):]))
	}
}

// An index entry as stored: place ‖ present ‖ value.
const indexHead = 9

func placeOf(raw []byte) uint64 {
	if len(raw) < indexHead {
		return 0
	}
	return be.Uint64(raw)
}

func indexEntry(place uint64, present bool, value []byte) []byte {
	e := be.AppendUint64(make([]byte, 0, indexHead+len(value)), place)
	if present {
		return append(append(e, 1), value...)
	}
	return append(e, 0)
}

func placeKey(place uint64, rest []byte) []byte {
	return append(be.AppendUint64(make([]byte, 0, 8+len(rest)), place), rest...)
}

func (b *placedBucket) Get(key []byte) []byte {
	p := b.place(key)
	if p == 0 {
		return nil
	}
	recs, _ := b.records(false)
	if recs == nil {
		return nil
	}
	_, rest := group(key)
	return recs.Get(placeKey(p, rest))
}

func (b *placedBucket) Put(key, value []byte) error {
	if len(key) == 0 {
		return errEmptyFactKey
	}
	recs, err := b.writing()
	if err != nil {
		return err
	}
	_, rest := group(key)
	ik := b.indexKey(key)
	raw := b.index.Get(ik)
	p := placeOf(raw)
	if p == 0 {
		if p, err = recs.NextSequence(); err != nil {
			return err
		}
		e := indexEntry(p, false, nil)
		if len(raw) >= indexHead {
			e = append(be.AppendUint64(nil, p), raw[8:]...)
		}
		if err := b.index.Put(ik, e); err != nil {
			return err
		}
		id, _ := group(key)
		b.known[string(id)] = p
	}
	return recs.Put(placeKey(p, rest), value)
}

func (b *placedBucket) Delete(key []byte) error {
	p := b.place(key)
	if p == 0 {
		return nil
	}
	recs, err := b.writing()
	if err != nil {
		return err
	}
	_, rest := group(key)
	if err := recs.Delete(placeKey(p, rest)); err != nil {
		return err
	}
	return b.forget(b.indexKey(key), p)
}

// holds reports whether place p holds a key.
func (b *placedBucket) holds(p uint64) bool {
	recs, _ := b.records(false)
	if recs == nil || p == 0 {
		return false
	}
	at := placeKey(p, nil)
	k, _ := recs.Cursor().Seek(at)
	return k != nil && bytes.HasPrefix(k, at)
}

// forget drops the place p of index entry ik once it holds no key: the
// entry with it, if it is not present.
func (b *placedBucket) forget(ik []byte, p uint64) error {
	if b.holds(p) {
		return nil
	}
	b.changed(ik)
	raw := b.index.Get(ik)
	if len(raw) > 8 && raw[8] == 1 {
		return b.index.Put(ik, append(be.AppendUint64(nil, 0), raw[8:]...))
	}
	return b.index.Delete(ik)
}

// lastOf is lastLogEntry in one seek among the records: the last key of
// fact id's place, if it is a log entry.
func (b *placedBucket) lastOf(id uint64) (k, v []byte) {
	p := b.place(idKey(id))
	recs, _ := b.records(false)
	if p == 0 || recs == nil {
		return nil, nil
	}
	c := recs.Cursor()
	if rk, _ := c.Seek(placeKey(p+1, nil)); rk == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	at := placeKey(p, nil)
	if k == nil || !bytes.HasPrefix(k, at) {
		// Prev stops on a leaf a Delete of this transaction emptied (see
		// lastLogEntry): walk forward from the place's first key.
		k, v = nil, nil
		for fk, fv := c.Seek(at); fk != nil && bytes.HasPrefix(fk, at); fk, fv = c.Next() {
			k, v = fk, fv
		}
	}
	if k == nil || len(k) != eventKeyLen {
		return nil, nil
	}
	return append(idKey(id), k[8:]...), v
}

func (b *placedBucket) Cursor() cursor {
	c := &placesCursor{b: b, ids: b.index.Cursor()}
	if recs, _ := b.records(false); recs != nil {
		c.recs = recs.Cursor()
	}
	return c
}

// The counter of the user's ids, beside the user's other counters.
func (b *placedBucket) counter() *flatBucket {
	if b.ctr == nil {
		b.ctr = &flatBucket{s: b.s, name: bucketFacts, prefix: b.prefix}
	}
	return b.ctr
}

func (b *placedBucket) Sequence() uint64              { return b.counter().Sequence() }
func (b *placedBucket) SetSequence(v uint64) error    { return b.counter().SetSequence(v) }
func (b *placedBucket) NextSequence() (uint64, error) { return b.counter().NextSequence() }

var errEmptyFactKey = errors.New("kv: an empty key in the facts bucket")

// placesCursor walks a user's facts bucket: the index entries that hold
// a place, in the order of their groups (ids), and at each the place's
// keys (recs), each given as the group ‖ rest.
type placesCursor struct {
	b    *placedBucket
	ids  cursor
	recs *bolt.Cursor
	id   []byte // the id whose keys recs is on
	at   []byte // the place's key prefix
	// next is the key recs is on past the place's last, when Next left
	// it there: most often the next fact's first (a user's places grow
	// with the ids), which then needs no seek.
	next, nextV []byte
	// lost: ids is not on id's entry (Seek found the place among those
	// known, without the index); a step to another fact finds it first.
	lost bool
}

// on moves to the fact of the id entry k, v (nil: the end), with recs
// sought by seek from the place's first key (or, if last, to its last);
// it goes on to the next entry in the direction until a place has a key.
func (c *placesCursor) on(k, v []byte, rest []byte, last bool) ([]byte, []byte) {
	for first := true; ; first = false {
		if !first {
			k, v = c.step(last)
			rest = nil // rest is of the first entry's group only
		}
		if k == nil || !bytes.HasPrefix(k, c.b.prefix) {
			break
		}
		g, p := k[len(c.b.prefix):], placeOf(v)
		if p == 0 || len(g) == 0 || len(g) > 8 {
			continue // an entry with no place, or not a group's
		}
		c.id, c.at, c.lost = bytes.Clone(g), placeKey(p, nil), false
		c.b.known[string(g)] = p
		var rk, rv []byte
		if last {
			if rk, _ = c.recs.Seek(placeKey(p+1, nil)); rk == nil {
				rk, rv = c.recs.Last()
			} else {
				rk, rv = c.recs.Prev()
			}
		} else if c.next != nil && rest == nil && bytes.HasPrefix(c.next, c.at) {
			rk, rv = c.next, c.nextV
		} else {
			rk, rv = c.recs.Seek(placeKey(p, rest))
		}
		c.next, c.nextV = nil, nil
		if out, ov := c.key(rk, rv); out != nil {
			return out, ov
		}
	}
	c.id, c.at = nil, nil
	return nil, nil
}

func (c *placesCursor) step(back bool) ([]byte, []byte) {
	if c.lost {
		c.lost = false
		if k, _ := c.ids.Seek(c.b.indexKey(c.id)); k == nil {
			if back {
				return c.ids.Last()
			}
			return nil, nil
		}
	}
	if back {
		return c.ids.Prev()
	}
	return c.ids.Next()
}

// key is the user's key of the record key rk, nil if rk is not of the
// place the cursor is at.
func (c *placesCursor) key(rk, rv []byte) ([]byte, []byte) {
	if rk == nil || !bytes.HasPrefix(rk, c.at) {
		return nil, nil
	}
	return append(append(make([]byte, 0, len(c.id)+len(rk)-8), c.id...), rk[8:]...), rv
}

func (c *placesCursor) First() ([]byte, []byte) {
	c.next, c.nextV = nil, nil
	if c.recs == nil {
		return nil, nil
	}
	c.lost = false
	k, v := c.ids.Seek(c.b.prefix)
	return c.on(k, v, nil, false)
}

func (c *placesCursor) Last() ([]byte, []byte) {
	c.next, c.nextV = nil, nil
	if c.recs == nil {
		return nil, nil
	}
	// The entries of groups are those of the user's index keys from
	// prefix up to prefix ‖ 8 bytes of 0xff; anything after is not one.
	end := append(bytes.Clone(c.b.prefix), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0)
	c.lost = false
	k, v := c.ids.Seek(end)
	if k == nil {
		k, v = c.ids.Last()
	} else {
		k, v = c.ids.Prev()
	}
	return c.on(k, v, nil, true)
}

// Seek finds the first group not below seek's; in seek's own group, the
// first key from seek's rest on, in a later one its first key.
// Seek finds the first group not below seek's; in seek's own group, the
// first key from seek's rest on, in a later one its first key. A group
// whose place is known (a fact's log read after its record) needs only
// the seek among the records.
func (c *placesCursor) Seek(seek []byte) ([]byte, []byte) {
	c.next, c.nextV = nil, nil
	if c.recs == nil {
		return nil, nil
	}
	id, rest := group(seek)
	if p := c.b.known[string(id)]; p != 0 {
		c.id, c.at, c.lost = bytes.Clone(id), placeKey(p, nil), true
		if k, v := c.key(c.recs.Seek(placeKey(p, rest))); k != nil {
			return k, v
		}
	}
	ik := c.b.indexKey(id)
	c.lost = false // ids is sought now
	k, v := c.ids.Seek(ik)
	if !bytes.Equal(k, ik) {
		rest = nil
	}
	return c.on(k, v, rest, false)
}

func (c *placesCursor) Next() ([]byte, []byte) {
	if c.at == nil {
		return nil, nil
	}
	rk, rv := c.recs.Next()
	if k, v := c.key(rk, rv); k != nil {
		return k, v
	}
	c.next, c.nextV = rk, rv
	k, v := c.step(false)
	return c.on(k, v, nil, false)
}

func (c *placesCursor) Prev() ([]byte, []byte) {
	c.next, c.nextV = nil, nil
	if c.at == nil {
		return nil, nil
	}
	if k, v := c.key(c.recs.Prev()); k != nil {
		return k, v
	}
	k, v := c.step(true)
	return c.on(k, v, nil, true)
}

// Delete removes the key the cursor is on, and the fact's place with its
// last key; the cursor stays where bbolt's does after a Delete.
func (c *placesCursor) Delete() error {
	if c.at == nil {
		return nil
	}
	if err := c.b.s.wrote(); err != nil {
		return err
	}
	if err := c.recs.Delete(); err != nil {
		return err
	}
	if c.b.holds(be.Uint64(c.at)) {
		return nil
	}
	// The fact's last key: an entry that is only its place goes. One that
	// is present keeps it, which holds nothing now (the cursor walks on,
	// and must not have its bucket written under it).
	ik := c.b.indexKey(c.id)
	if _, v := c.ids.Seek(ik); len(v) > 8 && v[8] == 1 {
		return nil
	}
	c.b.changed(ik)
	return c.ids.Delete()
}

// indexBucket is a user's index (users) in format 7: its entries as the
// transaction reads and writes them, each stored with the place of the
// fact whose group its key names (placedBucket).
type indexBucket struct {
	raw   *flatBucket
	facts *placedBucket
}

func newIndexBucket(s *userSpace) *indexBucket {
	f := s.bucket(bucketFacts).(*placedBucket)
	return &indexBucket{raw: f.index, facts: f}
}

func present(raw []byte) bool { return len(raw) >= indexHead && raw[8] == 1 }

func (b *indexBucket) Get(key []byte) []byte {
	if raw := b.raw.Get(key); present(raw) {
		return raw[indexHead:]
	}
	return nil
}

func (b *indexBucket) Put(key, value []byte) error {
	return b.raw.Put(key, indexEntry(placeOf(b.raw.Get(key)), true, value))
}

// Delete keeps the entry's place while the place holds keys.
func (b *indexBucket) Delete(key []byte) error {
	raw := b.raw.Get(key)
	if raw == nil {
		return nil
	}
	if p := placeOf(raw); b.facts.holds(p) {
		return b.raw.Put(key, indexEntry(p, false, nil))
	}
	b.facts.changed(key)
	return b.raw.Delete(key)
}

func (b *indexBucket) Cursor() cursor { return &indexCursor{c: b.raw.Cursor()} }

func (b *indexBucket) Sequence() uint64              { return b.raw.Sequence() }
func (b *indexBucket) SetSequence(v uint64) error    { return b.raw.SetSequence(v) }
func (b *indexBucket) NextSequence() (uint64, error) { return b.raw.NextSequence() }

// indexCursor walks the entries that are present.
type indexCursor struct{ c cursor }

func (c *indexCursor) skip(k, v []byte, step func() ([]byte, []byte)) ([]byte, []byte) {
	for ; k != nil; k, v = step() {
		if present(v) {
			return k, v[indexHead:]
		}
	}
	return nil, nil
}

func (c *indexCursor) First() ([]byte, []byte) { k, v := c.c.First(); return c.skip(k, v, c.c.Next) }
func (c *indexCursor) Last() ([]byte, []byte)  { k, v := c.c.Last(); return c.skip(k, v, c.c.Prev) }
func (c *indexCursor) Seek(s []byte) ([]byte, []byte) {
	k, v := c.c.Seek(s)
	return c.skip(k, v, c.c.Next)
}
func (c *indexCursor) Next() ([]byte, []byte) { k, v := c.c.Next(); return c.skip(k, v, c.c.Next) }
func (c *indexCursor) Prev() ([]byte, []byte) { k, v := c.c.Prev(); return c.skip(k, v, c.c.Prev) }

// Delete is not needed of the index, whose entries go by key (Delete
// keeps a place the cursor would have to skip).
func (c *indexCursor) Delete() error {
	return errors.New("kv: an index entry is deleted by key, not through a cursor")
}

// checkPlaces verifies, in a file of format 7, what no user's own check
// can see: that every place of the records is one fact's, named by one
// index entry, and that every index entry holds a place or is present.
func (t *Tx) checkPlaces() []error {
	if !t.perUser || t.nested {
		return nil
	}
	var errs []error
	owner := map[uint64][]byte{}
	if ix, _ := flatRoot(t.tx, bucketUsers, false); ix != nil {
		_ = ix.ForEach(func(k, v []byte) error {
			p := placeOf(v)
			switch {
			case len(v) < indexHead || v[8] > 1:
				errs = append(errs, fmt.Errorf("index entry %x is %x, not place ‖ present ‖ value", k, v))
			case p == 0 && !present(v):
				errs = append(errs, fmt.Errorf("index entry %x holds neither a place nor an entry", k))
			case p != 0 && owner[p] != nil:
				errs = append(errs, fmt.Errorf("place %d is of two facts, entries %x and %x", p, owner[p], k))
			case p != 0:
				owner[p] = bytes.Clone(k)
			}
			return nil
		})
	}
	if recs, _ := flatRoot(t.tx, bucketRecords, false); recs != nil {
		last := uint64(0)
		_ = recs.ForEach(func(k, _ []byte) error {
			if len(k) < 8 {
				errs = append(errs, fmt.Errorf("record key %x has no place", k))
				return nil
			}
			if p := be.Uint64(k); p != last {
				last = p
				if owner[p] == nil {
					errs = append(errs, fmt.Errorf("the keys at place %d are no fact's", p))
				}
			}
			return nil
		})
	}
	return errs
}
