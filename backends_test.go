package memory_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/kv/jetstream"
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
	for _, name := range slices.Sorted(maps.Keys(backendOpeners)) {
		t.Run("backend="+name, func(t *testing.T) {
			for _, st := range backendStories {
				t.Run(st.name, st.test)
			}
		})
	}
	// The cluster: three JetStream servers in this process, each story on
	// streams of its own.
	t.Run("backend=jetstream", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := jetstream.StartCluster(ctx, t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		nc, err := nats.Connect(c.ClientURL(), nats.MaxReconnects(-1))
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		co := &clusterOpener{c: c, nc: nc}
		clusterStory.Store(co)
		defer clusterStory.Store(nil)
		for _, st := range backendStories {
			t.Run(st.name, st.test)
		}
	})
}

// clusterStory is what open needs to put a story's store on the cluster
// TestStoriesOnBackends runs; nil outside it. The stories run one at a
// time, never in parallel.
var clusterStory atomic.Pointer[clusterOpener]

type clusterOpener struct {
	c  *jetstream.Cluster
	nc *nats.Conn
	// stores counts the stores opened: each is on streams of its own.
	stores atomic.Int64
}

func (co *clusterOpener) open(t testing.TB, o *memory.Options) (*memory.Store, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := jetstream.Open(ctx, co.nc, &jetstream.Options{Prefix: fmt.Sprintf("s%d", co.stores.Add(1)), Cluster: co.c})
	if err != nil {
		t.Fatal(err)
	}
	s, err := memory.OpenBackend(b, filepath.Join(t.TempDir(), "index"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, co.c.NodeDir(0)
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
	if name == "jetstream" {
		co := clusterStory.Load()
		if co == nil {
			t.Fatal("no cluster: a story on the jetstream backend runs under TestStoriesOnBackends")
		}
		return co.open(t, o)
	}
	opener, ok := backendOpeners[name]
	if !ok {
		t.Fatalf("no backend %q", name)
	}
	return opener(t, o)
}
