package memory

import (
	"slices"
	"sync"
)

// listCache keeps users' decoded lists between writes, so that an assistant
// asking for the current facts again and again does not decode them each
// time. Any commit makes every entry stale: a generation counter, bumped
// after each commit, tells fresh entries from stale ones, and a list read
// across a commit is never stored.
type listCache struct {
	mu        sync.Mutex
	gen       uint64
	entries   map[listKey]listEntry
	timelines map[string]timelineEntry
	graphs    map[string]graphEntry
}

type graphEntry struct {
	gen uint64
	g   *userGraph
}

type timelineEntry struct {
	gen uint64
	tl  timeline
}

type listKey struct {
	user string
	all  bool
}

type listEntry struct {
	gen   uint64
	facts []Fact
}

// maxListEntries bounds the cache; past it, an arbitrary entry goes.
const maxListEntries = 64

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
	e, ok := c.entries[k]
	if !ok || e.gen != c.gen {
		return nil, false
	}
	return slices.Clone(e.facts), true
}

// put stores facts read under generation gen, unless a commit came since.
func (c *listCache) put(k listKey, gen uint64, facts []Fact) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.entries == nil {
		c.entries = map[listKey]listEntry{}
	}
	if len(c.entries) >= maxListEntries {
		for old := range c.entries {
			delete(c.entries, old)
			break
		}
	}
	c.entries[k] = listEntry{gen: gen, facts: slices.Clone(facts)}
}

// invalidate marks every entry stale; called after each commit.
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
	e, ok := c.graphs[user]
	return e.g, ok && e.gen == c.gen
}

// putGraph stores a graph built under generation gen, unless a commit came
// since.
func (c *listCache) putGraph(user string, gen uint64, g *userGraph) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.graphs == nil {
		c.graphs = map[string]graphEntry{}
	}
	if len(c.graphs) >= maxListEntries {
		for old := range c.graphs {
			delete(c.graphs, old)
			break
		}
	}
	c.graphs[user] = graphEntry{gen: gen, g: g}
}

// getTimeline returns a fresh timeline. Readers only read it, so it is
// shared rather than copied.
func (c *listCache) getTimeline(user string) (timeline, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.timelines[user]
	return e.tl, ok && e.gen == c.gen
}

// putTimeline stores a timeline read under generation gen, unless a commit
// came since.
func (c *listCache) putTimeline(user string, gen uint64, tl timeline) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.timelines == nil {
		c.timelines = map[string]timelineEntry{}
	}
	if len(c.timelines) >= maxListEntries {
		for old := range c.timelines {
			delete(c.timelines, old)
			break
		}
	}
	c.timelines[user] = timelineEntry{gen: gen, tl: tl}
}
