package indextest_test

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/internal/indextest"
)

// orphanSegments puts a document holding word into a fresh index and
// returns a directory holding copies of its segment files alone, without
// the root that records them, once they hold word, and the terms listed.
// A copy taken while scorch still writes a segment is cut short and cannot
// be read: copy again until every file is whole.
func orphanSegments(t *testing.T, word string) (string, []string) {
	t.Helper()
	an, err := index.NewAnalyzer(index.Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.New(an, filepath.Join(t.TempDir(), "ix"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Put(index.Doc{ID: 1, User: "", Text: "my locker code is " + word}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		orphans := t.TempDir()
		_ = filepath.WalkDir(ix.Dir(), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".zap") {
				if b, err := os.ReadFile(p); err == nil {
					_ = os.WriteFile(filepath.Join(orphans, d.Name()), b, 0o600)
				}
			}
			return nil
		})
		terms, err := indextest.ListTerms(orphans)
		if err != nil && !errors.Is(err, indextest.ErrUnreadable) {
			t.Fatal(err)
		}
		if err == nil && slices.ContainsFunc(terms, func(s string) bool { return strings.HasSuffix(s, word) }) {
			return orphans, terms
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terms of segment files no root records: %v (%v), want one ending in %s", terms, err, word)
		}
	}
}

// ListTerms reads segment files themselves: a segment that no index root
// records (a process killed after writing it, before its root said so) is
// listed too. Its words are on disk, though a reader of the index would
// not show them. That it reads them at all says index writes the format
// ListTerms reads.
func TestListTermsReadsEverySegmentFile(t *testing.T) {
	orphanSegments(t, "zzorphan")
}

// A segment file ListTerms cannot read fails the listing, naming the file,
// rather than being skipped; the terms of the files it could read are
// still returned.
func TestListTermsFailsOnAnUnreadableSegment(t *testing.T) {
	orphans, want := orphanSegments(t, "zzwhole")
	entries, err := os.ReadDir(orphans)
	if err != nil || len(entries) == 0 {
		t.Fatalf("segment files in %s: %v (%v)", orphans, entries, err)
	}
	whole, err := os.ReadFile(filepath.Join(orphans, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	// zap's footer ends with its version, then a CRC, four bytes each.
	older := slices.Clone(whole)
	binary.BigEndian.PutUint32(older[len(older)-8:], 16)
	for name, b := range map[string][]byte{
		"another format (zap 16)": older,
		"cut short":               whole[:len(whole)/2],
		"not a segment":           []byte(strings.Repeat("not a segment file\n", 8)),
		"a few bytes":             []byte("zap"),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(orphans)); err != nil {
				t.Fatal(err)
			}
			bad := filepath.Join(dir, "ffffffffffff.zap")
			if err := os.WriteFile(bad, b, 0o600); err != nil {
				t.Fatal(err)
			}
			terms, err := indextest.ListTerms(dir)
			if !errors.Is(err, indextest.ErrUnreadable) || !strings.Contains(err.Error(), bad) {
				t.Fatalf("ListTerms with %s: error %v, want ErrUnreadable naming %s", name, err, bad)
			}
			if !slices.Equal(terms, want) {
				t.Errorf("ListTerms with %s: terms %v, want those of the readable files %v", name, terms, want)
			}
		})
	}
}
