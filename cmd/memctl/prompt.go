package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// halfLifeFlag is a pflag.Value for prompt --half-life: a Go duration, or
// whole days ("30d"), since a half-life is counted in days and weeks.
type halfLifeFlag struct{ d *time.Duration }

func (f halfLifeFlag) String() string {
	if f.d == nil || *f.d == 0 {
		return ""
	}
	return halfLifeString(*f.d)
}

func (f halfLifeFlag) Set(s string) error {
	d, err := parseHalfLife(s)
	if err != nil {
		return err
	}
	*f.d = d
	return nil
}

func (f halfLifeFlag) Type() string { return "DURATION" }

// parseHalfLife reads "30d" or a positive Go duration ("720h").
func parseHalfLife(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 || n > 100*365 {
			return 0, fmt.Errorf("bad half-life %q: want whole days from 1 (30d) or a duration such as 720h", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("bad half-life %q: want whole days from 1 (30d) or a duration such as 720h", s)
	}
	return d, nil
}

// halfLifeString writes whole days as "90d", else the Go form.
func halfLifeString(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}
