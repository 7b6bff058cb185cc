package live

import (
	"context"
	"testing"

	"github.com/palimpsest-mem/memory/index"
)

// kept reports whether an analysis of the default user's fact id is kept.
func kept(l *Index, id uint64) bool {
	l.seen.mu.Lock()
	defer l.seen.mu.Unlock()
	_, ok := l.seen.kept[index.DocKey{ID: id}]
	return ok
}

// The analyses kept of lookups' hits go with the index at a drop (so at a
// Delete): no word of a deleted fact stays in memory.
func TestDropForgetsTheAnalysesOfHits(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	const text = "My garden has a zebrawood bench."
	id := s.add("", text)
	s.mustFind(t, ctx, "", "zebrawood bench", id)
	an, err := s.l.Analyzer()
	if err != nil {
		t.Fatal(err)
	}
	s.l.Terms(an, index.DocKey{ID: id}, text, s.l.Generation()) // the lookup analyses its hit
	if !kept(s.l, id) {
		t.Fatal("test is void: the lookup kept no analysis of its hit")
	}
	s.delete(t, id)
	if kept(s.l, id) {
		t.Error("the analysis of a deleted fact is still kept")
	}
}

// A lookup that read a fact before a Delete dropped the kept analyses, and
// analyses it after, keeps no analysis: the deleted words would stay in
// memory until 4,096 others pushed them out.
func TestAnalysisReadBeforeADropIsNotKept(t *testing.T) {
	s := newStore(t)
	an, err := s.l.Analyzer()
	if err != nil {
		t.Fatal(err)
	}
	gen := s.l.Generation() // the lookup begins and reads the fact
	s.l.Drop()              // a Delete commits and drops
	s.l.Terms(an, index.DocKey{ID: 7}, "My secret word is zzquokka.", gen)
	if kept(s.l, 7) {
		t.Error("an analysis read before the drop was kept after it")
	}
}
