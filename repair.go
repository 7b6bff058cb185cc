package memory

import (
	"context"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// Repair is the record Store.Repair keeps of a commit it could not read
// back: one of the file's two meta pages had failed its checksum. Lost
// may have been lost, not was: if the damaged page was the older one, no
// commit was lost, and the damaged page cannot say which it was.
type Repair struct {
	// At is the record time of the repair.
	At time.Time `json:"at"`
	// Lost is the commit (bbolt transaction id) that may have been lost;
	// Answered is the one the store answered from.
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

// Stale returns nil, or an error wrapping ErrStale when a meta page of
// the file failed its checksum at Open, so its newest commit may have
// been lost: every read then answers as the
// store was a commit earlier, and every write returns ErrStale until
// Repair. The error names the commit the store answers from.
func (s *Store) Stale() error {
	if s.be != nil {
		return nil // a cluster answers from its leader
	}
	return s.db.Stale()
}

// Repair makes a stale store writable again and returns what it recorded;
// nil, with nil error, when the store was not stale. What the lost
// commit wrote is not brought back (it may have been a write that was
// never acknowledged); what it may have handed out is kept from reuse:
// every page of the file is searched for fact records and id counters,
// and the next ids are moved past the highest found. The record is kept
// in the file (see Repairs). A hard delete's scrub left pending runs
// after it.
func (s *Store) Repair(ctx context.Context) (*Repair, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.checkClock(); err != nil {
		return nil, err
	}
	if s.be != nil {
		return nil, nil // never stale
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
	if s.be != nil {
		return nil, nil
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
