package memory

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/kv"
)

// ImportOptions tune Import.
type ImportOptions struct {
	// Progress, when set, is called every 1,000 facts and once at the end
	// with the facts read so far and the bytes consumed.
	Progress func(facts int, bytes int64)
}

// Import reads the output of Export into an empty store, keeping ids, times
// and logs. It returns the number of facts imported.
//
// It is atomic: the facts go, in batches, into a new file beside the store
// (kv.DB.Beside), which takes the store's place in one step once every
// line has been read and the whole checked; until then nothing of it is
// visible, and a bad line anywhere, a cancelled ctx or a process killed
// midway leaves the store as it was. The first bad line of the input is
// the one reported. Its memory is bounded by the batch, not by the input:
// a file of a million facts imports in a few hundred megabytes at most.
func (s *Store) Import(ctx context.Context, r io.Reader, opts *ImportOptions) (int, error) {
	var progress func(int, int64)
	if opts != nil {
		progress = opts.Progress
	}
	cr := &countingReader{r: r}
	sc := &lineReader{r: bufio.NewReaderSize(cr, 64<<10)}
	hdr, err := readImportHeader(sc)
	if err != nil {
		return 0, err
	}
	empty := func(tx *kv.Tx) error {
		if !tx.Empty() {
			return ErrNotEmpty
		}
		return nil
	}
	// Import replaces the whole file, so no user may have a fact in it.
	if err := s.viewAll(ctx, empty); err != nil {
		return 0, err
	}
	dst, err := s.db.Beside()
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	defer dst.Discard() // once Replace has put it in place, nothing
	w := &importWriter{s: s, dst: dst, hdr: hdr, logLines: map[string]map[lineKey]int{"decision": {}, "conflict": {}},
		counters: map[string]exportCounters{}}
	err = s.streamImport(ctx, sc, decodeBounds(hdr), w.write, func(facts int) {
		if progress != nil {
			progress(facts, cr.n)
		}
	})
	if err != nil {
		return 0, err
	}
	if err := w.finish(); err != nil {
		return 0, err
	}
	// Nothing may have been written to the store since it was found
	// empty; the caches of the empty store go with it.
	if err := s.db.Replace(dst, empty, func() { s.lists.invalidate(nil) }); err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	// The index of the empty store goes too: the next lookup builds one
	// of what was imported, and keeps it.
	s.live.Drop()
	if progress != nil {
		progress(w.facts, cr.n)
	}
	return w.facts, nil
}

// onLines names the line of each problem of a fact, a decision or a
// conflict of user, first line first.
func onLines(errs []error, user string, facts *factLines, logLines map[string]map[lineKey]int) []error {
	lineOf := func(err error) int {
		if p, ok := errors.AsType[*factProblem](err); ok {
			return facts.line(user, p.id)
		}
		if p, ok := errors.AsType[*logProblem](err); ok {
			return logLines[p.noun][lineKey{user, p.id}]
		}
		return 0
	}
	out := make([]error, len(errs))
	for i, err := range errs {
		if l := lineOf(err); l > 0 {
			err = fmt.Errorf("line %d: %w", l, err)
		}
		out[i] = err
	}
	key := func(err error) int {
		if l := lineOf(err); l > 0 {
			return l
		}
		return math.MaxInt // the store-wide problems after the lines
	}
	slices.SortStableFunc(out, func(a, b error) int { return cmp.Compare(key(a), key(b)) })
	return out
}

// lineReader reads lines of any length, as Export may write them: its
// memory is the longest line, where bufio.Scanner would stop at a fixed cap.
// Like bufio.ScanLines it drops the line's "\n" and a "\r" before it.
type lineReader struct {
	r    *bufio.Reader
	line []byte
	err  error
}

// Scan reads the next line; false at the end of the input or on an error,
// which Err returns.
func (l *lineReader) Scan() bool {
	if l.err != nil {
		return false
	}
	l.line = l.line[:0]
	for {
		b, err := l.r.ReadSlice('\n')
		l.line = append(l.line, b...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			if len(l.line) == 0 {
				return false
			}
		case err != nil:
			l.err = err
			return false
		}
		l.line = bytes.TrimSuffix(l.line, []byte("\n"))
		l.line = bytes.TrimSuffix(l.line, []byte("\r"))
		return true
	}
}

// Bytes is the line read last, valid until the next Scan.
func (l *lineReader) Bytes() []byte { return l.line }

// Err is the read error that stopped Scan, nil at the end of the input.
func (l *lineReader) Err() error { return l.err }

func readImportHeader(sc *lineReader) (exportHeader, error) {
	var hdr exportHeader
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: line 1: %s", ErrBadImport, fmt.Sprintf(format, args...))
	}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return hdr, err
		}
		return hdr, bad("no header")
	}
	if err := validRaw(sc.Bytes()); err != nil {
		return hdr, bad("%v", err)
	}
	if err := strictUnmarshal(sc.Bytes(), &hdr); err != nil || hdr.Format != exportFormat {
		return hdr, bad("not a %s header", exportFormat)
	}
	if hdr.Version < 1 || hdr.Version > exportVersion {
		return hdr, bad("format version %d, this program reads 1 to %d", hdr.Version, exportVersion)
	}
	if hdr.Version > exportShared {
		// Each user's counters are on a line of their own.
		if hdr.NextID != 0 || hdr.LastDecision != 0 || hdr.LastConflict != 0 || hdr.LastMerge != 0 {
			return hdr, bad("store counters in a version %d header, whose counters are each user's", hdr.Version)
		}
		return hdr, nil
	}
	if err := validCounters(hdr); err != nil {
		return hdr, bad("%v", err)
	}
	return hdr, nil
}

// validCounters checks counters as a header or a user's line holds them:
// up to the last id a store gives (kv.MaxID), and no further: past it kv
// would wrap, and a later write overwrite.
func validCounters(hdr exportHeader) error {
	if hdr.NextID < 1 || hdr.NextID > kv.MaxID+1 {
		return fmt.Errorf("next_id %d outside 1..%d", hdr.NextID, uint64(kv.MaxID+1))
	}
	for _, c := range []struct {
		name string
		v    uint64
	}{{"last_decision", hdr.LastDecision}, {"last_conflict", hdr.LastConflict}, {"last_merge", hdr.LastMerge}} {
		if c.v > kv.MaxID {
			return fmt.Errorf("%s %d outside 0..%d", c.name, c.v, uint64(kv.MaxID))
		}
	}
	return nil
}

// decodeBounds is the header the lines are decoded against, each by
// itself: from version 10 the counters are each user's, known to the
// writer, which takes the lines in order and checks each against its
// user's (importWriter.bounds); a line alone is held to the store's
// bounds.
func decodeBounds(hdr exportHeader) exportHeader {
	if hdr.Version > exportShared {
		hdr.NextID, hdr.LastDecision, hdr.LastConflict, hdr.LastMerge = kv.MaxID+1, kv.MaxID, kv.MaxID, kv.MaxID
	}
	return hdr
}

// importItem is one decoded fact line.
type importItem struct {
	line int
	rec  kv.Record
	evs  []kv.Event
}

// importChunk is a run of consecutive lines, decoded by one worker: its
// facts and log lines in order, up to its first bad line, and that line's
// error.
type importChunk struct {
	first int
	lines [][]byte
	items []importItem
	logs  []exportLog
	err   error
	// decoded is closed once a worker has decoded the chunk.
	decoded chan struct{}
}

func isLogLine(b []byte) bool {
	return bytes.HasPrefix(b, []byte(`{"decision":`)) || bytes.HasPrefix(b, []byte(`{"conflict":`)) ||
		bytes.HasPrefix(b, []byte(`{"merge":`)) || bytes.HasPrefix(b, []byte(`{"counters":`))
}

// decodeChunk decodes a chunk's lines up to the first bad one.
func (s *Store) decodeChunk(ctx context.Context, c *importChunk, hdr exportHeader) {
	defer func() { c.lines = nil }()
	for i, b := range c.lines {
		line := c.first + i
		bad := func(format string, args ...any) {
			c.err = fmt.Errorf("%w: line %d: %s", ErrBadImport, line, fmt.Sprintf(format, args...))
		}
		if err := ctx.Err(); err != nil {
			c.err = err
			return
		}
		if len(b) == 0 {
			bad("a blank line between records")
			return
		}
		if err := validRaw(b); err != nil {
			bad("%v", err)
			return
		}
		if isLogLine(b) {
			var l exportLog
			if err := strictUnmarshal(b, &l); err != nil || countSet(l.Decision != nil, l.Conflict != nil, l.Merge != nil, l.Counters != nil) != 1 {
				bad("not a decision, conflict, merge or counters line: %v", err)
				return
			}
			if l.Counters != nil {
				if err := validCountersLine(l.Counters, hdr); err != nil {
					bad("counters of user %q: %v", l.Counters.User, err)
					return
				}
			} else if l.Merge != nil {
				if err := s.validMergeLine(l.Merge, hdr); err != nil {
					bad("merge %d: %v", l.Merge.ID, err)
					return
				}
			} else if err := validLog(l, hdr); err != nil {
				bad("%v", err)
				return
			}
			l.line = line
			c.logs = append(c.logs, l)
			continue
		}
		var f exportFact
		if err := strictUnmarshal(b, &f); err != nil {
			bad("%v", err)
			return
		}
		rec, evs, err := s.importFact(&f, hdr)
		if err != nil {
			bad("fact %d: %v", f.ID, err)
			return
		}
		if rec.ID == 0 || rec.ID >= hdr.NextID {
			bad("fact id %d is not below next_id %d", rec.ID, hdr.NextID)
			return
		}
		c.items = append(c.items, importItem{line: line, rec: rec, evs: evs})
	}
}

// importFact validates one exported fact of an export with header hdr
// with the same rules as a write.
func (s *Store) importFact(f *exportFact, hdr exportHeader) (kv.Record, []kv.Event, error) {
	n := Note{User: f.User, Text: f.Text, Pinned: f.Pinned,
		Source: Source{Kind: f.Source.Kind, Ref: f.Source.Ref, Quote: f.Source.Quote}}
	if err := validEventTimes(namedTime{"event_from", f.EventFrom}, namedTime{"event_until", f.EventUntil},
		namedTime{"said_at", f.Source.SaidAt}); err != nil {
		return kv.Record{}, nil, err
	}
	if f.EventFrom != nil {
		n.EventFrom = *f.EventFrom
	}
	if f.EventUntil != nil {
		n.EventUntil = *f.EventUntil
	}
	if f.Source.SaidAt != nil {
		n.Source.SaidAt = *f.Source.SaidAt
	}
	if hdr.Version >= 3 {
		// The export says its claims: none when it says none.
		n.Claims = make([]Claim, 0, len(f.Claims))
		for _, c := range f.Claims {
			n.Claims = append(n.Claims, Claim{Subject: c.Subject, Relation: Relation(c.Relation), Object: c.Object, Kind: EntityKind(c.Kind)})
		}
	} else if f.Claims != nil {
		return kv.Record{}, nil, fmt.Errorf("claims in a version %d export", hdr.Version)
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
	if !recordTime(f.RecordedAt) {
		return kv.Record{}, nil, fmt.Errorf("bad recorded_at")
	}
	rec.ID, rec.RecordedAt = f.ID, f.RecordedAt.UnixNano()
	for _, src := range []struct {
		name, v string
		dst     *string
	}{{"event_source", f.EventSource, &rec.EventSource}, {"event_until_source", f.EventUntilSource, &rec.EventUntilSource}} {
		switch src.v {
		case "", EventGiven, EventFromModel, EventFromWords:
			*src.dst = src.v
		default:
			return kv.Record{}, nil, fmt.Errorf("unknown %s %q", src.name, src.v)
		}
	}
	switch {
	case f.EventUntilSource != "" && hdr.Version < 8:
		return kv.Record{}, nil, fmt.Errorf("event_until_source in a version %d export", hdr.Version)
	case f.EventUntilSource != "" && f.EventUntil == nil:
		return kv.Record{}, nil, fmt.Errorf("event_until_source %q with no event_until", f.EventUntilSource)
	case hdr.Version < 8 && rec.HasUntil:
		// Before version 8 only a caller could set an end.
		rec.EventUntilSource = EventGiven
	case len(f.AlsoSupersedes) > 0 && hdr.Version < 9:
		return kv.Record{}, nil, fmt.Errorf("also_supersedes in a version %d export", hdr.Version)
	}
	rec.AlsoSupersedes = f.AlsoSupersedes
	rec.ValidUntil, _ = nanosOf(f.ValidUntil)
	rec.SupersededBy, rec.Supersedes = f.SupersededBy, f.Supersedes
	evs := make([]kv.Event, len(f.Log))
	for i, e := range f.Log {
		kind, ok := kv.ParseEventKind(e.Kind)
		if !ok {
			return kv.Record{}, nil, fmt.Errorf("unknown log step %q", e.Kind)
		}
		if kind == kv.Unconfirmed && hdr.Version < 7 {
			return kv.Record{}, nil, fmt.Errorf("an unconfirmed step in a version %d export", hdr.Version)
		}
		o, err := parseOrigin(e.Origin)
		if err != nil {
			return kv.Record{}, nil, err
		}
		if !recordTime(e.At) {
			return kv.Record{}, nil, fmt.Errorf("bad log time")
		}
		cause, err := s.validText("cause", e.Cause, true)
		if err != nil {
			return kv.Record{}, nil, err
		}
		if err := validRecordTimes(namedTime{"event_end", e.EventEnd}); err != nil {
			return kv.Record{}, nil, err
		}
		end, _ := nanosOf(e.EventEnd)
		decision, undoes := e.Decision, e.Undoes
		if hdr.Version == 1 {
			if decision != 0 || undoes != 0 {
				return kv.Record{}, nil, errors.New("a log step of a version 1 export names a decision by field")
			}
			// Version 1 kept the references in the cause, as the store's
			// own version 1 steps did; a cause that reads like one but
			// names no decision of the export was a person's words.
			if decision, undoes = kv.DecisionRefs(kind, o == OriginAuto, cause); max(decision, undoes) > hdr.LastDecision {
				decision, undoes = 0, 0
			}
		}
		if max(decision, undoes) > hdr.LastDecision {
			return kv.Record{}, nil, fmt.Errorf("a log step names decision %d, after last_decision %d", max(decision, undoes), hdr.LastDecision)
		}
		evs[i] = kv.Event{Kind: kind, At: e.At.UnixNano(), Auto: o == OriginAuto, By: e.By, End: end, Cause: cause,
			Decision: decision, Undoes: undoes}
	}
	if err := replayMatches(&rec, evs); err != nil {
		return kv.Record{}, nil, err
	}
	return rec, evs, nil
}

// validRaw refuses what encoding/json would silently turn into U+FFFD:
// bytes that are not UTF-8, and \u escapes of lone UTF-16 surrogates. A
// write refuses invalid UTF-8 with ErrInvalidUTF8; so does an import.
func validRaw(b []byte) error {
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("%w at byte %d", ErrInvalidUTF8, i)
	}
	// Outside strings JSON has no backslash, so every one starts an escape.
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			continue
		}
		i++
		if b[i] != 'u' {
			continue
		}
		r, ok := hex4(b[i+1:])
		if !ok {
			continue // not an escape json accepts: it refuses the line itself
		}
		i += 4
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return fmt.Errorf("%w: lone surrogate escape \\u%04x at byte %d", ErrInvalidUTF8, r, i-5)
		case r >= 0xD800 && r <= 0xDBFF:
			if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
				if lo, ok := hex4(b[i+3:]); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 6
					continue
				}
			}
			return fmt.Errorf("%w: lone surrogate escape \\u%04x at byte %d", ErrInvalidUTF8, r, i-5)
		}
	}
	return nil
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// recordTime reports whether t can be a record time: what the store's
// clock gave, in Unix nanoseconds, whatever the clock said. (Event times
// are held to eventtime's range; a record time is not chosen but taken, so
// an import refusing one the store wrote would refuse the store's own
// export.)
func recordTime(t time.Time) bool {
	return !t.IsZero() && t.Equal(time.Unix(0, t.UnixNano()))
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

// validCountersLine checks a user's counters line (version 10 on).
func validCountersLine(c *exportCounters, hdr exportHeader) error {
	if hdr.Version <= exportShared {
		return fmt.Errorf("a counters line in a version %d export, whose counters are the header's", hdr.Version)
	}
	if err := validUser(c.User); err != nil {
		return err
	}
	return validCounters(c.header(hdr.Version))
}

// validLog checks a decision or conflict line by itself, as a write
// makes one (validDecision, validConflict): an id within the header's
// sequence; a decision's further conflicts only from version 6 on, its
// event end from version 8 on.
func validLog(l exportLog, hdr exportHeader) error {
	if d := l.Decision; d != nil {
		if hdr.Version < 6 && len(d.AlsoConflicts) > 0 {
			return fmt.Errorf("decision %d: further conflicts in a version %d export", d.ID, hdr.Version)
		}
		if hdr.Version < 8 && d.EventUntil != nil {
			return fmt.Errorf("decision %d: an event end in a version %d export", d.ID, hdr.Version)
		}
		if d.ID == 0 || d.ID > hdr.LastDecision {
			return fmt.Errorf("decision %d: id outside 1..%d", d.ID, hdr.LastDecision)
		}
		if err := validDecision(d); err != nil {
			return fmt.Errorf("decision %d: %w", d.ID, err)
		}
		return nil
	}
	if c := l.Conflict; hdr.Version < 9 && (c.Relation != "" || c.MootAt != nil || c.Moot != "") {
		return fmt.Errorf("conflict %d: a derived or moot conflict in a version %d export", c.ID, hdr.Version)
	}
	c := l.Conflict
	if c.ID == 0 || c.ID > hdr.LastConflict {
		return fmt.Errorf("conflict %d: id outside 1..%d", c.ID, hdr.LastConflict)
	}
	if err := validConflict(c); err != nil {
		return fmt.Errorf("conflict %d: %w", c.ID, err)
	}
	return nil
}

func countSet(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// validMergeLine checks a merge line by itself: an id within the header's
// sequence, a valid user, names and reason as a write takes them, and
// record times.
func (s *Store) validMergeLine(m *Merge, hdr exportHeader) error {
	if hdr.Version < 4 {
		return fmt.Errorf("a merge in a version %d export", hdr.Version)
	}
	if m.ID == 0 || m.ID > hdr.LastMerge {
		return fmt.Errorf("id %d outside 1..%d", m.ID, hdr.LastMerge)
	}
	if err := validUser(m.User); err != nil {
		return err
	}
	for _, n := range []struct{ what, name string }{{"from", m.From}, {"into", m.Into}} {
		if err := validName(n.what, n.name); err != nil {
			return err
		}
	}
	for _, r := range []struct{ what, text string }{{"reason", m.Reason}, {"undo_reason", m.UndoReason}} {
		if t, err := s.validText(r.what, r.text, true); err != nil {
			return err
		} else if t != r.text {
			return fmt.Errorf("%s has surrounding white space", r.what)
		}
	}
	if !recordTime(m.At) || (m.UndoneAt != nil && !recordTime(*m.UndoneAt)) {
		return errors.New("bad record time")
	}
	if m.UndoneAt == nil && m.UndoReason != "" {
		return errors.New("an undo reason for a merge not undone")
	}
	return nil
}

// importMerges checks the merges of an import against its facts, read
// from tx, as MergeEntities checks a merge against the store
// (replayMerges): the first line found bad is reported.
func importMerges(tx *kv.Tx, merges []exportLog) error {
	var ms []Merge
	lines := map[lineKey]int{}
	for _, l := range merges {
		k := lineKey{l.Merge.User, l.Merge.ID}
		if _, dup := lines[k]; dup {
			return fmt.Errorf("%w: line %d: merge id %d is duplicated", ErrBadImport, l.line, l.Merge.ID)
		}
		lines[k] = l.line
		ms = append(ms, *l.Merge)
	}
	if len(ms) == 0 {
		return nil
	}
	var readErr error
	errs := replayMerges(ms, func(user string) mergeFacts {
		var fs []*kv.Record
		tx.Use(user)
		err := tx.UserIDs(user, false, func(id uint64, _ bool) error {
			r, err := tx.Get(id)
			if err != nil {
				return err
			}
			fs = append(fs, &r)
			return nil
		})
		if err != nil && readErr == nil {
			readErr = err
		}
		return sortedByRecordTime(fs)
	})
	if readErr != nil {
		return readErr
	}
	if len(errs) == 0 {
		return nil
	}
	first, line := errs[0], math.MaxInt
	for _, err := range errs {
		if p, ok := errors.AsType[*mergeProblem](err); ok && lines[lineKey{p.user, p.id}] < line {
			first, line = err, lines[lineKey{p.user, p.id}]
		}
	}
	return fmt.Errorf("%w: line %d: %v", ErrBadImport, line, first)
}
