package kv

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// A user's facts bucket in format 7 keeps each fact's keys at a place of
// the file's; seen through the user's bucket, it is a bucket like any
// other. Random puts, deletes (by key and through a cursor) and walks
// (both ways, from First, Last and Seek) of two users, over many
// transactions, match a sorted map of each user's keys.
func TestPlacedFactsMatchAModel(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		b, err := bolt.Open(filepath.Join(t.TempDir(), "p.db"), 0o600, &bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		// Ids of 8 bytes with or without a log step after them, and a
		// Backend's keys of any length.
		key := func() []byte {
			switch r.IntN(4) {
			case 0:
				return []byte{byte('a' + r.IntN(3))}
			case 1:
				return idKey(uint64(r.IntN(12)))
			default:
				return eventKey(uint64(r.IntN(12)), uint32(r.IntN(5)))
			}
		}
		users := []string{"ann", "bo"}
		model := map[string]map[string]string{"ann": {}, "bo": {}}
		// The user's index entries, which keep the places beside them.
		index := map[string]map[string]string{"ann": {}, "bo": {}}
		for step := range 60 {
			user := users[r.IntN(len(users))]
			m := model[user]
			err := b.Update(func(btx *bolt.Tx) error {
				tx := newTx(btx, formatVersion)
				tx.Use(user)
				f, ix := tx.sp.bucket(bucketFacts), tx.sp.bucket(bucketUsers)
				for range r.IntN(30) {
					k := key()
					switch r.IntN(5) {
					case 3:
						uk := userKey(user, uint64(r.IntN(12)))
						index[user][string(uk)] = "s"
						if err := ix.Put(uk, []byte("s")); err != nil {
							return err
						}
					case 4:
						uk := userKey(user, uint64(r.IntN(12)))
						delete(index[user], string(uk))
						if err := ix.Delete(uk); err != nil {
							return err
						}
					case 0:
						delete(m, string(k))
						if err := f.Delete(k); err != nil {
							return err
						}
					case 1:
						// A cursor's Delete of the key Seek finds.
						c := f.Cursor()
						if ck, _ := c.Seek(k); ck != nil {
							delete(m, string(ck))
							if err := c.Delete(); err != nil {
								return err
							}
						}
					default:
						v := fmt.Sprint(step, r.IntN(100))
						m[string(k)] = v
						if err := f.Put(k, []byte(v)); err != nil {
							return err
						}
					}
				}
				// Read back in the transaction that wrote, with what it
				// learnt of the places on the way.
				checkPlaced(t, seed, step, user, f, m, key)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			_ = b.View(func(btx *bolt.Tx) error {
				for _, u := range users {
					tx := newTx(btx, formatVersion)
					tx.Use(u)
					checkPlaced(t, seed, step, u, tx.sp.bucket(bucketFacts), model[u], key)
					var got []string
					_ = forEach(tx.sp.bucket(bucketUsers), func(k, v []byte) error {
						got = append(got, string(k)+"="+string(v))
						return nil
					})
					var want []string
					for _, k := range slices.Sorted(maps.Keys(index[u])) {
						want = append(want, k+"="+index[u][k])
					}
					if !slices.Equal(got, want) {
						t.Fatalf("seed %d step %d %s: index %q, want %q", seed, step, u, got, want)
					}
				}
				return nil
			})
		}
		b.Close()
	}
}

func checkPlaced(t *testing.T, seed uint64, step int, user string, f bucket, m map[string]string, key func() []byte) {
	t.Helper()
	want := slices.Sorted(maps.Keys(m))
	var got, back []string
	c := f.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		got = append(got, string(k))
		if m[string(k)] != string(v) {
			t.Fatalf("seed %d step %d %s: %x = %q, want %q", seed, step, user, k, v, m[string(k)])
		}
	}
	for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
		back = append(back, string(k))
	}
	slices.Reverse(back)
	if !slices.Equal(got, want) || !slices.Equal(back, want) {
		t.Fatalf("seed %d step %d %s: forward %x, backward %x, want %x", seed, step, user, got, back, want)
	}
	// A place for each fact with a key, and none left behind.
	groups := map[string]bool{}
	for _, k := range want {
		id, _ := group([]byte(k))
		groups[string(id)] = true
	}
	places := 0
	pb := f.(*placedBucket)
	pc := pb.index.Cursor()
	for k, v := pc.First(); k != nil; k, v = pc.Next() {
		g := k[len(pb.prefix):]
		switch {
		case placeOf(v) == 0 && !present(v):
			t.Fatalf("seed %d step %d %s: an entry %x with no place and not present", seed, step, user, k)
		case placeOf(v) == 0:
		case !groups[string(g)] && !present(v):
			t.Fatalf("seed %d step %d %s: a place kept for %x, which has no key", seed, step, user, g)
		case groups[string(g)]:
			places++
		}
	}
	if places != len(groups) {
		t.Fatalf("seed %d step %d %s: %d places for %d facts", seed, step, user, places, len(groups))
	}
	// The last log entry of each fact, as Append finds it.
	for id := range uint64(12) {
		var last string
		for _, k := range want {
			if len(k) == eventKeyLen && be.Uint64([]byte(k)) == id {
				last = k
			}
		}
		if k, v := pb.lastOf(id); string(k) != last || (k != nil && string(v) != m[last]) {
			t.Fatalf("seed %d step %d %s: last log entry of %d: %x, want %x", seed, step, user, id, k, last)
		}
	}
	for _, k := range want {
		if string(f.Get([]byte(k))) != m[k] {
			t.Fatalf("seed %d step %d %s: Get %x", seed, step, user, k)
		}
	}
	for range 10 {
		s := key()
		i, _ := slices.BinarySearchFunc(want, s, func(a string, b []byte) int { return bytes.Compare([]byte(a), b) })
		k, _ := c.Seek(s)
		if i == len(want) {
			if k != nil {
				t.Fatalf("seed %d step %d %s: Seek %x = %x, want the end", seed, step, user, s, k)
			}
			continue
		}
		if string(k) != want[i] {
			t.Fatalf("seed %d step %d %s: Seek %x = %x, want %x", seed, step, user, s, k, want[i])
		}
		// From a Seek both ways: one cursor, Seek then Next, another,
		// Seek then Prev.
		if nk, _ := c.Next(); (i+1 == len(want)) != (nk == nil) || (i+1 < len(want) && string(nk) != want[i+1]) {
			t.Fatalf("seed %d step %d %s: Next after Seek %x = %x", seed, step, user, s, nk)
		}
		c2 := f.Cursor()
		c2.Seek(s)
		pk, _ := c2.Prev()
		if (i == 0) != (pk == nil) || (i > 0 && string(pk) != want[i-1]) {
			t.Fatalf("seed %d step %d %s: Prev after Seek %x = %x", seed, step, user, s, pk)
		}
	}
}

// Check finds what no user's check can: keys at a place no fact names,
// a place two facts name, an index entry that holds nothing.
func TestCheckFindsDamagedPlaces(t *testing.T) {
	for name, tc := range map[string]struct {
		damage func(tx *bolt.Tx) error
		want   string
	}{
		"keys at no fact's place": {func(tx *bolt.Tx) error {
			recs, _ := flatRoot(tx, bucketRecords, false)
			return recs.Put(placeKey(999, nil), []byte("x"))
		}, "are no fact's"},
		"a place of two facts": {func(tx *bolt.Tx) error {
			ix, _ := flatRoot(tx, bucketUsers, false)
			return ix.Put(append(userPrefix("ann"), userKey("ann", 77)...), indexEntry(1, true, []byte{userCurrent}))
		}, "of two facts"},
		"an empty index entry": {func(tx *bolt.Tx) error {
			ix, _ := flatRoot(tx, bucketUsers, false)
			return ix.Put(append(userPrefix("ann"), userKey("ann", 78)...), indexEntry(0, false, nil))
		}, "neither a place"},
	} {
		t.Run(name, func(t *testing.T) {
			db := openTest(t)
			seed(t, db)
			if err := db.Check(); err != nil {
				t.Fatalf("before the damage: %v", err)
			}
			if err := db.bolt.Update(tc.damage); err != nil {
				t.Fatal(err)
			}
			if err := db.Check(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check: %v, want ErrCorrupt and %q", err, tc.want)
			}
		})
	}
}
