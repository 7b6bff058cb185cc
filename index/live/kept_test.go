package live

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/internal/indextest"
)

// reopen closes the store's index and opens it again, as the next process
// would, and reports how many pages of facts its first lookup read.
func (s *store) reopen(t *testing.T, ctx context.Context, mode index.Mode) int {
	t.Helper()
	s.l.Close()
	s.open(t, true, mode)
	before := s.pages
	if _, err := s.find(ctx, "ann", "anything at all", 1); err != nil {
		t.Fatal(err)
	}
	return s.pages - before
}

// markKept marks the kept index, closed, as a build that names its
// documents' format so would: the store's newest commit under format.
func (s *store) markKept(format string) {
	an, err := index.NewAnalyzer(index.Topics)
	if err != nil {
		panic(err)
	}
	root, err := rootOf(s.path)
	if err != nil {
		panic(err)
	}
	ix, _, err := index.OpenKept(an, root)
	if err != nil {
		panic(err)
	}
	defer ix.Close()
	h, _, _ := s.head(nil)
	if err := ix.Mark(append(append([]byte(format), 0), h...)); err != nil {
		panic(err)
	}
}

func TestKeptIndexAnswersTheNextProcessWithoutABuild(t *testing.T) {
	ctx := context.Background()
	s := newStoreKept(t, true)
	tea := s.add("ann", "I drink green tea every morning.")
	coffee := s.add("bob", "I drink black coffee.")
	s.mustFind(t, ctx, "ann", "tea", tea)
	if pages := s.reopen(t, ctx, index.Topics); pages != 0 {
		t.Fatalf("the next process read %d pages of facts, want none", pages)
	}
	s.mustFind(t, ctx, "ann", "tea", tea)
	// Each user's terms are under the number the user had before.
	s.mustFind(t, ctx, "bob", "coffee", coffee)
	if got, _ := s.find(ctx, "ann", "coffee", 5); slices.Contains(got, coffee) {
		t.Fatalf("ann's lookup after reopening found bob's fact: %v", got)
	}
}

func TestKeptIndexCatchesUpWithCommitsItMissed(t *testing.T) {
	ctx := context.Background()
	s := newStoreKept(t, true)
	old := s.add("ann", "I live in Lisbon.")
	doomed := s.add("ann", "My locker code is zzquokka.")
	s.mustFind(t, ctx, "ann", "Lisbon", old)
	s.l.Close()
	// A process that died before its index took these commits.
	s.mu.Lock()
	was := s.facts[old]
	was.Current = false
	s.next++
	moved := s.next
	s.apply([]Change{was, {ID: moved, User: "ann", Text: "I live in Porto.", Current: true}})
	s.apply([]Change{{ID: doomed, Deleted: true}})
	s.mu.Unlock()

	s.open(t, true, index.Topics)
	s.l.purgeFrom = 0
	before := s.pages
	s.mustFind(t, ctx, "ann", "Porto", moved)
	if s.pages != before {
		t.Fatal("the index was built again instead of catching up")
	}
	if got, _ := s.find(ctx, "ann", "Lisbon", 5); slices.Contains(got, old) {
		t.Fatalf("the superseded fact is still found: %v", got)
	}
	// The deleted fact's words are gone from the files, not only marked.
	terms, err := indextest.ListTerms(s.dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range terms {
		if strings.Contains(term, "zzquokka") {
			t.Fatalf("a word of the deleted fact is in the index's files after catching up: %q", term)
		}
	}
}

func TestKeptIndexIsBuiltAgainWhenItCannotProveWhatItHolds(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		mode  index.Mode
		touch func(s *store)
		// then changes the index opened, before its first lookup.
		then func(l *Index)
	}{
		{"a write that kept no log", index.Topics, func(s *store) { s.lost = uint64(len(s.log)) + 1; s.apply(nil) }, nil},
		{"a store restored from a backup", index.Topics, func(s *store) { s.tag++ }, nil},
		{"another lookup mode", index.Stems, func(*store) {}, nil},
		// A version with other lexicons makes other terms of the same
		// text: the index the version before kept must not answer.
		{"other lexicons", index.Topics, func(*store) {}, func(l *Index) { l.format += "+other" }},
		// The version before named documents by their ids alone, and said
		// only the analysis in its marker: its documents are not keys.
		{"documents named by id alone", index.Topics, func(s *store) { s.markKept(index.Analysis(index.Topics)) }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStoreKept(t, true)
			tea := s.add("ann", "I drink green tea every morning.")
			s.mustFind(t, ctx, "ann", "tea", tea)
			s.l.Close()
			s.mu.Lock()
			tc.touch(s)
			s.mu.Unlock()
			s.open(t, true, tc.mode)
			if tc.then != nil {
				tc.then(s.l)
			}
			before := s.pages
			s.mustFind(t, ctx, "ann", "tea", tea)
			if s.pages == before {
				t.Fatal("the index caught up from a marker that proves nothing")
			}
		})
	}
}

func TestPurgeLeavesNoWordOfADeletedFactWithoutABuild(t *testing.T) {
	ctx := context.Background()
	for _, keep := range []bool{false, true} {
		s := newStoreKept(t, keep)
		s.l.purgeFrom = 0 // a small index is dropped instead
		doomed := s.add("ann", "My locker code is zzquokka.")
		kept := s.add("ann", "My locker is blue.")
		s.mustFind(t, ctx, "ann", "zzquokka", doomed)
		before := s.pages
		s.delete(t, doomed)
		terms, err := indextest.ListTerms(s.dir())
		if err != nil {
			t.Fatal(err)
		}
		for _, term := range terms {
			if strings.Contains(term, "zzquokka") {
				t.Fatalf("keep %v: a word of the deleted fact is in the files after Purge: %q", keep, term)
			}
		}
		s.mustFind(t, ctx, "ann", "locker blue", kept)
		if s.pages != before {
			t.Fatalf("keep %v: Purge built the index again", keep)
		}
	}
}
