package kv

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Users returns the names of the users that have at least one fact, in the
// order of their index keys (shorter names first). It skips from one user's
// keys to the next, so it costs one seek per user, not one step per fact.
func (t *Tx) Users() ([]string, error) {
	if t.perUser {
		return t.fileUsers()
	}
	var out []string
	c := t.users.Cursor()
	for k, _ := c.First(); k != nil; {
		n := int(k[0])
		if len(k) != 1+n+8 {
			return out, fmt.Errorf("%w: user index key %x", ErrCorrupt, k)
		}
		user := string(k[1 : 1+n])
		out = append(out, user)
		// Past every id of this user: its key of the largest id, then one
		// byte more.
		k, _ = c.Seek(append(userKey(user, math.MaxUint64), 0))
	}
	return out, nil
}

// fileUsers is Users in a file that keeps users apart: the users whose
// index holds a fact, in the same order.
func (t *Tx) fileUsers() ([]string, error) {
	all, err := t.usersWithData()
	out := all[:0]
	for _, u := range all {
		if t.hasIndexed(u) {
			out = append(out, u)
		}
	}
	return out, err
}

// hasIndexed reports whether user's index holds a fact.
func (t *Tx) hasIndexed(user string) bool {
	if !t.nested {
		// The entries as stored, present ones only: no view of the user's.
		raw := &flatBucket{s: &userSpace{t: t, user: user}, name: bucketUsers, prefix: userPrefix(user)}
		k, _ := (&indexCursor{c: raw.Cursor()}).First()
		return k != nil
	}
	if ix := userBucket(t.tx, user).Bucket(bucketUsers); ix != nil {
		k, _ := ix.Cursor().First()
		return k != nil
	}
	return false
}

// usersWithData lists the users a file that keeps users apart holds any
// data of (facts, or only logs), in the order of Users.
func (t *Tx) usersWithData() ([]string, error) {
	var out []string
	if !t.nested {
		err := flatUsers(t.tx, func(u string) error { out = append(out, u); return nil })
		return out, err
	}
	top := t.tx.Bucket(bucketPerUser)
	if top == nil {
		return nil, nil
	}
	err := top.ForEachBucket(func(name []byte) error {
		if len(name) == 0 || name[0] != 'u' || len(name)-1 > MaxUserLen {
			return fmt.Errorf("%w: per-user bucket %q", ErrCorrupt, name)
		}
		out = append(out, string(name[1:]))
		return nil
	})
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b)) })
	return out, err
}
