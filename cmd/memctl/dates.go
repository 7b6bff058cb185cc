package main

import (
	"fmt"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/eventtime"
)

// parseTime reads every TIME and DATE argument: a bare day means midnight
// UTC. A time no store keeps is refused here, before any store is opened
// (a zero time would read as "not given"): an event time outside the
// years 1900 to 2199, or, with record (--now), a time no record time can
// be (memory.ValidRecordTime).
func parseTime(s string, record bool) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		if t, err = time.Parse(time.RFC3339Nano, s); err != nil {
			return time.Time{}, fmt.Errorf("bad time %q: want YYYY-MM-DD or RFC 3339 (2006-01-02T15:04:05Z)", s)
		}
	}
	switch {
	case record && memory.ValidRecordTime(t) != nil:
		return time.Time{}, fmt.Errorf("bad time %q: %w", s, memory.ErrInvalidClock)
	case !record && !eventtime.InRange(t):
		return time.Time{}, fmt.Errorf("bad time %q: %w", s, memory.ErrInvalidTime)
	}
	return t.UTC(), nil
}

// timeFlag is a pflag.Value, so a bad date fails while flags are parsed and
// is reported as a usage error.
type timeFlag struct{ t *time.Time }

func (f timeFlag) String() string {
	if f.t == nil || f.t.IsZero() {
		return ""
	}
	return f.t.Format(time.RFC3339Nano)
}

func (f timeFlag) Set(s string) error { return f.set(s, false) }

func (f timeFlag) set(s string, record bool) error {
	t, err := parseTime(s, record)
	if err != nil {
		return err
	}
	*f.t = t
	return nil
}

// nowFlag is --now: a record time, not an event time.
type nowFlag struct{ timeFlag }

func (f nowFlag) Set(s string) error { return f.set(s, true) }

func (f timeFlag) Type() string { return "TIME" }

// showTime is a time for people: a date when it is midnight UTC, else a
// date and time of day.
func showTime(t time.Time) string {
	t = t.UTC()
	if t.Equal(t.Truncate(24 * time.Hour)) {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.DateTime)
}
