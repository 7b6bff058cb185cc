package fsx_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/palimpsest-mem/memory/internal/fsx"
)

// The rename refuses to replace, or says it cannot: it never replaces.
func TestRenameNoReplace(t *testing.T) {
	dir := t.TempDir()
	old, taken, free := filepath.Join(dir, "old"), filepath.Join(dir, "taken"), filepath.Join(dir, "free")
	for _, p := range []string{old, taken} {
		if err := os.WriteFile(p, []byte(p), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	err := fsx.RenameNoReplace(old, taken)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no rename that refuses to replace here")
	}
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("onto a file: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(taken); string(b) != taken {
		t.Errorf("the file at the new name became %q", b)
	}
	if err := fsx.RenameNoReplace(old, free); err != nil {
		t.Fatalf("onto nothing: %v", err)
	}
	if b, _ := os.ReadFile(free); string(b) != old {
		t.Errorf("renamed file holds %q", b)
	}
	if _, err := os.Lstat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the old name is still there: %v", err)
	}
}
