package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A new export file is 0600 (it holds personal data; an existing file keeps
// the mode its owner gave it, see TestExportReplacesFileKeepingMode), and a
// delete through memctl leaves the store private, with no temporary file
// beside it and no byte of the text in it or in a later export.
func TestExportAndDeleteStayPrivate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "memory.db")
	const secret = "My locker code is QXZ7731ALPHA."
	ok(t, "--db", db, "add", "I like tea.")
	ok(t, "--db", db, "add", secret)

	out := filepath.Join(t.TempDir(), "export.jsonl")
	ok(t, "--db", db, "export", out)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(secret)) {
		t.Fatalf("test is void: the export lacks the fact:\n%s", b)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o600 {
		t.Errorf("a new export file has mode %o, want 600", fi.Mode().Perm())
	}

	ok(t, "--db", db, "delete", "2")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "memory.db" && e.Name() != "memory.db.index" {
			t.Errorf("the store's directory holds %s, want only memory.db and its kept index", e.Name())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "memory.db.index", "*")); len(left) > 2 {
		t.Errorf("the index folder holds %v, want its marker and the kept index", left)
	}
	if fi, _ := os.Stat(db); fi.Mode().Perm() != 0o600 {
		t.Errorf("store mode %o after delete, want 600", fi.Mode().Perm())
	}
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("QXZ7731ALPHA")) {
		t.Error("the deleted text is still in the store file")
	}
	ok(t, "--db", db, "export", out)
	if b, _ := os.ReadFile(out); bytes.Contains(b, []byte("QXZ7731ALPHA")) || !bytes.Contains(b, []byte("I like tea.")) {
		t.Errorf("export after delete:\n%s", b)
	}
}
