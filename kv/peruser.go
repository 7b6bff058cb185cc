package kv

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The per-user layout of the file, the bbolt side of Backend: a bucket
// "peruser" holding one bucket per user (named 'u' ‖ user, so that the
// default user "" has a name), which holds the user's revision under
// keyRev and one bucket per Backend bucket. Bucket names are [a-z0-9], so
// keyRev can never be one.
//
// From format 6 it is where every user's data is kept (userspace.go): a
// store on the file reads and writes it in place, through bbolt's own
// transactions, and PerUser reads and writes the same keys as a Backend.
var (
	bucketPerUser = []byte("peruser")
	keyRev        = []byte("\x00rev")
)

// PerUser is the file as a Backend. Its commits are bbolt write
// transactions (one writer at a time, so the guard is checked where the
// write happens); its Erase is Scrub.
func (d *DB) PerUser() Backend { return perUser{d} }

type perUser struct{ d *DB }

var _ RevReader = perUser{}

func userBucketName(user string) []byte { return append([]byte{'u'}, user...) }

// Snapshot copies the user's data out of one read transaction, which may
// not outlive the call.
func (p perUser) Snapshot(ctx context.Context, user string) (Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := CheckUser(user); err != nil {
		return nil, err
	}
	var rev uint64
	var entries []Entry
	err := p.d.View(func(tx *Tx) error {
		ub := userBucket(tx.tx, user)
		if ub == nil {
			return nil
		}
		if v := ub.Get(keyRev); len(v) == 8 {
			rev = be.Uint64(v)
		}
		return ub.ForEachBucket(func(name []byte) error {
			bucket := string(name)
			return ub.Bucket(name).ForEach(func(k, v []byte) error {
				entries = append(entries, Entry{Bucket: bucket, Key: bytes.Clone(k), Value: bytes.Clone(v)})
				return nil
			})
		})
	})
	if err != nil {
		return nil, err
	}
	return NewSnapshot(rev, entries), nil
}

// Rev reads the user's revision alone (kv.RevReader): one key, where a
// snapshot copies every key of the user.
func (p perUser) Rev(ctx context.Context, user string) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := CheckUser(user); err != nil {
		return 0, err
	}
	var rev uint64
	err := p.d.View(func(tx *Tx) error {
		if ub := userBucket(tx.tx, user); ub != nil {
			if v := ub.Get(keyRev); len(v) == 8 {
				rev = be.Uint64(v)
			}
		}
		return nil
	})
	return rev, err
}

func userBucket(tx *bolt.Tx, user string) *bolt.Bucket {
	top := tx.Bucket(bucketPerUser)
	if top == nil {
		return nil
	}
	return top.Bucket(userBucketName(user))
}

func (p perUser) Commit(ctx context.Context, user string, rev uint64, ops []Op) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := CheckUser(user); err != nil {
		return 0, err
	}
	if err := CheckOps(ops); err != nil {
		return 0, err
	}
	var next uint64
	err := p.d.Update(func(tx *Tx) error {
		top, err := tx.tx.CreateBucketIfNotExists(bucketPerUser)
		if err != nil {
			return err
		}
		ub, err := top.CreateBucketIfNotExists(userBucketName(user))
		if err != nil {
			return err
		}
		var at uint64
		if v := ub.Get(keyRev); len(v) == 8 {
			at = be.Uint64(v)
		}
		if at != rev {
			return fmt.Errorf("%w: user at revision %d, the snapshot at %d", ErrConflict, at, rev)
		}
		for _, op := range ops {
			b, err := ub.CreateBucketIfNotExists([]byte(op.Bucket))
			if err != nil {
				return err
			}
			if op.Delete {
				err = b.Delete(op.Key)
			} else {
				err = b.Put(op.Key, op.Value)
			}
			if err != nil {
				return err
			}
		}
		next = at + 1
		return ub.Put(keyRev, be.AppendUint64(nil, next))
	})
	if err != nil {
		return 0, err
	}
	return next, nil
}

// Erase zeroes the pages of the file no commit reaches, where bbolt left
// the earlier versions, after marking the scrub pending in a commit of
// its own: a crash in between leaves it for the next writable Open.
func (p perUser) Erase(ctx context.Context, user string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := CheckUser(user); err != nil {
		return err
	}
	if err := p.d.Update(func(tx *Tx) error { return tx.MarkScrubPending() }); err != nil {
		return err
	}
	return p.d.Scrub()
}

func (p perUser) Users(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []string
	err := p.d.View(func(tx *Tx) error {
		top := tx.tx.Bucket(bucketPerUser)
		if top == nil {
			return nil
		}
		return top.ForEachBucket(func(name []byte) error {
			if len(name) == 0 || name[0] != 'u' {
				return fmt.Errorf("%w: per-user bucket %q", ErrCorrupt, name)
			}
			out = append(out, string(name[1:]))
			return nil
		})
	})
	return out, err
}

// Close closes the file.
func (p perUser) Close() error { return p.d.Close() }
