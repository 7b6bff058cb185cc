// Package userkey names a fact of one of a fixed list of users by one
// number, for the tests and harnesses that keep every user's facts in one
// map: the store's ids are each user's own (file format 6 on, and on a
// cluster), so an id alone does not name a fact. It imports nothing of
// the project.
package userkey

import "slices"

// shift puts the user's place in the list, counted from 1, above a store
// id, which stays below 2^40.
const shift = 40

// Users is the list of users keys are made for.
type Users []string

// Key is the key of user's id; id 0 (no fact) stays 0.
func (u Users) Key(user string, id uint64) uint64 {
	if id == 0 {
		return 0
	}
	return uint64(slices.Index(u, user)+1)<<shift | id
}

// ID is the store's id of the fact key names.
func ID(key uint64) uint64 { return key & (1<<shift - 1) }

// Same reports whether keys a and b name facts of one user.
func Same(a, b uint64) bool { return a>>shift == b>>shift }
