package memory

import (
	"context"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// Repair is the record Store.Repair keeps of a commit it could not read
// back: the file's newest meta page had failed its checksum.
type Repair struct {
	// At is the record time of the repair.
	At time.Time `json:"at"`
	// Lost is the commit (bbolt transaction id) whose meta page failed
	// its checksum; Answered is the one the store answered from instead.
	Lost     uint64 `json:"lost_commit"`
	Answered uint64 `json:"answered_from_commit"`
	// FirstID..LastID are the fact ids the lost commit may have handed
	// out, found in the file's pages; both 0 when none was found.
	FirstID uint64 `json:"first_id,omitempty"`
	LastID  uint64 `json:"last_id,omitempty"`
	// NextID is the next fact id after the repair: no id in the range is
	// ever given again.
	NextID uint64 `json:"next_id"`
}

// Stale returns nil, or an error wrapping ErrStale when the file's newest
// commit failed its checksum at Open: every read then answers as the
// store was a commit earlier, and every write returns ErrStale until
// Repair. The error names the commit the store answers from.
func (s *Store) Stale() error { return s.db.Stale() }

// Repair makes a stale store writable again and returns what it recorded;
// nil, with nil error, when the store was not stale. What the lost
// commit wrote is not brought back (it may have been a write that was
// never acknowledged); what it may have handed out is kept from reuse:
// every page of the file is searched for fact records and id counters,
// and the next ids are moved past the highest found. The record is kept
// in the file (see Repairs). A hard delete's compaction left pending
// runs after it.
func (s *Store) Repair(ctx context.Context) (*Repair, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	rec, err := s.db.Repair(s.now())
	if rec == nil {
		return nil, err
	}
	r := repairOf(*rec)
	return &r, err
}

// Repairs returns the record of every Repair of the store, oldest first.
func (s *Store) Repairs(ctx context.Context) ([]Repair, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	recs, err := s.db.Repairs()
	if err != nil {
		return nil, err
	}
	out := make([]Repair, len(recs))
	for i, r := range recs {
		out[i] = repairOf(r)
	}
	return out, nil
}

func repairOf(r kv.RepairRecord) Repair {
	return Repair{
		At:       time.Unix(0, r.At).UTC(),
		Lost:     r.Lost,
		Answered: r.Answered,
		FirstID:  r.FirstID,
		LastID:   r.LastID,
		NextID:   r.NextID,
	}
}
