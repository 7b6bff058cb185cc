package memory

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// A decision or conflict naming a fact that is gone, or another user's, is
// reported: it may hold a copy of text a hard delete should have removed.
func TestCheckFindsDanglingLogReferences(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct {
		bucket []byte
		id     uint64
		v      any
		want   string
	}{
		"decision target missing": {kv.BucketDecisions, 7, Decision{ID: 7, Target: 99}, "decision 7 names a fact"},
		"decision candidate of another user": {kv.BucketDecisions, 7, Decision{ID: 7, User: "bob", Candidates: []uint64{1}},
			"decision 7 names a fact"},
		"conflict existing missing": {kv.BucketConflicts, 3, Conflict{ID: 3, New: 1, Existing: 42}, "conflict 3 names a fact"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Add(ctx, Note{Text: "I work at company A."}); err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx); err != nil {
				t.Fatalf("clean store: %v", err)
			}
			if err := s.db.Update(func(tx *kv.Tx) error { return putJSON(tx, tc.bucket, tc.id, tc.v) }); err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check: %v, want %q", err, tc.want)
			}
		})
	}
}
