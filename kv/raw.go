package kv

import (
	bolt "go.etcd.io/bbolt"
)

// Raw is a bare bbolt file with one bucket: the baseline the bench suite
// measures the store against, kept here because kv is the only package
// that imports bbolt.
type Raw struct{ db *bolt.DB }

var rawBucket = []byte("raw")

// OpenRaw opens or creates a bare bbolt file.
func OpenRaw(path string, noSync bool) (*Raw, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: noSync})
	if err != nil {
		return nil, err
	}
	err = db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists(rawBucket); return err })
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Raw{db: db}, nil
}

// Put writes one key in its own transaction.
func (r *Raw) Put(key, value []byte) error {
	return r.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(rawBucket).Put(key, value) })
}

// PutMany writes every pair in one transaction.
func (r *Raw) PutMany(keys, values [][]byte) error {
	return r.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(rawBucket)
		for i := range keys {
			if err := b.Put(keys[i], values[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// Close closes the file.
func (r *Raw) Close() error { return r.db.Close() }
