package memory

import (
	"maps"
	"slices"
	"sync"
)

// listCache keeps users' decoded lists, timelines and graphs between
// writes, so that an assistant asking for the current facts again and
// again does not decode them each time. A commit makes stale only what it
// changed: the entries of the users it touched. A user's timeline and
// graph are kept beside as a base with the ids of the facts changed
// since, so the next read re-reads those facts only (see patch).
//
// Every commit bumps a generation counter and records it against each
// user it touched; a value read under an older generation than its user's
// last change (across a commit) is never stored, so every entry is fresh.
type listCache struct {
	mu  sync.Mutex
	gen uint64
	// off: nothing is kept, every read goes to the store. A store on a
	// cluster is written by other processes too, whose commits this
	// process's generations do not see.
	off bool
	// changed is the generation of the last commit that touched each user;
	// floor, that of a commit whose users are not all known (no value read
	// before it is stored). changed is emptied into floor when it grows.
	changed   map[string]uint64
	floor     uint64
	entries   map[listKey][]Fact
	timelines map[string]timeline
	graphs    map[string]*userGraph
	stale     map[string]*staleUser
	// conflicts holds users' open conflicts, newest first.
	conflicts map[string][]Conflict
}

type listKey struct {
	user string
	all  bool
}

// staleUser is a user's timeline and graph as they were before the
// commits since, and the ids of the facts those commits changed.
type staleUser struct {
	tl    timeline
	graph *userGraph
	ids   map[uint64]bool
	// graphIDs are the ids of the facts changed since graph was made the
	// base, which may be later than tl.
	graphIDs map[uint64]bool
}

// maxListEntries bounds each map of the cache; past it, an arbitrary
// entry goes. maxChanged bounds the users whose last change is known.
const (
	maxListEntries = 64
	maxChanged     = 4096
)

// keep stores v under k in *m, making room first.
func keep[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	if _, ok := (*m)[k]; !ok && len(*m) >= maxListEntries {
		for old := range *m {
			delete(*m, old)
			break
		}
	}
	(*m)[k] = v
}

// current returns the generation to read under.
func (c *listCache) current() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// fresh reports whether a value of user read under generation gen is
// still true. Called with mu held.
func (c *listCache) fresh(user string, gen uint64) bool {
	return gen >= c.floor && c.changed[user] <= gen
}

// isFresh is fresh, taking the lock.
func (c *listCache) isFresh(user string, gen uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fresh(user, gen)
}

// get returns a copy of a fresh entry.
func (c *listCache) get(k listKey) ([]Fact, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	facts, ok := c.entries[k]
	return slices.Clone(facts), ok
}

// put stores facts read under generation gen, unless a commit touching
// the user came since.
func (c *listCache) put(k listKey, gen uint64, facts []Fact) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off {
		return
	}
	if c.fresh(k.user, gen) {
		keep(&c.entries, k, slices.Clone(facts))
	}
}

// touchedUsers is what a commit changed: the ids of each user's facts it
// wrote, deleted or logged (a user with none had other data changed).
type touchedUsers func(fn func(user string, ids []uint64))

// invalidate makes stale what a commit changed; nil says it is not known,
// and everything goes. Called after each commit.
func (c *listCache) invalidate(ch touchedUsers) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if ch == nil {
		c.floor = c.gen
		clear(c.changed)
		clear(c.entries)
		clear(c.timelines)
		clear(c.graphs)
		clear(c.stale)
		clear(c.conflicts)
		return
	}
	if len(c.changed) >= maxChanged {
		c.floor = c.gen - 1 // every read under an older generation is refused
		clear(c.changed)
	}
	ch(func(user string, ids []uint64) {
		if c.changed == nil {
			c.changed = map[string]uint64{}
		}
		c.changed[user] = c.gen
		delete(c.entries, listKey{user, false})
		delete(c.entries, listKey{user, true})
		delete(c.conflicts, user)
		st := c.stale[user]
		tl, hasTL := c.timelines[user]
		g, hasG := c.graphs[user]
		if hasTL || hasG {
			// The fresh entries become the base: ids changed before them
			// are in them.
			if st == nil {
				st = &staleUser{ids: map[uint64]bool{}}
				keep(&c.stale, user, st)
			}
			if hasTL {
				st.tl, st.ids = tl, map[uint64]bool{}
			}
			if hasG {
				st.graph, st.graphIDs = g, map[uint64]bool{}
			}
		}
		delete(c.timelines, user)
		delete(c.graphs, user)
		if st != nil {
			for _, id := range ids {
				st.ids[id] = true
				if st.graphIDs != nil {
					st.graphIDs[id] = true
				}
			}
		}
	})
}

// tidy drops user's base once nothing is left in it. Called with mu held.
func (c *listCache) tidy(user string) {
	if st := c.stale[user]; st != nil && st.tl == nil && st.graph == nil {
		delete(c.stale, user)
	}
}

// getGraph returns a fresh graph, shared like a timeline.
func (c *listCache) getGraph(user string) (*userGraph, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.graphs[user]
	return g, ok
}

// staleGraph returns the last graph of user built before the commits
// since, if one is kept: a base to patch.
func (c *listCache) staleGraph(user string) *userGraph {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.stale[user]; st != nil {
		return st.graph
	}
	return nil
}

// maxGraphChanges bounds the facts changed since a base graph that
// graphSince hands over to be read again.
const maxGraphChanges = 4096

// graphSince returns user's graph: a fresh one (changed nil), or the base
// kept from before the commits since with the ids of the facts they
// changed (a copy), if one is kept and they are not too many.
func (c *listCache) graphSince(user string) (*userGraph, map[uint64]bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.graphs[user]; ok {
		return g, nil, true
	}
	st := c.stale[user]
	if st == nil || st.graph == nil || st.graphIDs == nil || len(st.graphIDs) > maxGraphChanges {
		return nil, nil, false
	}
	return st.graph, maps.Clone(st.graphIDs), true
}

// putGraph stores a graph built under generation gen, unless a commit
// touching the user came since.
func (c *listCache) putGraph(user string, gen uint64, g *userGraph) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off {
		return
	}
	if c.fresh(user, gen) {
		keep(&c.graphs, user, g)
		if st := c.stale[user]; st != nil {
			st.graph = nil
			c.tidy(user)
		}
	}
}

// getTimeline returns a fresh timeline. Readers only read it, so it is
// shared rather than copied.
func (c *listCache) getTimeline(user string) (timeline, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tl, ok := c.timelines[user]
	return tl, ok
}

// staleTimeline returns the base timeline of user and the ids of the facts
// changed since (a copy), if a base is kept.
func (c *listCache) staleTimeline(user string) (timeline, []uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.stale[user]
	if st == nil || st.tl == nil {
		return nil, nil, false
	}
	ids := make([]uint64, 0, len(st.ids))
	for id := range st.ids {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return st.tl, ids, true
}

// putTimeline stores a timeline read under generation gen, unless a
// commit touching the user came since; it becomes the user's base.
func (c *listCache) putTimeline(user string, gen uint64, tl timeline) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off {
		return
	}
	if c.fresh(user, gen) {
		keep(&c.timelines, user, tl)
		if st := c.stale[user]; st != nil {
			st.tl, st.ids = nil, map[uint64]bool{}
			c.tidy(user)
		}
	}
}

// getConflicts returns user's open conflicts, shared: readers only read
// them.
func (c *listCache) getConflicts(user string) ([]Conflict, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs, ok := c.conflicts[user]
	return cs, ok
}

// putConflicts stores user's open conflicts read under generation gen,
// unless a commit touching the user came since.
func (c *listCache) putConflicts(user string, gen uint64, cs []Conflict) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off {
		return
	}
	if c.fresh(user, gen) {
		keep(&c.conflicts, user, cs)
	}
}

// cachedConflicts returns the fresh open conflicts, for Check to compare.
func (c *listCache) cachedConflicts() map[string][]Conflict {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.conflicts)
}

// cached returns the fresh timelines and graphs, for Check to compare.
func (c *listCache) cached() (map[string]timeline, map[string]*userGraph) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.timelines), maps.Clone(c.graphs)
}
