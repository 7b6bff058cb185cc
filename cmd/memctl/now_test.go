package main

import (
	"os"
	"strings"
	"testing"
)

// --now outside the record times a store holds is a usage error found
// before the store is opened: 1600 was stored as 2184, 2263 as 1970, and
// 0001-01-01 meant no --now at all.
func TestNowOutOfRangeRefusedBeforeOpen(t *testing.T) {
	t.Parallel()
	for _, now := range []string{"0001-01-01", "1600-01-01", "1677-09-21", "2262-04-12", "2263-01-01"} {
		t.Run(now, func(t *testing.T) {
			db := tempDB(t)
			e := fails(t, 2, "--db", db, "--now", now, "add", "I like tea.")
			if !strings.Contains(e, "1677-09-21 to 2262-04-11") {
				t.Errorf("stderr %q does not give the range", e)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("the refused command left a store behind (%v)", err)
			}
		})
	}
	// Within the range, before 1970 (stored as 1970-01-01) and past 2199
	// too, the time is kept as given.
	db := tempDB(t)
	for _, now := range []string{"1965-06-01T00:00:00Z", "2250-01-01T00:00:00Z"} {
		f := fact(t, ok(t, "--db", db, "--now", now, "--json", "add", "I like tea at "+now+"."))
		if f["recorded_at"] != now {
			t.Errorf("recorded_at = %v, want %s", f["recorded_at"], now)
		}
	}
	// The times of events keep to the years 1900 to 2199.
	if e := fails(t, 2, "--db", db, "at", "--event", "0001-01-01"); !strings.Contains(e, "1900 to 2199") {
		t.Errorf("at --event 0001-01-01: %q", e)
	}
}
