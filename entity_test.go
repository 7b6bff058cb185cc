package memory_test

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// worksAt is a note of one works_at claim.
func jobNote(user, text, object string, kind memory.EntityKind) memory.Note {
	return memory.Note{User: user, Text: text, Claims: []memory.Claim{{Relation: memory.RelWorksAt, Object: object, Kind: kind}}}
}

// mergeStore holds Yandex (a company), Яндекс (no kind), Kazan (a city),
// a sister (a subject) and bob's Acme.
func mergeStore(t *testing.T) (*memory.Store, *clock, string) {
	t.Helper()
	c := newClock("2026-03-10")
	s, path := open(t, c, nil)
	must[memory.Fact](t)(s.Add(ctx, jobNote("", "I work at Yandex.", "Yandex", "company")))
	must[memory.Fact](t)(s.Add(ctx, jobNote("", "Я работаю в Яндексе.", "Яндекс", "")))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Kazan.",
		Claims: []memory.Claim{{Subject: "sister", Relation: memory.RelLivesIn, Object: "Kazan", Kind: "city"}}}))
	must[memory.Fact](t)(s.Add(ctx, jobNote("bob", "I work at Acme.", "Acme", "company")))
	return s, c, path
}

// Every refused merge gives its sentinel and writes nothing.
func TestMergeEntitiesRefusals(t *testing.T) {
	s, _, _ := mergeStore(t)
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""))
	before := snapshot(t, s)
	for name, tc := range map[string]struct {
		user, from, into string
		want             error
	}{
		"the user as from":          {"", memory.UserSubject, "Yandex", memory.ErrInvalidMerge},
		"the user as into":          {"", "Yandex", memory.UserSubject, memory.ErrInvalidMerge},
		"empty name":                {"", " ", "Yandex", memory.ErrInvalidMerge},
		"a control character":       {"", "Yan\x01dex", "Yandex", memory.ErrInvalidMerge},
		"the same entity twice":     {"", "Kazan", "kazan", memory.ErrInvalidMerge},
		"already merged":            {"", "Яндекс", "Yandex", memory.ErrInvalidMerge},
		"already an alias":          {"", "Яндекс", "sister", memory.ErrInvalidMerge},
		"a cycle":                   {"", "Yandex", "Яндекс", memory.ErrMergeCycle},
		"unknown from":              {"", "Google", "Yandex", memory.ErrNotFound},
		"unknown into":              {"", "Yandex", "Google", memory.ErrNotFound},
		"another user's entity":     {"", "Acme", "Yandex", memory.ErrNotFound},
		"kinds differ":              {"", "Kazan", "Yandex", memory.ErrKindMismatch},
		"kinds differ by the alias": {"", "Kazan", "Яндекс", memory.ErrKindMismatch},
		"an invalid user":           {"a\x00b", "Yandex", "Kazan", memory.ErrInvalidUser},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.MergeEntities(ctx, tc.user, tc.from, tc.into, "")
			if !errors.Is(err, tc.want) {
				t.Fatalf("MergeEntities(%q, %q): %v, want %v", tc.from, tc.into, err, tc.want)
			}
			if after := snapshot(t, s); after != before {
				t.Errorf("a refused merge changed the store:\n%s\n---\n%s", before, after)
			}
			if n := len(must[[]memory.Merge](t)(s.Merges(ctx, ""))); n != 1 {
				t.Errorf("%d merges after a refusal, want 1", n)
			}
		})
	}
	// A kind known on one side only merges.
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "sister", "Kazan", "not a kind clash: the sister has no kind"))
}

// A merge's kinds are its group's: an entity of no kind merged into a
// company is a company, and a city cannot join it.
func TestMergeKindOfGroup(t *testing.T) {
	s, _, _ := mergeStore(t)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I like Yandex music.",
		Claims: []memory.Claim{{Relation: memory.RelLikes, Object: "ya"}}}))
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "ya", "Яндекс", ""))
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Kazan", "Яндекс", "")) // Яндекс is now a city
	if _, err := s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""); !errors.Is(err, memory.ErrKindMismatch) {
		t.Fatalf("a city's group into a company: %v, want %v", err, memory.ErrKindMismatch)
	}
	if _, err := s.MergeEntities(ctx, "", "Yandex", "ya", ""); !errors.Is(err, memory.ErrKindMismatch) {
		t.Fatalf("a company into a city's group by its alias: %v, want %v", err, memory.ErrKindMismatch)
	}
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "sister", "ya", "")) // the sister has no kind
}

// Chains resolve: A into B, then B into C, gives every claim of the three
// one edge shown as C; a query by any of the names finds it.
func TestMergeChainResolves(t *testing.T) {
	c := newClock("2026-03-10")
	s, _ := open(t, c, nil)
	for _, n := range []string{"Google", "Alphabet", "Alphabet Inc."} {
		must[memory.Fact](t)(s.Add(ctx, jobNote("", "I work at "+n+".", n, "")))
	}
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Google", "Alphabet", ""))
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Alphabet", "Alphabet Inc.", ""))
	for _, name := range []string{"google", "Alphabet", "alphabet inc"} {
		got := edgeLines(must[[]memory.Edge](t)(s.Neighbours(ctx, "", name, time.Time{}, time.Time{})))
		if want := []string{" works_at Alphabet Inc. current [1 2 3] 2026-03-10..-"}; !slices.Equal(got, want) {
			t.Errorf("Neighbours(%s): %q, want %q", name, got, want)
		}
	}
	if _, err := s.MergeEntities(ctx, "", "Alphabet Inc.", "Google", ""); !errors.Is(err, memory.ErrMergeCycle) {
		t.Errorf("closing the chain: %v, want %v", err, memory.ErrMergeCycle)
	}
	ents := must[[]memory.Entity](t)(s.Entities(ctx, ""))
	if len(ents) != 1 || ents[0].Name != "Alphabet Inc." || !slices.Equal(ents[0].Aliases, []string{"Alphabet", "Google"}) || ents[0].Edges != 1 {
		t.Errorf("Entities: %+v", ents)
	}
	checkClean(t, s)
}

// A merge is a record-time event: the graph as known before it shows two
// edges, after it one; after its undo, two again, while the graph as known
// in between still shows one.
func TestMergeBitemporal(t *testing.T) {
	s, c, _ := mergeStore(t)
	q := func(known string) []string {
		k := time.Time{}
		if known != "" {
			k = date(known)
		}
		return edgeLines(must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{Relation: memory.RelWorksAt, Known: k})))
	}
	two := []string{" works_at Yandex current [1] 2026-03-10..-", " works_at Яндекс current [2] 2026-03-10..-"}
	one := []string{" works_at Yandex current [1 2] 2026-03-10..-"}
	c.set("2026-04-01")
	m := must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", "one company"))
	c.set("2026-05-01")
	for known, want := range map[string][]string{"2026-03-20": two, "2026-04-01": one, "2026-04-15": one, "": one} {
		if got := q(known); !slices.Equal(got, want) {
			t.Errorf("known %q, merged: %q, want %q", known, got, want)
		}
	}
	// Neighbours by the alias, as known before: its own edge.
	nb := edgeLines(must[[]memory.Edge](t)(s.Neighbours(ctx, "", "Яндекс", time.Time{}, date("2026-03-20"))))
	if !slices.Equal(nb, two[1:]) {
		t.Errorf("Neighbours(Яндекс) known before the merge: %q", nb)
	}
	u := must[memory.Merge](t)(s.UndoMerge(ctx, "", m.ID, "two companies after all"))
	if u.UndoneAt == nil || !u.UndoneAt.Equal(date("2026-05-01")) || u.UndoReason != "two companies after all" {
		t.Errorf("undone merge: %+v", u)
	}
	for known, want := range map[string][]string{"2026-03-20": two, "2026-04-15": one, "2026-05-01": two, "": two} {
		if got := q(known); !slices.Equal(got, want) {
			t.Errorf("known %q, undone: %q, want %q", known, got, want)
		}
	}
	if _, err := s.UndoMerge(ctx, "", m.ID, ""); !errors.Is(err, memory.ErrMergeUndone) {
		t.Errorf("second undo: %v, want %v", err, memory.ErrMergeUndone)
	}
	if _, err := s.UndoMerge(ctx, "bob", m.ID, ""); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("another user's undo: %v, want %v", err, memory.ErrNotFound)
	}
	ms := must[[]memory.Merge](t)(s.Merges(ctx, ""))
	if len(ms) != 1 || ms[0].UndoneAt == nil || ms[0].Reason != "one company" {
		t.Errorf("Merges after the undo: %+v", ms)
	}
	// Merged again: a second entry, the first kept.
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""))
	if got := q(""); !slices.Equal(got, one) {
		t.Errorf("merged again: %q", got)
	}
	if ms := must[[]memory.Merge](t)(s.Merges(ctx, "")); len(ms) != 2 || ms[1].UndoneAt != nil {
		t.Errorf("Merges: %+v", ms)
	}
	checkClean(t, s)
}

// A merge's steps never go back in time, so the merges applied at any
// record time are the ones that held then, even with a clock standing
// still.
func TestMergeLogOrderWithStillClock(t *testing.T) {
	s, _, _ := mergeStore(t)
	m1 := must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""))
	u := must[memory.Merge](t)(s.UndoMerge(ctx, "", m1.ID, ""))
	m2 := must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""))
	if !u.UndoneAt.After(m1.At) || !m2.At.After(*u.UndoneAt) {
		t.Errorf("steps at %v, %v, %v: want increasing", m1.At, *u.UndoneAt, m2.At)
	}
	checkClean(t, s)
}

// Why finds the facts behind a merged edge, whichever name their claim
// used.
func TestWhyMergedEdge(t *testing.T) {
	s, _, _ := mergeStore(t)
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""))
	es := must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{Relation: memory.RelWorksAt}))
	if len(es) != 1 {
		t.Fatalf("edges: %q", edgeLines(es))
	}
	sup := must[[]memory.Support](t)(s.Why(ctx, "", es[0]))
	if len(sup) != 2 || sup[1].Claim.Object != "Яндекс" {
		t.Errorf("Why: %+v", sup)
	}
}

// A hard delete of the last fact naming a merged name erases the merge,
// undone or not, leaving the name nowhere in the store's files; a merge
// whose names remain stays.
func TestDeleteErasesMergeNames(t *testing.T) {
	c := newClock("2026-03-10")
	s, path := open(t, c, nil)
	const gone = "Quxcorp-ALIAS"
	for i := range 50 {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "filler fact number " + string(rune('a'+i%26))}))
	}
	must[memory.Fact](t)(s.Add(ctx, jobNote("", "I work at Yandex.", "Yandex", "company")))
	must[memory.Fact](t)(s.Add(ctx, jobNote("", "I work at Яндекс.", "Яндекс", "")))
	doomed := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I joined a new company.",
		Claims: []memory.Claim{{Relation: memory.RelWorksAt, Object: gone}}}))
	m1 := must[memory.Merge](t)(s.MergeEntities(ctx, "", gone, "Yandex", "the company "+gone))
	must[memory.Merge](t)(s.UndoMerge(ctx, "", m1.ID, ""))
	m2 := must[memory.Merge](t)(s.MergeEntities(ctx, "", gone, "Yandex", ""))
	m3 := must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""))
	dir := filepath.Dir(path)
	if !dirContains(t, dir, gone) {
		t.Fatal("test is void: the name was never in the files")
	}
	must[[]uint64](t)(s.Delete(ctx, "", doomed.ID, nil))
	if dirContains(t, dir, gone) {
		t.Errorf("%q is still in the store's files", gone)
	}
	ms := must[[]memory.Merge](t)(s.Merges(ctx, ""))
	if len(ms) != 1 || ms[0].ID != m3.ID {
		t.Errorf("merges after the delete: %+v, want only %d (not %d, %d)", ms, m3.ID, m1.ID, m2.ID)
	}
	if es := edgeLines(must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{Relation: memory.RelWorksAt}))); len(es) != 1 {
		t.Errorf("edges after the delete: %q", es)
	}
	var buf bytes.Buffer
	if err := s.Export(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), gone) {
		t.Errorf("the export holds %q", gone)
	}
	checkClean(t, s)
}

// Export carries merges, undone ones too; an import of it gives the same
// merges and the same graph at every record time.
func TestExportImportMerges(t *testing.T) {
	s, c, _ := mergeStore(t)
	c.set("2026-04-01")
	m := must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", "one company"))
	c.set("2026-04-05")
	must[memory.Merge](t)(s.UndoMerge(ctx, "", m.ID, "two"))
	c.set("2026-04-10")
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", "one after all"))
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "sister", "Kazan", ""))
	var buf bytes.Buffer
	if err := s.Export(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	r, _ := open(t, c, nil)
	if _, err := r.Import(ctx, bytes.NewReader(buf.Bytes()), nil); err != nil {
		t.Fatal(err)
	}
	a, b := must[[]memory.Merge](t)(s.Merges(ctx, "")), must[[]memory.Merge](t)(r.Merges(ctx, ""))
	if len(a) != 3 || !slices.EqualFunc(a, b, func(x, y memory.Merge) bool {
		return x.ID == y.ID && x.At.Equal(y.At) && x.From == y.From && x.Into == y.Into && x.Reason == y.Reason &&
			(x.UndoneAt == nil) == (y.UndoneAt == nil) && x.UndoReason == y.UndoReason
	}) {
		t.Errorf("merges: store %+v, imported %+v", a, b)
	}
	for _, k := range []string{"2026-03-20", "2026-04-02", "2026-04-07", "2026-04-20"} {
		q := &memory.EdgeQuery{Known: date(k), All: true}
		if x, y := edgeLines(must[[]memory.Edge](t)(s.Edges(ctx, "", q))), edgeLines(must[[]memory.Edge](t)(r.Edges(ctx, "", q))); !slices.Equal(x, y) {
			t.Errorf("known %s: store %q, imported %q", k, x, y)
		}
	}
	// The next merge gets the next id.
	c.set("2026-04-20")
	must[memory.Merge](t)(r.UndoMerge(ctx, "", 3, ""))
	if n := must[memory.Merge](t)(r.MergeEntities(ctx, "", "sister", "Kazan", "")); n.ID != 4 {
		t.Errorf("next merge id %d, want 4", n.ID)
	}
	checkClean(t, r)
	var again bytes.Buffer
	if err := s.Export(ctx, &again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("a second export differs")
	}
}

// An import whose merge names an entity no claim of its user names, makes
// a cycle or merges the user is refused on the merge's line, and writes
// nothing; a version 3 export cannot hold merges.
func TestImportRefusesBadMerges(t *testing.T) {
	s, c, _ := mergeStore(t)
	c.set("2026-04-01")
	must[memory.Merge](t)(s.MergeEntities(ctx, "", "Яндекс", "Yandex", ""))
	var buf bytes.Buffer
	if err := s.Export(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	lines := strings.Split(strings.TrimSpace(good), "\n")
	last := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, `{"merge":`) }) + 1 // the merge's line, 1-based
	if last == 0 {
		t.Fatalf("no merge in the export:\n%s", good)
	}
	for name, tc := range map[string]struct{ old, new, want string }{
		"unknown entity":  {`"from":"Яндекс"`, `"from":"Google"`, "no claim of the user names it"},
		"another user's":  {`"from":"Яндекс"`, `"from":"Acme"`, "no claim of the user names it"},
		"of a user alone": {`"user":""`, `"user":"carol"`, "a line of user \"carol\" before the user's counters line"},
		"the same twice":  {`"from":"Яндекс"`, `"from":"yandex"`, "same entity"},
		"empty name":      {`"from":"Яндекс"`, `"from":"  "`, "empty name"},
		"id past last":    {`"id":1,`, `"id":2,`, "outside 1..1"},
		"old format":      {"", "", "a merge in a version 3 export"},
		"undo before":     {`"user":""`, `"user":"","undone_at":"2020-01-01T00:00:00Z"`, "not after it was made"},
	} {
		t.Run(name, func(t *testing.T) {
			var bad string
			wantLine := fmt.Sprintf("line %d:", last)
			if name == "old format" {
				// Without the conflicts, which a version 3 file cannot
				// have in this form (the merge made one moot).
				var kept []string
				old := shared(t, good, 3)
				for _, l := range strings.Split(strings.TrimSpace(old), "\n") {
					if !strings.HasPrefix(l, `{"conflict":`) {
						kept = append(kept, l)
					}
					if strings.HasPrefix(l, `{"merge":`) {
						wantLine = fmt.Sprintf("line %d:", len(kept))
					}
				}
				bad = strings.Join(kept, "\n") + "\n"
			} else {
				ls := slices.Clone(lines)
				ls[last-1] = strings.Replace(ls[last-1], tc.old, tc.new, 1)
				bad = strings.Join(ls, "\n") + "\n"
			}
			if bad == good {
				t.Fatal("test is void: nothing replaced")
			}
			r, _ := open(t, c, nil)
			_, err := r.Import(ctx, strings.NewReader(bad), nil)
			if !errors.Is(err, memory.ErrBadImport) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), wantLine) {
				t.Fatalf("Import: %v, want %q on %q", err, tc.want, wantLine)
			}
			if n := len(must[[]memory.Fact](t)(r.List(ctx, "", &memory.ListOptions{All: true}))); n != 0 {
				t.Errorf("%d facts after a refused import", n)
			}
		})
	}
	r, _ := open(t, c, nil)
	if _, err := r.Import(ctx, strings.NewReader(good), nil); err != nil {
		t.Fatalf("the good export: %v", err)
	}
}
