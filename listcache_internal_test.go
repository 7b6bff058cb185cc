package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// A write to one user leaves the other users' cached lists, timelines and
// graphs in place.
func TestWriteKeepsOtherUsersCached(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	if _, err := s.Add(ctx, Note{User: "ann", Text: "I work at Acme."}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Edges(ctx, "ann", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(ctx, "ann", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, Note{User: "bob", Text: "I live in Porto."}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.lists.getGraph("ann"); !ok {
		t.Error("bob's write dropped ann's graph")
	}
	if _, ok := s.lists.getTimeline("ann"); !ok {
		t.Error("bob's write dropped ann's timeline")
	}
	if _, ok := s.lists.get(listKey{"ann", false}); !ok {
		t.Error("bob's write dropped ann's list")
	}
}

// After a write to a user whose timeline is cached, the next read re-reads
// only the facts the write changed, and the graph is extended, not built.
func TestTimelinePatchReadsOnlyTheChangedFacts(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	var last Fact
	for _, text := range []string{"I work at Acme.", "I live in Porto.", "I like tea."} {
		f, err := s.Add(ctx, Note{User: "ann", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		last = f
	}
	before, err := s.graph(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	next, err := s.Supersede(ctx, "ann", last.ID, Note{Text: "I like coffee now."})
	if err != nil {
		t.Fatal(err)
	}
	_, ids, ok := s.lists.staleTimeline("ann")
	if !ok || !slices.Equal(ids, []uint64{last.ID, next.ID}) {
		t.Fatalf("ids to re-read: %v, %v; want %v", ids, ok, []uint64{last.ID, next.ID})
	}
	after, err := s.graph(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.readTimeline(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after.tl, want) {
		t.Errorf("patched timeline differs from a fresh read")
	}
	// The edges of the first facts are the base's own, not grouped again.
	k := edgeKey{"", "acme", RelWorksAt}
	if len(before.support[k]) == 0 || &before.support[k][0] != &after.support[k][0] {
		t.Errorf("the graph was rebuilt rather than extended")
	}
}

// TestCachesMatchAFreshRead draws random writes to two users (add,
// supersede, retract, restore, pin, Remember with a decider that updates,
// Undo, merges of entities and their undo, hard delete) and, after each,
// reads one of them through the caches, which patch what they kept
// with the facts changed since: the timeline equals one read from scratch,
// the graph one built from it, and the lists fresh ones.
func TestCachesMatchAFreshRead(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dir := filepath.Join(tempDir(t), "m.db")
		now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
		s, err := Open(dir, 0, &Options{NoSync: true, Clock: func() time.Time { return now }, Lookup: LookupKeywords4,
			Decider: updateFirst{}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		users := []string{"ann", "bob"}
		objects := []string{"Acme", "acme", "Initech", "Porto"}
		note := func(t *rapid.T) Note {
			n := Note{Text: "fact " + rapid.StringMatching(`[a-z]{3}`).Draw(t, "text"), Claims: []Claim{}}
			for range rapid.IntRange(0, 2).Draw(t, "claims") {
				n.Claims = append(n.Claims, Claim{Relation: rapid.SampledFrom([]Relation{RelWorksAt, RelLikes}).Draw(t, "rel"),
					Object: rapid.SampledFrom(objects).Draw(t, "obj")})
			}
			return n
		}
		pick := func(t *rapid.T, user string, want func(Fact) bool) (Fact, bool) {
			fs, err := s.List(ctx, user, &ListOptions{All: true})
			if err != nil {
				t.Fatal(err)
			}
			fs = slices.DeleteFunc(fs, func(f Fact) bool { return !want(f) })
			if len(fs) == 0 {
				return Fact{}, false
			}
			return rapid.SampledFrom(fs).Draw(t, "fact"), true
		}
		current := func(f Fact) bool { return f.State() == Current }
		step := func(fn func(t *rapid.T, user string) error) func(*rapid.T) {
			return func(t *rapid.T) {
				now = now.Add(time.Hour)
				user := rapid.SampledFrom(users).Draw(t, "user")
				_ = fn(t, user) // refusals (a pinned fact, a time order) are fine: the caches must follow either way
				check := rapid.SampledFrom(users).Draw(t, "read")
				checkCaches(t, s, check)
			}
		}
		t.Repeat(map[string]func(*rapid.T){
			"add": step(func(t *rapid.T, u string) error {
				n := note(t)
				n.User = u
				_, err := s.Add(ctx, n)
				return err
			}),
			"supersede": step(func(t *rapid.T, u string) error {
				if f, ok := pick(t, u, current); ok {
					_, err := s.Supersede(ctx, u, f.ID, note(t))
					return err
				}
				return nil
			}),
			"invalidate": step(func(t *rapid.T, u string) error {
				if f, ok := pick(t, u, current); ok {
					_, err := s.Invalidate(ctx, u, f.ID, Change{})
					return err
				}
				return nil
			}),
			"restore": step(func(t *rapid.T, u string) error {
				if f, ok := pick(t, u, func(f Fact) bool { return f.State() != Current }); ok {
					_, err := s.Restore(ctx, u, f.ID, Change{})
					return err
				}
				return nil
			}),
			"pin": step(func(t *rapid.T, u string) error {
				if f, ok := pick(t, u, current); ok {
					_, err := s.Pin(ctx, u, f.ID)
					return err
				}
				return nil
			}),
			"remember": step(func(t *rapid.T, u string) error {
				n := note(t)
				n.User = u
				_, err := s.Remember(ctx, n)
				return err
			}),
			"undo": step(func(t *rapid.T, u string) error {
				ds, err := s.Decisions(ctx, u, 0)
				if err != nil || len(ds) == 0 {
					return err
				}
				_, err = s.Undo(ctx, u, rapid.SampledFrom(ds).Draw(t, "decision").ID)
				return err
			}),
			"merge": step(func(t *rapid.T, u string) error {
				_, err := s.MergeEntities(ctx, u, rapid.SampledFrom(objects).Draw(t, "from"), rapid.SampledFrom(objects).Draw(t, "into"), "")
				return err
			}),
			"unmerge": step(func(t *rapid.T, u string) error {
				ms, err := s.Merges(ctx, u)
				if err != nil || len(ms) == 0 {
					return err
				}
				_, err = s.UndoMerge(ctx, u, rapid.SampledFrom(ms).Draw(t, "merge").ID, "")
				return err
			}),
			"delete": step(func(t *rapid.T, u string) error {
				if f, ok := pick(t, u, func(Fact) bool { return true }); ok {
					_, err := s.Delete(ctx, u, f.ID, &DeleteOptions{Chain: rapid.Bool().Draw(t, "chain")})
					return err
				}
				return nil
			}),
		})
	})
}

// updateFirst updates the first candidate, if any: Remember then
// supersedes, and Undo has something to undo.
type updateFirst struct{}

func (updateFirst) Name() string { return "custom" }

func (updateFirst) Decide(_ context.Context, in DecideInput) (Verdict, error) {
	if len(in.Candidates) == 0 {
		return Verdict{Action: ActionAdd, Reason: "none", Decider: "custom"}, nil
	}
	return Verdict{Action: ActionUpdate, Target: 1, Reason: "first", Decider: "custom"}, nil
}

func checkCaches(t *rapid.T, s *Store, user string) {
	ctx := context.Background()
	g, err := s.graph(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := s.readTimeline(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if !sameTimeline(g.tl, tl) {
		t.Fatalf("%s: cached timeline of %d facts differs from a fresh read of %d", user, len(g.tl), len(tl))
	}
	ms, err := s.userMerges(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	fresh := buildGraph(tl, currentAliases(ms))
	if !g.sameEdges(fresh) {
		t.Fatalf("%s: cached graph differs from one built from the facts:\n%v\n%v", user, g.support, fresh.support)
	}
	// A fresh list needs the caches emptied, bases and all: now and then.
	if !rapid.Bool().Draw(t, "lists") {
		return
	}
	for _, all := range []bool{false, true} {
		got, err := s.List(ctx, user, &ListOptions{All: all})
		if err != nil {
			t.Fatal(err)
		}
		s.lists.invalidate(nil)
		want, err := s.List(ctx, user, &ListOptions{All: all})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: cached list (all %v) differs from a fresh one", user, all)
		}
	}
}

// tempDir is a directory removed at the end of a rapid check's run.
func tempDir(t *rapid.T) string {
	dir, err := os.MkdirTemp("", "memory-cache-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// Check compares the cached timelines and graphs with the facts: a cached
// graph that lost a fact's claim is reported, and the next read is right.
func TestCheckComparesTheCachedGraph(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	f, err := s.Add(ctx, Note{User: "ann", Text: "I work at Acme."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, Note{User: "ann", Text: "I live in Porto."}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Edges(ctx, "ann", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("a patched cache: %v", err)
	}
	g, _ := s.lists.getGraph("ann")
	k := edgeKey{"", "acme", RelWorksAt}
	if len(g.support[k]) != 1 {
		t.Fatalf("support of %v: %v", k, g.support[k])
	}
	delete(g.support, k) // as a faulty patch would
	err = s.Check(ctx)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), `cached graph of user "ann"`) {
		t.Fatalf("Check: %v, want ErrCorrupt naming ann's graph", err)
	}
	es, err := s.Edges(ctx, "ann", &EdgeQuery{Relation: RelWorksAt})
	if err != nil || len(es) != 1 || es[0].Support[0] != f.ID {
		t.Errorf("after Check: %+v, %v", es, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Errorf("Check again: %v", err)
	}
}
