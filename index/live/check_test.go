package live

import (
	"fmt"
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory/index"
)

// Check compares the index, once built, with the store's current facts,
// after the changes synced before it are in (though the indexer would
// gather them for an hour), and names each fact one has and the other
// lacks.
func TestCheckComparesTheIndexWithTheStore(t *testing.T) {
	s, ctx, _ := delayedStore(t)
	a := s.add("", "I play the cello on Fridays.")
	check := func(current ...uint64) []string {
		t.Helper()
		cur := map[index.DocKey]bool{}
		for _, id := range current {
			cur[index.DocKey{User: s.facts[id].User, ID: id}] = true
		}
		s.mu.Lock() // the write lock, as the store's Check holds it
		diffs, dir := s.l.Check(ctx, cur)
		s.mu.Unlock()
		if dir != nil {
			t.Fatalf("the index's folder: %v", dir)
		}
		var got []string
		for _, d := range diffs {
			got = append(got, d.Error())
		}
		slices.Sort(got)
		return got
	}
	if got := check(); got != nil {
		t.Fatalf("with no index built: %q, want nothing to compare", got)
	}
	if _, err := s.find(ctx, "", "build the index", 1); err != nil {
		t.Fatal(err)
	}
	b := s.add("other", "My sister lives in Porto.") // gathers: nobody looked other up
	if got := check(a, b); got != nil {
		t.Errorf("an index in line with the store: %q", got)
	}
	want := []string{fmt.Sprintf("index holds fact %d, which is not current", a), "index lacks current fact 99"}
	if got := check(b, 99); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
