package memory_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/palimpsest-mem/memory"
)

// graphObjects and graphRelations are few, so that facts often make the
// same claim: supersede, retract, restore, undo and delete then move shared
// edges.
var (
	graphObjects   = []string{"Acme", "acme", "Initech", "Lisbon", "Porto"}
	graphRelations = []memory.Relation{memory.RelWorksAt, memory.RelLivesIn, memory.RelLikes}
)

type gKey struct {
	subject, object string
	relation        memory.Relation
}

func keyOf(subject string, r memory.Relation, object string) gKey {
	return gKey{memory.NormalizeName(subject), memory.NormalizeName(object), r}
}

// modelMerge is the model's entry of the merge log.
type modelMerge struct {
	id         uint64
	from, into string // normalized
	at         time.Time
	undone     *time.Time
}

// modelMerges is the model of the merge log: which merges apply at a
// record time, what a name resolves to, which merges a store accepts and
// which a hard delete erases.
type modelMerges []modelMerge

// at resolves normalized names under the merges applied at record time k.
func (ms modelMerges) at(k time.Time) func(string) string {
	to := map[string]string{}
	for _, m := range ms {
		if !m.at.After(k) && (m.undone == nil || m.undone.After(k)) {
			to[m.from] = m.into
		}
	}
	return func(n string) string {
		for {
			next, ok := to[n]
			if !ok {
				return n
			}
			n = next
		}
	}
}

// current resolves under the merges not undone.
func (ms modelMerges) current() func(string) string {
	var live modelMerges
	for _, m := range ms {
		if m.undone == nil {
			live = append(live, m)
		}
	}
	return live.at(time.Unix(1<<40, 0))
}

// refusal is the error a merge of from into into should give, nil if
// none, given the normalized names the user's claims give.
func (ms modelMerges) refusal(names map[string]bool, from, into string) error {
	root := ms.current()
	switch {
	case !names[from] || !names[into]:
		return memory.ErrNotFound
	case from == into:
		return memory.ErrInvalidMerge
	case root(into) == from:
		return memory.ErrMergeCycle
	case root(from) != from || root(from) == root(into):
		return memory.ErrInvalidMerge
	}
	return nil
}

// next is the record time of the log's next step.
func (ms modelMerges) next(now time.Time) time.Time {
	for _, m := range ms {
		last := m.at
		if m.undone != nil {
			last = *m.undone
		}
		if !now.After(last) {
			now = last.Add(time.Nanosecond)
		}
	}
	return now
}

// claimNames is the normalized names the claims of facts give.
func claimNames(facts []memory.Fact) map[string]bool {
	names := map[string]bool{}
	for _, f := range facts {
		for _, c := range f.Claims {
			if c.Subject != "" {
				names[memory.NormalizeName(c.Subject)] = true
			}
			names[memory.NormalizeName(c.Object)] = true
		}
	}
	return names
}

// TestGraphModel draws random sequences of Add, Supersede, Invalidate,
// Restore, Remember (a decider that updates its first candidate), Undo,
// hard Delete, MergeEntities and UndoMerge, and after each checks the
// derived graph against At on a grid of both time axes: the edges current
// at (event, known) are exactly the claims of the facts At gives there,
// their names resolved by the model's merges applied at known, each such fact among its edge's
// support, and every supporting fact exists and is the user's. At the end
// the graph of a store rebuilt from an export equals the original's at
// every point of the grid.
func TestGraphModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dir, err := os.MkdirTemp("", "memory-graph-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		c := &modelClock{t: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
		dec := &funcDecider{name: "custom", fn: alwaysUpdate1}
		s, err := memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now, Decider: dec,
			Lookup: memory.LookupKeywords4}) // the cheapest analyzer to build
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		const user = "ann"
		times := []time.Time{c.Now()}
		var decisions []uint64
		var merges modelMerges
		drawNote := func(t *rapid.T) memory.Note {
			n := memory.Note{User: user, Text: "fact " + rapid.StringMatching(`[a-z]{3}`).Draw(t, "text")}
			if rapid.Bool().Draw(t, "from") {
				n.EventFrom = c.Now().Add(-time.Duration(rapid.IntRange(0, 30).Draw(t, "back")) * 24 * time.Hour)
				times = append(times, n.EventFrom)
			}
			for range rapid.IntRange(0, 2).Draw(t, "claims") {
				n.Claims = append(n.Claims, memory.Claim{Relation: rapid.SampledFrom(graphRelations).Draw(t, "rel"),
					Object: rapid.SampledFrom(graphObjects).Draw(t, "obj")})
			}
			if n.Claims == nil {
				n.Claims = []memory.Claim{}
			}
			return n
		}
		facts := func() []memory.Fact {
			return rmust[[]memory.Fact](t)(s.List(ctx, user, &memory.ListOptions{All: true}))
		}
		pick := func(t *rapid.T, want func(memory.Fact) bool) (memory.Fact, bool) {
			var fs []memory.Fact
			for _, f := range facts() {
				if want(f) {
					fs = append(fs, f)
				}
			}
			if len(fs) == 0 {
				return memory.Fact{}, false
			}
			return rapid.SampledFrom(fs).Draw(t, "target"), true
		}
		ok := func(t *rapid.T, err error) {
			if err != nil && !errors.Is(err, memory.ErrInvalidInterval) && !errors.Is(err, memory.ErrNotCurrent) &&
				!errors.Is(err, memory.ErrAlreadyCurrent) && !errors.Is(err, memory.ErrUndoStale) &&
				!errors.Is(err, memory.ErrAlreadyUndone) && !errors.Is(err, memory.ErrTimeOrder) {
				t.Fatalf("unexpected error: %v", err)
			}
		}
		// After each step, now and a few points drawn from the grid; the
		// whole grid at the end.
		verify := func(t *rapid.T) {
			checkGraphAt(t, s, user, c.Now(), c.Now(), merges.at(c.Now()))
			for range 3 {
				e := rapid.SampledFrom(times).Draw(t, "event").Add(-time.Duration(rapid.IntRange(0, 1).Draw(t, "ns")))
				k := rapid.SampledFrom(times).Draw(t, "known")
				checkGraphAt(t, s, user, e, k, merges.at(k))
			}
			checkMergesMatch(t, s, user, merges)
		}
		step := func(fn func(t *rapid.T)) func(*rapid.T) {
			return func(t *rapid.T) {
				c.advance(time.Duration(rapid.IntRange(1, 5).Draw(t, "days")) * 24 * time.Hour)
				times = append(times, c.Now())
				fn(t)
				verify(t)
			}
		}
		t.Repeat(map[string]func(*rapid.T){
			"add": step(func(t *rapid.T) { _, err := s.Add(ctx, drawNote(t)); ok(t, err) }),
			"supersede": step(func(t *rapid.T) {
				if f, found := pick(t, isCurrent); found {
					_, err := s.Supersede(ctx, user, f.ID, drawNote(t))
					ok(t, err)
				}
			}),
			"invalidate": step(func(t *rapid.T) {
				if f, found := pick(t, isCurrent); found {
					_, err := s.Invalidate(ctx, user, f.ID, memory.Change{})
					ok(t, err)
				}
			}),
			"restore": step(func(t *rapid.T) {
				if f, found := pick(t, notCurrent); found {
					_, err := s.Restore(ctx, user, f.ID, memory.Change{})
					ok(t, err)
				}
			}),
			"remember": step(func(t *rapid.T) {
				o, err := s.Remember(ctx, drawNote(t))
				ok(t, err)
				if err == nil {
					decisions = append(decisions, o.Decision.ID)
				}
			}),
			"undo": step(func(t *rapid.T) {
				if len(decisions) > 0 {
					_, err := s.Undo(ctx, user, rapid.SampledFrom(decisions).Draw(t, "decision"))
					ok(t, err)
				}
			}),
			"delete": step(func(t *rapid.T) {
				// Rarer than the rest: each compacts the file.
				if rapid.IntRange(0, 3).Draw(t, "rarely") != 0 {
					return
				}
				if f, found := pick(t, func(memory.Fact) bool { return true }); found {
					_, err := s.Delete(ctx, user, f.ID, nil)
					ok(t, err)
					// A merge naming a name no remaining claim names goes.
					names := claimNames(facts())
					merges = slices.DeleteFunc(merges, func(m modelMerge) bool { return !names[m.from] || !names[m.into] })
				}
			}),
			"merge": step(func(t *rapid.T) {
				from := rapid.SampledFrom(graphObjects).Draw(t, "from")
				into := rapid.SampledFrom(graphObjects).Draw(t, "into")
				want := merges.refusal(claimNames(facts()), memory.NormalizeName(from), memory.NormalizeName(into))
				m, err := s.MergeEntities(ctx, user, from, into, "")
				if !errors.Is(err, want) || (want == nil) != (err == nil) {
					t.Fatalf("merge %q into %q: %v, the model says %v", from, into, err, want)
				}
				if err == nil {
					if at := merges.next(c.Now()); !m.At.Equal(at) {
						t.Fatalf("merge at %v, the model says %v", m.At, at)
					}
					merges = append(merges, modelMerge{id: m.ID, from: memory.NormalizeName(from), into: memory.NormalizeName(into), at: m.At})
				}
			}),
			"unmerge": step(func(t *rapid.T) {
				if len(merges) == 0 {
					return
				}
				i := rapid.IntRange(0, len(merges)-1).Draw(t, "merge")
				_, err := s.UndoMerge(ctx, user, merges[i].id, "")
				if merges[i].undone != nil {
					if !errors.Is(err, memory.ErrMergeUndone) {
						t.Fatalf("undo of undone merge %d: %v", merges[i].id, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				at := merges.next(c.Now())
				merges[i].undone = &at
			}),
		})
		grid := gridOf(times)
		for _, k := range grid {
			for _, e := range grid {
				for _, e := range []time.Time{e, e.Add(-time.Nanosecond)} {
					checkGraphAt(t, s, user, e, k, merges.at(k))
				}
			}
		}
		// Rebuilt from scratch: an export imported into a new store.
		var buf bytes.Buffer
		if err := s.Export(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		r, err := memory.Open(filepath.Join(dir, "rebuilt.db"), 0, &memory.Options{NoSync: true, Clock: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		if _, err := r.Import(ctx, &buf, nil); err != nil {
			t.Fatal(err)
		}
		checkMergesMatch(t, r, user, merges)
		for _, k := range grid {
			for _, e := range grid {
				q := &memory.EdgeQuery{Event: e, Known: k, All: true}
				a := edgeLines(rmust[[]memory.Edge](t)(s.Edges(ctx, user, q)))
				b := edgeLines(rmust[[]memory.Edge](t)(r.Edges(ctx, user, q)))
				if !slices.Equal(a, b) {
					t.Fatalf("at event %v known %v: store %q, rebuilt %q", e, k, a, b)
				}
			}
		}
		if err := s.Check(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// checkMergesMatch compares the store's merge log with the model's.
func checkMergesMatch(t *rapid.T, s *memory.Store, user string, model modelMerges) {
	got := rmust[[]memory.Merge](t)(s.Merges(ctx, user))
	if len(got) != len(model) {
		t.Fatalf("%d merges, the model has %d", len(got), len(model))
	}
	for i, m := range got {
		w := model[i]
		if m.ID != w.id || !m.At.Equal(w.at) || (m.UndoneAt == nil) != (w.undone == nil) ||
			(m.UndoneAt != nil && !m.UndoneAt.Equal(*w.undone)) {
			t.Fatalf("merge %+v, the model has %+v", m, w)
		}
	}
}

// checkGraphAt compares the edges current at (e, k) with At's facts there,
// their names resolved by the merges applied at k.
func checkGraphAt(t *rapid.T, s *memory.Store, user string, e, k time.Time, root func(string) string) {
	keyOf := func(subject string, r memory.Relation, object string) gKey {
		key := keyOf(subject, r, object)
		return gKey{root(key.subject), root(key.object), r}
	}
	facts := rmust[[]memory.Fact](t)(s.At(ctx, user, e, k))
	want := map[gKey][]uint64{}
	for _, f := range facts {
		for _, c := range f.Claims {
			key := keyOf(c.Subject, c.Relation, c.Object)
			if !slices.Contains(want[key], f.ID) {
				want[key] = append(want[key], f.ID)
			}
		}
	}
	edges := rmust[[]memory.Edge](t)(s.Edges(ctx, user, &memory.EdgeQuery{Event: e, Known: k}))
	exists := map[uint64]bool{}
	for _, f := range rmust[[]memory.Fact](t)(s.List(ctx, user, &memory.ListOptions{All: true})) {
		exists[f.ID] = true
	}
	got := map[gKey]bool{}
	for _, ed := range edges {
		key := keyOf(ed.Subject, ed.Relation, ed.Object)
		if got[key] {
			t.Fatalf("event %v known %v: two current intervals of %v", e, k, key)
		}
		got[key] = true
		if ed.State != memory.EdgeCurrent {
			t.Fatalf("event %v known %v: edge %q is returned but not current", e, k, edgeLine(ed))
		}
		ids, ok := want[key]
		if !ok {
			t.Fatalf("event %v known %v: edge %q, but no fact At gives claims it (At: %v)", e, k, edgeLine(ed), idsOf(facts))
		}
		for _, id := range ids {
			if !slices.Contains(ed.Support, id) {
				t.Fatalf("event %v known %v: edge %q lacks fact %d that At gives", e, k, edgeLine(ed), id)
			}
		}
		for _, id := range ed.Support {
			if !exists[id] {
				t.Fatalf("edge %q: support %d is not a fact of %q", edgeLine(ed), id, user)
			}
		}
	}
	for key := range want {
		if !got[key] {
			t.Fatalf("event %v known %v: At gives a fact claiming %v, and no edge", e, k, key)
		}
	}
}

func idsOf(fs []memory.Fact) []uint64 {
	var out []uint64
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

// rmust is must for a rapid.T.
func rmust[T any](t *rapid.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// gridOf is at most 16 of times, spread over them in order.
func gridOf(times []time.Time) []time.Time {
	ts := slices.SortedFunc(slices.Values(times), time.Time.Compare)
	if len(ts) <= 16 {
		return ts
	}
	out := make([]time.Time, 16)
	for i := range out {
		out[i] = ts[i*(len(ts)-1)/15]
	}
	return out
}
