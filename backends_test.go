package memory_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/kv"
)

// The stories a store tells — supersede, Remember, undo, conflicts, the
// graph, hard delete — told again on each kv.Backend: the same tests,
// whose open (helpers_test.go) puts the store on the backend the subtest
// names.
var backendStories = []struct {
	name string
	test func(*testing.T)
}{
	{"StoryRetroactive", TestStoryRetroactive},
	{"StoryInAdvance", TestStoryInAdvance},
	{"StoryCorrection", TestStoryCorrection},
	{"HistoryChain", TestHistoryChain},
	{"RememberRetroactiveStory", TestRememberRetroactiveStory},
	{"RememberInAdvanceStory", TestRememberInAdvanceStory},
	{"Undo", TestUndo},
	{"UndoStale", TestUndoStale},
	{"RememberPinnedTargetMakesConflict", TestRememberPinnedTargetMakesConflict},
	{"ResolveConflict", TestResolveConflict},
	{"ConflictGoesWithADeletedFact", TestConflictGoesWithADeletedFact},
	{"GraphReadmeStory", TestGraphReadmeStory},
	{"DeleteKeepsNeighboursConsistent", TestDeleteKeepsNeighboursConsistent},
	{"DeleteChain", TestDeleteChain},
}

// backendOpeners open a store on each backend but the default file; the
// store closes with the test.
var backendOpeners = map[string]func(t testing.TB, o *memory.Options) (*memory.Store, string){
	// The per-user layout of a bbolt file (kv's PerUser).
	"peruser": func(t testing.TB, o *memory.Options) (*memory.Store, string) {
		dir := t.TempDir()
		path := filepath.Join(dir, "peruser.db")
		db, err := kv.Open(path, 0, &kv.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		s, err := memory.OpenBackend(db.PerUser(), filepath.Join(dir, "index"), o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s, path
	},
}

func TestStoriesOnBackends(t *testing.T) {
	for name := range backendOpeners {
		t.Run("backend="+name, func(t *testing.T) {
			for _, st := range backendStories {
				t.Run(st.name, st.test)
			}
		})
	}
}

// backendOf is the backend a test runs on: the one a TestStoriesOnBackends
// subtest names, "" for the file.
func backendOf(t testing.TB) string {
	_, rest, ok := strings.Cut(t.Name(), "/backend=")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

func openOnBackend(t testing.TB, name string, o *memory.Options) (*memory.Store, string) {
	t.Helper()
	opener, ok := backendOpeners[name]
	if !ok {
		t.Fatalf("no backend %q", name)
	}
	return opener(t, o)
}
