package memory

import (
	"slices"
	"sync"
)

// listCache keeps users' decoded lists, timelines and graphs between
// writes, so that an assistant asking for the current facts again and
// again does not decode them each time. Any commit empties it and bumps a
// generation counter; a value read under an older generation (across a
// commit) is never stored, so every entry is of the current generation.
type listCache struct {
	mu        sync.Mutex
	gen       uint64
	entries   map[listKey][]Fact
	timelines map[string]timeline
	graphs    map[string]*userGraph
}

type listKey struct {
	user string
	all  bool
}

// maxListEntries bounds each map of the cache; past it, an arbitrary
// entry goes.
const maxListEntries = 64

// keep stores v under k in *m, making room first.
func keep[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	if len(*m) >= maxListEntries {
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

// get returns a copy of a fresh entry.
func (c *listCache) get(k listKey) ([]Fact, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	facts, ok := c.entries[k]
	return slices.Clone(facts), ok
}

// put stores facts read under generation gen, unless a commit came since.
func (c *listCache) put(k listKey, gen uint64, facts []Fact) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen {
		keep(&c.entries, k, slices.Clone(facts))
	}
}

// invalidate empties the cache; called after each commit.
func (c *listCache) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
	clear(c.timelines)
	clear(c.graphs)
}

// getGraph returns a fresh graph, shared like a timeline.
func (c *listCache) getGraph(user string) (*userGraph, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.graphs[user]
	return g, ok
}

// putGraph stores a graph built under generation gen, unless a commit came
// since.
func (c *listCache) putGraph(user string, gen uint64, g *userGraph) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen {
		keep(&c.graphs, user, g)
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

// putTimeline stores a timeline read under generation gen, unless a commit
// came since.
func (c *listCache) putTimeline(user string, gen uint64, tl timeline) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen {
		keep(&c.timelines, user, tl)
	}
}
