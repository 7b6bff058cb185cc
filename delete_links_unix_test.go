//go:build unix

package memory_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// A hard link to the store names the same inode, which a hard delete
// scrubs in place: Delete goes through, the text leaves the file under
// both names, and the store stays one file.
func TestDeleteOfAStoreWithTwoNames(t *testing.T) {
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
	must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
	if _, err := s.Get(ctx, "", f.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("Get of the deleted fact: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Errorf("Check of a store with two names: %v", err)
	}
	a, _ := os.Stat(path)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the store split in two")
	}
	for _, name := range []string{path, other} {
		if data, _ := os.ReadFile(name); bytes.Contains(data, []byte(secret)) {
			t.Errorf("the deleted text is still in %s", name)
		}
	}
}
