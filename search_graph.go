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
	named := g.named(sr.an, stems)
	for _, key := range named {
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
	// A relation the question's words say ("where did I live", "где я
	// работаю"): the facts claiming it, of the entities it names, else of
	// the user.
	if rels := g.stems.cued(stems); len(rels) > 0 {
		subjects := named
		if len(subjects) == 0 {
			subjects = []string{""}
		}
		seen := map[uint64]bool{}
		for _, sub := range subjects {
			for _, ek := range g.byEntity[sub] {
				if ek.subject != sub || !slices.Contains(rels, ek.relation) {
					continue
				}
				for _, ref := range g.support[ek] {
					id := g.tl[ref.fact].rec.ID
					if _, ok := sr.vis[id]; ok && !seen[id] {
						seen[id] = true
						count[id]++
					}
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
	byStem map[string][]string   // a stem -> the entity keys (roots) with a name holding it
	need   map[string]int        // a name's key or alias key -> how many stems it has
	root   map[string]string     // a name's key or alias key -> its entity's key
	roles  map[string][]Relation // a stem of a role noun (claims.Roles) -> the relations it names the object of
	cues   map[string][]Relation // a stem of a relation's cue (claims.Cues) -> the relations it says
}

// stemsOf maps the stems of each relation's words to the relations.
func stemsOf(an *index.Analyzer, words map[Relation][]string) map[string][]Relation {
	out := map[string][]Relation{}
	for rel, ws := range words {
		for _, n := range ws {
			for _, w := range an.Analyze(n).Words {
				if !strings.HasPrefix(w, term.SynonymMark) && !slices.Contains(out[w], rel) {
					out[w] = append(out[w], rel)
				}
			}
		}
	}
	return out
}

// cued is the relations whose cues are among stems, once built by named.
func (ns *nameStems) cued(stems map[string]bool) []Relation {
	var out []Relation
	for st := range stems {
		for _, r := range ns.cues[st] {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// named returns the keys of the entities whose name, or a name merged
// into them, has all its stems in stems (a question's), in key order:
// "Anna" in "what do Anna and I share?", "Northwind Bank" in "when did I
// join Northwind Bank?", "Аня" in "что мы с Аней любим?"; and those a role
// noun of the question names through the user's claims ("my sister" is
// Anna when a fact claims sibling Anna). The user is not an entity a
// question names.
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
		ns.roles, ns.cues = stemsOf(an, claims.Roles()), stemsOf(an, claims.Cues())
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
	// A role the question names ("my sister", "собаку") is whom the
	// user's claims of its relation name: Anna, Rex.
	for st := range stems {
		for _, rel := range ns.roles[st] {
			for _, k := range g.byEntity[""] {
				if k.subject == "" && k.relation == rel && k.object != "" {
					out = append(out, k.object)
				}
			}
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
