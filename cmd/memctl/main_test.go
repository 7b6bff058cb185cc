package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A refused write on a path with no store leaves nothing: not the folders
// memctl made for the store, nor the store file. Folders that were there
// before stay.
func TestRefusedWriteCreatesNothing(t *testing.T) {
	t.Parallel()
	absent := func(t *testing.T, path string) {
		t.Helper()
		if _, err := os.Lstat(path); !os.IsNotExist(err) {
			t.Errorf("%s exists after a refused write (%v)", path, err)
		}
	}
	present := func(t *testing.T, path string) {
		t.Helper()
		if _, err := os.Lstat(path); err != nil {
			t.Errorf("%s, there before, is gone: %v", path, err)
		}
	}

	// Refused before the store is opened: a bad flag, and a name the store
	// file cannot have (the system refuses it once the folders are made).
	t.Run("refused before the store opens", func(t *testing.T) {
		dir := t.TempDir()
		fails(t, 2, "--db", filepath.Join(dir, "a", "b", "store.db"), "--lookup", "bogus", "add", "x")
		absent(t, filepath.Join(dir, "a"))
		fails(t, 1, "--db", filepath.Join(dir, "a", "b", strings.Repeat("x", 300)), "add", "x")
		absent(t, filepath.Join(dir, "a"))
	})
	t.Run("only the folders this run made", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "a"), 0o700); err != nil {
			t.Fatal(err)
		}
		fails(t, 1, "--db", filepath.Join(dir, "a", "b", "c", strings.Repeat("x", 300)), "add", "x")
		present(t, filepath.Join(dir, "a"))
		absent(t, filepath.Join(dir, "a", "b"))
	})

	// Refused by the store, which was opened: the store file, never written,
	// goes at Close, then the folders.
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{"empty add", "", []string{"add", ""}},
		{"failed import", "{\"format\":\"not an export\"}\n", []string{"import", "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "a", "b", "store.db")
			r := memctl(t, tc.stdin, append([]string{"--db", db}, tc.args...)...)
			if r.code != 1 || r.stdout != "" {
				t.Fatalf("memctl %v = %+v, want a refusal", tc.args, r)
			}
			absent(t, db)
			absent(t, filepath.Join(dir, "a"))
		})
	}

	t.Run("a write that succeeds keeps them", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "a", "b", "store.db")
		ok(t, "--db", db, "add", "A fact.")
		present(t, db)
		if fi, err := os.Stat(filepath.Dir(db)); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("the store's folder is %v (%v), want 0700", fi, err)
		}
	})
}
