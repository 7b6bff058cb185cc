package memory_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// An import fills a file beside the store, so nothing of it is seen until
// it has read everything; a write that lands meanwhile makes the store no
// longer empty, and the import is refused at the end with ErrNotEmpty,
// the write kept and no file left beside the store.
func TestImportRefusedWhenTheStoreIsWrittenMeanwhile(t *testing.T) {
	lines := bigExport(t, 1200)
	s, path := open(t, nil, nil)
	pw, done := importUnderWay(t, s, path, lines[:700])
	// The import has begun filling its file: the store is still empty.
	if all := must[[]memory.Fact](t)(s.List(ctx, "0", &memory.ListOptions{All: true})); len(all) != 0 {
		t.Errorf("facts of an import in progress are visible: %d", len(all))
	}
	w := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "0", Text: "written during the import"}))
	if _, err := io.WriteString(pw, strings.Join(lines[700:], "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	select {
	case err := <-done:
		if !errors.Is(err, memory.ErrNotEmpty) {
			t.Fatalf("import beside a write: %v, want ErrNotEmpty", err)
		}
	case <-time.After(time.Minute): // a guard against a hang only
		t.Fatal("the import never returned")
	}
	all := must[[]memory.Fact](t)(s.List(ctx, "0", &memory.ListOptions{All: true}))
	if len(all) != 1 || all[0].ID != w.ID {
		t.Errorf("the store holds %+v, want only the write made during the import", all)
	}
	if _, err := os.Stat(path + ".import"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused import left its file: %v", err)
	}
}

// An import that fails midway (a bad line, a cancelled context, a broken
// reader) leaves the store empty and nothing beside it.
func TestImportFailureLeavesNothingBeside(t *testing.T) {
	lines := bigExport(t, 1100)
	for name, r := range map[string]func() io.Reader{
		"bad line": func() io.Reader {
			l := append([]string(nil), lines...)
			l[1050] = "{not json"
			return strings.NewReader(strings.Join(l, "\n") + "\n")
		},
		"broken reader": func() io.Reader {
			return io.MultiReader(strings.NewReader(strings.Join(lines[:900], "\n")+"\n"), errReader{})
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "m.db")
			s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
			if _, err := s.Import(ctx, r(), nil); err == nil {
				t.Fatal("the import went through")
			}
			if all := must[[]memory.Fact](t)(s.List(ctx, "0", &memory.ListOptions{All: true})); len(all) != 0 {
				t.Errorf("a failed import left %d facts", len(all))
			}
			s.Close()
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				names := []string{}
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("a failed import into a new store left %v", names)
			}
		})
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("the disk went away") }

// One import at a time: a second one while the first is under way is
// refused with ErrImportBusy and changes nothing; the first goes through.
func TestImportOneAtATime(t *testing.T) {
	lines := bigExport(t, 50)
	s, path := open(t, nil, nil)
	pw, done := importUnderWay(t, s, path, lines[:10])
	if _, err := s.Import(ctx, strings.NewReader(strings.Join(lines, "\n")+"\n"), nil); !errors.Is(err, memory.ErrImportBusy) {
		t.Errorf("a second import beside the first: %v, want ErrImportBusy", err)
	}
	if _, err := io.WriteString(pw, strings.Join(lines[10:], "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatalf("the first import: %v", err)
	}
	if n := len(must[[]memory.Fact](t)(s.List(ctx, "0", &memory.ListOptions{All: true}))); n == 0 {
		t.Error("the first import left no facts")
	}
}

// importUnderWay starts an Import of s from a pipe, writes the first lines
// to it, and returns once the import is filling its file beside the store
// (at path): the rest goes to the returned writer, and the import's error
// to done.
func importUnderWay(t *testing.T, s *memory.Store, path string, first []string) (*io.PipeWriter, <-chan error) {
	t.Helper()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := s.Import(ctx, pr, nil)
		done <- err
	}()
	if _, err := io.WriteString(pw, strings.Join(first, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(path + ".import"); err == nil {
			return pw, done
		}
		if time.Now().After(deadline) { // a guard against a hang only
			t.Fatal("the import never made its file")
		}
	}
}
