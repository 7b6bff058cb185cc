package main

import (
	"os"
	"strings"
	"testing"
)

// --now outside the record times a store keeps is a usage error found
// before the store is opened: 1600 was stored as 2184, 2263 as 1970, 1965
// as 1970-01-01, and 0001-01-01 meant no --now at all.
func TestNowOutOfRangeRefusedBeforeOpen(t *testing.T) {
	t.Parallel()
	for _, now := range []string{"0001-01-01", "1600-01-01", "1899-12-31T23:59:59Z", "2200-01-01", "2263-01-01"} {
		t.Run(now, func(t *testing.T) {
			db := tempDB(t)
			e := fails(t, 2, "--db", db, "--now", now, "add", "I like tea.")
			if !strings.Contains(e, "1900 to 2199") {
				t.Errorf("stderr %q does not give the range", e)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("the refused command left a store behind (%v)", err)
			}
		})
	}
	// Within the range, before 1970 too, the time is kept as given.
	db := tempDB(t)
	f := fact(t, ok(t, "--db", db, "--now", "1965-06-01", "--json", "add", "I like tea."))
	if f["recorded_at"] != "1965-06-01T00:00:00Z" {
		t.Errorf("recorded_at = %v, want 1965-06-01T00:00:00Z", f["recorded_at"])
	}
}
