package memory

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// exportFormat names the JSON Lines format of Export; its first line is a
// header, then one line per fact with its whole lifecycle log. Version 2
// gave log steps their decision references ("decision", "undoes"); in
// version 1 they were the step's cause, "decision N" or "undo of decision
// N", and Import reads them from there. Version 3 gave facts their claims
// ("claims", absent for none); a fact of an earlier version has its claims
// extracted from its text on import, as a write without claims does.
// Version 4 added the merges of entities ("merge" lines, after the
// conflicts, and the header's "last_merge"); earlier versions have none.
// Version 5 added the "confirmed" log step a restatement appends; a
// program that reads up to version 4 refuses the file by its version
// rather than at the first step it does not know. Version 6 added a
// decision's "also_conflicts", the conflicts with further facts it may
// replace; an earlier version has none. Version 7 added the "unconfirmed"
// log step (the undo of a restatement, cancelling its "confirmed" step).
// Version 8 added "event_until_source", where a fact's end came from; an
// earlier version has none. Version 9 added a fact's "also_supersedes"
// (the further facts a person kept it over), a conflict's "relation" (one
// the store derived from two claims), "moot_at" and "moot" (a conflict
// that stopped holding); an earlier version has none, and its conflicts
// are kept on import as every write keeps them. Version 10 gives each user
// ids and counters of their own (a store of file format 6 on, or on a
// cluster): the header holds no counters, and each user's lines come
// after a "counters" line of theirs; a fact, decision, conflict or merge
// is named by its user and id. In an earlier version ids were the
// store's, and Import gives every user the header's counters.
const (
	exportFormat  = "palimpsest-memory"
	exportVersion = 10
	// exportShared is the last version whose ids were the store's.
	exportShared = 9
)

type exportHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// The counters of the store, up to version 9; from 10 each user's
	// are on a line of their own (exportCounters).
	NextID       uint64 `json:"next_id,omitempty"`
	LastDecision uint64 `json:"last_decision,omitempty"`
	LastConflict uint64 `json:"last_conflict,omitempty"`
	LastMerge    uint64 `json:"last_merge,omitempty"`
}

// exportCounters are one user's counters (version 10): the id the next
// fact would get, and the last decision, conflict and merge id given.
type exportCounters struct {
	User         string `json:"user"`
	NextID       uint64 `json:"next_id"`
	LastDecision uint64 `json:"last_decision,omitempty"`
	LastConflict uint64 `json:"last_conflict,omitempty"`
	LastMerge    uint64 `json:"last_merge,omitempty"`
}

// counters is what the user's counters line says, as the header did.
func (c exportCounters) header(version int) exportHeader {
	return exportHeader{Format: exportFormat, Version: version, NextID: c.NextID,
		LastDecision: c.LastDecision, LastConflict: c.LastConflict, LastMerge: c.LastMerge}
}

// exportLog is a line of the decision log, the conflicts or the merges,
// or a user's counters.
type exportLog struct {
	Decision *Decision       `json:"decision,omitempty"`
	Conflict *Conflict       `json:"conflict,omitempty"`
	Merge    *Merge          `json:"merge,omitempty"`
	Counters *exportCounters `json:"counters,omitempty"`
	line     int             // where Import read it
}

type exportSource struct {
	Kind   string     `json:"kind,omitempty"`
	Ref    string     `json:"ref,omitempty"`
	Quote  string     `json:"quote,omitempty"`
	SaidAt *time.Time `json:"said_at,omitempty"`
}

type exportEvent struct {
	Kind     string     `json:"kind"`
	At       time.Time  `json:"at"`
	Origin   string     `json:"origin"`
	By       uint64     `json:"by,omitempty"`
	EventEnd *time.Time `json:"event_end,omitempty"`
	Cause    string     `json:"cause,omitempty"`
	Decision uint64     `json:"decision,omitempty"`
	Undoes   uint64     `json:"undoes,omitempty"`
}

type exportFact struct {
	ID               uint64        `json:"id"`
	User             string        `json:"user"`
	Text             string        `json:"text"`
	Pinned           bool          `json:"pinned"`
	Origin           string        `json:"origin"`
	Source           exportSource  `json:"source"`
	RecordedAt       time.Time     `json:"recorded_at"`
	ValidUntil       *time.Time    `json:"valid_until"`
	SupersededBy     uint64        `json:"superseded_by"`
	Supersedes       uint64        `json:"supersedes"`
	AlsoSupersedes   []uint64      `json:"also_supersedes,omitempty"`
	EventFrom        *time.Time    `json:"event_from"`
	EventUntil       *time.Time    `json:"event_until"`
	EventSource      string        `json:"event_source,omitempty"`
	EventUntilSource string        `json:"event_until_source,omitempty"`
	Claims           []exportClaim `json:"claims,omitempty"`
	Log              []exportEvent `json:"log"`
}

type exportClaim struct {
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	Kind     string `json:"kind,omitempty"`
}

func timePtr(n int64, has bool) *time.Time {
	if !has {
		return nil
	}
	t := time.Unix(0, n).UTC()
	return &t
}

func nanosOf(t *time.Time) (int64, bool) {
	if t == nil {
		return 0, false
	}
	return t.UnixNano(), true
}

// Export writes every fact of every user — current ones, history and
// lifecycle logs — as JSON Lines, a user at a time, each after a line of
// the user's counters. Import of the output into an empty store gives an
// identical store.
//
// From a file it is one consistent snapshot of the whole store. On a
// cluster (OpenBackend) no snapshot spans users: each user's lines are
// one snapshot of that user's data, taken in turn. A file of an older
// format opened read-only, whose ids are the store's, exports in version
// 9, as it did.
func (s *Store) Export(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if s.be != nil {
		users, err := s.be.Users(ctx)
		if err != nil {
			return err
		}
		if err := enc.Encode(exportHeader{Format: exportFormat, Version: exportVersion}); err != nil {
			return err
		}
		for _, u := range users {
			if err := s.view(ctx, u, func(tx *kv.Tx) error { return exportUser(ctx, tx, u, enc) }); err != nil {
				return err
			}
		}
		return bw.Flush()
	}
	err := s.viewAll(ctx, func(tx *kv.Tx) error {
		if _, perUser := tx.User(); !perUser {
			return exportShared9(ctx, tx, enc)
		}
		if err := enc.Encode(exportHeader{Format: exportFormat, Version: exportVersion}); err != nil {
			return err
		}
		return tx.EachUser(func(u string) error { return exportUser(ctx, tx, u, enc) })
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// exportShared9 writes a file whose ids are the store's (an older format,
// read as it is) in version 9: the store's counters in the header.
func exportShared9(ctx context.Context, tx *kv.Tx, enc *json.Encoder) error {
	hdr := exportHeader{Format: exportFormat, Version: exportShared, NextID: tx.PeekNextID(),
		LastDecision: tx.BlobSeq(kv.BucketDecisions), LastConflict: tx.BlobSeq(kv.BucketConflicts),
		LastMerge: tx.BlobSeq(kv.BucketMerges)}
	if err := enc.Encode(hdr); err != nil {
		return err
	}
	return exportData(ctx, tx, enc)
}

// exportUser writes user's counters and then their data, which tx is on.
func exportUser(ctx context.Context, tx *kv.Tx, user string, enc *json.Encoder) error {
	c := exportCounters{User: user, NextID: tx.PeekNextID(), LastDecision: tx.BlobSeq(kv.BucketDecisions),
		LastConflict: tx.BlobSeq(kv.BucketConflicts), LastMerge: tx.BlobSeq(kv.BucketMerges)}
	if err := enc.Encode(exportLog{Counters: &c}); err != nil {
		return err
	}
	return exportData(ctx, tx, enc)
}

// exportData writes the facts and logs of the buckets tx is on.
func exportData(ctx context.Context, tx *kv.Tx, enc *json.Encoder) error {
	err := tx.ForEach(func(r kv.Record) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		evs, err := tx.Events(r.ID)
		if err != nil {
			return err
		}
		return enc.Encode(exportOf(&r, evs))
	})
	if err != nil {
		return err
	}
	// The nouns are the buckets' names, as export has always said.
	err = forEachLog(tx, kv.BucketDecisions, "decisions", false, func(_ uint64, d Decision) error {
		return enc.Encode(exportLog{Decision: &d})
	})
	if err != nil {
		return err
	}
	err = forEachLog(tx, kv.BucketConflicts, "conflicts", false, func(_ uint64, c Conflict) error {
		return enc.Encode(exportLog{Conflict: &c})
	})
	if err != nil {
		return err
	}
	return forEachLog(tx, kv.BucketMerges, "merges", false, func(_ uint64, m Merge) error {
		return enc.Encode(exportLog{Merge: &m})
	})
}

func exportOf(r *kv.Record, evs []kv.Event) exportFact {
	f := exportFact{
		ID: r.ID, User: r.User, Text: r.Text, Pinned: r.Pinned, Origin: originOf(r.Auto).String(),
		Source: exportSource{Kind: r.Source.Kind, Ref: r.Source.Ref, Quote: r.Source.Quote,
			SaidAt: timePtr(r.Source.SaidAt, r.Source.SaidAt != 0)},
		RecordedAt:       time.Unix(0, r.RecordedAt).UTC(),
		ValidUntil:       timePtr(r.ValidUntil, r.ValidUntil != 0),
		SupersededBy:     r.SupersededBy,
		Supersedes:       r.Supersedes,
		AlsoSupersedes:   r.AlsoSupersedes,
		EventFrom:        timePtr(r.EventFrom, r.HasFrom),
		EventUntil:       timePtr(r.EventUntil, r.HasUntil),
		EventSource:      r.EventSource,
		EventUntilSource: r.EventUntilSource,
		Log:              make([]exportEvent, len(evs)),
	}
	for _, c := range r.Claims {
		f.Claims = append(f.Claims, exportClaim(c))
	}
	for i, e := range evs {
		f.Log[i] = exportEvent{Kind: e.Kind.String(), At: time.Unix(0, e.At).UTC(), Origin: originOf(e.Auto).String(),
			By: e.By, EventEnd: timePtr(e.End, e.Kind == kv.Superseded), Cause: e.Cause, Decision: e.Decision, Undoes: e.Undoes}
	}
	return f
}
