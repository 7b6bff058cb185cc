package memory

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// writeConflict writes c straight into the log, past the upkeep, as a
// damaged or hand-made file would hold it.
func writeConflict(t *testing.T, s *Store, c Conflict) {
	t.Helper()
	err := s.db.Update(func(tx *kv.Tx) error {
		id, err := tx.NextBlobID(kv.BucketConflicts)
		if err != nil {
			return err
		}
		c.ID, c.At = id, time.Unix(0, s.now()).UTC()
		return putJSON(tx, kv.BucketConflicts, id, c)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A conflict that names one fact on both sides, or whose new fact a
// chain of supersedes already follows, is refused by ResolveConflict with
// nothing changed, and reported by Check. Before, keeping the new fact of
// a conflict with itself made a supersession cycle.
func TestResolveRefusesWhatMakesACycle(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct {
		conflict func(a, b uint64) (uint64, uint64)
		want     error
	}{
		"one fact on both sides":            {func(a, _ uint64) (uint64, uint64) { return a, a }, ErrCorrupt},
		"the existing fact follows the new": {func(a, b uint64) (uint64, uint64) { return a, b }, ErrSupersessionCycle},
	} {
		t.Run(name, func(t *testing.T) {
			s := openStore(t)
			a, err := s.Add(ctx, Note{Text: "I play chess on Fridays."})
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.Supersede(ctx, "", a.ID, Note{Text: "I play chess on Saturdays."})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Restore(ctx, "", a.ID, Change{}); err != nil {
				t.Fatal(err)
			}
			n, e := tc.conflict(a.ID, b.ID)
			writeConflict(t, s, Conflict{New: n, Existing: e, Reason: "hand-made"})
			before, _ := s.Get(ctx, "", b.ID)
			_, err = s.ResolveConflict(ctx, "", 1, KeepNew)
			if !errors.Is(err, tc.want) {
				t.Fatalf("resolve: %v, want %v", err, tc.want)
			}
			if after, _ := s.Get(ctx, "", b.ID); after.State() != before.State() {
				t.Errorf("a refused resolve changed fact %d", b.ID)
			}
			if cs, _ := s.Conflicts(ctx, "", nil); len(cs) != 1 || cs[0].ResolvedAt != nil {
				t.Errorf("conflicts %+v", cs)
			}
			if n == e {
				if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "on both sides") {
					t.Errorf("check: %v", err)
				}
			}
		})
	}
}

// Check verifies what the upkeep keeps: an open conflict whose fact is
// not current, and two contradicting current facts with no conflict, are
// both reported.
func TestCheckSeesConflictsTheUpkeepKeeps(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	lyon, err := s.Add(ctx, Note{Text: "I live in Lyon."})
	if err != nil {
		t.Fatal(err)
	}
	cello, err := s.Add(ctx, Note{Text: "I play the cello."})
	if err != nil {
		t.Fatal(err)
	}
	violin, err := s.Add(ctx, Note{Text: "I play the violin."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Invalidate(ctx, "", cello.ID, Change{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	// Past the upkeep: a stale open conflict, and a second city whose
	// conflict is then erased.
	paris, err := s.Add(ctx, Note{Text: "I live in Paris."})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := s.Conflicts(ctx, "", nil)
	var derived uint64
	for _, c := range cs {
		if c.Relation == RelLivesIn && c.New == paris.ID && c.Existing == lyon.ID {
			derived = c.ID
		}
	}
	if derived == 0 {
		t.Fatalf("no conflict of Paris with Lyon: %+v", cs)
	}
	if err := s.db.Update(func(tx *kv.Tx) error { return tx.DeleteBlob(kv.BucketConflicts, derived) }); err != nil {
		t.Fatal(err)
	}
	writeConflict(t, s, Conflict{New: violin.ID, Existing: cello.ID, Reason: "hand-made"})
	err = s.Check(ctx)
	for _, want := range []string{"conflict 2 is open, but fact 2 was retracted",
		`fact 4 claims lives_in of "" against fact 1, and stands in no conflict`} {
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
			t.Errorf("check: %v, want %q", err, want)
		}
	}
}
