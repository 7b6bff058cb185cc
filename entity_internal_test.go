package memory

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// Check reports a merge log that no sequence of merges writes — an entry
// that does not decode, a cycle, a name no claim names, steps out of time
// order — as ErrCorrupt, and the graph still answers (a cycle cannot make
// a query loop).
func TestCheckFindsBadMerges(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	at := func(d int) time.Time { return t0.AddDate(0, 0, d) }
	for name, tc := range map[string]struct {
		blobs map[uint64]any // a string is stored as raw bytes
		want  string
	}{
		"not JSON": {map[uint64]any{1: "{not json"}, "merge 1"},
		"a cycle": {map[uint64]any{
			1: Merge{ID: 1, At: at(1), From: "A", Into: "B"},
			2: Merge{ID: 2, At: at(2), From: "B", Into: "A"},
		}, "merge 2: \"B\" into \"A\""},
		"an unknown name":  {map[uint64]any{1: Merge{ID: 1, At: at(1), From: "Ghost", Into: "A"}}, "no claim of the user names it"},
		"another user's":   {map[uint64]any{1: Merge{ID: 1, At: at(1), User: "bob", From: "B", Into: "A"}}, "no claim of the user names it"},
		"the same entity":  {map[uint64]any{1: Merge{ID: 1, At: at(1), From: "a", Into: "A"}}, "same entity"},
		"the user":         {map[uint64]any{1: Merge{ID: 1, At: at(1), From: UserSubject, Into: "A"}}, "from is the user, not an entity"},
		"a second alias":   {map[uint64]any{1: Merge{ID: 1, At: at(1), From: "A", Into: "B"}, 2: Merge{ID: 2, At: at(2), From: "A", Into: "C"}}, "already an alias"},
		"undone too early": {map[uint64]any{1: Merge{ID: 1, At: at(2), From: "A", Into: "B", UndoneAt: new(at(1))}}, "not after it was made"},
		"out of order":     {map[uint64]any{1: Merge{ID: 1, At: at(2), From: "A", Into: "B"}, 2: Merge{ID: 2, At: at(1), From: "C", Into: "B"}}, "not after merge 1"},
		"wrong id":         {map[uint64]any{1: Merge{ID: 7, At: at(1), From: "A", Into: "B"}}, "merge 7 is stored under id 1"},
		"past the log":     {map[uint64]any{9: Merge{ID: 9, At: at(1), From: "A", Into: "B"}}, "after the log's last id"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true, Clock: func() time.Time { return t0 }})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, n := range []string{"A", "B", "C"} {
				if _, err := s.Add(ctx, Note{Text: "I like " + n + ".", Claims: []Claim{{Relation: RelLikes, Object: n}}}); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Check(ctx); err != nil {
				t.Fatalf("clean store: %v", err)
			}
			err = s.db.Update(func(tx *kv.Tx) error {
				for id, v := range tc.blobs {
					if raw, ok := v.(string); ok {
						if err := tx.PutBlob(kv.BucketMerges, id, []byte(raw)); err != nil {
							return err
						}
					} else if err := putJSON(tx, kv.BucketMerges, id, v); err != nil {
						return err
					}
				}
				return tx.SetBlobSeq(kv.BucketMerges, 2)
			})
			if err != nil {
				t.Fatal(err)
			}
			s.lists.invalidate(nil)
			if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check: %v, want %q", err, tc.want)
			}
			// The graph answers or says the log is corrupt; it never hangs.
			if _, err := s.Edges(ctx, "", &EdgeQuery{Known: at(3), All: true}); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Errorf("Edges: %v", err)
			}
			if _, err := s.Neighbours(ctx, "", "A", time.Time{}, time.Time{}); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Errorf("Neighbours: %v", err)
			}
		})
	}
}
