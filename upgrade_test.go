package memory_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// testdata/store-format5.db was written by the program of file format 5,
// whose ids were the store's (three users, a supersede, a conflict, a
// merge, a hard delete), and testdata/store-format5.jsonl is its export
// then. Read-only, the file is read as it is and exports as it did; a
// writable Open moves it into the per-user layout with every id kept, it
// checks clean and exports the same lines, each user's counters where the
// file's were; and its old export imports into a store of today.
func TestAStoreOfFormat5Upgrades(t *testing.T) {
	path, old := oldStore(t, "store-format5", "bob", 2, "Bob lives in Lyon.")

	s := must[*memory.Store](t)(memory.Open(path, 0, nil))
	defer s.Close()
	checkClean(t, s)
	if got := shared(t, snapshot(t, s), 9); !sameLines(got, old) {
		t.Errorf("after the upgrade the store exports\n%s\nwant the lines of\n%s", got, old)
	}
	for _, c := range []struct {
		user string
		id   uint64
		text string
	}{{"", 3, "I work at Globex."}, {"bob", 2, "Bob lives in Lyon."}, {"мила", 5, "Я живу в Москве."}} {
		if f, err := s.Get(ctx, c.user, c.id); err != nil || f.Text != c.text {
			t.Errorf("%q's fact %d after the upgrade: %q, %v; want %q", c.user, c.id, f.Text, err, c.text)
		}
	}
	// No id a user was given is given again: every user counts on from
	// the file's counter (9), a new user from 1.
	for _, u := range []string{"", "bob", "мила"} {
		if f := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: u, Text: "A new fact after the upgrade."})); f.ID != 9 {
			t.Errorf("%q's first fact after the upgrade: id %d, want 9", u, f.ID)
		}
	}
	if f := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "zoe", Text: "I am new here."})); f.ID != 1 {
		t.Errorf("a new user's first fact: id %d, want 1", f.ID)
	}
	if strings.Contains(string(must[[]byte](t)(os.ReadFile(path))), "A secret to delete.") {
		t.Error("the upgrade brought a deleted text back")
	}
	checkClean(t, s)

	fresh, _ := open(t, nil, nil)
	if n, err := fresh.Import(ctx, strings.NewReader(old), nil); err != nil || n != 7 {
		t.Fatalf("the old export into a store of today: %d facts, %v", n, err)
	}
	checkClean(t, fresh)
	if got := shared(t, snapshot(t, fresh), 9); !sameLines(got, old) {
		t.Errorf("the old export, imported, exports\n%s\nwant the lines of\n%s", got, old)
	}
}

// testdata/store-format6.db was written by the program of file format 6,
// each user's data in buckets of their own: store-format5.db upgraded
// by it, then bob's fact 9 and zoe's 1 to 4 (1 superseded by 4, 3 hard
// deleted), so that the users' counters differ; store-format6.jsonl is
// its export then. Read-only it exports as it did; a writable Open moves
// it into format 7's shared buckets, after which it checks clean, exports
// the same, and every user counts on from where they were.
func TestAStoreOfFormat6Upgrades(t *testing.T) {
	path, old := oldStore(t, "store-format6", "zoe", 4, "I am Zoe and I live in Bergen.")

	s := must[*memory.Store](t)(memory.Open(path, 0, nil))
	defer s.Close()
	checkClean(t, s)
	if got := snapshot(t, s); got != old {
		t.Errorf("after the upgrade the store exports\n%s\nwant\n%s", got, old)
	}
	for _, c := range []struct {
		user string
		want uint64
	}{{"", 9}, {"bob", 10}, {"мила", 9}, {"zoe", 5}, {"yan", 1}} {
		if f := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: c.user, Text: "A new fact after the upgrade."})); f.ID != c.want {
			t.Errorf("%q's first fact after the upgrade: id %d, want %d", c.user, f.ID, c.want)
		}
	}
	if _, err := s.Get(ctx, "zoe", 3); err == nil {
		t.Error("zoe's hard-deleted fact 3 is back")
	}
	checkClean(t, s)
}

// oldStore copies testdata/name.db, a store an older program wrote, into
// a temporary folder, and checks that a read-only Open reads it as it
// is: it exports testdata/name.jsonl, its export then, byte for byte, and
// user's fact id has text. It returns the copy's path and that export.
func oldStore(t *testing.T, name, user string, id uint64, text string) (path, export string) {
	t.Helper()
	export = string(must[[]byte](t)(os.ReadFile("testdata/" + name + ".jsonl")))
	path = filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, must[[]byte](t)(os.ReadFile("testdata/"+name+".db")), 0o600); err != nil {
		t.Fatal(err)
	}
	ro := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true}))
	if got := snapshot(t, ro); got != export {
		t.Errorf("read-only, the old file exports\n%s\nwant\n%s", got, export)
	}
	if f := must[memory.Fact](t)(ro.Get(ctx, user, id)); f.Text != text {
		t.Errorf("%s's fact %d, read-only: %q", user, id, f.Text)
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	return path, export
}
