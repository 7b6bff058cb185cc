package memory

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/internal/term"
)

// graph runs the graph ranker: the entities the question names, and the
// facts behind their edges, those about more of them first, then newest.
func (sr *searcher) graph(ctx context.Context, words []index.Terms, out *SearchResult) error {
	g, err := sr.s.graph(ctx, sr.user)
	if err != nil {
		return err
	}
	stems := map[string]bool{}
	for _, w := range words {
		for _, t := range w.Words {
			stems[t] = true
		}
	}
	if len(stems) == 0 {
		return nil
	}
	count := map[uint64]int{}
	sr.entities = map[uint64][]string{}
	for _, key := range g.named(sr.an, stems) {
		name := ""
		seen := map[uint64]bool{}
		for _, ek := range g.byEntity[key] {
			for _, ref := range g.support[ek] {
				if name == "" {
					name = g.display(key, g.spelling(ref, key))
					out.Entities = append(out.Entities, name)
				}
				id := g.tl[ref.fact].rec.ID
				if _, ok := sr.vis[id]; ok && !seen[id] {
					seen[id] = true
					count[id]++
					sr.entities[id] = append(sr.entities[id], name)
				}
			}
		}
	}
	l := make([]ranked, 0, len(count))
	for id, n := range count {
		l = append(l, ranked{id, float64(n)})
	}
	sortRanked(l)
	sr.lists[RankGraph] = l[:min(len(l), rankDepth)]
	return nil
}

// nameStems finds a graph's entities by the stems of their names, built
// at the first search of the graph: a graph is rebuilt or patched at a
// write, and its names with it.
type nameStems struct {
	once   sync.Once
	byStem map[string][]string // a stem -> the entity keys (roots) with a name holding it
	need   map[string]int      // a name's key or alias key -> how many stems it has
	root   map[string]string   // a name's key or alias key -> its entity's key
}

// named returns the keys of the entities whose name, or a name merged
// into them, has all its stems in stems (a question's), in key order:
// "Anna" in "what do Anna and I share?", "Northwind Bank" in "when did I
// join Northwind Bank?", "Аня" in "что мы с Аней любим?". The user is not
// an entity a question names.
func (g *userGraph) named(an *index.Analyzer, stems map[string]bool) []string {
	ns := g.stems
	ns.once.Do(func() {
		ns.byStem, ns.need, ns.root = map[string][]string{}, map[string]int{}, map[string]string{}
		add := func(name, root string) {
			n := 0
			for _, w := range an.Analyze(name).Words {
				if !strings.HasPrefix(w, term.SynonymMark) {
					ns.byStem[w] = append(ns.byStem[w], name)
					n++
				}
			}
			if n > 0 {
				ns.need[name], ns.root[name] = n, root
			}
		}
		for key := range g.byEntity {
			if key != "" && g.res.root(key) == key {
				add(key, key)
				for _, alias := range g.res.has[key] {
					add(alias, key)
				}
			}
		}
	})
	met := map[string]int{}
	for st := range stems {
		for _, name := range ns.byStem[st] {
			met[name]++
		}
	}
	var out []string
	for name, n := range met {
		if n == ns.need[name] {
			out = append(out, ns.root[name])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// spelling is how the claim ref spells the entity key: its subject or its
// object, as written.
func (g *userGraph) spelling(ref claimRef, key string) string {
	c := g.tl[ref.fact].rec.Claims[ref.claim]
	if g.res.root(claims.Normalize(c.Subject)) == key {
		return c.Subject
	}
	return c.Object
}
