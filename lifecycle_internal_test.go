package memory

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// step is the one way a recorded fact's state changes: each kind changes
// the record as its meaning says, the record is stored and the step logged
// at the time given, a step before the log's last is refused, and a kind
// that is no step of a recorded fact is an error.
func TestStep(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	f, err := s.Add(ctx, Note{Text: "I work at company A."})
	if err != nil {
		t.Fatal(err)
	}
	base, err := s.Get(ctx, "", f.ID)
	if err != nil {
		t.Fatal(err)
	}
	at := base.RecordedAt.UnixNano()
	for i, c := range []struct {
		e    kv.Event
		want func(r *kv.Record)
	}{
		{kv.Event{Kind: kv.Superseded, By: 9, End: at, Decision: 3}, func(r *kv.Record) { r.ValidUntil, r.SupersededBy = at+1, 9 }},
		{kv.Event{Kind: kv.Restored, Undoes: 3, Cause: "undo of decision 3"}, func(r *kv.Record) { r.ValidUntil, r.SupersededBy = 0, 0 }},
		{kv.Event{Kind: kv.Retracted, Auto: true}, func(r *kv.Record) { r.ValidUntil = at + 3 }},
		{kv.Event{Kind: kv.Restored}, func(r *kv.Record) { r.ValidUntil = 0 }},
		{kv.Event{Kind: kv.Pinned}, func(r *kv.Record) { r.Pinned = true }},
		{kv.Event{Kind: kv.Unpinned}, func(r *kv.Record) { r.Pinned = false }},
	} {
		now := at + int64(i) + 1
		var want kv.Record
		err := s.update(ctx, "", func(tx *kv.Tx) error {
			r, err := tx.Get(f.ID)
			if err != nil {
				return err
			}
			want = r
			c.want(&want)
			e := c.e
			if err := step(tx, &r, now, &e); err != nil {
				return err
			}
			if !reflect.DeepEqual(r, want) {
				t.Errorf("%s: record %+v, want %+v", c.e.Kind, r, want)
			}
			stored, err := tx.Get(f.ID)
			if err != nil || !reflect.DeepEqual(stored, want) {
				t.Errorf("%s: stored %+v, %v; want %+v", c.e.Kind, stored, err, want)
			}
			evs, err := tx.Events(f.ID)
			if err != nil {
				return err
			}
			logged := c.e
			logged.At = now
			if last := evs[len(evs)-1]; last != logged {
				t.Errorf("%s: logged %+v, want %+v", c.e.Kind, last, logged)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", c.e.Kind, err)
		}
	}
	before := snapshotOf(t, s)
	for _, e := range []kv.Event{{Kind: kv.Retracted}, {Kind: kv.Recorded}, {Kind: 0}} {
		now := at + 100
		if e.Kind == kv.Retracted {
			now = at // before the log's last step
		}
		err := s.update(ctx, "", func(tx *kv.Tx) error {
			r, err := tx.Get(f.ID)
			if err != nil {
				return err
			}
			return step(tx, &r, now, &e)
		})
		switch {
		case e.Kind == kv.Retracted && !errors.Is(err, ErrTimeOrder):
			t.Errorf("a step before the last: %v, want ErrTimeOrder", err)
		case err == nil:
			t.Errorf("a %s step was taken", e.Kind)
		}
	}
	if snapshotOf(t, s) != before {
		t.Error("a refused step changed the store")
	}
}

func snapshotOf(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	if err := s.Export(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
