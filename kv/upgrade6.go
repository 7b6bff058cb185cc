package kv

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Format 6 keeps each user's data apart (userspace.go). A file of an
// earlier format is moved into that layout in the commit that makes it
// current, one transaction: either every user's data moved or none did.
// Ids are kept: they were unique in the file, so they are in each user's
// data, and every user's counters start where the file's were, so that
// no id a user was ever given (a fact hard-deleted since, an undone
// decision) is given again. The buckets of the old layout go.
var movedBuckets = [][]byte{bucketFacts, bucketUsers, bucketVectors, BucketDecisions, BucketConflicts, BucketMerges, bucketLogUsers}

// blobBuckets are the buckets of package memory's logs, with counters.
var blobBuckets = [][]byte{BucketDecisions, BucketConflicts, BucketMerges}

func moveToUsers(tx *bolt.Tx, owner LogOwner, facts LogFacts) error {
	dst := newTx(tx, true)
	dst.owner, dst.factKeys, dst.logsIndexed, dst.factsIndexed = owner, facts, true, true
	userOf := map[uint64]string{}
	seen := map[string]bool{}
	use := func(user string) {
		dst.Use(user)
		seen[user] = true
	}
	put := func(name, k, v []byte) error {
		return dst.sp.bucket(name).Put(bytes.Clone(k), bytes.Clone(v))
	}
	// Records, each followed by its log (id ‖ seq sorts after id).
	if b := tx.Bucket(bucketFacts); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			switch len(k) {
			case recordKeyLen:
				id := be.Uint64(k)
				r, err := decodeRecord(id, v)
				if err != nil {
					return fmt.Errorf("fact %d: %w", id, err)
				}
				userOf[id] = r.User
			case eventKeyLen:
			default:
				return fmt.Errorf("%w: facts key of %d bytes", ErrCorrupt, len(k))
			}
			user, ok := userOf[be.Uint64(k)]
			if !ok {
				return fmt.Errorf("%w: log of fact %d, which has no record", ErrCorrupt, be.Uint64(k))
			}
			use(user)
			return put(bucketFacts, k, v)
		})
		if err != nil {
			return err
		}
	}
	if b := tx.Bucket(bucketUsers); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			if len(k) < 9 || int(k[0]) != len(k)-9 {
				return fmt.Errorf("%w: user index key %x", ErrCorrupt, k)
			}
			use(string(k[1 : 1+k[0]]))
			return put(bucketUsers, k, v)
		})
		if err != nil {
			return err
		}
	}
	if b := tx.Bucket(bucketVectors); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			user, ok := userOf[be.Uint64(k)]
			if len(k) != 8 || !ok {
				return nil // an embedding of no fact: derived data, made again
			}
			use(user)
			return put(bucketVectors, k, v)
		})
		if err != nil {
			return err
		}
	}
	seqs := map[string]uint64{string(bucketFacts): tx.Bucket(bucketFacts).Sequence()}
	for _, name := range blobBuckets {
		b := tx.Bucket(name)
		if b == nil {
			continue
		}
		seqs[string(name)] = b.Sequence()
		err := b.ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("%w: %s key of %d bytes", ErrCorrupt, name, len(k))
			}
			// An entry whose owner cannot be told (it does not decode)
			// goes to the default user, where Check reports it.
			user := ""
			if body, err := unseal(v); err == nil && owner != nil {
				if u, ok := owner(name, body); ok {
					user = u
				}
			}
			use(user)
			// As it was sealed, and indexed as PutBlob indexes.
			if err := dst.indexLog(name, be.Uint64(k), nil, v); err != nil {
				return err
			}
			return put(name, k, v)
		})
		if err != nil {
			return err
		}
	}
	for user := range seen {
		dst.Use(user)
		for name, seq := range seqs {
			if seq == 0 {
				continue
			}
			if err := dst.sp.bucket([]byte(name)).SetSequence(seq); err != nil {
				return err
			}
		}
	}
	for _, name := range movedBuckets {
		if tx.Bucket(name) != nil {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
	}
	return nil
}
