package kv

import bolt "go.etcd.io/bbolt"

// A Tx reads and writes buckets of keys through a space: the buckets of a
// bbolt transaction (the file, every user) or one user's data over a
// Backend (an overlay of the transaction's writes on a snapshot). The
// record, log, index and blob code is written once, over these.
type space interface {
	// bucket returns the bucket, nil when it does not exist.
	bucket(name []byte) bucket
	// createBucket returns the bucket, made if it does not exist.
	createBucket(name []byte) (bucket, error)
	writable() bool
}

// bucket is what a Tx does with a bucket: bbolt's operations.
type bucket interface {
	Get(key []byte) []byte
	Put(key, value []byte) error
	Delete(key []byte) error
	Cursor() cursor
	Sequence() uint64
	SetSequence(v uint64) error
	NextSequence() (uint64, error)
}

// cursor walks a bucket in key order, as bbolt's does: a nil key is the
// end; Delete removes the key the cursor is on.
type cursor interface {
	First() (key, value []byte)
	Last() (key, value []byte)
	Seek(seek []byte) (key, value []byte)
	Next() (key, value []byte)
	Prev() (key, value []byte)
	Delete() error
}

// boltSpace is a bbolt transaction as a space.
type boltSpace struct{ tx *bolt.Tx }

func (s boltSpace) bucket(name []byte) bucket {
	if b := s.tx.Bucket(name); b != nil {
		return boltBucket{b}
	}
	return nil
}

func (s boltSpace) createBucket(name []byte) (bucket, error) {
	b, err := s.tx.CreateBucketIfNotExists(name)
	if err != nil {
		return nil, err
	}
	return boltBucket{b}, nil
}

func (s boltSpace) writable() bool { return s.tx.Writable() }

// boltBucket is a bbolt bucket as a bucket; its cursor is bbolt's.
type boltBucket struct{ *bolt.Bucket }

func (b boltBucket) Cursor() cursor { return b.Bucket.Cursor() }

// forEach calls fn for every key of b in order, as bbolt's ForEach.
func forEach(b bucket, fn func(k, v []byte) error) error {
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}
