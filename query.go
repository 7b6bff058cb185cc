package memory

import (
	"context"
	"sort"

	"github.com/palimpsest-mem/memory/kv"
)

// Get returns fact id of user.
func (s *Store) Get(ctx context.Context, user string, id uint64) (Fact, error) {
	var f Fact
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		r, err := getUser(tx, id, user)
		if err != nil {
			return err
		}
		f, err = factIn(tx, &r)
		return err
	})
	return f, err
}

// ListOptions select what List returns; nil means the current facts.
type ListOptions struct {
	// All includes superseded and retracted facts.
	All bool
}

// List returns user's current facts, or with All every fact they have, in
// id order.
func (s *Store) List(ctx context.Context, user string, opts *ListOptions) ([]Fact, error) {
	var o ListOptions
	if opts != nil {
		o = *opts
	}
	key := listKey{user, o.All}
	if facts, ok := s.lists.get(key); ok {
		return facts, nil
	}
	gen := s.lists.current()
	var out []Fact
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		return tx.UserIDs(user, !o.All, func(id uint64, _ bool) error {
			r, err := tx.Get(id)
			if err != nil {
				return err
			}
			f, err := factIn(tx, &r)
			out = append(out, f)
			return err
		})
	})
	if err == nil {
		s.lists.put(key, gen, out)
	}
	return out, err
}

// Events returns the lifecycle log of fact id, oldest first.
func (s *Store) Events(ctx context.Context, user string, id uint64) ([]Event, error) {
	var out []Event
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		if _, err := getUser(tx, id, user); err != nil {
			return err
		}
		evs, err := tx.Events(id)
		out = eventsOf(evs)
		return err
	})
	return out, err
}

// History returns every version in the chain fact id belongs to — what it
// replaced, what replaced it, transitively — oldest first.
func (s *Store) History(ctx context.Context, user string, id uint64) ([]Fact, error) {
	var out []Fact
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		if _, err := getUser(tx, id, user); err != nil {
			return err
		}
		recs, err := chain(tx, id)
		for i := range recs {
			if err != nil {
				break
			}
			var f Fact
			f, err = factIn(tx, &recs[i])
			out = append(out, f)
		}
		return err
	})
	sort.Slice(out, func(i, j int) bool {
		if !out[i].RecordedAt.Equal(out[j].RecordedAt) {
			return out[i].RecordedAt.Before(out[j].RecordedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

// chain collects the versions linked to id by supersession, in either
// direction. Links come from each record's Supersedes and from the
// Superseded steps of its log, which outlive a later Restore.
func chain(tx *kv.Tx, id uint64) ([]kv.Record, error) {
	seen := map[uint64]bool{id: true}
	queue := []uint64{id}
	var out []kv.Record
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		r, err := tx.Get(cur)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		evs, err := tx.Events(cur)
		if err != nil {
			return nil, err
		}
		next := predecessors(&r)
		for _, e := range evs {
			if e.Kind == kv.Superseded {
				next = append(next, e.By)
			}
		}
		for _, n := range next {
			if n != 0 && !seen[n] && tx.Has(n) {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return out, nil
}
