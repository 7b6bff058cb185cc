package memory_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// A fact exists in three hand-mapped forms: kv.Record on disk, Fact in the
// API and exportFact in an export. This test walks the fields of Note and
// Fact (Source within both) by reflection, so that a field added to one
// and not carried by the store's mappings (record, factOf, exportOf,
// importFact) fails here instead of being silently dropped;
// TestRecordFieldsMapped does the same for kv.Record.

// TestFactFieldsSurvive gives a fact a value in every field of Fact — its
// note sets every field of Note, two supersessions set the markers — and
// requires each to be non-zero as Add, Supersede and Get give it, the
// note's fields to arrive unchanged, and the whole Fact to come back the
// same from an Export imported into a new store. A field added to Fact
// that the store never sets is zero here; one that Export or Import does
// not carry differs after the import; a field added to Note is zero in the
// note below until it is set there, and then must reach the Fact of the
// same name.
func TestFactFieldsSurvive(t *testing.T) {
	ctx := context.Background()
	c := newClock("2026-01-10")
	s, _ := open(t, c, nil)
	const user = "ann"
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: user, Text: "I live in Lisbon."}))
	c.set("2026-02-10")
	note := memory.Note{
		User:       user,
		Text:       "I moved to Porto for a job at the harbour.",
		EventFrom:  date("2026-02-01"),
		EventUntil: date("2026-09-30"),
		Pinned:     true,
		Origin:     memory.OriginAuto,
		Source: memory.Source{
			Kind:   "chat",
			Ref:    "msg-17",
			Quote:  "moved to Porto",
			SaidAt: date("2026-02-09T18:30:00Z"),
		},
		Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: "Porto", Kind: "city"},
			{Relation: memory.RelWorksAt, Object: "the harbour", Kind: "company"}},
	}
	for name, v := range memory.Fields(note) {
		if v.IsZero() {
			t.Fatalf("the note leaves Note.%s zero: give it a value so the test can follow it", name)
		}
	}
	// A second city, told before the move: Porto and Coimbra contradict,
	// and keeping Porto over it makes b replace a further fact.
	x := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: user, Text: "I live in Coimbra."}))
	b := must[memory.Fact](t)(s.Supersede(ctx, user, a.ID, note))
	facts := memory.Fields(b)
	for name, v := range memory.Fields(note) {
		got, ok := facts[name]
		if !ok {
			t.Errorf("Note.%s has no field of that name in Fact", name)
			continue
		}
		if !reflect.DeepEqual(got.Interface(), v.Interface()) {
			t.Errorf("Fact.%s = %v, the note said %v", name, got, v)
		}
	}
	var derived uint64
	for _, k := range must[[]memory.Conflict](t)(s.Conflicts(ctx, user, nil)) {
		if k.New == b.ID && k.Existing == x.ID && k.Relation == memory.RelLivesIn {
			derived = k.ID
		}
	}
	if derived == 0 {
		t.Fatalf("no conflict of Porto with Coimbra: %+v", must[[]memory.Conflict](t)(s.Conflicts(ctx, user, nil)))
	}
	must[memory.Conflict](t)(s.ResolveConflict(ctx, user, derived, memory.KeepNew))
	c.set("2026-03-10")
	cNote := memory.Note{User: user, Text: "I moved to Braga.", EventFrom: date("2026-03-01")}
	must[memory.Fact](t)(s.Supersede(ctx, user, b.ID, cNote))

	b = must[memory.Fact](t)(s.Get(ctx, user, b.ID))
	for name, v := range memory.Fields(b) {
		if v.IsZero() {
			t.Errorf("Fact.%s is zero on a fact that has every field: the store never sets it (record, factOf), or this test's fixture does not", name)
		}
	}

	var out bytes.Buffer
	if err := s.Export(ctx, &out); err != nil {
		t.Fatal(err)
	}
	s2, _ := open(t, newClock("2026-04-01"), nil)
	if _, err := s2.Import(ctx, bytes.NewReader(out.Bytes()), nil); err != nil {
		t.Fatal(err)
	}
	imported := must[memory.Fact](t)(s2.Get(ctx, user, b.ID))
	got, want := memory.Fields(imported), memory.Fields(b)
	for name, v := range want {
		if !reflect.DeepEqual(got[name].Interface(), v.Interface()) {
			t.Errorf("Fact.%s = %v after Export and Import, was %v: exportFact (exportOf, importFact) does not carry it", name, got[name], v)
		}
	}
}
