package userkey

import (
	"slices"
	"testing"
)

func TestKeysNameEachUsersFactsApart(t *testing.T) {
	u := Users{"", "ana", "boris"}
	seen := map[uint64]string{}
	for _, user := range u {
		for _, id := range []uint64{1, 2, 1<<40 - 1} {
			k := u.Key(user, id)
			if ID(k) != id {
				t.Errorf("ID(Key(%q, %d)) = %d", user, id, ID(k))
			}
			if other, dup := seen[k]; dup {
				t.Errorf("Key(%q, %d) = %d, also %s's", user, id, k, other)
			}
			seen[k] = user
			if !Same(k, u.Key(user, 7)) || Same(k, u.Key(u[(1+slices.Index(u, user))%len(u)], id)) {
				t.Errorf("Same does not tell %q's key %d from another user's", user, k)
			}
		}
		if k := u.Key(user, 0); k != 0 {
			t.Errorf("Key(%q, 0) = %d, want 0", user, k)
		}
	}
	// The numbers the crash harness's expected lines hold.
	if k := u.Key("", 1); k != 1099511627777 {
		t.Errorf(`Key("", 1) = %d`, k)
	}
}
