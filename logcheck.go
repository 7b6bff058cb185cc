package memory

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/internal/clip"
	"github.com/palimpsest-mem/memory/kv"
)

// The invariants of decisions, conflicts and merges, shared by the write
// paths, Import and Check: an entry a write would not make is refused by
// Import and reported by Check, with the same words. Each entry is checked
// by itself (validDecision, validConflict), then against the store
// (checkLogs: the facts it names, the entries it names, its counter).
// Merges have theirs in entity.go (checkMerge, replayMerges).

// logProblem is a broken invariant of one decision or conflict, so that
// Import can name the line it came from.
type logProblem struct {
	noun string // "decision" or "conflict"
	id   uint64
	err  error
}

func (p *logProblem) Error() string { return fmt.Sprintf("%s %d: %v", p.noun, p.id, p.err) }
func (p *logProblem) Unwrap() error { return p.err }

// logText is a text as a log keeps it (a decider's reason, the model's
// answer, a fallback's cause): cut to MaxDecisionText bytes at a rune
// boundary, and every control character but newline and tab replaced by
// U+FFFD, so that no log line is too long to import and none carries a
// terminal escape. validLogText accepts what it returns.
func logText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, logControl) >= 0 {
		s = strings.Map(func(r rune) rune {
			if logControl(r) {
				return utf8.RuneError
			}
			return r
		}, s)
	}
	return clip.Bytes(s, MaxDecisionText)
}

func logControl(r rune) bool { return r != '\n' && r != '\t' && unicode.IsControl(r) }

// validLogText checks a text a log keeps: what logText makes.
func validLogText(what, s string) error {
	switch {
	case !utf8.ValidString(s):
		return fmt.Errorf("%s: %w", what, ErrInvalidUTF8)
	case len(s) > MaxDecisionText:
		return fmt.Errorf("%s: %w: %d bytes, at most %d", what, ErrTooLong, len(s), MaxDecisionText)
	}
	if i := strings.IndexFunc(s, logControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return fmt.Errorf("%s: %w: %U at byte %d", what, ErrControlChar, r, i)
	}
	return nil
}

// validFactText checks a copy of a fact's text (a decision's): what a
// write accepts as a text, whatever its length limit was then.
func validFactText(what, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s: %w", what, ErrInvalidUTF8)
	}
	if i := strings.IndexFunc(s, logControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return fmt.Errorf("%s: %w: %U at byte %d", what, ErrControlChar, r, i)
	}
	return nil
}

// validEntryID checks the id of a log entry: one a counter can give.
func validEntryID(id uint64) error {
	if id == 0 || id > kv.MaxID {
		return fmt.Errorf("id %d outside 1..%d", id, uint64(kv.MaxID))
	}
	return nil
}

// validRecordTimes checks the record times of an entry: each what the
// store's clock gives (see recordTime), nil for none.
func validRecordTimes(ts ...namedTime) error {
	for _, t := range ts {
		if t.t != nil && !recordTime(*t.t) {
			return fmt.Errorf("%s %s is no record time", t.what, t.t.Format(time.RFC3339Nano))
		}
	}
	return nil
}

// validEventTimes checks event times given in a line: each in the store's
// range. A time given is a time: the zero one (year 1) is no "none".
func validEventTimes(ts ...namedTime) error {
	for _, t := range ts {
		if t.t != nil && !eventtime.InRange(*t.t) {
			return fmt.Errorf("%s %s: %w", t.what, t.t.Format(time.RFC3339), ErrInvalidTime)
		}
	}
	return nil
}

// namedTime is a time of an entry and the field's name, nil for none.
type namedTime struct {
	what string
	t    *time.Time
}

// validDecision checks a decision by itself: its id, user, times, action
// and texts as Remember writes them, and the shape each action gives (a
// refusal or a restatement adds no fact; only an add records conflicts).
func validDecision(d *Decision) error {
	if err := validEntryID(d.ID); err != nil {
		return err
	}
	if err := validUser(d.User); err != nil {
		return err
	}
	if err := validRecordTimes(namedTime{"at", &d.At}, namedTime{"undone_at", d.UndoneAt}); err != nil {
		return err
	}
	if err := validEventTimes(namedTime{"event_from", d.EventFrom}, namedTime{"event_until", d.EventUntil}); err != nil {
		return err
	}
	if d.EventFrom != nil && d.EventUntil != nil && !d.EventUntil.After(*d.EventFrom) {
		return fmt.Errorf("%w: event_until %s is not after event_from %s", ErrInvalidInterval,
			d.EventUntil.Format(time.RFC3339), d.EventFrom.Format(time.RFC3339))
	}
	switch d.Action {
	case "", ActionAdd, ActionUpdate, ActionInvalidate, ActionNoop:
	default:
		return fmt.Errorf("unknown action %q", d.Action)
	}
	switch d.ClaimsFrom {
	case "", ClaimsFromCaller, ClaimsFromModel, ClaimsFromRules:
	default:
		return fmt.Errorf("unknown claims_from %q", d.ClaimsFrom)
	}
	if err := validFactText("text", d.Text); err != nil {
		return err
	}
	for _, t := range []struct{ what, s string }{{"proposed", string(d.Proposed)}, {"reason", d.Reason}, {"raw", d.Raw},
		{"fallback", d.Fallback}, {"claims_note", d.ClaimsNote}, {"grain", d.Grain}} {
		if err := validLogText(t.what, t.s); err != nil {
			return err
		}
	}
	// The fact a decision added got the next id, after every fact it saw.
	for _, id := range append([]uint64{d.Target}, d.Candidates...) {
		if d.Added != 0 && id >= d.Added {
			return fmt.Errorf("added fact %d is not newer than fact %d, which it saw", d.Added, id)
		}
	}
	conflicts := d.conflictIDs()
	switch {
	case (d.Action == "" || d.Action == ActionNoop) && d.Added != 0:
		return fmt.Errorf("a decision to %s names an added fact %d", actionName(d.Action), d.Added)
	case d.Action != ActionAdd && len(conflicts) > 0:
		return fmt.Errorf("a decision to %s records conflicts", actionName(d.Action))
	case d.Conflict == 0 && len(d.AlsoConflicts) > 0:
		return fmt.Errorf("further conflicts %v without a first", d.AlsoConflicts)
	}
	for i, id := range conflicts {
		if err := validEntryID(id); err != nil {
			return fmt.Errorf("conflict %w", err)
		}
		if slices.Contains(conflicts[:i], id) {
			return fmt.Errorf("conflict %d named twice", id)
		}
	}
	return nil
}

func actionName(a Action) string {
	if a == "" {
		return "refuse the fact"
	}
	return string(a)
}

// conflictIDs are the conflicts a decision recorded, its first first.
func (d *Decision) conflictIDs() []uint64 {
	if d.Conflict == 0 && len(d.AlsoConflicts) == 0 {
		return nil
	}
	return append([]uint64{d.Conflict}, d.AlsoConflicts...)
}

// scrubbed reports whether a hard delete has scrubbed d (scrubLogs): its
// reason is gone, and so may be conflicts it recorded.
func (d *Decision) scrubbed() bool {
	return d.Reason == deletedText || strings.HasPrefix(d.Reason, "[reason removed with a deleted fact")
}

// validConflict checks a conflict by itself: its id, user and times, two
// different facts, the decision that recorded it or, for one the store
// derived, a single-valued relation; its reason as a log keeps it; a
// resolution that is one of the choices, with its time; and a moot one's
// cause and time, never beside a resolution.
func validConflict(c *Conflict) error {
	if err := validEntryID(c.ID); err != nil {
		return err
	}
	if err := validUser(c.User); err != nil {
		return err
	}
	if err := validRecordTimes(namedTime{"at", &c.At}, namedTime{"resolved_at", c.ResolvedAt}, namedTime{"moot_at", c.MootAt}); err != nil {
		return err
	}
	switch {
	case c.New == 0 || c.Existing == 0:
		return fmt.Errorf("new fact %d, existing fact %d: a conflict is between two facts", c.New, c.Existing)
	case c.New == c.Existing:
		return fmt.Errorf("a conflict of fact %d with itself", c.New)
	case c.New < c.Existing:
		// The new fact is the one its decision added (or, derived, the
		// newer of the two), after the other.
		return fmt.Errorf("its new fact %d is older than its existing fact %d", c.New, c.Existing)
	case c.Decision == 0 && c.Relation == "":
		return fmt.Errorf("no decision recorded it, and it names no relation it was derived from")
	case c.Decision != 0 && c.Relation != "":
		return fmt.Errorf("recorded by decision %d, and derived from %s", c.Decision, c.Relation)
	case c.Relation != "" && !c.Relation.SingleValued():
		return fmt.Errorf("derived from %q, which is no single-valued relation", c.Relation)
	case (c.MootAt == nil) != (c.Moot == ""):
		return fmt.Errorf("moot_at and moot come together")
	case c.MootAt != nil && c.ResolvedAt != nil:
		return fmt.Errorf("both moot and resolved")
	}
	if err := validLogText("reason", c.Reason); err != nil {
		return err
	}
	if err := validLogText("moot", c.Moot); err != nil {
		return err
	}
	switch c.Resolution {
	case "":
		if c.ResolvedAt != nil {
			return fmt.Errorf("resolved at %s with no resolution", c.ResolvedAt.Format(time.RFC3339Nano))
		}
	case KeepNew, KeepExisting, KeepBoth:
		if c.ResolvedAt == nil {
			return fmt.Errorf("resolution %q with no time", c.Resolution)
		}
	default:
		return fmt.Errorf("unknown resolution %q", c.Resolution)
	}
	return nil
}

// putDecision writes a decision that validDecision accepts.
func putDecision(tx *kv.Tx, d *Decision) error {
	if err := validDecision(d); err != nil {
		return &logProblem{"decision", d.ID, err}
	}
	return putJSON(tx, kv.BucketDecisions, d.ID, d)
}

// putConflict writes a conflict that validConflict accepts. Its user's
// cached reads follow the commit (a prompt's notes are read from them).
func putConflict(tx *kv.Tx, c *Conflict) error {
	if err := validConflict(c); err != nil {
		return &logProblem{"conflict", c.ID, err}
	}
	tx.TouchLog(c.User)
	if !c.standing() {
		// Its facts may stand in no conflict now: the commit's upkeep
		// looks at them again, however the conflict ended (a resolution
		// keeps one of them unchanged).
		for _, id := range []uint64{c.New, c.Existing} {
			if err := tx.TouchFact(id); err != nil {
				return err
			}
		}
	}
	return putJSON(tx, kv.BucketConflicts, c.ID, c)
}

// checkCounter reports a log's counter past its bound, which kv never
// sets: it would wrap, and a later entry overwrite an earlier one. (At the
// bound, writes that need an id fail with ErrIDsExhausted.)
func checkCounter(tx *kv.Tx, bucket []byte, noun string) error {
	if seq := tx.BlobSeq(bucket); seq > kv.MaxID {
		return fmt.Errorf("the %s counter %d is past its bound %d", noun, seq, uint64(kv.MaxID))
	}
	return nil
}

// checkLogs is Check's part for decisions and conflicts: each entry is
// valid by itself, stored under its own id and within its log's counter;
// the facts it names exist and are its user's (a hard delete scrubs the
// logs of the facts it removes, so a dangling id means a copy it could
// have missed); and decisions and conflicts name each other both ways: a
// conflict's decision lists it, added its new fact and named its existing
// one, and a decision's conflicts are there, unless a hard delete dropped
// them with a fact and scrubbed the decision.
func checkLogs(tx *kv.Tx) []error {
	var errs []error
	bad := func(noun string, id uint64, format string, args ...any) {
		errs = append(errs, &logProblem{noun, id, fmt.Errorf(format, args...)})
	}
	decisions := map[uint64]*Decision{}
	conflicts := map[uint64]*Conflict{}
	for _, l := range []struct {
		bucket []byte
		noun   string
	}{{kv.BucketDecisions, "decision"}, {kv.BucketConflicts, "conflict"}} {
		if err := checkCounter(tx, l.bucket, l.noun); err != nil {
			errs = append(errs, err)
		}
		seq := tx.BlobSeq(l.bucket)
		err := tx.ForEachBlob(l.bucket, false, func(id uint64, b []byte) error {
			var own uint64
			var err error
			if l.noun == "decision" {
				var d Decision
				if d, err = decodeLog[Decision](l.noun, id, b); err == nil {
					own, err = d.ID, validDecision(&d)
					decisions[id] = &d
				}
			} else {
				var c Conflict
				if c, err = decodeLog[Conflict](l.noun, id, b); err == nil {
					own, err = c.ID, validConflict(&c)
					conflicts[id] = &c
				}
			}
			switch {
			case err != nil:
				bad(l.noun, id, "%v", err)
			case own != id:
				bad(l.noun, id, "stored under id %d, names itself %d", id, own)
			case id > seq:
				bad(l.noun, id, "after the log's last id %d", seq)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	conflictSeq := tx.BlobSeq(kv.BucketConflicts)
	for _, id := range sortedKeys(decisions) {
		d := decisions[id]
		if !refsExist(tx, d.User, append([]uint64{d.Added, d.Target}, d.Candidates...)...) {
			bad("decision", id, "names a fact that is missing or another user's")
		}
		for _, cid := range d.conflictIDs() {
			c, ok := conflicts[cid]
			switch {
			case !ok && (!d.scrubbed() || cid > conflictSeq):
				bad("decision", id, "names conflict %d, which is not in the log", cid)
			case ok && c.Decision != id:
				bad("decision", id, "names conflict %d, which decision %d recorded", cid, c.Decision)
			}
		}
	}
	for _, id := range sortedKeys(conflicts) {
		c := conflicts[id]
		if !refsExist(tx, c.User, c.New, c.Existing) {
			bad("conflict", id, "names a fact that is missing or another user's")
		}
		if c.Decision == 0 {
			continue // derived from claims: validConflict and checkConflicts hold it
		}
		d, ok := decisions[c.Decision]
		switch {
		case !ok || d.User != c.User:
			bad("conflict", id, "names decision %d, which is not a decision of user %q", c.Decision, c.User)
		case !slices.Contains(d.conflictIDs(), id):
			bad("conflict", id, "names decision %d, which does not name it", c.Decision)
		case d.Added != c.New:
			bad("conflict", id, "its new fact %d is not the one decision %d added (%d)", c.New, d.ID, d.Added)
		case id == d.Conflict && c.Existing != d.Target:
			bad("conflict", id, "its existing fact %d is not the target of decision %d (%d)", c.Existing, d.ID, d.Target)
		case id != d.Conflict && !slices.Contains(d.Candidates, c.Existing):
			bad("conflict", id, "its existing fact %d is no candidate of decision %d", c.Existing, d.ID)
		}
	}
	return errs
}

func sortedKeys[V any](m map[uint64]V) []uint64 {
	out := make([]uint64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
