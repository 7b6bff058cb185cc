package live

import (
	"sync"

	"github.com/palimpsest-mem/memory/index"
)

// analyses holds the analysis of the texts of facts lookups returned
// lately, so that a lookup need not analyse its hits again: a user's
// lookups meet the same facts over and over. Keyed by user and id, checked against
// the text; emptied when full and at a drop, so that a Delete leaves no
// word of a deleted fact in it.
type analyses struct {
	mu   sync.Mutex
	kept map[index.DocKey]analysed
	gen  uint64 // the generation of kept: a drop starts a new one
}

type analysed struct {
	text  string
	terms index.Terms
}

// keptMax bounds the analyses kept: a few hundred bytes each.
const keptMax = 4096

// Generation returns the generation of the kept analyses, to take before a
// lookup reads the store: a drop (and so a Delete) starts a new one.
func (l *Index) Generation() uint64 {
	l.seen.mu.Lock()
	defer l.seen.mu.Unlock()
	return l.seen.gen
}

// Terms returns the analysis by an of the text of fact key, read by a lookup
// that took generation gen before it read the store. It keeps the
// analysis only while gen is current: a lookup that read a fact before a
// Delete committed, and analyses it after the Delete dropped the kept
// ones, must not keep the deleted words.
func (l *Index) Terms(an *index.Analyzer, key index.DocKey, text string, gen uint64) index.Terms {
	a := &l.seen
	a.mu.Lock()
	k, ok := a.kept[key]
	a.mu.Unlock()
	if ok && k.text == text {
		return k.terms
	}
	t := an.Analyze(text)
	a.mu.Lock()
	if gen == a.gen {
		if len(a.kept) >= keptMax {
			clear(a.kept)
		}
		a.kept[key] = analysed{text, t}
	}
	a.mu.Unlock()
	return t
}

// forget empties the kept analyses and starts a new generation.
func (a *analyses) forget() {
	a.mu.Lock()
	clear(a.kept)
	a.gen++
	a.mu.Unlock()
}
