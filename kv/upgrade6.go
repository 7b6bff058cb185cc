package kv

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// From format 6 each user's data is apart (userspace.go). A file of an
// earlier format is moved into the current layout (format 7, byuser.go)
// in the commit that makes it current, one transaction: either every
// user's data moved or none did.
// Ids are kept: they were unique in the file, so they are in each user's
// data, and every user's counters start where the file's were, so that
// no id a user was ever given (a fact hard-deleted since, an undone
// decision) is given again. The buckets of the old layout go.
var movedBuckets = [][]byte{bucketFacts, bucketUsers, bucketVectors, BucketDecisions, BucketConflicts, BucketMerges, bucketLogUsers}

// blobBuckets are the buckets of package memory's logs, with counters.
var blobBuckets = [][]byte{BucketDecisions, BucketConflicts, BucketMerges}

// moveToUsers goes user by user, each user's facts in id order, so that
// every bucket of the new layout is written in the order of its keys: in
// one transaction bbolt splits no page until the commit, and keys put
// into the middle of one page's node, every user's in turn, would move
// its keys along at each put (a file of 100,000 facts took 7.7 s so, 0.55 s
// this way).
func moveToUsers(tx *bolt.Tx, owner LogOwner, facts LogFacts) error {
	dst := newTx(tx, formatVersion)
	dst.owner, dst.factKeys, dst.logsIndexed, dst.factsIndexed = owner, facts, true, true
	put := func(name, k, v []byte) error {
		return dst.sp.bucket(name).Put(bytes.Clone(k), bytes.Clone(v))
	}
	// Each fact's user, from its record.
	userOf := map[uint64]string{}
	ids := map[string][]uint64{} // each user's, ascending
	src := tx.Bucket(bucketFacts)
	if src != nil {
		err := src.ForEach(func(k, v []byte) error {
			switch len(k) {
			case recordKeyLen:
				id := be.Uint64(k)
				r, err := decodeRecord(id, v)
				if err != nil {
					return fmt.Errorf("fact %d: %w", id, err)
				}
				userOf[id] = r.User
				ids[r.User] = append(ids[r.User], id)
			case eventKeyLen:
				if _, ok := userOf[be.Uint64(k)]; !ok {
					return fmt.Errorf("%w: log of fact %d, which has no record", ErrCorrupt, be.Uint64(k))
				}
			default:
				return fmt.Errorf("%w: facts key of %d bytes", ErrCorrupt, len(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	// Each user's log entries, by bucket; an entry whose owner cannot be
	// told (it does not decode) goes to the default user, where Check
	// reports it.
	blobs := map[string]map[string][]uint64{}
	seqs := map[string]uint64{}
	if src != nil {
		seqs[string(bucketFacts)] = src.Sequence()
	}
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
			user := ""
			if body, err := unseal(v); err == nil && owner != nil {
				if u, ok := owner(name, body); ok {
					user = u
				}
			}
			if blobs[user] == nil {
				blobs[user] = map[string][]uint64{}
			}
			blobs[user][string(name)] = append(blobs[user][string(name)], be.Uint64(k))
			return nil
		})
		if err != nil {
			return err
		}
	}
	// The index keys, user by user in key order, as they are.
	index := map[string][][2][]byte{}
	if b := tx.Bucket(bucketUsers); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			if len(k) < 9 || int(k[0]) != len(k)-9 {
				return fmt.Errorf("%w: user index key %x", ErrCorrupt, k)
			}
			u := string(k[1 : 1+k[0]])
			index[u] = append(index[u], [2][]byte{k, v})
			return nil
		})
		if err != nil {
			return err
		}
	}
	users := map[string]bool{}
	for _, m := range []map[string]bool{keysOf(ids), keysOf(blobs), keysOf(index)} {
		maps.Copy(users, m)
	}
	vectors := tx.Bucket(bucketVectors)
	for _, user := range slices.SortedFunc(maps.Keys(users), byPrefix) {
		dst.Use(user)
		// Records, each followed by its log (id ‖ seq sorts after id).
		for _, id := range ids[user] {
			c, prefix := src.Cursor(), idKey(id)
			for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
				if err := put(bucketFacts, k, v); err != nil {
					return err
				}
			}
		}
		for _, e := range index[user] {
			if err := put(bucketUsers, e[0], e[1]); err != nil {
				return err
			}
		}
		if vectors != nil {
			// An embedding of no fact is derived data, made again.
			for _, id := range ids[user] {
				if v := vectors.Get(idKey(id)); v != nil {
					if err := put(bucketVectors, idKey(id), v); err != nil {
						return err
					}
				}
			}
		}
		for _, name := range blobBuckets {
			b := tx.Bucket(name)
			for _, id := range blobs[user][string(name)] {
				v := b.Get(idKey(id))
				// As it was sealed, and indexed as PutBlob indexes.
				if err := dst.indexLog(name, id, nil, v); err != nil {
					return err
				}
				if err := put(name, idKey(id), v); err != nil {
					return err
				}
			}
		}
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

func keysOf[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// byPrefix orders users as their prefixes sort: shorter names first.
func byPrefix(a, b string) int { return bytes.Compare(userPrefix(a), userPrefix(b)) }

// moveOutOfUserBuckets moves a file of format 6, each user's data in
// buckets of their own, into format 7's shared buckets (byuser.go), in
// the upgrade's one transaction: every key as it was, behind its user's
// prefix, and every user's revision.
func moveOutOfUserBuckets(tx *bolt.Tx, _ LogOwner, _ LogFacts) error {
	top := tx.Bucket(bucketPerUser)
	if top == nil {
		return nil
	}
	dst := newTx(tx, formatVersion)
	err := top.ForEachBucket(func(name []byte) error {
		if len(name) == 0 || name[0] != 'u' || len(name)-1 > MaxUserLen {
			return fmt.Errorf("%w: per-user bucket %q", ErrCorrupt, name)
		}
		user := string(name[1:])
		ub := top.Bucket(name)
		rev := uint64(1)
		if v := ub.Get(keyRev); len(v) == 8 {
			rev = be.Uint64(v)
		}
		dst.Use(user)
		err := ub.ForEachBucket(func(bucket []byte) error {
			b := dst.sp.bucket(bucket)
			return ub.Bucket(bucket).ForEach(func(k, v []byte) error {
				return b.Put(bytes.Clone(k), bytes.Clone(v))
			})
		})
		if err != nil {
			return err
		}
		// The revision the user had, not one the move made.
		return setFlatRev(tx, user, rev)
	})
	if err != nil {
		return err
	}
	return tx.DeleteBucket(bucketPerUser)
}
