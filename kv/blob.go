package kv

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Blob buckets hold records that package memory encodes itself: the
// decision log, the conflicts and the entity merges. Each value is sealed with a CRC like a
// fact record. Files made before a bucket existed gain it at a writable
// Open; until then it reads as empty.
var (
	BucketDecisions = []byte("decisions")
	BucketConflicts = []byte("conflicts")
	BucketMerges    = []byte("merges")
	optionalBuckets = [][]byte{bucketVectors, BucketDecisions, BucketConflicts, BucketMerges, bucketLogUsers}
)

// NextBlobID allocates the next id of a blob bucket; ids start at 1 and
// are never reused.
func (t *Tx) NextBlobID(bucket []byte) (uint64, error) {
	b, err := t.tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return 0, err
	}
	return b.NextSequence()
}

// PutBlob stores v under id.
func (t *Tx) PutBlob(bucket []byte, id uint64, v []byte) error {
	b, err := t.tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	raw := sealed(append([]byte(nil), v...), 0)
	if err := t.indexLog(bucket, id, b.Get(idKey(id)), raw); err != nil {
		return err
	}
	return b.Put(idKey(id), raw)
}

// Blob returns the value under id, or ErrNotFound.
func (t *Tx) Blob(bucket []byte, id uint64) ([]byte, error) {
	b := t.tx.Bucket(bucket)
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
	if b := t.tx.Bucket(bucket); b != nil {
		if old := b.Get(idKey(id)); old != nil {
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
	b := t.tx.Bucket(bucket)
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

// createOptional adds the optional buckets a file lacks.
func createOptional(tx *bolt.Tx) error {
	for _, name := range optionalBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// SetBlobSeq sets the sequence NextBlobID counts from (import keeps ids).
func (t *Tx) SetBlobSeq(bucket []byte, seq uint64) error {
	b, err := t.tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	return b.SetSequence(seq)
}

// BlobSeq returns the last id NextBlobID allocated.
func (t *Tx) BlobSeq(bucket []byte) uint64 {
	if b := t.tx.Bucket(bucket); b != nil {
		return b.Sequence()
	}
	return 0
}
