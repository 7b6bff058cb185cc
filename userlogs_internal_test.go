package memory

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// A user's prompt and graph read that user's conflicts and merges only:
// another user's entry, damaged past its owner, breaks neither (its own
// user's reads and Check report it), while one in the user's own data
// that names no owner is reported to the user's reads.
func TestUserLogsReadPerUser(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		bucket []byte
		noun   string
		mine   func(*Store) error
		bobs   func(*Store) error
	}{
		{kv.BucketConflicts, "conflict",
			func(s *Store) error { _, err := s.Prompt(ctx, "", nil); return err },
			func(s *Store) error { _, err := s.Conflicts(ctx, "bob", nil); return err }},
		{kv.BucketMerges, "merge",
			func(s *Store) error { _, err := s.Entities(ctx, ""); return err },
			func(s *Store) error { _, err := s.Merges(ctx, "bob"); return err }},
	} {
		t.Run(tc.noun, func(t *testing.T) {
			s := openStore(t)
			if _, err := s.Add(ctx, Note{Text: "I work at company A.", Claims: []Claim{{Relation: RelWorksAt, Object: "company A"}}}); err != nil {
				t.Fatal(err)
			}
			put := func(user string, id uint64, v string) {
				t.Helper()
				if err := s.db.Update(func(tx *kv.Tx) error { tx.Use(user); return tx.PutBlob(tc.bucket, id, []byte(v)) }); err != nil {
					t.Fatal(err)
				}
				s.lists.invalidate(nil)
			}
			put("bob", 5, `{"id":"five","user":"bob"}`)
			if err := tc.mine(s); err != nil {
				t.Errorf("another user's damaged %s broke this user's read: %v", tc.noun, err)
			}
			if err := tc.bobs(s); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.noun+" 5") {
				t.Errorf("its own user's read: %v, want ErrCorrupt naming %s 5", err, tc.noun)
			}
			if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Check: %v, want ErrCorrupt", err)
			}
			put("", 5, `{not json`)
			if err := tc.mine(s); !errors.Is(err, ErrCorrupt) {
				t.Errorf("an entry of no known user: %v, want ErrCorrupt", err)
			}
		})
	}
}
