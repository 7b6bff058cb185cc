package memory_test

import (
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Lists are cached between writes: a write shows at once, and a caller
// changing the slice it got changes nothing for the next.
func TestListCacheFollowsWrites(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "one"}))
	first := must[[]memory.Fact](t)(s.List(ctx, "", nil))
	first[0].Text = "scribbled on by the caller"
	if again := must[[]memory.Fact](t)(s.List(ctx, "", nil)); again[0].Text != "one" {
		t.Errorf("the cache handed out its own slice: %q", again[0].Text)
	}
	b := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "two"}))
	if got := ids(must[[]memory.Fact](t)(s.List(ctx, "", nil))); len(got) != 2 || got[1] != b.ID {
		t.Errorf("after an add: %v", got)
	}
	must[memory.Fact](t)(s.Invalidate(ctx, "", a.ID, memory.Change{}))
	if got := ids(must[[]memory.Fact](t)(s.List(ctx, "", nil))); len(got) != 1 || got[0] != b.ID {
		t.Errorf("after an invalidate: %v", got)
	}
	if got := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true})); len(got) != 2 || got[0].State() != memory.Retracted {
		t.Errorf("all: %+v", got)
	}
	must[[]uint64](t)(s.Delete(ctx, "", b.ID, nil))
	if got := must[[]memory.Fact](t)(s.List(ctx, "", nil)); len(got) != 0 {
		t.Errorf("after a delete: %v", ids(got))
	}
}
