package kv

import (
	"bytes"

	bolt "go.etcd.io/bbolt"
)

// From format 6 the file keeps each user's data apart: ids and counters
// are each user's own, as on a cluster, and the record, log, index and
// blob code runs unchanged on a userSpace, the buckets of one user inside
// the file's transaction. Format 7, the current one, keeps them in
// buckets every user shares (byuser.go, places.go); format 6 gave each
// user buckets of their own, the bucket "peruser" holding a bucket per
// user, which holds that user's buckets, their sequences under bucketSeqs
// and the user's revision: a file of format 6 is read that way until a
// writable Open moves it (upgrade6.go), by userFileBucket below.
//
// A userSpace's buckets are found, and made, at their first use: a read
// of a user with no data sees empty buckets, and only a write creates
// anything, so a transaction that reads a user leaves the file as it was.
type userSpace struct {
	t    *Tx
	user string
	ub   *bolt.Bucket // the user's bucket, nil until found or made
	// views are the user's buckets used so far in the transaction, kept
	// for what they found (format 7).
	views map[string]bucket
}

func (s *userSpace) root(create bool) (*bolt.Bucket, error) {
	if s.ub != nil {
		return s.ub, nil
	}
	if !create {
		s.ub = userBucket(s.t.tx, s.user)
		return s.ub, nil
	}
	top, err := s.t.tx.CreateBucketIfNotExists(bucketPerUser)
	if err != nil {
		return nil, err
	}
	if s.ub, err = top.CreateBucketIfNotExists(userBucketName(s.user)); err != nil {
		return nil, err
	}
	return s.ub, nil
}

func (s *userSpace) bucket(name []byte) bucket {
	if s.t.nested {
		return &userFileBucket{s: s, name: name}
	}
	if b, ok := s.views[string(name)]; ok {
		return b
	}
	var b bucket
	switch string(name) {
	case string(bucketFacts):
		b = newPlacedBucket(s)
	case string(bucketUsers):
		b = newIndexBucket(s)
	case bucketSeqs:
		b = seqsOf(s, userPrefix(s.user))
	default:
		b = &flatBucket{s: s, name: name, prefix: userPrefix(s.user)}
	}
	if s.views == nil {
		s.views = map[string]bucket{}
	}
	s.views[string(name)] = b
	return b
}

func (s *userSpace) createBucket(name []byte) (bucket, error) {
	if !s.writable() {
		return nil, ErrReadOnly
	}
	return s.bucket(name), nil
}

// rev is the user's revision: 0 until the user's first write.
func (s *userSpace) rev() uint64 {
	if !s.t.nested {
		return flatRev(s.t.tx, s.user)
	}
	if ub, _ := s.root(false); ub != nil {
		if v := ub.Get(keyRev); len(v) == 8 {
			return be.Uint64(v)
		}
	}
	return 0
}

// eachBucket calls fn with each of the user's buckets the file holds
// (some may hold none of the user's keys).
func (s *userSpace) eachBucket(fn func(name []byte, b bucket) error) error {
	if s.t.nested {
		ub, _ := s.root(false)
		if ub == nil {
			return nil
		}
		return ub.ForEachBucket(func(name []byte) error { return fn(name, s.bucket(name)) })
	}
	return s.t.tx.ForEach(func(full []byte, _ *bolt.Bucket) error {
		name, ok := bytes.CutPrefix(full, bucketByUser)
		switch {
		case !ok:
			return nil
		case string(name) == string(bucketRecords):
			name = bucketFacts
		case string(name) == string(bucketRevs):
			name = []byte(bucketSeqs) // the counters beside the revisions
		case len(name) == 0 || name[0] == 0: // the file's, not a bucket of the user's
			return nil
		}
		return fn(name, s.bucket(name))
	})
}

func (s *userSpace) writable() bool { return s.t.tx.Writable() }

// wrote notes a write of the user's data: the first one in a transaction
// moves the user's revision on, as a PerUser commit does, so that a
// snapshot taken before is told from the data after.
func (s *userSpace) wrote() error {
	if s.t.revved[s.user] {
		return nil
	}
	if s.t.nested {
		if err := s.wroteNested(); err != nil {
			return err
		}
	} else if err := setFlatRev(s.t.tx, s.user, flatRev(s.t.tx, s.user)+1); err != nil {
		return err
	}
	if s.t.revved == nil {
		s.t.revved = map[string]bool{}
	}
	s.t.revved[s.user] = true
	return nil
}

func (s *userSpace) wroteNested() error {
	ub, err := s.root(true)
	if err != nil {
		return err
	}
	var rev uint64
	if v := ub.Get(keyRev); len(v) == 8 {
		rev = be.Uint64(v)
	}
	return ub.Put(keyRev, be.AppendUint64(nil, rev+1))
}

// userFileBucket is a bucket of a user in a file of format 6, found or
// made at its first use.
type userFileBucket struct {
	s    *userSpace
	name []byte
	b    *bolt.Bucket
}

func (b *userFileBucket) find() *bolt.Bucket {
	if b.b == nil {
		if ub, _ := b.s.root(false); ub != nil {
			b.use(ub.Bucket(b.name))
		}
	}
	return b.b
}

// use keeps bb as the bucket, which for the facts splits its pages full:
// ids only grow, so records are appended.
func (b *userFileBucket) use(bb *bolt.Bucket) {
	if b.b = bb; bb != nil && string(b.name) == string(bucketFacts) {
		bb.FillPercent = factsFillPercent
	}
}

func (b *userFileBucket) make() (*bolt.Bucket, error) {
	if !b.s.writable() {
		return nil, ErrReadOnly
	}
	if err := b.s.wrote(); err != nil {
		return nil, err
	}
	if b.find() != nil {
		return b.b, nil
	}
	ub, err := b.s.root(true)
	if err != nil {
		return nil, err
	}
	bb, err := ub.CreateBucketIfNotExists(b.name)
	if err != nil {
		return nil, err
	}
	b.use(bb)
	return b.b, nil
}

func (b *userFileBucket) Get(key []byte) []byte {
	if bb := b.find(); bb != nil {
		return bb.Get(key)
	}
	return nil
}

func (b *userFileBucket) Put(key, value []byte) error {
	bb, err := b.make()
	if err != nil {
		return err
	}
	return bb.Put(key, value)
}

func (b *userFileBucket) Delete(key []byte) error {
	if b.find() == nil {
		return nil
	}
	bb, err := b.make()
	if err != nil {
		return err
	}
	return bb.Delete(key)
}

func (b *userFileBucket) Cursor() cursor {
	if bb := b.find(); bb != nil {
		return &userFileCursor{b: b, c: bb.Cursor()}
	}
	return &userFileCursor{b: b}
}

// The sequences live in the user's bucketSeqs, a key per bucket, where
// an overlay keeps them too: bbolt's own would be lost on PerUser's side.
func (b *userFileBucket) Sequence() uint64 {
	ub, _ := b.s.root(false)
	if ub == nil {
		return 0
	}
	if seqs := ub.Bucket([]byte(bucketSeqs)); seqs != nil {
		if v := seqs.Get(b.name); len(v) == 8 {
			return be.Uint64(v)
		}
	}
	return 0
}

func (b *userFileBucket) SetSequence(v uint64) error {
	if !b.s.writable() {
		return ErrReadOnly
	}
	if err := b.s.wrote(); err != nil {
		return err
	}
	ub, err := b.s.root(true)
	if err != nil {
		return err
	}
	seqs, err := ub.CreateBucketIfNotExists([]byte(bucketSeqs))
	if err != nil {
		return err
	}
	return seqs.Put(b.name, be.AppendUint64(nil, v))
}

func (b *userFileBucket) NextSequence() (uint64, error) {
	v := b.Sequence() + 1
	return v, b.SetSequence(v)
}

// userFileCursor is a cursor of a user's bucket; of a bucket not made
// yet, it is at the end.
type userFileCursor struct {
	b *userFileBucket
	c *bolt.Cursor
}

func (c *userFileCursor) First() ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.c.First()
}

func (c *userFileCursor) Last() ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.c.Last()
}

func (c *userFileCursor) Seek(k []byte) ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.c.Seek(k)
}

func (c *userFileCursor) Next() ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.c.Next()
}

func (c *userFileCursor) Prev() ([]byte, []byte) {
	if c.c == nil {
		return nil, nil
	}
	return c.c.Prev()
}

func (c *userFileCursor) Delete() error {
	if c.c == nil {
		return nil
	}
	if err := c.b.s.wrote(); err != nil {
		return err
	}
	return c.c.Delete()
}
