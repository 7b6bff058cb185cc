package claims

import (
	"fmt"
	"slices"
	"strings"

	"github.com/palimpsest-mem/memory/internal/wordlist"
)

// Roles returns, for each relation some nouns name the object of, those
// nouns (patterns/roles.txt): "sister" and "сестра" name the object of
// the user's sibling claim. The map is the caller's.
func Roles() map[Relation][]string {
	out := make(map[Relation][]string, len(builtin.roles))
	for r, ws := range builtin.roles {
		out[r] = slices.Clone(ws)
	}
	return out
}

// readRoles reads "relation noun noun ..." a line.
func readRoles(text string) (map[Relation][]string, error) {
	out := map[Relation][]string{}
	err := wordlist.Parse("roles.txt", text, func(_ int, line string) error {
		f := strings.Split(line, " ")
		if len(f) < 2 {
			return fmt.Errorf("want \"relation noun ...\", got %q", line)
		}
		rel, err := ParseRelation(f[0])
		if err != nil {
			return err
		}
		if _, dup := out[rel]; dup {
			return fmt.Errorf("relation %q twice", rel)
		}
		for _, w := range f[1:] {
			if why := badWord(w); why != "" {
				return fmt.Errorf("word %q %s", w, why)
			}
		}
		out[rel] = f[1:]
		return nil
	})
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("roles.txt: the list has no relations")
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errPatterns, err)
	}
	return out, nil
}

// Cues returns, for each relation, the words of its patterns that no
// more than two relations' patterns hold: the verbs and nouns that say
// the relation ("live", "moved", "живу" for lives_in; "work", "job" for
// works_at), not the words every pattern has ("i", "at", "my"). A
// question holding one asks about that relation: "where did I live
// before Lisbon?". The map is the caller's.
func Cues() map[Relation][]string {
	out := make(map[Relation][]string, len(builtin.cues))
	for r, ws := range builtin.cues {
		out[r] = slices.Clone(ws)
	}
	return out
}

// maxCueRelations is how many relations' patterns a word may be in and
// still be a cue of each.
const maxCueRelations = 2

// cuesOf gathers the cue words of r's patterns, each relation's sorted:
// not the function words the rules know (their stop, lead, describer,
// adverb, person, possessive, negation and subordinator lists).
func (r *rules) cuesOf() map[Relation][]string {
	function := []map[string]bool{r.stop, r.lead, r.describers, r.adverbs, r.firstPerson, r.possessives, r.my,
		r.negation, r.subordinators, r.interjections}
	in := map[string]map[Relation]bool{}
	for _, p := range r.patterns {
		for _, e := range p.elems {
			if e.kind != literal {
				continue
			}
			for _, w := range e.words {
				if slices.ContainsFunc(function, func(set map[string]bool) bool { return set[w] }) {
					continue
				}
				if in[w] == nil {
					in[w] = map[Relation]bool{}
				}
				in[w][p.rel] = true
			}
		}
	}
	out := map[Relation][]string{}
	for w, rels := range in {
		if len(rels) > maxCueRelations {
			continue
		}
		for r := range rels {
			out[r] = append(out[r], w)
		}
	}
	for _, ws := range out {
		slices.Sort(ws)
	}
	return out
}
