//go:build unix

package memory_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// A hard link to the store would keep the deleted text in the inode the
// compaction replaces: Delete refuses a store file with more than one
// name and changes nothing, and Check says it cannot promise deletion.
func TestDeleteRefusesAStoreWithTwoNames(t *testing.T) {
	s, path := open(t, newClock("2026-01-01"), nil)
	secret := "my pin is zzsecretpin"
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: secret}))
	s.Close()
	other := filepath.Join(t.TempDir(), "other.db")
	if err := os.Link(path, other); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
	defer s.Close()
	_, err := s.Delete(ctx, "", f.ID, nil)
	if !errors.Is(err, memory.ErrLinked) || !strings.Contains(err.Error(), "2 names") {
		t.Errorf("Delete of a store with two names: %v, want ErrLinked naming the count", err)
	}
	if _, err := s.Get(ctx, "", f.ID); err != nil {
		t.Errorf("the refused Delete changed the store: %v", err)
	}
	if err := s.Check(ctx); !errors.Is(err, memory.ErrLinked) {
		t.Errorf("Check of a store with two names: %v, want ErrLinked", err)
	}
	a, _ := os.Stat(path)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the store split in two")
	}
	// With the second name gone the delete goes through, and leaves no copy.
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Errorf("Check with one name: %v", err)
	}
	must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
	if data, _ := os.ReadFile(path); bytes.Contains(data, []byte(secret)) {
		t.Error("the deleted text is still in the file")
	}
}
