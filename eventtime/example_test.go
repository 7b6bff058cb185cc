package eventtime_test

import (
	"fmt"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
)

func ExampleParse_interval() {
	said := time.Date(2026, 6, 10, 9, 0, 0, 0, time.UTC) // a Wednesday
	for _, s := range []string{
		"I'll be in Rome from 13 to 15 July.",
		"с 10 по 22 августа",
		"From December to May 2027",
		"I'm in Lisbon for two weeks from Monday.",
		"I'm in Paris until Friday.",
		"Контракт до 2028 года.",
		"February 20 - 29, 2026",
	} {
		r := eventtime.Parse(s, said, "")
		start, end := "-", "-"
		if r.Found {
			start = r.Start.Format(time.DateOnly)
		}
		if !r.End.IsZero() {
			end = r.End.Format(time.DateOnly) + " " + string(r.EndGrain)
		}
		fmt.Printf("%-42s start %s, end %s\n", s, start, end)
	}
	// Output:
	// I'll be in Rome from 13 to 15 July.        start 2026-07-13, end 2026-07-16 day
	// с 10 по 22 августа                         start 2026-08-10, end 2026-08-23 day
	// From December to May 2027                  start 2026-12-01, end 2027-06-01 month
	// I'm in Lisbon for two weeks from Monday.   start 2026-06-15, end 2026-06-29 day
	// I'm in Paris until Friday.                 start -, end 2026-06-13 day
	// Контракт до 2028 года.                     start -, end 2028-01-01 year
	// February 20 - 29, 2026                     start -, end -
}
