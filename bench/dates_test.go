package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDatesCommand scores a small dates file in the chrono format: said as
// an RFC 3339 time with offset, negatives (start null) and cases of
// another convention, each reported apart.
func TestDatesCommand(t *testing.T) {
	data := filepath.Join(t.TempDir(), "dates.jsonl")
	err := os.WriteFile(data, []byte(strings.Join([]string{
		// 23:30 in New York is already the 16th in UTC: the day said is the 15th there
		`{"id":"en-1","lang":"en","text":"I start tomorrow.","said":"2026-01-15T23:30:00-05:00","start":"2026-01-16","grain":"day"}`,
		`{"id":"en-2","lang":"en","text":"We moved in March 2024.","said":"2026-01-15","start":"2024-03-01","grain":"month"}`,
		`{"id":"en-3","lang":"en","text":"I like tea.","said":"2026-01-15T12:00:00Z","start":null,"grain":null}`,
		// chrono reads 6/10/2018 month first; ours reads the day first: 6 October
		`{"id":"en-4","lang":"en","text":"6/10/2018","said":"2026-01-15T12:00:00Z","start":"2018-06-10","grain":"day","note":"x; conv:slash-order (M/D)"}`,
		`{"id":"en-5","lang":"en","text":"-3y","said":"2015-07-10T12:14:00Z","start":"2012-01-01","grain":"year","note":"conv:notation (chrono)"}`,
		`{"id":"ru-1","lang":"ru","text":"Завтра уезжаю.","said":"2026-01-15T00:30:00+03:00","start":"2026-01-15","grain":"day"}`,
	}, "\n")+"\n"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := datesCmd()
	c.SetOut(&out)
	c.SetArgs([]string{"--data", data, "-v"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"en    2      2      1.000     1          1      1.000  1     1      1.000  1",
		// in Moscow it is the 15th already: tomorrow is the 16th, not the gold
		"ru    1      0      0.000     0          0      0.000  0     0      0.000  0",
		"all   3      2      0.667     1          1      1.000  1     1      1.000  1",
		"ru-1 said 2026-01-15: gold 2026-01-15 day, got 2026-01-16 day",
		"accuracy 0.750 n=4",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "en-5") {
		t.Errorf("a chrono notation was scored:\n%s", out.String())
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"id":"x","lang":"en","text":"today","said":"15 Jan 2026","start":null}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c = datesCmd()
	c.SetOut(&out)
	c.SetArgs([]string{"--data", bad})
	if err := c.Execute(); err == nil || !strings.Contains(err.Error(), "x: said") {
		t.Errorf("an unreadable said: got %v, want an error naming the case", err)
	}
}

// TestDatesRanges checks the ranges and ends lines: a case whose note
// calls it a range is counted with whether its start is right and an end
// was read, and a gold end is scored exactly.
func TestDatesRanges(t *testing.T) {
	out := runDates(t, []string{
		`{"id":"en-1","lang":"en","text":"10 - 22 August 2012","said":"2012-08-10T12:00:00Z","start":"2012-08-10","grain":"day","note":"Range expression; range (start kept)","end":"2012-08-23"}`,
		`{"id":"en-2","lang":"en","text":"from 13 to 15 July","said":"2026-06-10","start":"2026-07-13","grain":"day","end":"2026-07-15"}`,
		`{"id":"en-3","lang":"en","text":"February 20 - 29, 2022","said":"2012-08-10","start":null,"grain":null,"note":"impossible ranges"}`,
		`{"id":"en-4","lang":"en","text":"I start tomorrow.","said":"2026-01-15","start":"2026-01-16","grain":"day"}`,
	})
	for _, want := range []string{
		"ranges 2: start right 2 (1.000), an end read 1",
		"end 2: right 1 (0.500)", // the end is exclusive: 15 July ends on the 16th
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// runDates runs bench dates on the given lines and returns what it printed.
func runDates(t *testing.T, lines []string) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "dates.jsonl")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := datesCmd()
	c.SetOut(&out)
	c.SetArgs([]string{"--data", data})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
