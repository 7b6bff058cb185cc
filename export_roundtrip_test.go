package memory_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/eventtime"
)

// roundTripPhrases give Remember times from its words, inside the range,
// at its edges and past it.
var roundTripPhrases = []string{"", "since 2019", "from next Monday", "in 2199", "from 2200", "back in June",
	"since 1900", "last spring", "from 1899", "в 2199 году", "с прошлого лета", "until 2030"}

// Whatever valid operations write, the store's export imports into an
// empty store whose export is byte for byte the same: random Adds with and
// without times (to the edges of the range), Remembers whose words give
// times, Supersedes, Invalidates, Restores, Pins and Deletes, the clock
// moving forward. A refused write must be refused with one of the errors a
// valid call may meet.
func TestExportImportRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dir, err := os.MkdirTemp("", "memory-roundtrip-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		c := &modelClock{t: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
		openIn := func(name string) *memory.Store {
			s, err := memory.Open(filepath.Join(dir, name), 0, &memory.Options{NoSync: true, Clock: c.Now})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		s := openIn("a.db")
		defer s.Close()
		users := []string{"", "bob", "мила"}
		var ids []uint64
		refusable := []error{memory.ErrNotFound, memory.ErrNotCurrent, memory.ErrAlreadyCurrent, memory.ErrPinned,
			memory.ErrInvalidInterval, memory.ErrTimeOrder}
		try := func(op string, err error) {
			if err == nil {
				return
			}
			for _, e := range refusable {
				if errors.Is(err, e) {
					return
				}
			}
			t.Fatalf("%s: %v", op, err)
		}
		anyTime := func(label string) time.Time {
			lo := time.Date(eventtime.MinYear, 1, 1, 0, 0, 0, 0, time.UTC)
			hi := time.Date(eventtime.MaxYear+1, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second)
			switch rapid.IntRange(0, 3).Draw(t, label+" kind") {
			case 0:
				return lo.Add(time.Duration(rapid.IntRange(0, 1000).Draw(t, label+" after min")) * time.Hour)
			case 1:
				return hi.Add(-time.Duration(rapid.IntRange(0, 1000).Draw(t, label+" before max")) * time.Hour)
			}
			return c.Now().Add(time.Duration(rapid.IntRange(-3000, 3000).Draw(t, label+" days")) * 24 * time.Hour)
		}
		note := func() memory.Note {
			n := memory.Note{User: rapid.SampledFrom(users).Draw(t, "user"),
				Text: fmt.Sprintf("I like %s %s.", rapid.SampledFrom(modelVocab).Draw(t, "word"),
					rapid.SampledFrom(roundTripPhrases).Draw(t, "phrase"))}
			if rapid.Bool().Draw(t, "has from") {
				n.EventFrom = anyTime("from")
			}
			if rapid.IntRange(0, 2).Draw(t, "has until") == 0 {
				n.EventUntil = anyTime("until")
			}
			if !n.EventFrom.IsZero() && !n.EventUntil.IsZero() && !n.EventUntil.After(n.EventFrom) {
				n.EventUntil = time.Time{}
			}
			if rapid.Bool().Draw(t, "has source") {
				n.Source = memory.Source{Kind: "chat", Ref: "m", Quote: "said so", SaidAt: anyTime("said")}
			}
			n.Pinned = rapid.IntRange(0, 4).Draw(t, "pinned") == 0
			if rapid.Bool().Draw(t, "auto") {
				n.Origin = memory.OriginAuto
			}
			return n
		}
		target := func() (string, uint64) {
			if len(ids) == 0 {
				return "", 1
			}
			id := rapid.SampledFrom(ids).Draw(t, "target")
			f, err := s.Get(ctx, "", id)
			for _, u := range users[1:] {
				if err == nil {
					break
				}
				f, err = s.Get(ctx, u, id)
			}
			return f.User, id
		}
		t.Repeat(map[string]func(*rapid.T){
			"Add": func(t *rapid.T) {
				f, err := s.Add(ctx, note())
				try("Add", err)
				if err == nil {
					ids = append(ids, f.ID)
				}
			},
			"Remember": func(t *rapid.T) {
				n := note()
				if rapid.Bool().Draw(t, "words only") {
					n.EventFrom, n.EventUntil = time.Time{}, time.Time{}
				}
				out, err := s.Remember(ctx, n)
				try("Remember", err)
				if err == nil && out.Fact.ID != 0 {
					ids = append(ids, out.Fact.ID)
				}
			},
			"Supersede": func(t *rapid.T) {
				user, id := target()
				n := note()
				n.User = user
				f, err := s.Supersede(ctx, user, id, n)
				try("Supersede", err)
				if err == nil {
					ids = append(ids, f.ID)
				}
			},
			"Invalidate": func(t *rapid.T) {
				user, id := target()
				_, err := s.Invalidate(ctx, user, id, memory.Change{Reason: "wrong"})
				try("Invalidate", err)
			},
			"Restore": func(t *rapid.T) {
				user, id := target()
				_, err := s.Restore(ctx, user, id, memory.Change{Reason: "right after all"})
				try("Restore", err)
			},
			"Pin": func(t *rapid.T) {
				user, id := target()
				_, err := s.Pin(ctx, user, id)
				try("Pin", err)
			},
			"Delete": func(t *rapid.T) {
				user, id := target()
				_, err := s.Delete(ctx, user, id, &memory.DeleteOptions{Chain: rapid.Bool().Draw(t, "chain")})
				try("Delete", err)
			},
			"Clock": func(t *rapid.T) {
				c.advance(time.Duration(rapid.IntRange(0, 90*24).Draw(t, "hours")) * time.Hour)
			},
		})
		var first strings.Builder
		if err := s.Export(ctx, &first); err != nil {
			t.Fatal(err)
		}
		dst := openIn("b.db")
		defer dst.Close()
		if _, err := dst.Import(ctx, strings.NewReader(first.String()), nil); err != nil {
			t.Fatalf("import of the store's own export: %v\n%s", err, first.String())
		}
		var again strings.Builder
		if err := dst.Export(ctx, &again); err != nil {
			t.Fatal(err)
		}
		if again.String() != first.String() {
			t.Fatalf("export after import differs:\n%s\nwant:\n%s", again.String(), first.String())
		}
		if err := dst.Check(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRememberExportImportRoundTrip(t *testing.T) {
	c := newClock("2026-01-01")
	s, existing, out := conflictStore(t, c)
	_ = existing
	c.set("2026-03-01")
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin."}))
	upd := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin on Sundays now."}))
	c.set("2026-04-01")
	must[memory.Decision](t)(s.Undo(ctx, "", upd.Decision.ID))
	// A second conflict, resolved.
	must[memory.Fact](t)(s.Unpin(ctx, "", existing.ID))
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepBoth))
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{User: "bob", Text: "Bob likes tea."}))
	exported := snapshot(t, s)
	if !strings.Contains(exported, `"decision"`) || !strings.Contains(exported, `"conflict"`) || !strings.Contains(exported, `"undone_at"`) {
		t.Fatalf("export lacks the logs:\n%s", exported)
	}
	dst, _ := open(t, c, nil)
	must[int](t)(dst.Import(ctx, strings.NewReader(exported), nil))
	if again := snapshot(t, dst); again != exported {
		t.Errorf("export after import differs:\n%s\nwant:\n%s", again, exported)
	}
	checkClean(t, dst)
	for _, user := range []string{"", "bob"} {
		a := must[[]memory.Decision](t)(s.Decisions(ctx, user, 0))
		b := must[[]memory.Decision](t)(dst.Decisions(ctx, user, 0))
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) || len(a) == 0 {
			t.Errorf("decisions of %q differ after import", user)
		}
	}
	// New decisions and conflicts after the import do not reuse ids.
	last := lastDecision(t, dst, "")
	next := must[memory.Outcome](t)(dst.Remember(ctx, memory.Note{Text: "I have a dog named Rex."}))
	if next.Decision.ID <= last.ID {
		t.Errorf("decision id %d after import, last was %d", next.Decision.ID, last.ID)
	}
}
