package memory_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// pathState maps every path at and below p (a symlink is not followed) to
// its mode and, for a regular file, its content: what must not change.
func pathState(t *testing.T, p string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(p string)
	walk = func(p string) {
		st, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		v := st.Mode().String()
		switch {
		case st.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			v += " " + string(b)
		case st.Mode()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				t.Fatal(err)
			}
			v += " -> " + l
		case st.IsDir():
			es, err := os.ReadDir(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				walk(filepath.Join(p, e.Name()))
			}
		}
		out[p] = v
	}
	walk(p)
	return out
}

// Whatever the store did not make at <store>.index — a folder of the
// user's, an empty one, a file, a symlink to a folder — a writable Open, a
// read-only Open, lookups and Check leave as it was: not swept, not
// chmodded, nothing written in it. Lookups fail saying what is in the way
// and what to do; the store still reads and writes.
func TestIndexPathTakenIsLeftAlone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, root string) (watch []string)
	}{
		{"a folder of the user's", func(t *testing.T, root string) []string {
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "README.txt"), []byte("mine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{root}
		}},
		{"an empty folder", func(t *testing.T, root string) []string {
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			return []string{root}
		}},
		{"a folder with an h- folder", func(t *testing.T, root string) []string {
			if err := os.MkdirAll(filepath.Join(root, "h-photos"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "h-photos", "lock"), []byte("mine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{root}
		}},
		{"a file", func(t *testing.T, root string) []string {
			if err := os.WriteFile(root, []byte("mine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{root}
		}},
		{"a symlink to a folder", func(t *testing.T, root string) []string {
			target := filepath.Join(t.TempDir(), "elsewhere")
			if err := os.Mkdir(target, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(target, "README.txt"), []byte("mine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, root); err != nil {
				t.Fatal(err)
			}
			return []string{root, target}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(privateDir(t), "notes.db")
			root := indexRoot(path)
			s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
			must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My garden has three apple trees."}))
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			watch := tc.plant(t, root)
			before := map[string]string{}
			for _, p := range watch {
				for k, v := range pathState(t, p) {
					before[k] = v
				}
			}
			unchanged := func(when string) {
				t.Helper()
				after := map[string]string{}
				for _, p := range watch {
					if _, err := os.Lstat(p); err != nil {
						t.Fatalf("%s: %s is gone: %v", when, p, err)
					}
					for k, v := range pathState(t, p) {
						after[k] = v
					}
				}
				for k, v := range before {
					if after[k] != v {
						t.Errorf("%s: %s was %q, is %q", when, k, v, after[k])
					}
				}
				for k, v := range after {
					if _, ok := before[k]; !ok {
						t.Errorf("%s: %s (%s) appeared", when, k, v)
					}
				}
			}
			lookupFails := func(when string, s *memory.Store) {
				t.Helper()
				_, err := s.Candidates(ctx, "", "apple trees", 3)
				if !errors.Is(err, memory.ErrIndexDir) || !strings.Contains(err.Error(), root) || !strings.Contains(err.Error(), "move it away") {
					t.Errorf("%s: a lookup: %v; want ErrIndexDir naming %s and what to do", when, err, root)
				}
				if err := s.Check(ctx); !errors.Is(err, memory.ErrIndexDir) {
					t.Errorf("%s: Check: %v; want ErrIndexDir", when, err)
				}
			}

			s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
			unchanged("after a writable Open")
			must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "The apple trees came from my grandmother."}))
			lookupFails("writable", s)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			unchanged("after a writable Open, a lookup and Close")

			s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true}))
			unchanged("after a read-only Open")
			if got := must[[]memory.Fact](t)(s.List(ctx, "", nil)); len(got) != 2 {
				t.Errorf("read-only List: %d facts, want 2", len(got))
			}
			lookupFails("read-only", s)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			unchanged("after a read-only Open, a lookup and Close")
		})
	}
}

// The store's own index folder is marked as the store's, privately, while
// an index lives in it; what the user puts in it is never removed, and the
// folder stays as long as it holds something besides the marker. Being the
// store's, it is made private again if loosened.
func TestIndexFolderKeepsWhatIsNotAnIndex(t *testing.T) {
	path := filepath.Join(privateDir(t), "notes.db")
	root := indexRoot(path)
	s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My garden has three apple trees."}))
	must[memory.Lookup](t)(s.Candidates(ctx, "", "apple trees", 3))
	marker, err := os.ReadFile(filepath.Join(root, ".palimpsest-index"))
	if err != nil || !strings.Contains(string(marker), "safe to delete") {
		t.Errorf("the marker of the store's index folder: %q, %v", marker, err)
	}
	wantPrivate(t, "with the index built", root)
	mine := filepath.Join(root, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		es, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return out
	}
	// The kept index stays beside the user's file, which stays untouched.
	want := []string{".palimpsest-index", "kept", "notes.txt"}
	if got := names(); !slices.Equal(got, want) {
		t.Errorf("after Close: %v, want %v", got, want)
	}
	for _, ro := range []bool{false, true} {
		// Its own folder, loosened, is made private again before an index
		// goes in.
		if err := os.Chmod(root, 0o755); err != nil {
			t.Fatal(err)
		}
		s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true, ReadOnly: ro}))
		if got := candidateIDs(t, s, "", "apple trees"); len(got) != 1 {
			t.Errorf("read-only %v: lookup found %v", ro, got)
		}
		if st, err := os.Stat(root); err != nil || st.Mode().Perm() != 0o700 {
			t.Errorf("read-only %v: the index folder: %v, %v", ro, st, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if got := names(); !slices.Equal(got, want) {
			t.Errorf("read-only %v: after Open, a lookup and Close: %v, want %v", ro, got, want)
		}
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "mine\n" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
}

// A store in a folder its reader cannot write lists, and lookups, which
// keep their index beside the store, say that they need write access
// there. (As root, permissions do not bind: TestReaderWhoIsNotTheOwner
// runs the reader as another user.)
func TestLookupNeedsWriteAccessBesideTheStore(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("as root a folder's mode does not stop writes; TestReaderWhoIsNotTheOwner covers this as another user")
	}
	dir := privateDir(t)
	path := filepath.Join(dir, "notes.db")
	s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My garden has three apple trees."}))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true}))
	defer s.Close()
	if got := must[[]memory.Fact](t)(s.List(ctx, "", nil)); len(got) != 1 {
		t.Errorf("List: %d facts", len(got))
	}
	_, err := s.Candidates(ctx, "", "apple trees", 3)
	if !errors.Is(err, memory.ErrIndexDir) || !strings.Contains(err.Error(), "need write access to "+dir) {
		t.Errorf("a lookup: %v; want ErrIndexDir saying it needs write access to %s", err, dir)
	}
}
