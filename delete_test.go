package memory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	if n := len(must[[]memory.Fact](t)(s2.List(ctx, "", &memory.ListOptions{All: true}))); n != 201 {
		t.Errorf("%d facts after reopen, want 201", n)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("compacted file mode %o", st.Mode().Perm())
	}
}

func TestDeleteKeepsNeighboursConsistent(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I live in Paris."}))
	c.set("2026-03-01")
	d := must[memory.Fact](t)(s.Supersede(ctx, "", b.ID, memory.Note{Text: "I live in Berlin."}))
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

// Deleting a fact's successor keeps every step of the fact's log. The log
// is rewritten in the delete's transaction, and when its last steps had a
// page of their own (a log longer than a page, or the few steps an append
// split off a page the last compaction had filled) every step used to be
// written over the first, leaving only the restoration: Check, Export and
// Import refused the fact ("log does not start with its recording").
func TestDeleteKeepsTheWholeLogOfTheRestoredFact(t *testing.T) {
	for name, tc := range map[string]struct{ facts, toggles int }{
		"a log longer than a page": {1, 230},
		// Each delete compacts the file, filling its pages, for the next fact.
		"short logs": {20, 6},
	} {
		t.Run(name, func(t *testing.T) {
			c := newClock("2026-01-01")
			s, _ := open(t, c, nil)
			var fs []memory.Fact
			for i := range tc.facts {
				fs = append(fs, must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: fmt.Sprintf("I keep item %d in the attic.", i)})))
			}
			for _, p := range fs {
				for i := range tc.toggles {
					if i%2 == 0 {
						must[memory.Fact](t)(s.Pin(ctx, "", p.ID))
					} else {
						must[memory.Fact](t)(s.Unpin(ctx, "", p.ID))
					}
				}
				d := must[memory.Fact](t)(s.Supersede(ctx, "", p.ID, memory.Note{Text: "I keep it in the cellar."}))
				must[[]uint64](t)(s.Delete(ctx, "", d.ID, nil))
				if err := s.Check(ctx); err != nil {
					t.Fatalf("after deleting the successor of fact %d: %v", p.ID, err)
				}
				evs := must[[]memory.Event](t)(s.Events(ctx, "", p.ID))
				if len(evs) != tc.toggles+3 || evs[0].Kind != memory.EventRecorded ||
					evs[len(evs)-2].Kind != memory.EventSuperseded || evs[len(evs)-1].Kind != memory.EventRestored {
					t.Fatalf("fact %d: log of %d steps, want %d from recorded to restored; first %+v", p.ID, len(evs), tc.toggles+3, evs[0])
				}
			}
			var buf bytes.Buffer
			if err := s.Export(ctx, &buf); err != nil {
				t.Fatal(err)
			}
			imp, _ := open(t, nil, nil)
			if _, err := imp.Import(ctx, &buf, nil); err != nil {
				t.Fatalf("import of the export: %v", err)
			}
		})
	}
}

func TestDeleteChain(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "v1"}))
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "v2"}))
	d := must[memory.Fact](t)(s.Supersede(ctx, "", b.ID, memory.Note{Text: "v3"}))
	keep := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "unrelated"}))
	got := must[[]uint64](t)(s.Delete(ctx, "", b.ID, &memory.DeleteOptions{Chain: true}))
	if len(got) != 3 || got[0] != a.ID || got[2] != d.ID {
		t.Errorf("chain delete erased %v", got)
	}
	if all := ids(must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))); len(all) != 1 || all[0] != keep.ID {
		t.Errorf("left %v", all)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// A hard delete leaves no byte of the text in any file of the store or of
// the candidate index — ASCII and Cyrillic, a superseded version, the text
// of a decision Remember logged (an add, a noop that only restates, an add
// that raised a conflict), with the decider's reason and raw answer quoting
// it — nor in an export taken afterwards, nor after Close and reopen.
func TestDeleteLeavesNoTraceAnywhere(t *testing.T) {
	storeDir := privateDir(t)
	path := filepath.Join(storeDir, "memory.db")
	ixDir := indexRoot(path)
	// The judge quotes the new fact in its reason and raw answer, as a
	// model does; it restates the Kyoto fact and would update the pinned one.
	judge := &funcDecider{name: "judge", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		d := memory.Verdict{Action: memory.ActionAdd, Decider: "judge",
			Reason: "judged " + in.Text, Raw: `{"quote":` + strconv.Quote(in.Text) + `}`}
		for _, c := range in.Candidates {
			switch {
			case strings.Contains(in.Text, "again") && strings.Contains(c.Text, "KYOTOMARKER9"):
				d.Action, d.Target = memory.ActionNoop, c.N
			case strings.Contains(in.Text, "BLOODMARKER77") && c.Pinned:
				d.Action, d.Target = memory.ActionUpdate, c.N
			}
		}
		return d, nil
	}}
	c := newClock("2026-01-01")
	opts := &memory.Options{NoSync: true, Clock: c.Now, Lookup: memory.LookupTopics, Decider: judge}
	s := must[*memory.Store](t)(memory.Open(path, 0, opts))
	defer func() { s.Close() }()
	for i := range 50 {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: fmt.Sprintf("Filler fact %d about tea and the garden.", i)}))
	}

	var doomed []uint64
	add := func(n memory.Note) memory.Fact {
		f := must[memory.Fact](t)(s.Add(ctx, n))
		doomed = append(doomed, f.ID)
		return f
	}
	add(memory.Note{Text: "My locker code is QXZ7731ALPHA.", Source: memory.Source{Kind: "chat", Quote: "said QXZ7731QUOTE"}})
	add(memory.Note{Text: "Мой тайный пароль ЩУКАРЬЁЖИК7731, не говори никому."})
	old := add(memory.Note{Text: "I drive a VOLVOMARKER1960 to work."})
	c.set("2026-02-01")
	heir := must[memory.Fact](t)(s.Supersede(ctx, "", old.ID, memory.Note{Text: "I cycle to work now."}))
	for _, text := range []string{"I collect ZEBRAFINCHMARKER stamps.", "Я собираю марки ЖИРАФОМАРКЕР с детства."} {
		out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: text}))
		if out.Decision.Action != memory.ActionAdd || out.Fact.ID == 0 {
			t.Fatalf("remember %q: %+v", text, out.Decision)
		}
		doomed = append(doomed, out.Fact.ID)
	}
	kyoto := add(memory.Note{Text: "I live in KYOTOMARKER9 near the river."})
	if out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in KYOTOMARKER9 again, NOOPMARKER42."})); out.Decision.Action != memory.ActionNoop || out.Decision.Target != kyoto.ID {
		t.Fatalf("test is void: the restatement was not a noop of fact %d: %+v", kyoto.ID, out.Decision)
	}
	pinned := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My blood type is AB.", Pinned: true}))
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My blood type is O, BLOODMARKER77."}))
	if out.Decision.Conflict == 0 || out.Fact.ID == 0 {
		t.Fatalf("test is void: no conflict with the pinned fact %d: %+v", pinned.ID, out.Decision)
	}
	doomed = append(doomed, out.Fact.ID)

	markers := []string{"QXZ7731ALPHA", "QXZ7731QUOTE", "ЩУКАРЬЁЖИК7731", "VOLVOMARKER1960", "ZEBRAFINCHMARKER",
		"ЖИРАФОМАРКЕР", "KYOTOMARKER9", "NOOPMARKER42", "BLOODMARKER77"}
	// The index holds terms lowercased, so look for those too.
	needles := slices.Clone(markers)
	for _, m := range markers {
		needles = append(needles, strings.ToLower(m))
	}
	for _, m := range markers {
		if !dirContains(t, storeDir, m) {
			t.Fatalf("test is void: %q was never in the store file", m)
		}
	}
	// Build the index over the doomed facts and remember its files.
	must[memory.Lookup](t)(s.Candidates(ctx, "", "my locker code and the ЩУКАРЬЁЖИК7731 password", 5))
	before := modesUnder(t, ixDir)
	if len(before) == 0 {
		t.Fatal("test is void: no index files")
	}

	for _, id := range doomed {
		must[[]uint64](t)(s.Delete(ctx, "", id, nil))
	}
	dirs := []string{storeDir} // the index's directory included
	if got := traces(t, dirs, needles); len(got) > 0 {
		t.Errorf("after delete: %v", got)
	}
	if got := holding(indexTerms(t, path), needles); len(got) > 0 {
		t.Errorf("after delete, the index holds %v", got)
	}
	// The scan does see what survives, so its silence about the rest counts.
	if !dirContains(t, storeDir, heir.Text) || !dirContains(t, storeDir, pinned.Text) {
		t.Fatal("the surviving facts are not found in the store file")
	}
	// The segment files that held the facts were rewritten without them:
	// indexTerms above read every segment file there is.
	noTrace := func(when string) {
		t.Helper()
		for _, m := range markers {
			l := must[memory.Lookup](t)(s.Candidates(ctx, "", m, 12))
			for _, c := range l.Candidates {
				if slices.Contains(doomed, c.Fact.ID) {
					t.Errorf("%s: lookup of %q returns deleted fact %d", when, m, c.Fact.ID)
				}
			}
		}
		var logs strings.Builder
		for _, v := range []any{
			must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)),
			must[[]memory.Conflict](t)(s.Conflicts(ctx, "", &memory.ConflictOptions{All: true})),
			must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true})),
		} {
			b, _ := json.Marshal(v)
			logs.Write(b)
		}
		exported := snapshot(t, s)
		for _, m := range markers {
			if strings.Contains(exported, m) {
				t.Errorf("%s: the export holds %q", when, m)
			}
			if strings.Contains(logs.String(), m) {
				t.Errorf("%s: the decisions, conflicts or facts hold %q", when, m)
			}
		}
		if got := traces(t, dirs, needles); len(got) > 0 {
			t.Errorf("%s, after lookups rebuilt the index: %v", when, got)
		}
		if err := s.Check(ctx); err != nil {
			t.Errorf("%s: %v", when, err)
		}
	}
	noTrace("open")

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := traces(t, dirs, needles); len(got) > 0 {
		t.Errorf("after Close: %v", got)
	}
	wantOnlyKept(t, "after Close", ixDir)
	s = must[*memory.Store](t)(memory.Open(path, 0, opts))
	noTrace("reopened")
}

// A hard delete, of one version or of a whole chain, leaves no term of the
// deleted texts in any index beside the store, in every lookup mode, while
// the store stays open and after Close.
func TestDeleteLeavesNoIndexTerms(t *testing.T) {
	for _, mode := range []memory.LookupMode{memory.LookupKeywords4, memory.LookupTopics} {
		for _, chain := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s chain=%v", mode, chain), func(t *testing.T) {
				path := filepath.Join(privateDir(t), "memory.db")
				s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true, Lookup: mode}))
				defer s.Close()
				gym := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "The gym locker is blue."}))
				plain := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My locker pin is zzsecretpin, кодсекрет."}))
				old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My safe code is zzsecretsafe."}))
				head := must[memory.Fact](t)(s.Supersede(ctx, "", old.ID, memory.Note{Text: "Мой новый кодсекретный сейф."}))
				must[memory.Lookup](t)(s.Candidates(ctx, "", "locker", 5))
				waitSegment(t, indexRoot(path))
				needles := []string{"zzsecretpin", "кодсекрет"}
				if chain {
					needles = append(needles, "zzsecretsafe")
					must[[]uint64](t)(s.Delete(ctx, "", head.ID, &memory.DeleteOptions{Chain: true}))
				}
				must[[]uint64](t)(s.Delete(ctx, "", plain.ID, nil))
				if !chain {
					must[[]uint64](t)(s.Delete(ctx, "", head.ID, nil))
				}
				if got := holding(indexTerms(t, path), needles); len(got) > 0 {
					t.Errorf("after the delete: %v", got)
				}
				if got := candidateIDs(t, s, "", "locker"); !slices.Contains(got, gym.ID) || slices.Contains(got, plain.ID) || slices.Contains(got, head.ID) {
					t.Errorf("the rebuilt index finds %v", got)
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				if got := holding(indexTerms(t, path), needles); len(got) > 0 {
					t.Errorf("after Close: %v", got)
				}
				wantOnlyKept(t, "after Close", indexRoot(path))
				if got := traces(t, []string{filepath.Dir(path)}, needles); len(got) > 0 {
					t.Errorf("after Close: %v", got)
				}
			})
		}
	}
}
