package main

import (
	"fmt"
	"time"

	"github.com/palimpsest-mem/memory"
)

// parseTime reads every TIME and DATE argument: a bare day means midnight
// UTC. A time no store keeps (memory.ValidTime) is refused here, before any
// store is opened: a zero time would read as "not given", and a clock out
// of the range would be refused only at the first write.
func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		if t, err = time.Parse(time.RFC3339Nano, s); err != nil {
			return time.Time{}, fmt.Errorf("bad time %q: want YYYY-MM-DD or RFC 3339 (2006-01-02T15:04:05Z)", s)
		}
	}
	if memory.ValidTime(t) != nil {
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

func (f timeFlag) Set(s string) error {
	t, err := parseTime(s)
	if err != nil {
		return err
	}
	*f.t = t
	return nil
}

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
