package main

import (
	"fmt"
	"time"
)

// parseTime reads every TIME and DATE argument: a bare day means midnight UTC.
func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("bad time %q: want YYYY-MM-DD or RFC 3339 (2006-01-02T15:04:05Z)", s)
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
