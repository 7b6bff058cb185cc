package kv

import (
	"bytes"
	"fmt"
	"slices"
)

// The conflicts and the merges are read a user at a time (a prompt's
// notes, a graph's aliases), and a scan of every user's entries made
// each such read cost what all users' logs cost. The logusers bucket
// indexes them by user:
//
//	tag ‖ 0 ‖ user key ‖ id   an entry whose owner Options.LogOwner named
//	tag ‖ 1 ‖ id              one whose owner it could not tell (a value
//	                          that does not decode), which every user's
//	                          read visits, so that the damage is reported
//	                          rather than skipped
//	tag ‖ 2 ‖ fact id ‖ id    an entry Options.LogFacts says stands on
//	                          that fact (from format 5: a conflict open or
//	                          kept), so that a change of one fact finds its
//	                          conflicts without reading the user's others
//
// PutBlob and DeleteBlob keep it in step in the transaction that writes.
// A file of format version 2 has no such index: a writable Open builds
// it and makes the file current (kv.go); until then (read-only, or stale until
// Repair) a user's read scans the whole bucket.
var (
	bucketLogUsers = []byte("logusers")
	userLogTags    = map[string]byte{string(BucketConflicts): 1, string(BucketMerges): 2}
)

const (
	logOwned   = 0
	logUnowned = 1
	logByFact  = 2
)

// LogOwner names the user a value of a per-user blob bucket belongs to;
// ok is false when the value does not say (it does not decode).
type LogOwner func(bucket, value []byte) (user string, ok bool)

// LogFacts names the facts a value of a per-user blob bucket is to be
// found by (none for a value that does not decode).
type LogFacts func(bucket, value []byte) []uint64

func (t *Tx) logTag(bucket []byte) (byte, bool) {
	tag, ok := userLogTags[string(bucket)]
	return tag, ok
}

// logKeys are the index keys of a value (sealed, as stored) of bucket
// under id: its owner's, then one per fact it stands on.
func (t *Tx) logKeys(tag byte, bucket []byte, id uint64, raw []byte) [][]byte {
	user, ok := "", false
	body, err := unseal(raw)
	if err == nil && t.owner != nil {
		user, ok = t.owner(bucket, body)
	}
	var keys [][]byte
	if !ok || len(user) > MaxUserLen {
		keys = append(keys, be.AppendUint64([]byte{tag, logUnowned}, id))
	} else {
		keys = append(keys, be.AppendUint64(append([]byte{tag, logOwned}, userPrefix(user)...), id))
	}
	if err == nil && t.facts != nil && t.factKeys != nil {
		for _, f := range t.factKeys(bucket, body) {
			keys = append(keys, be.AppendUint64(be.AppendUint64([]byte{tag, logByFact}, f), id))
		}
	}
	return keys
}

// indexLog moves the index entries of id in bucket from the value old
// (nil: none) to new (nil: deleted).
func (t *Tx) indexLog(bucket []byte, id uint64, old, new []byte) error {
	tag, ok := t.logTag(bucket)
	if !ok {
		return nil
	}
	ix, err := t.sp.createBucket(bucketLogUsers)
	if err != nil {
		return err
	}
	var newKeys [][]byte
	if new != nil {
		newKeys = t.logKeys(tag, bucket, id, new)
	}
	if old != nil {
		for _, k := range t.logKeys(tag, bucket, id, old) {
			if !slices.ContainsFunc(newKeys, func(n []byte) bool { return bytes.Equal(n, k) }) {
				if err := ix.Delete(k); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range newKeys {
		if err := ix.Put(k, nil); err != nil {
			return err
		}
	}
	return nil
}

// ForEachFactBlob calls fn for every value of bucket that LogFacts says
// stands on fact, in id order: through the index on a file of the
// current format, else every value (fn still checks).
func (t *Tx) ForEachFactBlob(bucket []byte, fact uint64, fn func(id uint64, v []byte) error) error {
	tag, ok := t.logTag(bucket)
	ix := t.sp.bucket(bucketLogUsers)
	if !ok || !t.factsIndexed || ix == nil {
		return t.ForEachBlob(bucket, false, fn)
	}
	b := t.sp.bucket(bucket)
	if b == nil {
		return nil
	}
	prefix := be.AppendUint64([]byte{tag, logByFact}, fact)
	var ids []uint64
	c := ix.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) == len(prefix)+8 {
			ids = append(ids, be.Uint64(k[len(prefix):]))
		}
	}
	return indexedBlobs(b, bucket, ids, fn)
}

// indexedBlobs calls fn with the value of each of ids in b, which the log
// index named: one missing is corruption.
func indexedBlobs(b bucket, bucket []byte, ids []uint64, fn func(id uint64, v []byte) error) error {
	// One cursor for every id: a Get makes a cursor of its own each time.
	var key [8]byte
	bc := b.Cursor()
	for _, id := range ids {
		be.PutUint64(key[:], id)
		k, raw := bc.Seek(key[:])
		if !bytes.Equal(k, key[:]) {
			raw = nil
		}
		if raw == nil {
			return fmt.Errorf("%w: %s index names %d, which is missing", ErrCorrupt, bucket, id)
		}
		body, err := unseal(raw)
		if err != nil {
			return fmt.Errorf("%w: %s %d: %v", ErrDecode, bucket, id, err)
		}
		if err := fn(id, body); err != nil {
			return err
		}
	}
	return nil
}

// ForEachUserBlob calls fn for every value of bucket that may be user's,
// newest id first when reverse: through the index, the user's entries and
// those whose owner is unknown; else (a bucket not indexed, a file not
// yet indexed) every value. fn still checks the owner.
func (t *Tx) ForEachUserBlob(bucket []byte, user string, reverse bool, fn func(id uint64, v []byte) error) error {
	tag, ok := t.logTag(bucket)
	ix := t.sp.bucket(bucketLogUsers)
	if !ok || !t.logsIndexed || ix == nil {
		return t.ForEachBlob(bucket, reverse, fn)
	}
	b := t.sp.bucket(bucket)
	if b == nil {
		return nil
	}
	var ids []uint64
	c := ix.Cursor()
	for _, prefix := range [][]byte{append([]byte{tag, logOwned}, userPrefix(user)...), {tag, logUnowned}} {
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			if len(k) != len(prefix)+8 {
				continue // a longer user name with the same bytes first cannot, thanks to the length byte
			}
			ids = append(ids, be.Uint64(k[len(prefix):]))
		}
	}
	slices.Sort(ids)
	if reverse {
		slices.Reverse(ids)
	}
	return indexedBlobs(b, bucket, ids, fn)
}

// checkLogIndex reports every difference between the index and the
// entries of the blob buckets it indexes.
func (t *Tx) checkLogIndex() []error {
	if !t.logsIndexed {
		return nil
	}
	want := map[string]bool{}
	for name, tag := range userLogTags {
		if b := t.sp.bucket([]byte(name)); b != nil {
			_ = forEach(b, func(k, v []byte) error {
				if len(k) == 8 {
					for _, key := range t.logKeys(tag, []byte(name), be.Uint64(k), v) {
						if key[1] != logByFact || t.factsIndexed {
							want[string(key)] = true
						}
					}
				}
				return nil
			})
		}
	}
	var errs []error
	n := 0
	if ix := t.sp.bucket(bucketLogUsers); ix != nil {
		_ = forEach(ix, func(k, _ []byte) error {
			n++
			if !want[string(k)] {
				errs = append(errs, fmt.Errorf("log index holds a stray key %x", k))
			}
			return nil
		})
	}
	if missing := len(want) - (n - len(errs)); missing > 0 {
		errs = append(errs, fmt.Errorf("log index lacks %d keys the logs imply", missing))
	}
	return errs
}
