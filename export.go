package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// exportFormat names the JSON Lines format of Export; its first line is a
// header, then one line per fact with its whole lifecycle log.
const (
	exportFormat  = "palimpsest-memory"
	exportVersion = 1
)

type exportHeader struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	NextID       uint64 `json:"next_id"`
	LastDecision uint64 `json:"last_decision,omitempty"`
	LastConflict uint64 `json:"last_conflict,omitempty"`
}

// exportLog is a line of the decision log or the conflicts.
type exportLog struct {
	Decision *Decision `json:"decision,omitempty"`
	Conflict *Conflict `json:"conflict,omitempty"`
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
}

type exportFact struct {
	ID           uint64        `json:"id"`
	User         string        `json:"user"`
	Text         string        `json:"text"`
	Pinned       bool          `json:"pinned"`
	Origin       string        `json:"origin"`
	Source       exportSource  `json:"source"`
	RecordedAt   time.Time     `json:"recorded_at"`
	ValidUntil   *time.Time    `json:"valid_until"`
	SupersededBy uint64        `json:"superseded_by"`
	Supersedes   uint64        `json:"supersedes"`
	EventFrom    *time.Time    `json:"event_from"`
	EventUntil   *time.Time    `json:"event_until"`
	EventSource  string        `json:"event_source,omitempty"`
	Log          []exportEvent `json:"log"`
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
// lifecycle logs — as JSON Lines, from one consistent snapshot. Import of
// the output into an empty store gives an identical store.
func (s *Store) Export(ctx context.Context, w io.Writer) error {
	return s.view(ctx, func(tx *kv.Tx) error {
		bw := bufio.NewWriter(w)
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		hdr := exportHeader{Format: exportFormat, Version: exportVersion, NextID: tx.PeekNextID(),
			LastDecision: tx.BlobSeq(kv.BucketDecisions), LastConflict: tx.BlobSeq(kv.BucketConflicts)}
		if err := enc.Encode(hdr); err != nil {
			return err
		}
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
		for _, b := range [][]byte{kv.BucketDecisions, kv.BucketConflicts} {
			err := tx.ForEachBlob(b, false, func(id uint64, raw []byte) error {
				var l exportLog
				var err error
				if string(b) == string(kv.BucketDecisions) {
					l.Decision = new(Decision)
					err = json.Unmarshal(raw, l.Decision)
				} else {
					l.Conflict = new(Conflict)
					err = json.Unmarshal(raw, l.Conflict)
				}
				if err != nil {
					return fmt.Errorf("%w: %s %d: %v", ErrCorrupt, b, id, err)
				}
				return enc.Encode(l)
			})
			if err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

func exportOf(r *kv.Record, evs []kv.Event) exportFact {
	f := exportFact{
		ID: r.ID, User: r.User, Text: r.Text, Pinned: r.Pinned, Origin: originOf(r.Auto).String(),
		Source: exportSource{Kind: r.Source.Kind, Ref: r.Source.Ref, Quote: r.Source.Quote,
			SaidAt: timePtr(r.Source.SaidAt, r.Source.SaidAt != 0)},
		RecordedAt:   time.Unix(0, r.RecordedAt).UTC(),
		ValidUntil:   timePtr(r.ValidUntil, r.ValidUntil != 0),
		SupersededBy: r.SupersededBy,
		Supersedes:   r.Supersedes,
		EventFrom:    timePtr(r.EventFrom, r.HasFrom),
		EventUntil:   timePtr(r.EventUntil, r.HasUntil),
		EventSource:  r.EventSource,
		Log:          make([]exportEvent, len(evs)),
	}
	for i, e := range evs {
		f.Log[i] = exportEvent{Kind: e.Kind.String(), At: time.Unix(0, e.At).UTC(), Origin: originOf(e.Auto).String(),
			By: e.By, EventEnd: timePtr(e.End, e.Kind == kv.Superseded), Cause: e.Cause}
	}
	return f
}

// ImportOptions tune Import.
type ImportOptions struct {
	// Progress, when set, is called every 1,000 facts and once at the end
	// with the facts read so far and the bytes consumed.
	Progress func(facts int, bytes int64)
}

// Import reads the output of Export into an empty store, keeping ids, times
// and logs, in one transaction: a bad line anywhere leaves the store
// untouched. It returns the number of facts imported.
func (s *Store) Import(ctx context.Context, r io.Reader, opts *ImportOptions) (int, error) {
	var progress func(int, int64)
	if opts != nil {
		progress = opts.Progress
	}
	cr := &countingReader{r: r}
	sc := bufio.NewScanner(cr)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	line := 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: line %d: %s", ErrBadImport, line, fmt.Sprintf(format, args...))
	}
	var hdr exportHeader
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return 0, err
		}
		line = 1
		return 0, bad("no header")
	}
	line = 1
	if err := strictUnmarshal(sc.Bytes(), &hdr); err != nil || hdr.Format != exportFormat {
		return 0, bad("not a %s header", exportFormat)
	}
	if hdr.NextID < 1 || hdr.NextID >= 1<<62 {
		return 0, bad("next_id %d out of range", hdr.NextID)
	}
	if hdr.Version != exportVersion {
		return 0, bad("format version %d, this program reads %d", hdr.Version, exportVersion)
	}
	type item struct {
		rec kv.Record
		evs []kv.Event
	}
	var items []item
	var logs []exportLog
	seen := map[uint64]bool{}
	for sc.Scan() {
		line++
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if b := sc.Bytes(); bytes.HasPrefix(b, []byte(`{"decision":`)) || bytes.HasPrefix(b, []byte(`{"conflict":`)) {
			var l exportLog
			if err := strictUnmarshal(b, &l); err != nil || (l.Decision == nil) == (l.Conflict == nil) {
				return 0, bad("not a decision or conflict: %v", err)
			}
			if err := validLog(l, hdr); err != nil {
				return 0, bad("%v", err)
			}
			logs = append(logs, l)
			continue
		}
		var f exportFact
		if err := strictUnmarshal(sc.Bytes(), &f); err != nil {
			return 0, bad("%v", err)
		}
		rec, evs, err := s.importFact(&f)
		if err != nil {
			return 0, bad("fact %d: %v", f.ID, err)
		}
		if seen[rec.ID] || rec.ID == 0 || rec.ID >= hdr.NextID {
			return 0, bad("fact id %d is duplicated or not below next_id %d", rec.ID, hdr.NextID)
		}
		seen[rec.ID] = true
		items = append(items, item{rec, evs})
		if progress != nil && len(items)%1000 == 0 {
			progress(len(items), cr.n)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("%w: line %d: %w", ErrBadImport, line+1, err)
	}
	err := s.update(ctx, func(tx *kv.Tx) error {
		if !tx.Empty() {
			return ErrNotEmpty
		}
		for i := range items {
			if err := tx.Put(&items[i].rec); err != nil {
				return err
			}
			for j := range items[i].evs {
				if err := tx.Append(items[i].rec.ID, &items[i].evs[j]); err != nil {
					return err
				}
			}
		}
		if err := tx.SetNextID(hdr.NextID); err != nil {
			return err
		}
		for _, l := range logs {
			var err error
			// checkTx below refuses a log line that names a missing fact.
			if l.Decision != nil {
				err = putJSON(tx, kv.BucketDecisions, l.Decision.ID, l.Decision)
			} else {
				err = putJSON(tx, kv.BucketConflicts, l.Conflict.ID, l.Conflict)
			}
			if err != nil {
				return err
			}
		}
		if err := tx.SetBlobSeq(kv.BucketDecisions, hdr.LastDecision); err != nil {
			return err
		}
		if err := tx.SetBlobSeq(kv.BucketConflicts, hdr.LastConflict); err != nil {
			return err
		}
		if errs := checkTx(tx); len(errs) > 0 {
			return fmt.Errorf("%w: %w", ErrBadImport, errors.Join(errs...))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if progress != nil {
		progress(len(items), cr.n)
	}
	return len(items), nil
}

// importFact validates one exported fact with the same rules as a write.
func (s *Store) importFact(f *exportFact) (kv.Record, []kv.Event, error) {
	n := Note{User: f.User, Text: f.Text, Pinned: f.Pinned,
		Source: Source{Kind: f.Source.Kind, Ref: f.Source.Ref, Quote: f.Source.Quote}}
	if f.EventFrom != nil {
		n.EventFrom = *f.EventFrom
	}
	if f.EventUntil != nil {
		n.EventUntil = *f.EventUntil
	}
	if f.Source.SaidAt != nil {
		n.Source.SaidAt = *f.Source.SaidAt
	}
	var err error
	if n.Origin, err = parseOrigin(f.Origin); err != nil {
		return kv.Record{}, nil, err
	}
	rec, err := s.record(n)
	if err != nil {
		return kv.Record{}, nil, err
	}
	if rec.Text != f.Text {
		return kv.Record{}, nil, errors.New("text has surrounding white space")
	}
	if err := validTime("recorded_at", f.RecordedAt); err != nil || f.RecordedAt.IsZero() {
		return kv.Record{}, nil, fmt.Errorf("bad recorded_at")
	}
	rec.ID, rec.RecordedAt = f.ID, f.RecordedAt.UnixNano()
	switch f.EventSource {
	case "", EventGiven, EventFromModel, EventFromWords:
		rec.EventSource = f.EventSource
	default:
		return kv.Record{}, nil, fmt.Errorf("unknown event_source %q", f.EventSource)
	}
	rec.ValidUntil, _ = nanosOf(f.ValidUntil)
	rec.SupersededBy, rec.Supersedes = f.SupersededBy, f.Supersedes
	evs := make([]kv.Event, len(f.Log))
	for i, e := range f.Log {
		kind, ok := kv.ParseEventKind(e.Kind)
		if !ok {
			return kv.Record{}, nil, fmt.Errorf("unknown log step %q", e.Kind)
		}
		o, err := parseOrigin(e.Origin)
		if err != nil {
			return kv.Record{}, nil, err
		}
		if err := validTime("log time", e.At); err != nil || e.At.IsZero() {
			return kv.Record{}, nil, fmt.Errorf("bad log time")
		}
		cause, err := s.validText("cause", e.Cause, true)
		if err != nil {
			return kv.Record{}, nil, err
		}
		end, _ := nanosOf(e.EventEnd)
		evs[i] = kv.Event{Kind: kind, At: e.At.UnixNano(), Auto: o == OriginAuto, By: e.By, End: end, Cause: cause}
	}
	if err := replayMatches(&rec, evs); err != nil {
		return kv.Record{}, nil, err
	}
	return rec, evs, nil
}

func parseOrigin(s string) (Origin, error) {
	switch s {
	case "user":
		return OriginUser, nil
	case "auto":
		return OriginAuto, nil
	}
	return 0, fmt.Errorf("unknown origin %q", s)
}

func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// validLog checks a decision or conflict line: an id within the header's
// sequence and a valid user name.
func validLog(l exportLog, hdr exportHeader) error {
	id, last, user := uint64(0), uint64(0), ""
	if l.Decision != nil {
		id, last, user = l.Decision.ID, hdr.LastDecision, l.Decision.User
	} else {
		id, last, user = l.Conflict.ID, hdr.LastConflict, l.Conflict.User
	}
	if id == 0 || id > last {
		return fmt.Errorf("id %d outside 1..%d", id, last)
	}
	return validUser(user)
}

// refsExist reports whether every non-zero fact id exists and is user's.
func refsExist(tx *kv.Tx, user string, ids ...uint64) bool {
	for _, id := range ids {
		if id == 0 {
			continue
		}
		if _, err := getUser(tx, id, user); err != nil {
			return false
		}
	}
	return true
}
