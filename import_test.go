package memory_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// bigExport is an export of n facts, one line each after the header.
func bigExport(t *testing.T, n int) []string {
	t.Helper()
	s, _ := open(t, newClock("2026-01-01"), nil)
	for i := range n {
		if _, err := s.Add(ctx, memory.Note{User: fmt.Sprint(i % 3), Text: fmt.Sprintf("fact %d about the garden", i)}); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	if err := s.Export(ctx, &b); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// Lines are decoded in parallel, in chunks, yet an import of many chunks
// reads back line for line, reports progress in order, and names the first
// bad line of the input whichever chunk holds it.
func TestImportOfManyChunks(t *testing.T) {
	lines := bigExport(t, 2600)
	s, _ := open(t, nil, nil)
	var seen []int
	n, err := s.Import(ctx, strings.NewReader(strings.Join(lines, "\n")+"\n"), &memory.ImportOptions{
		Progress: func(facts int, _ int64) { seen = append(seen, facts) },
	})
	if err != nil || n != 2600 {
		t.Fatalf("import: %d, %v", n, err)
	}
	if fmt.Sprint(seen) != "[1000 2000 2600]" {
		t.Errorf("progress %v", seen)
	}
	var b strings.Builder
	if err := s.Export(ctx, &b); err != nil || b.String() != strings.Join(lines, "\n")+"\n" {
		t.Errorf("re-export differs (%v)", err)
	}

	breakLine := func(i int) string { return strings.Replace(lines[i-1], `"text":"`, `"text":`, 1) }
	for name, tc := range map[string]struct {
		edit func(l []string)
		want string
	}{
		"bad line in a late chunk": {func(l []string) { l[2000] = breakLine(2001) }, "line 2001:"},
		"two bad lines, the first reported": {func(l []string) {
			l[2400], l[1500] = breakLine(2401), breakLine(1501)
		}, "line 1501:"},
		// Line 4 is user "0"'s fact 2 (after the header and the user's
		// counters); ids are each user's.
		"duplicate id across chunks": {func(l []string) { l[2100] = l[3] }, "line 2101: fact id 2 is duplicated"},
		"duplicate before a bad line": {func(l []string) {
			l[900], l[1300] = l[5], breakLine(1301)
		}, "line 901: fact id 4 is duplicated"},
	} {
		t.Run(name, func(t *testing.T) {
			l := append([]string(nil), lines...)
			tc.edit(l)
			st, err := memory.Open(filepath.Join(t.TempDir(), "m.db"), 0, &memory.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			_, err = st.Import(ctx, strings.NewReader(strings.Join(l, "\n")+"\n"), nil)
			if !errors.Is(err, memory.ErrBadImport) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if all, _ := st.List(ctx, "0", &memory.ListOptions{All: true}); len(all) != 0 {
				t.Errorf("a refused import left %d facts", len(all))
			}
		})
	}
}

// A successful import leaves a store, even of an export that holds no
// fact: the new file is not taken for one nothing was written to.
func TestImportOfAnEmptyExportLeavesAStore(t *testing.T) {
	src, _ := open(t, nil, nil)
	var b strings.Builder
	if err := src.Export(ctx, &b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "new.db")
	s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
	if n, err := s.Import(ctx, strings.NewReader(b.String()), nil); err != nil || n != 0 {
		t.Fatalf("import of an empty export: %d, %v", n, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := memory.Open(path, 0, &memory.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the imported store is gone: %v", err)
	}
	defer r.Close()
	if fs, err := r.List(ctx, "", nil); err != nil || len(fs) != 0 {
		t.Errorf("list of the imported store: %v, %v", fs, err)
	}
}

// An export whose decision names another user's facts is refused at import.
func TestImportRefusesDecisionAcrossUsers(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}, Lookup: memory.LookupStems})
	must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "alice", Text: "I live in Lyon."}))
	c.set("2026-02-01")
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{User: "alice", Text: "I live in Paris now, not Lyon."}))
	exp := snapshot(t, s)
	bad := strings.Replace(exp, `{"decision":{"id":1,"at":"2026-02-01T00:00:00Z","user":"alice"`, `{"decision":{"id":1,"at":"2026-02-01T00:00:00Z","user":"mallory"`, 1)
	if bad == exp {
		t.Fatal("the mutation did not apply")
	}
	dst, _ := open(t, c, nil)
	if _, err := dst.Import(ctx, strings.NewReader(bad), nil); !errors.Is(err, memory.ErrBadImport) {
		t.Errorf("import: %v", err)
	}
}
