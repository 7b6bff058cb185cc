package memory

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// TestUnreadableLogEntry: a decision or conflict whose JSON does not
// decode is ErrCorrupt, named by its id, on every path that reads the
// logs, and Check lists it.
func TestUnreadableLogEntry(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		bucket []byte
		noun   string
		read   map[string]func(*Store) error
	}{
		{kv.BucketDecisions, "decision", map[string]func(*Store) error{
			"Decisions": func(s *Store) error { _, err := s.Decisions(ctx, "", 0); return err },
			"Undo":      func(s *Store) error { _, err := s.Undo(ctx, "", 5); return err },
		}},
		{kv.BucketConflicts, "conflict", map[string]func(*Store) error{
			"Conflicts":       func(s *Store) error { _, err := s.Conflicts(ctx, "", &ConflictOptions{All: true}); return err },
			"ResolveConflict": func(s *Store) error { _, err := s.ResolveConflict(ctx, "", 5, KeepBoth); return err },
		}},
	} {
		tc.read["Export"] = func(s *Store) error { return s.Export(ctx, io.Discard) }
		tc.read["Delete"] = func(s *Store) error { _, err := s.Delete(ctx, "", 1, nil); return err }
		tc.read["Check"] = func(s *Store) error { return s.Check(ctx) }
		for name, read := range tc.read {
			t.Run(tc.noun+"/"+name, func(t *testing.T) {
				s := openStore(t)
				if _, err := s.Add(ctx, Note{Text: "I work at company A."}); err != nil {
					t.Fatal(err)
				}
				if err := s.db.Update(func(tx *kv.Tx) error { return tx.PutBlob(tc.bucket, 5, []byte("{not json")) }); err != nil {
					t.Fatal(err)
				}
				err := read(s)
				want := tc.noun + " 5: invalid character"
				if name == "Export" {
					want = string(tc.bucket) + " 5: invalid character" // the bucket's name, as export says it
				}
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
					t.Errorf("%v, want ErrCorrupt naming %q", err, want)
				}
			})
		}
	}
}
