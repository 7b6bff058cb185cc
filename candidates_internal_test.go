package memory

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
