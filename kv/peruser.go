package kv

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The per-user layout of the file, the bbolt side of Backend: a bucket
// "peruser" holding one bucket per user (named 'u' ‖ user, so that the
// default user "" has a name), which holds the user's revision under
// keyRev and one bucket per Backend bucket. Bucket names are [a-z0-9], so
// keyRev can never be one.
//
// Format 6 kept every user's data that way (userspace.go). From format 7
// the same keys are in buckets every user shares, behind each user's
// prefix (byuser.go): a store on the file reads and writes them in place,
// through bbolt's own transactions, and PerUser reads and writes the same
// keys as a Backend.
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
		tx.Use(user)
		sp, ok := tx.sp.(*userSpace)
		if !ok {
			return fmt.Errorf("%w: a file of format %d keeps no user apart", errors.ErrUnsupported, p.d.format)
		}
		rev = sp.rev()
		return sp.eachBucket(func(name []byte, b bucket) error {
			c := b.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				entries = append(entries, Entry{Bucket: string(name), Key: bytes.Clone(k), Value: bytes.Clone(v)})
			}
			return nil
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
		tx.Use(user)
		if sp, ok := tx.sp.(*userSpace); ok {
			rev = sp.rev()
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
		if at := flatRev(tx.tx, user); at != rev {
			return fmt.Errorf("%w: user at revision %d, the snapshot at %d", ErrConflict, at, rev)
		}
		tx.Use(user)
		for _, op := range ops {
			b := tx.sp.bucket([]byte(op.Bucket))
			var err error
			if op.Delete {
				err = b.Delete(op.Key)
			} else {
				err = b.Put(op.Key, op.Value)
			}
			if err != nil {
				return err
			}
		}
		next = rev + 1
		return setFlatRev(tx.tx, user, next)
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
		var err error
		out, err = tx.usersWithData()
		return err
	})
	return out, err
}

// Close closes the file.
func (p perUser) Close() error { return p.d.Close() }
