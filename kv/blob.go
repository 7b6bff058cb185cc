package kv

import (
	"errors"
	"fmt"
)

// Blob buckets hold records that package memory encodes itself: the
// decision log, the conflicts and the entity merges. Each value is sealed with a CRC like a
// fact record. Files made before a bucket existed gain it at a writable
// Open; until then it reads as empty.
var (
	BucketDecisions = []byte("decisions")
	BucketConflicts = []byte("conflicts")
	BucketMerges    = []byte("merges")
)

// MaxID is the largest id of a fact, decision, conflict or merge: 2^53−1,
// the largest integer every JSON reader (JavaScript's numbers) holds
// exactly, and more ids than a store can use up.
const MaxID = 1<<53 - 1

// ErrIDsExhausted: a write that needs an id past MaxID, or a counter set
// past it. The write changes nothing; a full counter is no damage, but no
// store gets there by writing.
var ErrIDsExhausted = errors.New("ids exhausted")

// NextBlobID allocates the next id of a blob bucket; ids start at 1 and
// are never reused: a counter at MaxID, or one behind an id the bucket
// holds (an import or damage set it so), is an error, never a wrap or an
// overwrite.
func (t *Tx) NextBlobID(bucket []byte) (uint64, error) {
	b, err := t.sp.createBucket(bucket)
	if err != nil {
		return 0, err
	}
	id := max(b.Sequence(), t.floor(bucket)) + 1
	if err := freeID(string(bucket), id, b.Get(idKey(id)) != nil); err != nil {
		return 0, err
	}
	return id, b.SetSequence(id)
}

// freeID refuses to give id when it is past MaxID or taken.
func freeID(what string, id uint64, taken bool) error {
	switch {
	case id > MaxID || id == 0:
		return fmt.Errorf("%w: the %s counter is at %d", ErrIDsExhausted, what, id-1)
	case taken:
		return fmt.Errorf("%w: the %s counter would give id %d again", ErrCorrupt, what, id)
	}
	return nil
}

// PutBlob stores v under id.
func (t *Tx) PutBlob(bucket []byte, id uint64, v []byte) error {
	b, err := t.sp.createBucket(bucket)
	if err != nil {
		return err
	}
	raw := sealed(append([]byte(nil), v...), 0)
	old := b.Get(idKey(id))
	if t.scope.on {
		t.ownerInScope(bucket, id, v)
		if body, err := unseal(old); old != nil && err == nil {
			t.ownerInScope(bucket, id, body)
		}
	}
	if err := t.indexLog(bucket, id, old, raw); err != nil {
		return err
	}
	return b.Put(idKey(id), raw)
}

// HasBlob reports whether bucket holds a value under id, without reading it.
func (t *Tx) HasBlob(bucket []byte, id uint64) bool {
	b := t.sp.bucket(bucket)
	return b != nil && b.Get(idKey(id)) != nil
}

// Blob returns the value under id, or ErrNotFound.
func (t *Tx) Blob(bucket []byte, id uint64) ([]byte, error) {
	b := t.sp.bucket(bucket)
	var raw []byte
	if b != nil {
		raw = b.Get(idKey(id))
	}
	if raw == nil {
		return nil, fmt.Errorf("%s %d: %w", bucket, id, ErrNotFound)
	}
	body, err := unseal(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %s %d: %v", ErrDecode, bucket, id, err)
	}
	return append([]byte(nil), body...), nil
}

// DeleteBlob removes id; a missing id is not an error.
func (t *Tx) DeleteBlob(bucket []byte, id uint64) error {
	if b := t.sp.bucket(bucket); b != nil {
		if old := b.Get(idKey(id)); old != nil {
			if t.scope.on {
				if body, err := unseal(old); err == nil {
					t.ownerInScope(bucket, id, body)
				}
			}
			if err := t.indexLog(bucket, id, old, nil); err != nil {
				return err
			}
		}
		return b.Delete(idKey(id))
	}
	return nil
}

// ForEachBlob calls fn for every value, newest id first when reverse.
func (t *Tx) ForEachBlob(bucket []byte, reverse bool, fn func(id uint64, v []byte) error) error {
	b := t.sp.bucket(bucket)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	first, next := c.First, c.Next
	if reverse {
		first, next = c.Last, c.Prev
	}
	for k, raw := first(); k != nil; k, raw = next() {
		if len(k) != 8 {
			return fmt.Errorf("%w: %s key of %d bytes", ErrCorrupt, bucket, len(k))
		}
		body, err := unseal(raw)
		if err != nil {
			return fmt.Errorf("%w: %s %d: %v", ErrDecode, bucket, be.Uint64(k), err)
		}
		if err := fn(be.Uint64(k), body); err != nil {
			return err
		}
	}
	return nil
}

// SetBlobSeq sets the sequence NextBlobID counts from (import keeps ids),
// at most MaxID.
func (t *Tx) SetBlobSeq(bucket []byte, seq uint64) error {
	if seq > MaxID {
		return fmt.Errorf("%w: %s counter %d is past %d", ErrIDsExhausted, bucket, seq, uint64(MaxID))
	}
	b, err := t.sp.createBucket(bucket)
	if err != nil {
		return err
	}
	return b.SetSequence(seq)
}

// BlobSeq returns the last id NextBlobID allocated.
func (t *Tx) BlobSeq(bucket []byte) uint64 {
	if b := t.sp.bucket(bucket); b != nil {
		return max(b.Sequence(), t.floor(bucket))
	}
	return t.floor(bucket)
}
