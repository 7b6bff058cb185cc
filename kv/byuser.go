package kv

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// From format 7 the file keeps every user's data in the same few
// buckets, each user's keys behind the user's prefix (userPrefix: length
// ‖ name, so that no user's prefix starts another's):
//
//	byuser/<bucket>    prefix ‖ key -> value, for each bucket of a user
//	                   (logs, vectors)
//	byuser/users       the index, each entry with a fact's place
//	byuser/\x00records the facts' keys, at their places (places.go)
//	byuser/\x00rev     prefix -> the user's revision (8 bytes), which
//	                   every user with data has, and prefix ‖ "s" ‖ name
//	                   -> the counter of the user's bucket name (what a
//	                   Backend keeps in its bucket "seqs"): a commit
//	                   writes both, and so one page for them
//
// These are buckets of the file's root, named "byuser/" ‖ bucket.
//
// Format 6 gave each user buckets of their own (userspace.go). A commit
// of the group-commit pipeline writes for many users at once, and there
// every user's buckets were pages of their own: a commit of 64 users
// wrote 4 to 5 pages a user where format 5 wrote about one (kv's
// BenchmarkDurableCommit), and 64 writers of 64 users added facts at 0.7
// of format 5's rate. Here the users of a commit share pages as they did
// in format 5, and a user's keys stay one range of each bucket, read and
// scanned as a bucket of its own.
var (
	bucketByUser = []byte("byuser/")
	bucketRevs   = keyRev // a name no Backend bucket can have ([a-z0-9])
)

// flatRoot returns the shared bucket name (byuser/name), made if create.
// The buckets are of the file's root, where every commit writes anyway:
// one bucket holding them would be one more page a commit.
func flatRoot(tx *bolt.Tx, name []byte, create bool) (*bolt.Bucket, error) {
	full := append(append(make([]byte, 0, len(bucketByUser)+len(name)), bucketByUser...), name...)
	if !create {
		return tx.Bucket(full), nil
	}
	return tx.CreateBucketIfNotExists(full)
}

// flatRev is user's revision in format 7 (0: the user has no data).
func flatRev(tx *bolt.Tx, user string) uint64 {
	if revs, _ := flatRoot(tx, bucketRevs, false); revs != nil {
		if v := revs.Get(userPrefix(user)); len(v) == 8 {
			return be.Uint64(v)
		}
	}
	return 0
}

func setFlatRev(tx *bolt.Tx, user string, rev uint64) error {
	revs, err := flatRoot(tx, bucketRevs, true)
	if err != nil {
		return err
	}
	return revs.Put(userPrefix(user), be.AppendUint64(nil, rev))
}

// flatUsers calls fn with each user that has data, in the order of their
// prefixes (shorter names first).
func flatUsers(tx *bolt.Tx, fn func(user string) error) error {
	revs, _ := flatRoot(tx, bucketRevs, false)
	if revs == nil {
		return nil
	}
	return revs.ForEach(func(k, _ []byte) error {
		switch {
		case len(k) > 0 && int(k[0]) == len(k)-1:
			return fn(string(k[1:]))
		case len(k) > 0 && int(k[0]) < len(k)-2 && k[1+k[0]] == seqsTag:
			return nil // a counter of the user before it
		}
		return fmt.Errorf("%w: user revision key %x", ErrCorrupt, k)
	})
}

// flatBucket is bucket name of one user in format 7: the user's range of
// byuser/name, found or made at its first use.
type flatBucket struct {
	s      *userSpace
	name   []byte
	prefix []byte
	b      *bolt.Bucket
	// seen, if not nil, keeps the values read and written in the
	// transaction (nil: none), for a bucket read again key by key (the
	// index, places.go).
	seen map[string][]byte
	ctr  *flatBucket // the user's counters, once used
}

func (b *flatBucket) find() *bolt.Bucket {
	if b.b == nil {
		b.b, _ = flatRoot(b.s.t.tx, b.name, false)
	}
	return b.b
}

func (b *flatBucket) make() (*bolt.Bucket, error) {
	if !b.s.writable() {
		return nil, ErrReadOnly
	}
	if err := b.s.wrote(); err != nil {
		return nil, err
	}
	if b.find() != nil {
		return b.b, nil
	}
	bb, err := flatRoot(b.s.t.tx, b.name, true)
	if err != nil {
		return nil, err
	}
	b.b = bb
	return bb, nil
}

func (b *flatBucket) key(k []byte) []byte {
	return append(append(make([]byte, 0, len(b.prefix)+len(k)), b.prefix...), k...)
}

func (b *flatBucket) Get(key []byte) []byte {
	if v, ok := b.seen[string(key)]; ok {
		return v
	}
	var v []byte
	if bb := b.find(); bb != nil {
		v = bb.Get(b.key(key))
	}
	if b.seen != nil {
		b.seen[string(key)] = bytes.Clone(v)
	}
	return v
}

func (b *flatBucket) Put(key, value []byte) error {
	bb, err := b.make()
	if err != nil {
		return err
	}
	if b.seen != nil {
		b.seen[string(key)] = value
	}
	return bb.Put(b.key(key), value)
}

func (b *flatBucket) Delete(key []byte) error {
	if b.find() == nil {
		return nil
	}
	bb, err := b.make()
	if err != nil {
		return err
	}
	if b.seen != nil {
		b.seen[string(key)] = nil
	}
	return bb.Delete(b.key(key))
}

func (b *flatBucket) Cursor() cursor {
	c := &flatCursor{b: b}
	if bb := b.find(); bb != nil {
		c.c = bb.Cursor()
	}
	return c
}

func (b *flatBucket) seqs() *flatBucket {
	if b.ctr == nil {
		b.ctr = seqsOf(b.s, b.prefix)
	}
	return b.ctr
}

// seqsTag follows a user's prefix in the keys of the user's counters,
// beside the user's revision (the prefix alone).
const seqsTag = 's'

// seqsOf is the user's bucket of counters (bucketSeqs), a key per bucket,
// kept beside the user's revision.
func seqsOf(s *userSpace, prefix []byte) *flatBucket {
	return &flatBucket{s: s, name: bucketRevs, prefix: append(bytes.Clone(prefix), seqsTag)}
}

func (b *flatBucket) Sequence() uint64 {
	if v := b.seqs().Get(b.name); len(v) == 8 {
		return be.Uint64(v)
	}
	return 0
}

func (b *flatBucket) SetSequence(v uint64) error {
	return b.seqs().Put(b.name, be.AppendUint64(nil, v))
}

func (b *flatBucket) NextSequence() (uint64, error) {
	v := b.Sequence() + 1
	return v, b.SetSequence(v)
}

// flatCursor walks one user's range of a bucket, its keys without the
// prefix; of a bucket not made yet, it is at the end.
type flatCursor struct {
	b *flatBucket
	c *bolt.Cursor
}

func (c *flatCursor) in(k, v []byte) ([]byte, []byte) {
	if k == nil || !bytes.HasPrefix(k, c.b.prefix) {
		return nil, nil
	}
	return k[len(c.b.prefix):], v
}

func (c *flatCursor) First() ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.in(c.c.Seek(c.b.prefix))
}

// Last is the key before the first one past the range, which starts at
// the prefix with its last byte below 0xff one more and the bytes after
// it cut (nil when every byte is 0xff: the range ends the bucket).
func (c *flatCursor) Last() ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	past := bytes.Clone(c.b.prefix)
	for len(past) > 0 && past[len(past)-1] == 0xff {
		past = past[:len(past)-1]
	}
	if len(past) > 0 {
		past[len(past)-1]++
	}
	if k, _ := c.c.Seek(past); k == nil || len(past) == 0 {
		return c.in(c.c.Last())
	}
	return c.in(c.c.Prev())
}

func (c *flatCursor) Seek(k []byte) ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.in(c.c.Seek(c.b.key(k)))
}

func (c *flatCursor) Next() ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.in(c.c.Next())
}

func (c *flatCursor) Prev() ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.in(c.c.Prev())
}

func (c *flatCursor) Delete() error {
	if c.c == nil {
		return nil
	}
	if err := c.b.s.wrote(); err != nil {
		return err
	}
	clear(c.b.seen) // the key the cursor is on is not kept: forget them all
	return c.c.Delete()
}
