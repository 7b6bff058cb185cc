package kv

import (
	"errors"
	"fmt"
	"testing"
)

// Under a scope, a change to another user's data is noted, by each path
// that names a user; the scope's own user's changes, and changes with no
// scope set, are not. Another user's facts cannot even be reached by id:
// the buckets in use are the scope's user's.
func TestScopeNotesAnotherUsersChanges(t *testing.T) {
	db := openTest(t)
	seed(t, db) // ann: 1, 2; bob: 3
	for name, write := range map[string]func(tx *Tx) error{
		"put bob's record": func(tx *Tx) error {
			return tx.Put(&Record{ID: 3, User: "bob", Text: "I like coffee.", RecordedAt: 4})
		},
		"touch user": func(tx *Tx) error { tx.TouchUser("bob"); return nil },
		"touch log":  func(tx *Tx) error { tx.TouchLog("bob"); return nil },
	} {
		t.Run(name, func(t *testing.T) {
			rollback := errors.New("rollback")
			err := db.Update(func(tx *Tx) error {
				tx.Scope("ann")
				if err := tx.Append(1, &Event{Kind: Pinned, At: 4}); err != nil {
					return err
				}
				if err := write(tx); err != nil {
					return err
				}
				if err := tx.EndScope(); !errors.Is(err, ErrOtherUser) {
					t.Errorf("EndScope after a change of bob's under ann's scope: %v, want ErrOtherUser", err)
				}
				if err := tx.EndScope(); err != nil {
					t.Errorf("a second EndScope: %v, want nil", err)
				}
				return rollback
			})
			if !errors.Is(err, rollback) {
				t.Fatal(err)
			}
		})
	}
	for name, write := range map[string]func(tx *Tx) error{
		"get":               func(tx *Tx) error { _, err := tx.Get(3); return err },
		"append":            func(tx *Tx) error { return tx.Append(3, &Event{Kind: Pinned, At: 4}) },
		"delete":            func(tx *Tx) error { return tx.Delete(3) },
		"put vector":        func(tx *Tx) error { return tx.PutVector(3, []float32{1}) },
		"vector of no fact": func(tx *Tx) error { return tx.PutVector(99, []float32{1}) },
	} {
		t.Run(name, func(t *testing.T) {
			err := db.Update(func(tx *Tx) error {
				tx.Scope("ann")
				err := errors.Join(write(tx), tx.EndScope())
				if !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrOtherUser) {
					t.Errorf("bob's fact 3 under ann's scope: %v, want ErrNotFound or ErrOtherUser", err)
				}
				return err
			})
			if err == nil {
				t.Fatal("the write went in")
			}
		})
	}
	if err := db.View(func(tx *Tx) error {
		tx.Use("bob")
		r, err := tx.Get(3)
		if err == nil && r.Text != "I like tea." {
			err = fmt.Errorf("bob's fact reads %q", r.Text)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// Changes of the scope's own user, and changes with no scope, are noted by
// nobody; a scope after EndScope starts clean.
func TestScopeOwnAndUnscopedChanges(t *testing.T) {
	db := openTest(t)
	seed(t, db)
	err := db.Update(func(tx *Tx) error {
		tx.Scope("bob")
		if err := tx.Append(3, &Event{Kind: Pinned, At: 4}); err != nil {
			return err
		}
		tx.TouchUser("bob")
		if err := tx.PutVector(3, []float32{1}); err != nil {
			return err
		}
		if err := tx.EndScope(); err != nil {
			t.Errorf("bob's own changes under his scope: %v", err)
		}
		tx.Use("ann")
		if err := tx.Append(1, &Event{Kind: Pinned, At: 4}); err != nil {
			return err
		}
		tx.Scope("ann")
		if err := tx.Append(1, &Event{Kind: Unpinned, At: 5}); err != nil {
			return err
		}
		return tx.EndScope()
	})
	if err != nil {
		t.Fatal(err)
	}
}
