package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/indextest"
)

func openKept(t *testing.T, root string) (*Index, bool) {
	t.Helper()
	an, err := NewAnalyzer(Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	ix, fresh, err := OpenKept(an, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, fresh
}

func find(t *testing.T, ix *Index, user, text string) []uint64 {
	t.Helper()
	hits, err := ix.Search(context.Background(), user, ix.Analyzer().Analyze(text), 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	return ids
}

func TestKeptIndexOutlivesItsProcess(t *testing.T) {
	root := filepath.Join(t.TempDir(), "m.db.index")
	ix, fresh := openKept(t, root)
	if !fresh {
		t.Fatal("a new kept index is not fresh")
	}
	if m, err := ix.Marked(); err != nil || m != nil {
		t.Fatalf("a new kept index is marked %q, %v", m, err)
	}
	// Two users, numbered in the order they come: bob's terms are under
	// the second number, which the next process must give bob again.
	if err := ix.Apply([]Doc{{ID: 1, User: "ann", Text: "coffee mornings"}, {ID: 2, User: "bob", Text: "coffee evenings"}}, nil, []byte("c1")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Apply([]Doc{{ID: 3, User: "bob", Text: "green coffee"}}, []DocKey{{User: "bob", ID: 2}}, []byte("c2")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix, fresh = openKept(t, root)
	if fresh {
		t.Fatal("the kept index was made again")
	}
	if m, err := ix.Marked(); err != nil || string(m) != "c2" {
		t.Fatalf("marker %q, %v after reopening; want c2", m, err)
	}
	if got := find(t, ix, "bob", "coffee"); !slices.Equal(got, []uint64{3}) {
		t.Fatalf("bob's coffee after reopening: %v, want [3]", got)
	}
	if got := find(t, ix, "ann", "coffee"); !slices.Equal(got, []uint64{1}) {
		t.Fatalf("ann's coffee after reopening: %v, want [1]", got)
	}
	// A user numbered after reopening gets a number of its own.
	if err := ix.Apply([]Doc{{ID: 4, User: "cat", Text: "coffee beans"}}, nil, []byte("c3")); err != nil {
		t.Fatal(err)
	}
	for user, want := range map[string][]uint64{"ann": {1}, "bob": {3}, "cat": {4}} {
		if got := find(t, ix, user, "coffee"); !slices.Equal(got, want) {
			t.Errorf("%s's coffee: %v, want %v", user, got, want)
		}
	}
}

func TestKeptIndexIsOpenedOnce(t *testing.T) {
	root := filepath.Join(t.TempDir(), "m.db.index")
	openKept(t, root)
	an, _ := NewAnalyzer(Keywords4)
	if ix, _, err := OpenKept(an, root); !errors.Is(err, ErrKeptBusy) {
		if ix != nil {
			ix.Close()
		}
		t.Fatalf("a second open of the kept index: %v, want ErrKeptBusy", err)
	}
}

func TestSweepLeavesTheKeptIndex(t *testing.T) {
	root := filepath.Join(t.TempDir(), "m.db.index")
	ix, _ := openKept(t, root)
	if err := ix.Apply([]Doc{{ID: 1, User: "ann", Text: "coffee mornings"}}, nil, []byte("c1")); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if err := Sweep(root, true); err != nil {
		t.Fatal(err)
	}
	ix, fresh := openKept(t, root)
	if m, _ := ix.Marked(); fresh || string(m) != "c1" {
		t.Fatalf("after a sweep: fresh %v, marker %q; want the kept index", fresh, m)
	}
}

func TestPurgeRemovesDeletedTermsFromEveryFile(t *testing.T) {
	// Batches persisted together make one segment, which scorch never
	// merges alone; persisted one by one, several.
	t.Run("one segment", func(t *testing.T) { testPurge(t, false) })
	t.Run("several segments", func(t *testing.T) { testPurge(t, true) })
}

func testPurge(t *testing.T, apart bool) {
	root := filepath.Join(t.TempDir(), "m.db.index")
	ix, _ := openKept(t, root)
	ctx := context.Background()
	// Together, the batches go in as one batch: one segment, whatever the
	// persister's timing. Apart, each is persisted before the next, as a
	// segment of half the most live documents a merge makes, which is
	// merged no more: one file each.
	per, batches := 300, 4
	if apart {
		per, batches = keptSegmentSize/2+1, 3
	}
	next := uint64(1)
	var doomed []DocKey
	var together []Doc
	for batch := range batches {
		var docs []Doc
		for i := range per {
			text := fmt.Sprintf("ordinary words number %d", i)
			if i == 7 {
				text = fmt.Sprintf("secretword%c kept apart", 'a'+batch)
				doomed = append(doomed, DocKey{User: "ann", ID: next})
			}
			docs = append(docs, Doc{ID: next, User: "ann", Text: text})
			next++
		}
		if !apart {
			together = append(together, docs...)
			continue
		}
		if err := ix.Apply(docs, nil, []byte("m")); err != nil {
			t.Fatal(err)
		}
		segments(t, ix)
	}
	if !apart {
		if err := ix.Apply(together, nil, []byte("m")); err != nil {
			t.Fatal(err)
		}
	}
	if files := segments(t, ix); apart != (len(files) > 1) {
		t.Fatalf("test is void: %d segment files", len(files))
	}
	terms := func() []string {
		t.Helper()
		all, err := indextest.ListTerms(ix.Dir())
		if err != nil {
			t.Fatal(err)
		}
		var secret []string
		for _, term := range all {
			if strings.Contains(term, "secretword") {
				secret = append(secret, term)
			}
		}
		return secret
	}
	// scorch may still be writing a merged segment or removing the files
	// it replaced: wait for every batch's word to be in a file.
	for deadline := time.Now().Add(20 * time.Second); len(terms()) != batches; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("test is void: before the delete the files hold %v, want %d secret words", terms(), batches)
		}
	}
	if err := ix.Apply(nil, doomed, []byte("m2")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Purge(ctx, doomed); err != nil {
		t.Fatal(err)
	}
	if got := terms(); len(got) != 0 {
		t.Fatalf("after Purge the files hold %v", got)
	}
	if n, err := ix.Count(); err != nil || n != uint64(batches*(per-1)) {
		t.Fatalf("after Purge the index counts %d, %v; want %d", n, err, batches*(per-1))
	}
	if got := find(t, ix, "ann", "ordinary number"); len(got) != 10 {
		t.Fatalf("after Purge a lookup finds %v", got)
	}
	if m, _ := ix.Marked(); string(m) != "m2" {
		t.Fatalf("after Purge the marker is %q, want m2", m)
	}
}

func TestPurgeOfAPrivateIndex(t *testing.T) {
	ix := newIndex(t, Keywords4)
	if err := ix.Put(Doc{ID: 1, User: "ann", Text: "secretword alone"}, Doc{ID: 2, User: "ann", Text: "plain words"}); err != nil {
		t.Fatal(err)
	}
	segments(t, ix)
	if err := ix.Delete(DocKey{User: "ann", ID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Purge(context.Background(), []DocKey{{User: "ann", ID: 1}}); err != nil {
		t.Fatal(err)
	}
	all, err := indextest.ListTerms(ix.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range all {
		if strings.Contains(term, "secretword") {
			t.Fatalf("after Purge the files hold %q", term)
		}
	}
}

// A segment file the newest snapshot does not use, left by a process that
// closed before scorch removed it, is gone once the kept index is opened
// again: it may hold words of facts deleted since. (scorch removes those no
// snapshot names; removeOrphans those only an older snapshot names, which
// the catch-up test of index/live met.)
func TestOpenKeptRemovesSegmentFilesNoSnapshotUses(t *testing.T) {
	root := filepath.Join(t.TempDir(), "m.db.index")
	ix, _ := openKept(t, root)
	if err := ix.Apply([]Doc{{ID: 1, User: "ann", Text: "secretword kept"}}, nil, []byte("m")); err != nil {
		t.Fatal(err)
	}
	files := segments(t, ix)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(filepath.Dir(files[0]), "000000000000.zap")
	if err := os.WriteFile(old, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ix, fresh := openKept(t, root)
	if fresh {
		t.Fatal("test is void: the kept index was made again")
	}
	if _, err := os.Stat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the older segment file no snapshot uses is still there: %v", err)
	}
	if got := find(t, ix, "ann", "secretword"); !slices.Equal(got, []uint64{1}) {
		t.Errorf("after the sweep: %v", got)
	}
}
