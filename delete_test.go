package memory_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// After a hard delete no byte of the text is left in any file in the
// store's directory, free pages included.
func TestDeleteLeavesNoBytes(t *testing.T) {
	c := newClock("2026-01-01")
	s, path := open(t, c, nil)
	secret := "My bank PIN is 4917-SECRET-PIN."
	quote := "quoted-QUOTE-words"
	for i := range 200 {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "filler fact number " + string(rune('a'+i%26))}))
	}
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: secret, Source: memory.Source{Quote: quote}}))
	// Churn so that bbolt rewrites the page holding the secret and frees the old copy.
	must[memory.Fact](t)(s.Invalidate(ctx, "", f.ID, memory.Change{}))
	must[memory.Fact](t)(s.Restore(ctx, "", f.ID, memory.Change{}))
	if !dirContains(t, filepath.Dir(path), secret) {
		t.Fatal("test is void: the secret was never in the file")
	}
	deleted := must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
	if len(deleted) != 1 || deleted[0] != f.ID {
		t.Errorf("deleted %v", deleted)
	}
	for _, needle := range []string{secret, quote} {
		if dirContains(t, filepath.Dir(path), needle) {
			t.Errorf("%q is still in the store's files", needle)
		}
	}
	if _, err := s.Get(ctx, "", f.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("get after delete: %v", err)
	}
	// The store still works after the file was swapped, and ids are not reused.
	g := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "after"}))
	if g.ID <= f.ID {
		t.Errorf("id %d reused after delete of %d", g.ID, f.ID)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := must[*memory.Store](t)(memory.Open(path, 0, nil))
	defer s2.Close()
	if n := len(must[[]memory.Fact](t)(s2.List(ctx, "", memory.ListOptions{All: true}))); n != 201 {
		t.Errorf("%d facts after reopen, want 201", n)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("compacted file mode %o", st.Mode().Perm())
	}
}

func dirContains(t *testing.T, dir, needle string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		found = found || bytes.Contains(b, []byte(needle))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func TestDeleteKeepsNeighboursConsistent(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")
	b := must[memory.Fact](t)(s.Supersede(ctx, a.ID, memory.Note{Text: "I live in Paris."}))
	c.set("2026-03-01")
	d := must[memory.Fact](t)(s.Supersede(ctx, b.ID, memory.Note{Text: "I live in Berlin."}))
	c.set("2026-04-01")

	// Deleting the middle version links the oldest straight to the newest:
	// a→b→c becomes a→c, and the oldest stays superseded.
	must[[]uint64](t)(s.Delete(ctx, "", b.ID, nil))
	ga := must[memory.Fact](t)(s.Get(ctx, "", a.ID))
	gd := must[memory.Fact](t)(s.Get(ctx, "", d.ID))
	if ga.State() != memory.Superseded || ga.SupersededBy != d.ID || gd.Supersedes != a.ID {
		t.Errorf("after deleting the middle: a=%+v d=%+v", ga, gd)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if h := ids(must[[]memory.Fact](t)(s.History(ctx, "", a.ID))); len(h) != 2 || h[1] != d.ID {
		t.Errorf("history of a after delete: %v", h)
	}
	wantAt(t, s, "", "", "", d.ID)
	wantAt(t, s, "", "2026-01-15", "", a.ID)

	// Deleting the head restores what it had replaced: the statement that
	// replaced it is gone.
	must[[]uint64](t)(s.Delete(ctx, "", d.ID, nil))
	ga = must[memory.Fact](t)(s.Get(ctx, "", a.ID))
	if ga.State() != memory.Current || ga.SupersededBy != 0 {
		t.Errorf("after deleting the head: a=%+v", ga)
	}
	evs := must[[]memory.Event](t)(s.Events(ctx, "", a.ID))
	if last := evs[len(evs)-1]; last.Kind != memory.EventRestored || last.Cause != "successor deleted" {
		t.Errorf("a's last step: %+v", last)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteChain(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "v1"}))
	b := must[memory.Fact](t)(s.Supersede(ctx, a.ID, memory.Note{Text: "v2"}))
	d := must[memory.Fact](t)(s.Supersede(ctx, b.ID, memory.Note{Text: "v3"}))
	keep := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "unrelated"}))
	got := must[[]uint64](t)(s.Delete(ctx, "", b.ID, &memory.DeleteOptions{Chain: true}))
	if len(got) != 3 || got[0] != a.ID || got[2] != d.ID {
		t.Errorf("chain delete erased %v", got)
	}
	if all := ids(must[[]memory.Fact](t)(s.List(ctx, "", memory.ListOptions{All: true}))); len(all) != 1 || all[0] != keep.ID {
		t.Errorf("left %v", all)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}
