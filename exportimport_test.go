package memory_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// populate tells a store a little of everything: users, pins, supersedes,
// retractions, restores, provenance, event intervals.
func populate(t *testing.T, s *memory.Store, c *clock) {
	c.set("2026-01-01")
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at A.", Source: memory.Source{Kind: "chat", Ref: "msg-1", Quote: "I'm at A", SaidAt: date("2025-12-31")}}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "bob", Text: "Bob's fact.", Pinned: true, Origin: memory.OriginAuto}))
	c.set("2026-03-01")
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "I work at B.", EventFrom: date("2026-02-01"), EventUntil: date("2027-01-01")}))
	x := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "A mistake."}))
	must[memory.Fact](t)(s.Invalidate(ctx, "", x.ID, memory.Change{Reason: "wrong", Origin: memory.OriginAuto}))
	c.set("2026-04-01")
	must[memory.Fact](t)(s.Restore(ctx, "", a.ID, memory.Change{Reason: "both true"}))
	must[memory.Fact](t)(s.Pin(ctx, "", b.ID))
	gone := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "to delete"}))
	must[[]uint64](t)(s.Delete(ctx, "", gone.ID, nil))
}

func TestExportImportRoundTrip(t *testing.T) {
	c := newClock("2026-01-01")
	src, _ := open(t, c, nil)
	populate(t, src, c)
	exported := snapshot(t, src)

	dst, _ := open(t, c, nil)
	var calls int
	n, err := dst.Import(ctx, strings.NewReader(exported), &memory.ImportOptions{Progress: func(int, int64) { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 || calls == 0 {
		t.Errorf("imported %d facts, %d progress calls", n, calls)
	}
	if again := snapshot(t, dst); again != exported {
		t.Errorf("export after import differs:\n%s\nwant:\n%s", again, exported)
	}
	if err := dst.Check(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct{ user, event, known string }{
		{"", "2026-02-15", ""}, {"", "2026-02-15", "2026-03-15"}, {"", "2026-03-02", "2026-03-02"}, {"bob", "", ""},
	} {
		a := must[[]memory.Fact](t)(src.At(ctx, q.user, dateOrZero(q.event), dateOrZero(q.known)))
		b := must[[]memory.Fact](t)(dst.At(ctx, q.user, dateOrZero(q.event), dateOrZero(q.known)))
		if len(a) != len(b) || len(a) > 0 && !reflect.DeepEqual(a[0], b[0]) {
			t.Errorf("At %v: source %v, imported %v", q, ids(a), ids(b))
		}
	}
	// Ids stay unique after import: the next id carries over.
	f := must[memory.Fact](t)(dst.Add(ctx, memory.Note{Text: "new"}))
	if f.ID != 5 {
		t.Errorf("first id after import %d, want 5 (4 was deleted before export; bob's ids are his own)", f.ID)
	}
}

func dateOrZero(s string) (z time.Time) {
	if s == "" {
		return z
	}
	return date(s)
}

// An import that breaks an invariant anywhere is refused as a whole.
func TestImportRefusesInconsistentData(t *testing.T) {
	c := newClock("2026-01-01")
	src, _ := open(t, c, nil)
	populate(t, src, c)
	good := snapshot(t, src)
	for name, bad := range map[string]string{
		"dangling successor": strings.Replace(good, `"superseded_by":0`, `"superseded_by":99`, 1),
		"unknown field":      strings.Replace(good, `"pinned":`, `"pined":false,"pinned":`, 1),
		"id at next_id":      strings.Replace(good, `"next_id":5`, `"next_id":3`, 1),
		"control character":  strings.Replace(good, "Bob's fact.", `Bob\u0007`, 1),
		"log not replaying":  strings.Replace(good, `"kind":"restored"`, `"kind":"pinned"`, 1),
		"truncated line":     good[:len(good)-20],
		"next id zero":       strings.Replace(good, `"next_id":5`, `"next_id":0`, 1),
		"link across users":  strings.Replace(good, `{"id":3,"user":""`, `{"id":3,"user":"bob"`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			if bad == good {
				t.Fatal("the mutation did not apply")
			}
			dst, _ := open(t, c, nil)
			_, err := dst.Import(ctx, strings.NewReader(bad), nil)
			if !errors.Is(err, memory.ErrBadImport) {
				t.Fatalf("import: %v", err)
			}
			var b bytes.Buffer
			_ = dst.Export(ctx, &b)
			if strings.Count(b.String(), "\n") != 1 {
				t.Errorf("a refused import left facts:\n%s", b.String())
			}
		})
	}
}
