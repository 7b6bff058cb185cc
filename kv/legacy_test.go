package kv

import (
	"testing"

	bolt "go.etcd.io/bbolt"
)

// legacyBuckets are the buckets of a file of format 5 or older, every
// user's data in one set.
var legacyBuckets = [][]byte{bucketMeta, bucketFacts, bucketUsers, bucketVectors, BucketDecisions, BucketConflicts, BucketMerges, bucketLogUsers, bucketChanges}

// makeLegacy writes a file of an older format at path, as a program of
// that format would: fill runs on a transaction over the one set of
// buckets (format 5 and older), whose logs are indexed by owner from
// format 3 and by fact from format 5 on, or over each user's buckets of
// their own (format 6, userspace.go).
func makeLegacy(t testing.TB, path string, version uint64, owner LogOwner, facts LogFacts, fill func(tx *Tx) error) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	buckets := legacyBuckets
	if version == formatVersionV6 {
		buckets = [][]byte{bucketMeta, bucketChanges}
	}
	err = b.Update(func(btx *bolt.Tx) error {
		for _, name := range buckets {
			if _, err := btx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		if err := btx.Bucket(bucketMeta).Put(keyVersion, be.AppendUint64(nil, version)); err != nil {
			return err
		}
		tx := newTx(btx, version)
		tx.owner, tx.logsIndexed = owner, version >= formatVersionV3
		tx.factKeys, tx.factsIndexed = facts, version >= formatVersionV5
		if fill == nil {
			return nil
		}
		return fill(tx)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// inUser returns the bucket name of user's data in a file of the current
// format, as the store's transactions see it, to damage it with.
func inUser(tx *bolt.Tx, user string, name []byte) bucket {
	t := newTx(tx, formatVersion)
	t.Use(user)
	return t.sp.bucket(name)
}
