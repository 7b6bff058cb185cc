package index

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// ListTerms reads segment files themselves: a segment that no index root
// records (a process killed after writing it, before its root said so) is
// listed too. Its words are on disk, though a reader of the index would
// not show them.
func TestListTermsReadsEverySegmentFile(t *testing.T) {
	an, err := NewAnalyzer(Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := New(an, filepath.Join(t.TempDir(), "ix"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Put(Doc{ID: 1, User: "", Text: "my locker code is zzorphan"}); err != nil {
		t.Fatal(err)
	}
	// Segment files alone, without the root that records them. A copy
	// taken while scorch still writes a segment is cut short and cannot
	// be read: copy again until a whole one is there.
	orphans := t.TempDir()
	has := func(terms []string) bool {
		return slices.ContainsFunc(terms, func(s string) bool { return strings.HasSuffix(s, "zzorphan") })
	}
	var terms []string
	for deadline := time.Now().Add(20 * time.Second); !has(terms); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the terms of segment files no root records: %v, want one ending in zzorphan", terms)
		}
		_ = filepath.WalkDir(ix.Dir(), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".zap") {
				if b, err := os.ReadFile(p); err == nil {
					_ = os.WriteFile(filepath.Join(orphans, d.Name()), b, 0o600)
				}
			}
			return nil
		})
		if terms, err = ListTerms(orphans); err != nil {
			t.Fatal(err)
		}
	}
}
