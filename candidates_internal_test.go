package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/index"
)

// Close while the first lookup is building the index: the build that ends
// after Close must not put its index in use, and Close returns only once
// no index directory is left.
func TestCloseDuringTheFirstBuildLeavesNoIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, Note{Text: "My garden has three apple trees."}); err != nil {
		t.Fatal(err)
	}
	built, release := make(chan string), make(chan struct{})
	s.hookAfterBuild = func(ix *index.Index) {
		built <- ix.Dir()
		<-release
	}
	lookup := make(chan error, 1)
	go func() {
		_, err := s.Candidates(ctx, "", "apple trees", 1)
		lookup <- err
	}()
	dir := <-built
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	// Give Close the time to get as far as it goes on its own (all the way,
	// before the fix) before the build goes on; either order must end well.
	time.Sleep(100 * time.Millisecond)
	close(release)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if err := <-lookup; err != nil && !errors.Is(err, ErrClosed) {
		t.Errorf("the lookup: %v", err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the index built during Close is still there: %s (%v)", dir, err)
	}
	if _, err := os.Lstat(path + ".index"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the index directory is still there after Close: %v", err)
	}
	if _, err := s.Candidates(ctx, "", "apple trees", 1); !errors.Is(err, ErrClosed) {
		t.Errorf("a lookup after Close: %v", err)
	}
	if _, err := os.Lstat(path + ".index"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a lookup after Close made an index directory: %v", err)
	}
}

// Close cancels a build that is still reading the store, instead of
// waiting for it to read everything.
func TestCloseCancelsABuild(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.Add(ctx, Note{Text: "My garden has three apple trees."}); err != nil {
			t.Fatal(err)
		}
	}
	// The first page read waits for Close to begin.
	reading := make(chan struct{})
	s.hookBuildPage = func() {
		close(reading)
		<-s.life.Done()
	}
	lookup := make(chan error, 1)
	go func() {
		_, err := s.Candidates(ctx, "", "apple trees", 1)
		lookup <- err
	}()
	<-reading
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-lookup; !errors.Is(err, ErrClosed) {
		t.Errorf("the lookup whose build Close cancelled: %v", err)
	}
	if _, err := os.Lstat(path + ".index"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the index directory is still there after Close: %v", err)
	}
}

// An index whose segment files are truncated under it (its memory maps
// fault, SIGBUS) is dropped by the lookup that meets the fault and built
// again from the store: the lookup still answers.
func TestLookupRebuildsAFaultedIndex(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var want uint64
	for i := range 500 {
		text := fmt.Sprintf("My garden fact number %d mentions apples.", i)
		if i == 499 {
			text = "My garden has a zebrawood bench."
		}
		f, err := s.Add(ctx, Note{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		want = f.ID
	}
	lookup := func() {
		t.Helper()
		got, err := s.Candidates(ctx, "", "zebrawood", 1)
		if err != nil || len(got.Candidates) != 1 || got.Candidates[0].Fact.ID != want {
			t.Fatalf("lookup: %+v, %v", got.Candidates, err)
		}
	}
	lookup()
	s.ixMu.RLock()
	first := s.ix.Dir()
	s.ixMu.RUnlock()
	// The searches read a segment's file once the persister has written it
	// and put it in place of the segment in memory; truncate the files
	// until a lookup meets one.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		filepath.WalkDir(first, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".zap") {
				os.Truncate(p, 0)
			}
			return nil
		})
		lookup()
		s.ixMu.RLock()
		now := s.ix.Dir()
		s.ixMu.RUnlock()
		if now != first {
			if _, err := os.Lstat(first); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the faulted index's directory is still there: %v", err)
			}
			return
		}
	}
	t.Fatal("test is void: no lookup met a truncated segment")
}

// TestOverlapCountsWholeTerms checks that the overlap counts shared words
// and synonym sets but not shared roots, which are no whole words.
func TestOverlapCountsWholeTerms(t *testing.T) {
	q := index.Terms{Words: []string{"mother", "piano", "saturday"}}
	d := index.Terms{Words: []string{"≈mother", "pianist", "saturday"}}
	why := index.Why{Terms: []Term{{Text: "saturday"}, {Text: "mother", Kind: TermSynonym}, {Text: "pian", Kind: TermRoot}}}
	if got := overlap(q, d, why); got != 0.5 {
		t.Errorf("overlap %v, want 2 shared of 4 = 0.5", got)
	}
}
