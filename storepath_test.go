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

// A hard delete through a symlink compacts the link's target: the link
// stays a link, the one real file loses the deleted text, and later
// writes through the link land in it.
func TestDeleteThroughASymlinkKeepsOneStore(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "store.db")
	if err := os.Mkdir(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	s := must[*memory.Store](t)(memory.Open(real, 0, &memory.Options{NoSync: true}))
	secret := "My PIN is 4917-SECRET-PIN."
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: secret}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I like tea."}))
	s.Close()
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(filepath.Join("real", "store.db"), link); err != nil {
		t.Fatal(err)
	}

	s = must[*memory.Store](t)(memory.Open(link, 0, &memory.Options{NoSync: true}))
	defer s.Close()
	must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("after the delete the link is not a symlink (%v)", err)
	}
	if b, _ := os.ReadFile(real); bytes.Contains(b, []byte(secret)) {
		t.Error("the real file still holds the deleted text")
	}
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "written through the link after the delete"}))
	s.Close()
	r := must[*memory.Store](t)(memory.Open(real, 0, &memory.Options{ReadOnly: true}))
	defer r.Close()
	var texts []string
	for _, f := range must[[]memory.Fact](t)(r.List(ctx, "", nil)) {
		texts = append(texts, f.Text)
	}
	if strings.Join(texts, "|") != "I like tea.|written through the link after the delete" {
		t.Errorf("the real file holds %q", texts)
	}
}

// A write refused on a path with no store leaves no file behind: the store
// Open made holds nothing, and Close removes it.
func TestARefusedWriteCreatesNoFile(t *testing.T) {
	src, _ := open(t, newClock("2026-01-01"), nil)
	must[memory.Fact](t)(src.Add(ctx, memory.Note{Text: "I like tea."}))
	var export bytes.Buffer
	if err := src.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(export.String(), "\n")
	bad := lines[0] + "{not json\n"

	for name, write := range map[string]func(*memory.Store) error{
		"add of an empty text": func(s *memory.Store) error {
			_, err := s.Add(ctx, memory.Note{Text: "  "})
			return err
		},
		"import of a bad line": func(s *memory.Store) error {
			_, err := s.Import(ctx, strings.NewReader(bad), nil)
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "memory.db")
			s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
			if err := write(s); err == nil {
				t.Fatal("the write was not refused")
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("the folder holds %v after a refused write", entries)
			}
		})
	}
}

// What cannot be a store is refused by name, not misread as a damaged one.
func TestOpenNamesWhatIsNotAStore(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, what := range map[string]string{dir: "is a directory", empty: "is an empty file"} {
		for _, ro := range []bool{false, true} {
			_, err := memory.Open(path, 0, &memory.Options{ReadOnly: ro})
			if !errors.Is(err, memory.ErrNotStore) || errors.Is(err, memory.ErrCorrupt) || !strings.Contains(err.Error(), what) {
				t.Errorf("%s, read-only %v: %v, want ErrNotStore saying it %s", path, ro, err, what)
			}
		}
	}
}
