package index

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
)

// segments lists the index's segment files once every segment the
// searches read is one of them (persisted, no longer in memory).
func segments(t *testing.T, ix *Index) []string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !ix.Persisted() {
			continue
		}
		var zaps []string
		filepath.WalkDir(ix.Dir(), func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".zap") {
				zaps = append(zaps, p)
			}
			return nil
		})
		if len(zaps) > 0 {
			return zaps
		}
	}
	t.Fatal("test is void: the segments were not persisted")
	return nil
}

// A segment file truncated under a live index makes a search fault on
// the mapped memory (SIGBUS): the search returns ErrFault instead of
// killing the process.
func TestSearchOfATruncatedSegmentFaultsToAnError(t *testing.T) {
	ix := newIndex(t, Keywords4)
	var docs []Doc
	for i := range 2000 {
		docs = append(docs, Doc{ID: uint64(i + 1), Text: fmt.Sprintf("garden fact number %d with apples%d", i, i)})
	}
	if err := ix.Put(docs...); err != nil {
		t.Fatal(err)
	}
	for _, p := range segments(t, ix) {
		if err := os.Truncate(p, 0); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	for i := 0; i < 50 && err == nil; i++ {
		_, err = ix.Search(context.Background(), "", ix.Analyzer().Analyze(fmt.Sprintf("garden apples%d", i*37)), 10)
	}
	if !errors.Is(err, ErrFault) {
		t.Fatalf("search of a truncated segment: %v, want ErrFault", err)
	}
	t.Log(err)
}
