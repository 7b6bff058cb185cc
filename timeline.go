package memory

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/kv"
)

// eventStart is where a record's event interval begins: its EventFrom, or
// when it was recorded if the words gave no time. (A successor's start is
// where its predecessor's interval ends; see spanAt for a start that is
// only a record time.)
func eventStart(r *kv.Record) int64 {
	if r.HasFrom {
		return r.EventFrom
	}
	return r.RecordedAt
}

// span is a fact's event interval as known at some record time.
type span struct {
	visible    bool  // recorded by then and not retracted then
	superseded bool  // superseded by then (and not restored since)
	start, end int64 // end is meaningful when hasEnd; start is math.MinInt64 when unknown
	hasEnd     bool
}

func (p span) contains(e int64) bool {
	return p.visible && p.start <= e && (!p.hasEnd || e < p.end)
}

// spanAt replays r's lifecycle log up to record time k. A fact superseded by
// then ends where its successor starts; one retracted by then is invisible.
// This is why the log, not only the latest markers, is kept: after a Restore
// the markers forget what was believed in between.
func spanAt(r *kv.Record, events []kv.Event, k int64) span {
	if r.RecordedAt > k {
		return span{}
	}
	p := span{visible: true, start: eventStart(r), end: r.EventUntil, hasEnd: r.HasUntil}
	var supersededEnd int64
	superseded := false
	for _, e := range events {
		if e.At > k {
			break
		}
		switch e.Kind {
		case kv.Superseded:
			superseded, supersededEnd = true, e.End
		case kv.Retracted:
			p.visible = false
		case kv.Restored:
			superseded, p.visible = false, true
		}
	}
	p.superseded = superseded
	if superseded && (!p.hasEnd || supersededEnd < p.end) {
		p.end, p.hasEnd = supersededEnd, true
	}
	// Without an EventFrom the start is only the record time, a guess: a
	// fact whose interval ends by then ("I work at A", told in December,
	// then "I moved to B back in June") began at an unknown time and was
	// true until its end. An explicit start after the end is refused by
	// every write.
	if !r.HasFrom && p.hasEnd && p.end <= p.start {
		p.start = math.MinInt64
	}
	return p
}

// timeline is every fact of a user with its lifecycle log: all that At
// and Prompt read. It is cached between writes like the lists.
type timeline []timelineEntry

type timelineEntry struct {
	rec kv.Record
	evs []kv.Event
}

// userTimeline reads user's timeline, from the cache when it is fresh,
// else by patching the last one read with the facts changed since.
func (s *Store) userTimeline(ctx context.Context, user string) (timeline, error) {
	if tl, ok := s.lists.getTimeline(user); ok {
		return tl, nil
	}
	gen := s.lists.current()
	if base, ids, ok := s.lists.staleTimeline(user); ok && len(ids) <= max(16, len(base)/4) {
		tl, err := s.patchTimeline(ctx, user, base, ids)
		if err != nil {
			return nil, err
		}
		// A commit between taking the ids and reading them may have
		// changed a fact not among them: the patch would mix two states.
		if s.lists.isFresh(user, gen) {
			s.lists.putTimeline(user, gen, tl)
			return tl, nil
		}
	}
	tl, err := s.readTimeline(ctx, user)
	if err == nil {
		s.lists.putTimeline(user, gen, tl)
	}
	return tl, err
}

// readTimeline reads every fact of user with its log.
func (s *Store) readTimeline(ctx context.Context, user string) (timeline, error) {
	var tl timeline
	err := s.view(ctx, user, func(tx *kv.Tx) (err error) {
		tl, err = timelineTx(tx, user)
		return err
	})
	return tl, err
}

// timelineTx reads every fact of user with its log, as tx has them.
func timelineTx(tx *kv.Tx, user string) (timeline, error) {
	var tl timeline
	err := tx.UserIDs(user, false, func(id uint64, _ bool) error {
		r, err := tx.Get(id)
		if err != nil {
			return err
		}
		evs, err := tx.Events(id)
		if err != nil {
			return err
		}
		tl = append(tl, timelineEntry{r, evs})
		return nil
	})
	return tl, err
}

// sameTimeline reports whether a and b hold the same facts in the same
// states with the same logs.
func sameTimeline(a, b timeline) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}

// patchTimeline is base with the facts ids (ascending) read again: each
// one replaced, added in id order, or dropped when it is gone. Base is
// shared with other readers and left as it is.
func (s *Store) patchTimeline(ctx context.Context, user string, base timeline, ids []uint64) (timeline, error) {
	type patch struct {
		id   uint64
		e    timelineEntry
		gone bool
	}
	chs := make([]patch, 0, len(ids))
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		for _, id := range ids {
			r, err := tx.Get(id)
			if errors.Is(err, kv.ErrNotFound) {
				chs = append(chs, patch{id: id, gone: true})
				continue
			}
			if err != nil {
				return err
			}
			if r.User != user {
				// The ids are those the user's commits touched: another
				// user's is a fault of the bookkeeping, never a patch.
				return fmt.Errorf("%w: fact %d of user %q among the changes of user %q", errCrossUser, id, r.User, user)
			}
			evs, err := tx.Events(id)
			if err != nil {
				return err
			}
			chs = append(chs, patch{id: id, e: timelineEntry{r, evs}})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(timeline, 0, len(base)+len(chs))
	i := 0
	for _, c := range chs {
		for i < len(base) && base[i].rec.ID < c.id {
			out = append(out, base[i])
			i++
		}
		if i < len(base) && base[i].rec.ID == c.id {
			i++
		}
		if !c.gone {
			out = append(out, c.e)
		}
	}
	return append(out, base[i:]...), nil
}

// At returns the facts of user that were true at event time event, as the
// store knew them at record time known: "where did I work in May?" is
// At(user, may, time.Time{}); "what did you believe on 1 August about
// July?" is At(user, july, august1). A zero time means now. A fact stated in
// advance is current from when it was said but true only from its EventFrom.
func (s *Store) At(ctx context.Context, user string, event, known time.Time) ([]Fact, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := s.now()
	e, k := orNow(event, now), orNow(known, now)
	// Facts are large; gather the records first so the answer is
	// allocated once, at its size.
	tl, err := s.userTimeline(ctx, user)
	var hits []int
	for i := range tl {
		if spanAt(&tl[i].rec, tl[i].evs, k).contains(e) {
			hits = append(hits, i)
		}
	}
	if len(hits) == 0 {
		return nil, err
	}
	out := make([]Fact, len(hits))
	for j, i := range hits {
		// Like every read, the fact as the store knows it now, whatever k.
		out[j] = factWithLog(&tl[i].rec, tl[i].evs)
	}
	return out, err
}

func orNow(t time.Time, now int64) int64 {
	if t.IsZero() {
		return now
	}
	return t.UnixNano()
}

func day(n int64) string { return time.Unix(0, n).UTC().Format(time.DateOnly) }

func promptText(s string) string {
	if plainLine(s) {
		return s // most texts: no need to split them
	}
	return strings.Join(strings.Fields(s), " ")
}

// plainLine reports whether s is what folding gives back unchanged: no
// white space but single ASCII spaces, none at either end.
func plainLine(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == ' ' && s[i+1] == ' ' {
				return false
			}
			i++
			continue
		}
		// The white space beyond ASCII begins with one of these bytes;
		// other texts, Cyrillic included, need no decoding.
		if c != 0xc2 && (c < 0xe1 || c > 0xe3) {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return false
		}
		i += n
	}
	return true
}
