package kv

import (
	"errors"
	"testing"
)

// A counter never wraps and never hands out an id that is taken: an
// allocation past MaxID, or onto a key that holds a value, is an error and
// writes nothing, so no later write can overwrite a record or a log entry.
func TestCountersNeverWrapNorReuse(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   func(*Tx) error
		alloc func(*Tx) (uint64, error)
		want  error
	}{
		{"fact id past the bound", func(tx *Tx) error { return tx.SetNextID(MaxID + 1) },
			func(tx *Tx) (uint64, error) { return tx.NextID() }, ErrIDsExhausted},
		{"decision id past the bound", func(tx *Tx) error { return tx.SetBlobSeq(BucketDecisions, MaxID) },
			func(tx *Tx) (uint64, error) { return tx.NextBlobID(BucketDecisions) }, ErrIDsExhausted},
		{"fact id taken", func(tx *Tx) error {
			if err := tx.Put(&Record{ID: 5, Text: "taken", RecordedAt: 1}); err != nil {
				return err
			}
			return tx.SetNextID(5)
		}, func(tx *Tx) (uint64, error) { return tx.NextID() }, ErrCorrupt},
		{"conflict id taken", func(tx *Tx) error {
			if err := tx.PutBlob(BucketConflicts, 3, []byte(`{"user":""}`)); err != nil {
				return err
			}
			return tx.SetBlobSeq(BucketConflicts, 2)
		}, func(tx *Tx) (uint64, error) { return tx.NextBlobID(BucketConflicts) }, ErrCorrupt},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := openTest(t)
			if err := db.Update(c.set); err != nil {
				t.Fatal(err)
			}
			var id uint64
			err := db.Update(func(tx *Tx) (err error) { id, err = c.alloc(tx); return err })
			if !errors.Is(err, c.want) {
				t.Fatalf("allocation gave id %d, %v; want %v", id, err, c.want)
			}
			// A full counter is no damage; one behind a stored id is.
			if errors.Is(err, ErrCorrupt) != (c.want == ErrCorrupt) {
				t.Errorf("%v: ErrCorrupt is %v", err, errors.Is(err, ErrCorrupt))
			}
		})
	}
	// The last id below the bound is still given, once.
	db := openTest(t)
	if err := db.Update(func(tx *Tx) error { return tx.SetBlobSeq(BucketMerges, MaxID-1) }); err != nil {
		t.Fatal(err)
	}
	err := db.Update(func(tx *Tx) error {
		id, err := tx.NextBlobID(BucketMerges)
		if err == nil && id != MaxID {
			t.Errorf("id %d, want %d", id, MaxID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A counter cannot be set past the bound either.
	err = db.Update(func(tx *Tx) error { return tx.SetBlobSeq(BucketMerges, MaxID+1) })
	if !errors.Is(err, ErrIDsExhausted) {
		t.Errorf("SetBlobSeq past the bound: %v", err)
	}
	err = db.Update(func(tx *Tx) error { return tx.SetNextID(MaxID + 2) })
	if !errors.Is(err, ErrIDsExhausted) {
		t.Errorf("SetNextID past the bound: %v", err)
	}
}
