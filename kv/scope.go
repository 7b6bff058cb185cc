package kv

import (
	"errors"
	"fmt"
)

// ErrOtherUser: a write scoped to one user (Tx.Scope) changed data of
// another. It is a fault of the program that wrote, never of the file.
var ErrOtherUser = errors.New("changed another user's data")

// scope is the user a transaction's writes are for, while one is set.
type scope struct {
	on   bool
	user string
	err  error // the first change of another user's data
}

// Scope makes what the transaction writes from now on, until EndScope, the
// writes of user alone: a change to another user's record, log, index
// entry, conflict, merge, decision or embedding is noted, and EndScope
// returns it. One transaction may hold several users' writes one scope
// after another (the group commit); a backend that stores each user apart
// needs every write to say whose it is.
//
// In a file that keeps users apart, Scope also makes the buckets user's
// (Use).
func (t *Tx) Scope(user string) {
	t.scope = scope{on: true, user: user}
	t.Use(user)
}

// EndScope ends the scope Scope set and returns nil, or an error wrapping
// ErrOtherUser naming the first change it saw to another user's data. The
// writes stay in the transaction: the caller fails it.
func (t *Tx) EndScope() error {
	err := t.scope.err
	t.scope = scope{}
	return err
}

// foreign reports whether a change to user's data breaks the scope, and
// not yet noted.
func (t *Tx) foreign(user string) bool {
	return t.scope.on && t.scope.err == nil && user != t.scope.user
}

// noteForeign notes a change to what, of user's, under another's scope.
func (t *Tx) noteForeign(user, what string) {
	t.scope.err = fmt.Errorf("%w: the write for user %q changed %s of user %q", ErrOtherUser, t.scope.user, what, user)
}

// factInScope checks, under a scope, that fact id is user's.
func (t *Tx) factInScope(id uint64, user string) {
	if t.foreign(user) {
		t.noteForeign(user, fmt.Sprintf("fact %d", id))
	}
}

// ownerInScope checks, under a scope, that the value of a blob bucket
// (unsealed body, nil for none) belongs to the scope's user, as far as
// Options.LogOwner tells (a value that does not say is not checked).
func (t *Tx) ownerInScope(bucket []byte, id uint64, body []byte) {
	if !t.scope.on || body == nil || t.owner == nil {
		return
	}
	if user, ok := t.owner(bucket, body); ok && t.foreign(user) {
		t.noteForeign(user, fmt.Sprintf("entry %d of %s", id, bucket))
	}
}
