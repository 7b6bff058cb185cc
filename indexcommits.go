package memory

import (
	"context"
	"encoding/binary"
	"errors"

	"github.com/palimpsest-mem/memory/index/live"
	"github.com/palimpsest-mem/memory/kv"
)

// The kept candidate index names the commit of the store it reflects in
// its own files (live.Options.Keep); these are the store's side of it: a
// commit of kv's change log as the index holds it, the newest one, and what
// changed since one.

// commitName is how the index holds a commit: its sequence, then its tag.
func commitName(c kv.Commit) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(make([]byte, 0, 16), c.Seq), c.Tag)
}

func commitOfName(b []byte) (kv.Commit, bool) {
	if len(b) != 16 {
		return kv.Commit{}, false
	}
	return kv.Commit{Seq: binary.BigEndian.Uint64(b), Tag: binary.BigEndian.Uint64(b[8:])}, true
}

// indexHead is the index's Source.Head. The caller holds writeMu.
func (s *Store) indexHead(ctx context.Context) (commit []byte, ok bool, err error) {
	// The index follows the commits of every user, in one change log.
	err = s.viewAll(ctx, func(tx *kv.Tx) error {
		var c kv.Commit
		if c, ok = tx.Head(); ok {
			commit = commitName(c)
		}
		return nil
	})
	return commit, ok, err
}

// indexSince is the index's Source.Since: the final state of each record
// the commits after commit touched, read in one transaction with the head.
// The caller holds writeMu.
func (s *Store) indexSince(ctx context.Context, commit []byte) (changes []live.Change, head []byte, ok bool, err error) {
	from, ok := commitOfName(commit)
	if !ok {
		return nil, nil, false, nil
	}
	// The commits since may be any users' (the change log is the store's).
	err = s.viewAll(ctx, func(tx *kv.Tx) error {
		seen := map[kv.Changed]bool{}
		var facts []kv.Changed
		h, known, err := tx.ChangedSince(from, func(c kv.Changed) {
			if !seen[c] {
				seen[c] = true
				facts = append(facts, c)
			}
		})
		if err != nil || !known {
			ok = false
			return err
		}
		for _, c := range facts {
			// An entry names the fact's user from format 6 on; before,
			// ids were the store's, read in its one set of buckets.
			tx.Use(c.User)
			r, err := tx.Get(c.ID)
			switch {
			case errors.Is(err, kv.ErrNotFound):
				changes = append(changes, live.Change{ID: c.ID, User: c.User, Deleted: true, UserUnknown: !c.UserKnown})
			case err != nil:
				return err
			default:
				changes = append(changes, live.Change{ID: c.ID, User: r.User, Text: r.Text, Current: r.Current()})
			}
		}
		head, ok = commitName(h), true
		return nil
	})
	if err != nil {
		return nil, nil, false, err
	}
	return changes, head, ok, nil
}
