package jetstream

import (
	"sync"

	"github.com/palimpsest-mem/memory/kv"
)

// viewCache keeps the last view of recently read users: a view at the
// revision the leader reports is the user's data, so a snapshot costs one
// read of the head while nobody else writes. Bounded, with an arbitrary
// entry dropped when full.
type viewCache struct {
	mu    sync.Mutex
	max   int
	views map[string]kv.Snapshot // made by kv.NewSnapshot
}

func (c *viewCache) get(user string, rev uint64) kv.Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v := c.views[user]; v != nil && v.Rev() == rev {
		return v
	}
	return nil
}

func (c *viewCache) put(user string, v kv.Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.views[user]; old != nil && old.Rev() >= v.Rev() {
		return
	}
	if _, ok := c.views[user]; !ok && len(c.views) >= c.max {
		for u := range c.views {
			delete(c.views, u)
			break
		}
	}
	c.views[user] = v
}

// committed records that ops took user from rev to newRev.
func (c *viewCache) committed(user string, rev, newRev uint64, ops []kv.Op) {
	if v := c.get(user, rev); v != nil {
		if next, ok := kv.Applied(v, newRev, ops); ok {
			c.put(user, next)
		}
	}
}
