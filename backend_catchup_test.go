package memory_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/indextest"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/kv/jetstream"
)

// Two stores on one backend stand for two processes on one cluster (two
// `memctl serve`): each keeps a candidate index of its own, and a lookup
// in either sees what the other committed before it began.

// twoStores is a pair of stores on one backend, each with its own folder
// for its candidate index; the stores close with the test.
type twoStores struct {
	a, b *memory.Store
	// aIndex is the folder of a's candidate index.
	aIndex string
}

// noRev is a shared backend that reads no revision alone: a lookup's check
// takes a snapshot instead.
type noRev struct{ kv.Backend }

func (noRev) Close() error { return nil }

// twoOnPerUser opens two stores on one bbolt file's per-user layout, as
// one value: a file one process holds, but the protocol is the cluster's.
func twoOnPerUser(t *testing.T, wrap func(kv.Backend) kv.Backend, o *memory.Options) twoStores {
	t.Helper()
	dir := t.TempDir()
	db, err := kv.Open(filepath.Join(dir, "peruser.db"), 0, &kv.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	be := wrap(db.PerUser())
	var ts twoStores
	ts.aIndex = filepath.Join(dir, "a", "index")
	ts.a = must[*memory.Store](t)(memory.OpenBackend(be, filepath.Join(dir, "a"), o))
	t.Cleanup(func() { ts.a.Close() })
	ts.b = must[*memory.Store](t)(memory.OpenBackend(be, filepath.Join(dir, "b"), o))
	t.Cleanup(func() { ts.b.Close() })
	return ts
}

// onCluster starts one in-process cluster for a test's cases (seconds to
// start), and opens two stores on streams of their own for each case,
// each through a connection and a Backend of its own, as two processes
// would.
func onCluster(t *testing.T) func(t *testing.T, o *memory.Options) twoStores {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := jetstream.StartCluster(ctx, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	n := 0
	return func(t *testing.T, o *memory.Options) twoStores {
		t.Helper()
		n++
		prefix := fmt.Sprintf("cu%d", n)
		dir := t.TempDir()
		open := func(name string) *memory.Store {
			nc, err := nats.Connect(c.ClientURL(), nats.MaxReconnects(-1))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(nc.Close)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			be, err := jetstream.Open(ctx, nc, &jetstream.Options{Prefix: prefix, Cluster: c})
			if err != nil {
				t.Fatal(err)
			}
			s := must[*memory.Store](t)(memory.OpenBackend(be, filepath.Join(dir, name), o))
			t.Cleanup(func() { s.Close() })
			return s
		}
		return twoStores{a: open("a"), b: open("b"), aIndex: filepath.Join(dir, "a", "index")}
	}
}

func TestBackendCatchUp(t *testing.T) {
	t.Run("backend=peruser", func(t *testing.T) {
		catchUpStory(t, twoOnPerUser(t, func(b kv.Backend) kv.Backend { return sharedBackend{b} }, storyOptions()))
	})
	t.Run("backend=peruser-norev", func(t *testing.T) {
		catchUpStory(t, twoOnPerUser(t, func(b kv.Backend) kv.Backend { return noRev{b} }, storyOptions()))
	})
	if testing.Short() {
		t.Skip("the cluster's case starts three nodes")
	}
	two := onCluster(t)
	t.Run("backend=jetstream", func(t *testing.T) { catchUpStory(t, two(t, storyOptions())) })
	t.Run("backend=jetstream/concurrent", func(t *testing.T) { catchUpConcurrent(t, two(t, storyOptions())) })
}

func TestBackendCatchUpConcurrent(t *testing.T) {
	catchUpConcurrent(t, twoOnPerUser(t, func(b kv.Backend) kv.Backend { return sharedBackend{b} }, storyOptions()))
}

func storyOptions() *memory.Options {
	return &memory.Options{Clock: newClock("2026-03-01").Now}
}

// wantFound asserts that user's candidates for text in s hold want and
// none of not.
func wantFound(t *testing.T, s *memory.Store, who, user, text string, want uint64, not ...uint64) {
	t.Helper()
	got := candidateIDs(t, s, user, text)
	if want != 0 && !slices.Contains(got, want) {
		t.Errorf("%s: the candidates of %q are %v, without fact %d", who, text, got, want)
	}
	for _, n := range not {
		if slices.Contains(got, n) {
			t.Errorf("%s: the candidates of %q are %v, with fact %d", who, text, got, n)
		}
	}
}

// wantSearched asserts that Search in s finds fact want through the
// candidate index (the text ranker), and none of not at all.
func wantSearched(t *testing.T, s *memory.Store, who, user, query string, want uint64, not ...uint64) {
	t.Helper()
	r := must[memory.SearchResult](t)(s.Search(ctx, user, query, nil))
	i := slices.IndexFunc(r.Hits, func(h memory.SearchHit) bool { return h.Fact.ID == want })
	if i < 0 || !slices.ContainsFunc(r.Hits[i].Ranks, func(x memory.RankOf) bool { return x.Ranker == memory.RankText }) {
		t.Errorf("%s: Search %q gives %v, without fact %d by its text", who, query, hitIDs(r), want)
	}
	for _, n := range not {
		if slices.Contains(hitIDs(r), n) {
			t.Errorf("%s: Search %q gives %v, with fact %d", who, query, hitIDs(r), n)
		}
	}
}

// catchUpStory: b adds, supersedes and hard-deletes facts a has looked up
// before; a's lookups find the new ones, never the old or the deleted,
// a's index files lose the deleted words, and a's own writes and b's
// lookups of them go on in between. Both stores' Checks stay clean: the
// index of each is compared at the revision each user's data was read.
func catchUpStory(t *testing.T, ts twoStores) {
	a, b := ts.a, ts.b
	piano := must[memory.Fact](t)(a.Add(ctx, memory.Note{User: "ada", Text: "I play the piano every Sunday."}))
	wantFound(t, a, "a, its own fact", "ada", "piano lessons", piano.ID)
	wantFound(t, b, "b, a's fact", "ada", "piano lessons", piano.ID)

	violin := must[memory.Fact](t)(b.Add(ctx, memory.Note{User: "ada", Text: "My sister Clara plays the violin."}))
	wantFound(t, a, "a, b's new fact", "ada", "violin concert", violin.ID)
	wantSearched(t, a, "a, b's new fact", "ada", "violin", violin.ID)
	checkClean(t, a)

	cello := must[memory.Fact](t)(b.Supersede(ctx, "ada", violin.ID, memory.Note{Text: "My sister Clara plays the cello now."}))
	wantFound(t, a, "a, b's successor", "ada", "Clara violin cello", cello.ID, violin.ID)
	wantSearched(t, a, "a, b's successor", "ada", "cello", cello.ID, violin.ID)
	checkClean(t, a)

	// a's own writes, between b's, reach b's lookups and its own.
	flat := must[memory.Fact](t)(a.Add(ctx, memory.Note{User: "ada", Text: "My flat in Lyon has a blue door."}))
	wantFound(t, a, "a, its own fact after b's", "ada", "flat door", flat.ID)
	wantFound(t, b, "b, a's fact after its own", "ada", "flat door", flat.ID)
	wantFound(t, b, "b, its own successor", "ada", "cello", cello.ID, violin.ID)

	// A user a never looked up, written by b alone.
	bees := must[memory.Fact](t)(b.Add(ctx, memory.Note{User: "bob", Text: "I keep bees in the garden."}))
	wantFound(t, a, "a, a user only b wrote", "bob", "bees honey", bees.ID)

	// b hard-deletes a fact a indexed: a never returns it, and once a has
	// looked the user up again no file of a's index holds its words.
	const word = "zzqlocker4471"
	secret := must[memory.Fact](t)(a.Add(ctx, memory.Note{User: "ada", Text: "My locker code is " + word + "."}))
	wantFound(t, a, "a, the secret", "ada", "locker code "+word, secret.ID)
	// Bleve writes its segments in the background: wait for the secret's.
	for deadline := time.Now().Add(20 * time.Second); len(holding(listTerms(t, ts.aIndex), []string{word})) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("test is void: a's index files never held the secret")
		}
	}
	must[[]uint64](t)(b.Delete(ctx, "ada", secret.ID, nil))
	wantFound(t, a, "a, after b's delete", "ada", "locker code "+word, 0, secret.ID)
	if got := holding(listTerms(t, ts.aIndex), []string{word}); len(got) > 0 {
		t.Errorf("after b's delete and a's lookup, a's index files hold %v", got)
	}
	wantFound(t, a, "a, after b's delete", "ada", "piano", piano.ID)
	checkClean(t, a)
	checkClean(t, b)

	// Turns: each store writes on the other's last fact, and both find
	// the current ones, never the replaced.
	last := flat
	for i := range 4 {
		w, r := a, b
		if i%2 == 1 {
			w, r = b, a
		}
		next := must[memory.Fact](t)(w.Supersede(ctx, "ada", last.ID, memory.Note{Text: fmt.Sprintf("My flat in Lyon has a door painted colour number %d.", i)}))
		for _, s := range []*memory.Store{r, w} {
			wantFound(t, s, fmt.Sprintf("turn %d", i), "ada", "flat door painted", next.ID, last.ID)
		}
		last = next
	}
	checkClean(t, a)
	checkClean(t, b)
}

// catchUpConcurrent: a looks up while both stores write the same user;
// once the writers are done, every fact either wrote is found in a, and
// a's Check is clean. Under -race, the catch-up beside a's own commits.
func catchUpConcurrent(t *testing.T, ts twoStores) {
	a, b := ts.a, ts.b
	must[memory.Lookup](t)(a.Candidates(ctx, "ada", "marker", 12)) // a's index is built before the writers
	const per = 12
	var wg sync.WaitGroup
	var mu sync.Mutex
	var facts []memory.Fact
	stop := make(chan struct{})
	for w, s := range []*memory.Store{a, b} {
		wg.Go(func() {
			for i := range per {
				f, err := s.Add(ctx, memory.Note{User: "ada", Text: fmt.Sprintf("Marker zzw%dn%d is a fact of writer %d.", w, i, w)})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				facts = append(facts, f)
				mu.Unlock()
			}
		})
	}
	var lookups sync.WaitGroup
	for range 3 {
		lookups.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := a.Candidates(ctx, "ada", "marker fact of writer", 12); err != nil {
					t.Error(err)
					return
				}
				if _, err := a.Search(ctx, "ada", "marker writer", nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	lookups.Wait()
	if len(facts) != 2*per {
		t.Fatalf("%d facts written", len(facts))
	}
	for _, f := range facts {
		marker := strings.Fields(f.Text)[1]
		wantFound(t, a, "a, after the writers", "ada", marker, f.ID)
	}
	checkClean(t, a)
}

// listTerms lists every term of the index folder root, open: a segment
// file caught while bleve writes it is read again.
func listTerms(t *testing.T, root string) []string {
	t.Helper()
	for try := 0; ; try++ {
		terms, err := indextest.ListTerms(root)
		if err == nil {
			return terms
		}
		if !errors.Is(err, indextest.ErrUnreadable) || try == 50 {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
