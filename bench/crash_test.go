package main

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/internal/indextest"
)

// A writer killed with SIGKILL at random moments, 24 times on one store,
// loses no acknowledged change and leaves nothing half-applied.
func TestCrashLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a child process 24 times")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	// Smaller aimed moments than the command's: their kills are aimed
	// the same, and TestCrashAimed makes sure of each.
	cfg := crashConfig{Kills: 24, Seed: seed, Exe: exe, Dir: t.TempDir(), LargeImport: 3000, CatchUp: 500}
	res, err := runCrash(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Deletes are one op in twenty and the slowest to be acknowledged: on
	// a loaded machine a round of 24 short runs may acknowledge none, or
	// fewer changes than kills. Such a round checked what it did; another
	// round, on a new seed, must exercise the rest.
	thin := func(res *crashResult) bool { return res.Deleted == 0 || res.Acked < res.Kills }
	for round := 1; round < 3 && err == nil && thin(res) && clean(res); round++ {
		t.Logf("seed %d: %d changes acknowledged in %d kills, %d deletes; another round", res.Seed, res.Acked, res.Kills, res.Deleted)
		cfg.Seed, cfg.Dir = seed+uint64(round), t.TempDir()
		res, err = runCrash(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d: %d/%d kills survived, %d acknowledged changes %v, %d in flight (%d committed), %d facts deleted, %d imports, %d facts, %.1fs",
		res.Seed, res.Survived, res.Kills, res.Acked, res.ByOp, res.InFlight, res.Applied, res.Deleted, res.Imports, res.Facts, res.Seconds)
	for _, f := range res.Failures {
		t.Error(f)
	}
	if !clean(res) {
		t.Errorf("seed %d: %d acknowledged changes lost, %d deleted texts left, %d checks failed, %d/%d kills survived",
			res.Seed, res.Lost, res.Leaked, res.ChecksFailed, res.Survived, res.Kills)
	}
	// The harness must have exercised what it checks.
	if thin(res) {
		t.Errorf("only %d acknowledged changes and %d facts deleted in %d runs", res.Acked, res.Deleted, res.Kills)
	}
}

// Kills aimed at a large import, at the kept index's catch-up and at
// segment merges, three times each, land there, and leave nothing lost, half
// applied or different from what an index rebuilt from the records finds.
func TestCrashAimed(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a child process 9 times")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	res, err := runCrash(context.Background(), crashConfig{Kills: 9, Exe: exe, Dir: t.TempDir(),
		LargeImport: 3000, CatchUp: 500, Moments: []string{aimImport, aimCatchUp, aimMerge}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seed %d: kill moments %v, the large import's store after them %v, %d lookups compared, %.1fs",
		res.Seed, res.ByMoment, res.LargeImport, res.Compared, res.Seconds)
	for _, f := range res.Failures {
		t.Error(f)
	}
	if !clean(res) {
		t.Errorf("seed %d: %d acknowledged changes lost, %d deleted texts left, %d checks failed, %d/%d kills survived",
			res.Seed, res.Lost, res.Leaked, res.ChecksFailed, res.Survived, res.Kills)
	}
	// Each phase is aimed within its last length, so most kills land in
	// it; the first import is killed before it commits, for the aim
	// starts short.
	for _, m := range []string{aimImport, aimCatchUp, aimMerge} {
		if res.ByMoment[m] == 0 {
			t.Errorf("no kill landed during %s: %v", m, res.ByMoment)
		}
	}
	if res.LargeImport["absent"]+res.LargeImport["empty"] == 0 {
		t.Errorf("no kill came before the large import committed: %v", res.LargeImport)
	}
	if res.Compared == 0 {
		t.Error("no lookup was compared with a rebuilt index")
	}
}

// clean says a crash round found nothing wrong: only then may another
// round stand in for it.
func clean(res *crashResult) bool {
	return len(res.Failures) == 0 && res.Lost == 0 && res.ChecksFailed == 0 && res.Survived == res.Kills && res.Leaked == 0
}

// The link checks catch each way a supersede can be half-applied.
func TestShapeProblems(t *testing.T) {
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	cur := func(id, supersedes uint64) memory.Fact {
		return memory.Fact{ID: id, Text: "t", Supersedes: supersedes}
	}
	sup := func(id, by uint64) memory.Fact {
		return memory.Fact{ID: id, Text: "t", ValidUntil: at, SupersededBy: by}
	}
	for _, tc := range []struct {
		name  string
		facts []memory.Fact
		want  int
	}{
		{"chain", []memory.Fact{sup(1, 2), cur(2, 1)}, 0},
		{"restored, successor retracted", []memory.Fact{cur(1, 0), {ID: 2, Supersedes: 1, ValidUntil: at}}, 0},
		{"successor missing", []memory.Fact{sup(1, 2)}, 1},
		{"successor names no predecessor", []memory.Fact{sup(1, 2), cur(2, 0)}, 1},
		{"successor written, old not marked", []memory.Fact{cur(1, 0), cur(2, 1)}, 1},
		{"two current successors", []memory.Fact{sup(1, 2), cur(2, 1), cur(3, 1)}, 1},
		// Without ValidUntil the old fact is also current beside its successor.
		{"superseded without ValidUntil", []memory.Fact{{ID: 1, SupersededBy: 2}, cur(2, 1)}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := map[uint64]memory.Fact{}
			for _, f := range tc.facts {
				store[f.ID] = f
			}
			if got := shapeProblems(store); len(got) != tc.want {
				t.Errorf("problems %q, want %d", got, tc.want)
			}
		})
	}
}

// The call in flight at a kill may be wholly there or wholly absent,
// nothing between.
func TestInflightOutcome(t *testing.T) {
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	old := memory.Fact{ID: 1, User: "ana", Text: "old"}
	superseded := old
	superseded.ValidUntil, superseded.SupersededBy = at, 2
	retracted := old
	retracted.ValidUntil = at
	pinned := old
	pinned.Pinned = true
	succ := memory.Fact{ID: 2, User: "ana", Text: "new", Supersedes: 1}
	plain := memory.Fact{ID: 2, User: "ana", Text: "new"}
	for _, tc := range []struct {
		name    string
		in      crashLine
		store   []memory.Fact
		applied bool
		bad     bool
	}{
		{"supersede absent", crashLine{Op: "supersede", User: "ana", ID: 1, Text: "new"}, []memory.Fact{old}, false, false},
		{"supersede applied", crashLine{Op: "supersede", User: "ana", ID: 1, Text: "new"}, []memory.Fact{superseded, succ}, true, false},
		{"supersede: new fact only", crashLine{Op: "supersede", User: "ana", ID: 1, Text: "new"}, []memory.Fact{old, succ}, false, true},
		{"supersede: mark only", crashLine{Op: "supersede", User: "ana", ID: 1, Text: "new"}, []memory.Fact{superseded}, false, true},
		{"supersede: wrong text", crashLine{Op: "supersede", User: "ana", ID: 1, Text: "other"}, []memory.Fact{superseded, succ}, false, true},
		{"add applied", crashLine{Op: "add", User: "ana", Text: "new"}, []memory.Fact{old, plain}, true, false},
		{"invalidate applied", crashLine{Op: "invalidate", User: "ana", ID: 1}, []memory.Fact{retracted}, true, false},
		{"invalidate: superseded instead", crashLine{Op: "invalidate", User: "ana", ID: 1}, []memory.Fact{superseded}, false, true},
		{"pin applied", crashLine{Op: "pin", User: "ana", ID: 1}, []memory.Fact{pinned}, true, false},
		{"remember update", crashLine{Op: "remember", User: "ana", Text: "new"}, []memory.Fact{superseded, succ}, true, false},
		{"remember invalidate", crashLine{Op: "remember", User: "ana", Text: "new"}, []memory.Fact{retracted, plain}, true, false},
		{"remember: target retracted, nothing added", crashLine{Op: "remember", User: "ana", Text: "new"}, []memory.Fact{retracted}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &crashHarness{facts: map[uint64]modelFact{1: {expectOf(old), "ack"}}}
			store := map[uint64]memory.Fact{}
			var changed, extra []uint64
			for _, f := range tc.store {
				store[f.ID] = f
				if m, ok := h.facts[f.ID]; !ok {
					extra = append(extra, f.ID)
				} else if m.expect != expectOf(f) {
					changed = append(changed, f.ID)
				}
			}
			applied, err := h.inflightOutcome(&tc.in, store, changed, extra)
			if applied != tc.applied || (err != nil) != tc.bad {
				t.Errorf("applied %v, error %v; want applied %v, error %v", applied, err, tc.applied, tc.bad)
			}
		})
	}
}

// verify counts an acknowledged change the store lacks as lost, and a fact
// no call wrote as a failure, on a real store.
// The lines name facts as the child does: by their key (crashUsers.Key), here of
// the default user's facts 1 and 2.
func TestVerifyFindsLoss(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name        string
		lines       []string
		lost, fails int
	}{
		{"all there", []string{
			`{"kind":"intent","seq":1,"op":"add","user":"","text":"my bicycle"}`,
			`{"kind":"ack","seq":1,"op":"add","user":"","facts":[{"id":1099511627777,"user":"","text":"my bicycle","state":"current"}]}`}, 0, 0},
		{"acknowledged fact missing", []string{
			`{"kind":"intent","seq":1,"op":"add","user":"","text":"my bicycle"}`,
			`{"kind":"ack","seq":1,"op":"add","user":"","facts":[{"id":1099511627777,"user":"","text":"my bicycle","state":"current"}]}`,
			`{"kind":"intent","seq":2,"op":"add","user":"","text":"my guitar"}`,
			`{"kind":"ack","seq":2,"op":"add","user":"","facts":[{"id":1099511627778,"user":"","text":"my guitar","state":"current"}]}`}, 1, 1},
		{"acknowledged retraction missing", []string{
			`{"kind":"intent","seq":1,"op":"invalidate","user":"","id":1099511627777}`,
			`{"kind":"ack","seq":1,"op":"invalidate","user":"","id":1099511627777,"facts":[{"id":1099511627777,"user":"","text":"my bicycle","state":"retracted"}]}`}, 1, 1},
		{"ack without intent", []string{
			`{"kind":"ack","seq":1,"op":"add","user":"","facts":[{"id":1099511627777,"user":"","text":"my bicycle","state":"current"}]}`}, 0, 1},
		{"fact with no call", nil, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := dir + "/crash.db"
			s, err := memory.Open(path, 0, &memory.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Add(ctx, memory.Note{Text: "my bicycle"}); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			h := &crashHarness{dir: dir, path: path, rng: rand.New(rand.NewPCG(1, 1)), facts: map[uint64]modelFact{},
				decs: map[uint64]decisionExpect{}, decAck: map[uint64]string{}, decUsr: map[uint64]string{},
				deleted: map[string]string{}, res: &crashResult{ByOp: map[string]int{}}}
			var lines [][]byte
			for _, l := range tc.lines {
				lines = append(lines, []byte(l))
			}
			problems := h.verify(ctx, 0, lines)
			if h.res.Lost != tc.lost || len(problems) != tc.fails {
				t.Errorf("lost %d, problems %q; want lost %d, %d problems", h.res.Lost, problems, tc.lost, tc.fails)
			}
		})
	}
}

// verify counts the text of an acknowledged delete found in any file
// beside the store, or in the terms of an index left there, as leaked;
// a text a fact of the store still holds is not.
func TestVerifyFindsLeak(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "crash.db")
	s, err := memory.Open(path, 0, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	kept := "My bicycle is in Oslo, tag qzaaaa."
	gone := "My guitar is in Porto, tag qzbbbb."
	for _, text := range []string{kept, gone} {
		if _, err := s.Add(ctx, memory.Note{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Delete(ctx, "", 2, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	lines := [][]byte{
		[]byte(`{"kind":"intent","seq":1,"op":"add","user":"","text":"` + kept + `"}`),
		[]byte(`{"kind":"ack","seq":1,"op":"add","user":"","facts":[{"id":1099511627777,"user":"","text":"` + kept + `","state":"current"}]}`),
		[]byte(`{"kind":"intent","seq":2,"op":"delete","user":"","id":1099511627778}`),
		[]byte(`{"kind":"ack","seq":2,"op":"delete","user":"","id":1099511627778,"deleted":[1099511627778],"texts":["` + gone + `","` + kept + `"]}`),
	}
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T)
		leaks int
	}{
		{"clean", func(*testing.T) {}, 0},
		{"in a file", func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, "crash.db.tmp"), []byte("…"+gone+"…"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, 1},
		{"in an index left behind", func(t *testing.T) {
			an, err := index.NewAnalyzer(index.Keywords4)
			if err != nil {
				t.Fatal(err)
			}
			ix, err := index.New(an, path+".index")
			if err != nil {
				t.Fatal(err)
			}
			if err := ix.Put(index.Doc{ID: 2, Text: gone}); err != nil {
				t.Fatal(err)
			}
			// Closed, its directory is gone: copy it first, as a killed
			// process would leave it, once its terms are on disk.
			left := path + ".index.left"
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				os.RemoveAll(left)
				if err := os.CopyFS(left, os.DirFS(ix.Dir())); err != nil {
					t.Fatal(err)
				}
				if terms, err := indextest.ListTerms(left); err == nil && slices.Contains(terms, "0|qzbbbb") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("test is void: the index's terms never reached its files")
				}
			}
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(left, filepath.Join(path+".index", "h-left")); err != nil {
				// Closed, the index took its folder with it: make it again,
				// marked as the store's, as a killed process leaves it.
				if err := os.MkdirAll(path+".index", 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(path+".index", index.MarkerName), nil, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(left, filepath.Join(path+".index", "h-left")); err != nil {
					t.Fatal(err)
				}
			}
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "crash.db.tmp"))
			tc.plant(t)
			h := &crashHarness{dir: dir, path: path, rng: rand.New(rand.NewPCG(1, 1)), facts: map[uint64]modelFact{},
				decs: map[uint64]decisionExpect{}, decAck: map[uint64]string{}, decUsr: map[uint64]string{},
				deleted: map[string]string{}, impForbidden: map[string]string{},
				res: &crashResult{ByOp: map[string]int{}}}
			problems := h.verify(ctx, 0, lines)
			if h.res.Leaked != tc.leaks || h.res.Lost != 0 || len(problems) != tc.leaks {
				t.Errorf("leaked %d, lost %d, problems %q; want %d leaked", h.res.Leaked, h.res.Lost, problems, tc.leaks)
			}
		})
	}
}

// Two lookups find the same when their scores match rank by rank, up to
// bleve's rounding, and each run of equal scores holds the same facts;
// a full list's last run may be cut at other facts of that score.
func TestSameCandidates(t *testing.T) {
	a := []hit{{1, 3.5515720553822225}, {4, 0.5}, {9, 0.5}, {2, 0.25}}
	for _, tc := range []struct {
		name string
		got  []hit
		k    int
		same bool
	}{
		{"equal", a, 100, true},
		{"last bits of a score", []hit{{1, 3.551572055382222}, {4, 0.5}, {9, 0.5}, {2, 0.25}}, 100, true},
		{"a tie in another order", []hit{{1, 3.5515720553822225}, {9, 0.5}, {4, 0.5}, {2, 0.25}}, 100, true},
		{"another fact in a tie", []hit{{1, 3.5515720553822225}, {4, 0.5}, {7, 0.5}, {2, 0.25}}, 100, false},
		{"another fact last", []hit{{1, 3.5515720553822225}, {4, 0.5}, {9, 0.5}, {7, 0.25}}, 100, false},
		{"another fact last, cut at k", []hit{{1, 3.5515720553822225}, {4, 0.5}, {9, 0.5}, {7, 0.25}}, 4, true},
		{"another fact in a run above the cut", []hit{{1, 3.5515720553822225}, {4, 0.5}, {7, 0.5}, {2, 0.25}}, 4, false},
		{"another score", []hit{{1, 3.5515}, {4, 0.5}, {9, 0.5}, {2, 0.25}}, 100, false},
		{"one fewer", a[:3], 100, false},
		{"swapped ranks", []hit{{4, 3.5515720553822225}, {1, 0.5}, {9, 0.5}, {2, 0.25}}, 100, false},
		// A relation's facts not among the hits come last, unscored:
		// which they are depends on where the cut fell.
		{"the lowest scored run and the unscored cut at k", []hit{{1, 3.5515720553822225}, {4, 0.5}, {3, 0.5}, {8, 0}}, 4, true},
		{"the lowest scored run, not cut", []hit{{1, 3.5515720553822225}, {4, 0.5}, {3, 0.5}, {8, 0}}, 100, false},
		// Facts sharing only a topic come last whatever their score.
		{"the lowest scored run cut at k, listed first", []hit{{6, 0.25}, {4, 0.5}, {9, 0.5}, {2, 0.25}}, 4, true},
		{"a run above the lowest cut at k, listed first", []hit{{5, 0.25}, {4, 0.5}, {7, 0.5}, {2, 0.25}}, 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := a
			switch {
			case tc.got[len(tc.got)-1].Score == 0:
				want = []hit{{1, 3.5515720553822225}, {4, 0.5}, {9, 0.5}, {7, 0}}
			case tc.got[0].Score == 0.25:
				want = []hit{{5, 0.25}, {4, 0.5}, {9, 0.5}, {2, 0.25}}
			}
			if got := sameCandidates(tc.got, want, tc.k); got != tc.same {
				t.Errorf("sameCandidates = %v, want %v", got, tc.same)
			}
		})
	}
}

// rebuiltProblems finds nothing when the candidates given are those of
// the store's records, and reports a lookup whose candidates differ from
// those of the index it rebuilds in a copy of the store.
func TestRebuiltProblems(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "crash.db")
	s, err := memory.Open(path, 0, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"My bicycle is in Oslo, tag qzaaaa.", "My bicycle is in Porto, tag qzbbbb.", "My guitar is in Porto, tag qzcccc."} {
		if _, err := s.Add(ctx, memory.Note{User: "ana", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	qs := []crashQuery{{"ana", "My bicycle is in Porto."}, {"ana", "My guitar is in Porto, tag qzcccc."}}
	got, err := lookups(ctx, s, qs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if len(got[0]) < 2 {
		t.Fatalf("test is void: the lookup of bicycles in Porto finds %v", got[0])
	}
	h := &crashHarness{dir: dir, path: path, res: &crashResult{}}
	if p := h.rebuiltProblems(ctx, qs, got); len(p) != 0 {
		t.Errorf("the same candidates: %q", p)
	}
	stale := [][]hit{got[0][1:], got[1]}
	if p := h.rebuiltProblems(ctx, qs, stale); len(p) != 1 {
		t.Errorf("a candidate missing: problems %q, want 1", p)
	}
	if h.res.Compared != 2*len(qs) {
		t.Errorf("compared %d lookups, want %d", h.res.Compared, 2*len(qs))
	}
}

// A kill before the child wrote anything leaves no store once the check
// closes it: there is nothing to compare with a rebuilt index, which is no
// problem while the lookups found nothing, and is one if they found a fact.
func TestRebuiltComparisonWithoutAStore(t *testing.T) {
	h := &crashHarness{path: filepath.Join(t.TempDir(), "crash.db")}
	qs := []crashQuery{{user: "ann", text: "anything"}}
	if p := h.rebuiltProblems(context.Background(), qs, [][]hit{nil}); len(p) != 0 {
		t.Errorf("no store, nothing found: %v", p)
	}
	if p := h.rebuiltProblems(context.Background(), qs, [][]hit{{{ID: 1}}}); len(p) != 1 {
		t.Errorf("no store, a fact found: %v, want one problem", p)
	}
}
