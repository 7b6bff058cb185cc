package kv

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func perUserFile(t *testing.T) (Backend, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	b := db.PerUser()
	t.Cleanup(func() { _ = b.Close() })
	return b, path
}

// addFact is a fact's write as package memory makes it: an id, the
// record, its first log entry.
func addFact(t *Tx, user, text string) (uint64, error) {
	id, err := t.NextID()
	if err != nil {
		return 0, err
	}
	r := &Record{ID: id, User: user, Text: text, RecordedAt: int64(id)}
	if err := t.Put(r); err != nil {
		return 0, err
	}
	return id, t.Append(id, &Event{At: int64(id), Kind: Recorded})
}

// Over a Backend a Tx is one user's: ids start at 1 for each user, records
// and their logs read back, the per-user index lists them, and a view
// cannot write.
func TestUserTxIsOneUsers(t *testing.T) {
	ctx := context.Background()
	b, _ := perUserFile(t)
	ids := map[string][]uint64{}
	for _, user := range []string{"ada", "bob", "ada", ""} {
		_, err := UpdateUser(ctx, b, user, nil, func(tx *Tx) error {
			id, err := addFact(tx, user, user+"'s fact")
			ids[user] = append(ids[user], id)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(ids["ada"], []uint64{1, 2}) || !slices.Equal(ids["bob"], []uint64{1}) || !slices.Equal(ids[""], []uint64{1}) {
		t.Fatalf("ids %v: each user's start at 1", ids)
	}
	err := ViewUser(ctx, b, "ada", nil, func(tx *Tx) error {
		r, err := tx.Get(2)
		if err != nil || r.Text != "ada's fact" || r.User != "ada" {
			t.Errorf("Get(2) = %+v, %v", r, err)
		}
		if ev, err := tx.Events(2); err != nil || len(ev) != 1 {
			t.Errorf("Events(2) = %v, %v", ev, err)
		}
		var got []uint64
		if err := tx.UserIDs("ada", false, func(id uint64, _ bool) error { got = append(got, id); return nil }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, []uint64{1, 2}) {
			t.Errorf("UserIDs = %v", got)
		}
		if _, err := addFact(tx, "ada", "in a view"); !errors.Is(err, ErrReadOnly) {
			t.Errorf("a write in a view: %v, want ErrReadOnly", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	users, err := b.Users(ctx)
	if err != nil || !slices.Equal(users, []string{"", "ada", "bob"}) {
		t.Fatalf("Users = %q, %v", users, err)
	}
}

// Writers of one user meet at the guard and run again: every fact gets an
// id of its own, none is lost.
func TestUserTxWritersOfOneUserTakeTurns(t *testing.T) {
	ctx := context.Background()
	b, _ := perUserFile(t)
	const writers, each = 4, 5
	var wg sync.WaitGroup
	var mu sync.Mutex
	var got []uint64
	for range writers {
		wg.Go(func() {
			for range each {
				var id uint64
				_, err := UpdateUser(ctx, b, "ada", nil, func(tx *Tx) (err error) {
					id, err = addFact(tx, "ada", "a fact")
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				got = append(got, id)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(got)
	if len(got) != writers*each || slices.Compact(slices.Clone(got))[len(got)-1] != uint64(writers*each) || len(slices.Compact(slices.Clone(got))) != writers*each {
		t.Fatalf("ids %v: want 1 to %d once each", got, writers*each)
	}
	n := 0
	_ = ViewUser(ctx, b, "ada", nil, func(tx *Tx) error {
		return tx.UserIDs("ada", false, func(uint64, bool) error { n++; return nil })
	})
	if n != writers*each {
		t.Fatalf("%d facts stored, want %d", n, writers*each)
	}
}

// A hard delete over a Backend erases: the record's text is in no file of
// the store once UpdateUser returns.
func TestUserTxDeleteErases(t *testing.T) {
	ctx := context.Background()
	b, path := perUserFile(t)
	const secret = "my-passport-number-X1234567-"
	var id uint64
	if _, err := UpdateUser(ctx, b, "ada", nil, func(tx *Tx) (err error) {
		id, err = addFact(tx, "ada", secret+string(make([]byte, 9000)))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := UpdateUser(ctx, b, "ada", nil, func(tx *Tx) error {
		if err := tx.Delete(id); err != nil {
			return err
		}
		return tx.MarkScrubPending()
	}); err != nil {
		t.Fatal(err)
	}
	if err := ViewUser(ctx, b, "ada", nil, func(tx *Tx) error {
		if tx.Has(id) {
			t.Error("the deleted record is still there")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if holds, err := fileHolds(path, secret); err != nil || holds {
		t.Fatalf("the file still holds the deleted text (%v)", err)
	}
}

func fileHolds(path, text string) (bool, error) {
	b, err := os.ReadFile(path)
	return bytes.Contains(b, []byte(text)), err
}
