package memory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/indextest"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// clock is an injectable record-time clock that a test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(day string) *clock { c := &clock{}; c.set(day); return c }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) set(day string) { c.mu.Lock(); defer c.mu.Unlock(); c.t = date(day) }

// date parses YYYY-MM-DD or RFC 3339, in UTC.
func date(s string) time.Time {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// open makes a store in a fresh temporary directory. It never syncs: a
// temporary store outlives no crash, and fsync would only slow the suite. A
// test of durability opens its store with memory.Open itself.
//
// Under TestStoriesOnBackends the store is on the backend its subtest
// names (backends_test.go), and path is where that backend keeps its bytes.
func open(t testing.TB, c *clock, opts *memory.Options) (*memory.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	var o memory.Options
	if opts != nil {
		o = *opts
	}
	o.NoSync = true
	if c != nil {
		o.Clock = c.Now
	}
	if name := backendOf(t); name != "" {
		return openOnBackend(t, name, &o)
	}
	s, err := memory.Open(path, 0, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func ids(fs []memory.Fact) []uint64 {
	out := make([]uint64, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

// wantAt asserts which facts At returns.
func wantAt(t *testing.T, s *memory.Store, user, event, known string, want ...uint64) {
	t.Helper()
	var e, k time.Time
	if event != "" {
		e = date(event)
	}
	if known != "" {
		k = date(known)
	}
	got, err := s.At(context.Background(), user, e, k)
	if err != nil {
		t.Fatal(err)
	}
	if want == nil {
		want = []uint64{}
	}
	if g := ids(got); !slices.Equal(g, want) {
		t.Errorf("At(event %q, known %q) = %v, want %v", event, known, g, want)
	}
}

// lastDecision returns the user's newest decision.
func lastDecision(t *testing.T, s *memory.Store, user string) memory.Decision {
	t.Helper()
	ds := must[[]memory.Decision](t)(s.Decisions(ctx, user, 1))
	if len(ds) != 1 {
		t.Fatalf("no decision for user %q", user)
	}
	return ds[0]
}

func getFact(t *testing.T, s *memory.Store, user string, id uint64) memory.Fact {
	t.Helper()
	return must[memory.Fact](t)(s.Get(ctx, user, id))
}

func allFacts(t *testing.T, s *memory.Store, user string) []memory.Fact {
	t.Helper()
	return must[[]memory.Fact](t)(s.List(ctx, user, &memory.ListOptions{All: true}))
}

func checkClean(t *testing.T, s *memory.Store) {
	t.Helper()
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check: %v", err)
	}
}

// successorsOK asserts that no fact has more than one successor naming it,
// and at most one of them current.
func successorsOK(t *testing.T, s *memory.Store, user string) {
	t.Helper()
	succ := map[uint64][]memory.Fact{}
	for _, f := range allFacts(t, s, user) {
		if f.Supersedes != 0 {
			succ[f.Supersedes] = append(succ[f.Supersedes], f)
		}
	}
	for id, fs := range succ {
		cur := 0
		for _, f := range fs {
			if f.State() == memory.Current {
				cur++
			}
		}
		if len(fs) > 1 || cur > 1 {
			t.Errorf("fact %d has successors %v (%d current)", id, ids(fs), cur)
		}
	}
}

// funcDecider is a memory.Decider made of a function.
type funcDecider struct {
	name string
	fn   func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error)
}

func (d *funcDecider) Name() string { return d.name }
func (d *funcDecider) Decide(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
	return d.fn(ctx, in)
}

// alwaysUpdate1 answers update 1 when there is a candidate, else add.
func alwaysUpdate1(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
	if len(in.Candidates) == 0 {
		return memory.Verdict{Action: memory.ActionAdd, Reason: "no candidates", Decider: "custom"}, nil
	}
	return memory.Verdict{Action: memory.ActionUpdate, Target: 1, Reason: "always update 1", Decider: "custom"}, nil
}

// conflictStore makes a conflict: the fact is pinned while the decider
// thinks, so the update it answers meets a pinned target at apply time.
func conflictStore(t *testing.T, c *clock) (s *memory.Store, existing memory.Fact, out memory.Outcome) {
	t.Helper()
	dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
		if len(in.Candidates) > 0 {
			for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", nil)) {
				if f.Text == in.Candidates[0].Text {
					must[memory.Fact](t)(s.Pin(ctx, "", f.ID))
				}
			}
		}
		return alwaysUpdate1(ctx, in)
	}}
	s, _ = open(t, c, &memory.Options{NoSync: true, Decider: dec})
	existing = must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."}))
	d := out.Decision
	if d.Action != memory.ActionAdd || d.Proposed != memory.ActionUpdate || d.Target != existing.ID || d.Conflict == 0 ||
		out.Fact.ID == 0 || d.Added != out.Fact.ID || !strings.Contains(d.Reason, "pinned") {
		t.Fatalf("decision %+v", d)
	}
	if g := getFact(t, s, "", existing.ID); g.State() != memory.Current || !g.Pinned {
		t.Fatalf("pinned fact %+v", g)
	}
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 1 || cs[0].ID != d.Conflict || cs[0].New != out.Fact.ID || cs[0].Existing != existing.ID ||
		cs[0].Decision != d.ID || cs[0].ResolvedAt != nil || cs[0].Reason == "" {
		t.Fatalf("conflicts %+v", cs)
	}
	if n := len(must[[]memory.Conflict](t)(s.Conflicts(ctx, "bob", &memory.ConflictOptions{All: true}))); n != 0 {
		t.Errorf("bob sees %d conflicts", n)
	}
	checkClean(t, s)
	return s, existing, out
}

var ctx = context.Background()

func second[T any](_ T, err error) error { return err }

// snapshot is the whole store as its export: equal snapshots, equal stores.
func snapshot(t testing.TB, s *memory.Store) string {
	t.Helper()
	var b strings.Builder
	if err := s.Export(ctx, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func candidateIDs(t *testing.T, s *memory.Store, user, text string) []uint64 {
	t.Helper()
	l, err := s.Candidates(ctx, user, text, memory.DefaultCandidates)
	if err != nil {
		t.Fatal(err)
	}
	out := []uint64{}
	for _, c := range l.Candidates {
		out = append(out, c.Fact.ID)
	}
	return out
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

// traces lists the needles found in the raw bytes of any file below dirs.
func traces(t *testing.T, dirs []string, needles []string) []string {
	t.Helper()
	var found []string
	for _, n := range needles {
		for _, d := range dirs {
			if dirContains(t, d, n) {
				found = append(found, n+" in "+d)
			}
		}
	}
	return found
}

func ollamaStore(t *testing.T, c *clock, srv *ollamatest.Server, fallback memory.FallbackPolicy) *memory.Store {
	t.Helper()
	dec := must[memory.Decider](t)(memory.OllamaDecider("m", &memory.OllamaOptions{Host: srv.URL, Timeout: 300 * time.Millisecond}))
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: dec, Lookup: memory.LookupTopics, Fallback: fallback})
	return s
}

func reply(action string, target any, eventFrom, grain string) string {
	ef, gr := "null", "null"
	if eventFrom != "" {
		ef = strconv.Quote(eventFrom)
	}
	if grain != "" {
		gr = strconv.Quote(grain)
	}
	tg, _ := json.Marshal(target)
	return fmt.Sprintf(`{"reasoning":"scripted","action":%q,"target":%s,"event_from":%s,"grain":%s}`, action, tg, ef, gr)
}

// indexRoot is where the store at path keeps its candidate index.
func indexRoot(path string) string { return path + ".index" }

// indexTerms lists every term of every index directory beside the store
// at path; none of them may be open.
func indexTerms(t *testing.T, path string) []string {
	t.Helper()
	if _, err := os.Lstat(indexRoot(path)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	terms, err := indextest.ListTerms(indexRoot(path))
	if err != nil {
		t.Fatal(err)
	}
	return terms
}

// holding returns the terms that contain one of the needles.
func holding(terms, needles []string) []string {
	var out []string
	for _, term := range terms {
		for _, n := range needles {
			if strings.Contains(term, n) {
				out = append(out, term)
			}
		}
	}
	return out
}

// wantOnlyKept wants the folder of indexes at root to be gone, or to hold
// nothing but its marker and the kept index (its lock and bleve's folder),
// which a writable store leaves for the next process.
func wantOnlyKept(t *testing.T, when, root string) {
	t.Helper()
	es, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Name() != ".palimpsest-index" && e.Name() != "kept" {
			t.Errorf("%s: %s holds %s, besides the kept index", when, root, e.Name())
		}
	}
	kept, _ := os.ReadDir(filepath.Join(root, "kept"))
	for _, e := range kept {
		if e.Name() != "lock" && e.Name() != "bleve" {
			t.Errorf("%s: the kept index holds %s", when, e.Name())
		}
	}
}

func wantGone(t *testing.T, when, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: %s is still there (%v)", when, path, err)
	}
}

// waitSegment waits until an index below dir has written a segment file,
// so that its terms are on disk, not only in memory.
func waitSegment(t *testing.T, dir string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Lstat(dir); err == nil && hasFile(t, dir, ".zap") {
			return
		}
	}
	t.Fatalf("test is void: no index segment under %s", dir)
}

// modesUnder maps every path below dir (dir itself excluded) to its
// permission bits.
func modesUnder(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	out := map[string]fs.FileMode{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fi.Mode()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wantPrivate asserts that every file below dir is 0600 and every
// directory 0700: they hold personal data or terms taken from it.
func wantPrivate(t *testing.T, when, dir string) {
	t.Helper()
	for p, m := range modesUnder(t, dir) {
		want := fs.FileMode(0o600)
		if m.IsDir() {
			want = 0o700
		}
		if m.Perm() != want {
			t.Errorf("%s: %s has mode %o, want %o", when, p, m.Perm(), want)
		}
	}
}

// privateDir makes a store directory, 0700 as a careful caller (memctl)
// makes it, so that only what the store creates inside is under test.
func privateDir(t *testing.T) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "store")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}

func hasFile(t *testing.T, dir, suffix string) bool {
	t.Helper()
	for p, m := range modesUnder(t, dir) {
		if m.IsRegular() && strings.HasSuffix(p, suffix) {
			return true
		}
	}
	return false
}
