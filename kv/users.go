package kv

import (
	"fmt"
	"math"
)

// Users returns the names of the users that have at least one fact, in the
// order of their index keys (shorter names first). It skips from one user's
// keys to the next, so it costs one seek per user, not one step per fact.
func (t *Tx) Users() ([]string, error) {
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
