package eventtime

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParse checks that Parse never panics, answers quickly even for long
// or hostile input, that whatever it finds lies in the accepted range, and
// that an end, when there is one, has a grain, lies in the range and comes
// after the start.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"I moved to Paris three weeks ago.",
		"С понедельника перехожу в отдел продаж.",
		"the day before yesterday", "в конце прошлого года", "31.02.2024", "2024-05-12",
		"in 99999999999 years", "the 25th of the", "mid-", "3-го", "2028-го", "с", "in",
		"next next next week", "весной 2022-го", "twenty-", "a couple of", "end of",
		strings.Repeat("last ", 500), strings.Repeat("3 ", 700), strings.Repeat("в начале ", 300),
		"\xff\xfe invalid utf8 \x80 yesterday",
		"from 13 to 15 July", "10–22 August", "August 10 - 22, 2012", "February 20 - 29, 2022",
		"с 10 по 22 августа", "between May and August", "for two weeks from Monday", "until 2199",
		"through 2199", "до конца месяца", "this summer only", "10-22 августа 2012", "from 2199 to 2199",
		strings.Repeat("1 - ", 500), strings.Repeat("May to ", 300), strings.Repeat("с 1 по ", 300),
		"My birthday is on 14 May.", "день рождения — 14 мая", "birthday: — : —", "каждый", "every",
		"по субботам", "on Mondays since March", strings.Repeat("день рождения — ", 300),
	} {
		f.Add(s, int64(1772582400), "")
	}
	f.Fuzz(func(t *testing.T, text string, unix int64, lang string) {
		said := time.Unix(unix%(1<<40), 0).UTC()
		start := time.Now()
		r := parse(text, said, lang) // unguarded: a panic fails the test
		if r != Parse(text, said, lang) {
			t.Fatalf("Parse and parse differ on %q", text)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Parse took %v on %d bytes", d, len(text))
		}
		if r.Lang != "en" && r.Lang != "ru" {
			t.Fatalf("lang %q", r.Lang)
		}
		if (r.End.IsZero()) != (r.EndGrain == "") {
			t.Fatalf("%q said %v: end %v with grain %q", text, said, r.End, r.EndGrain)
		}
		if !r.End.IsZero() {
			if !InRange(r.End) || r.End.Location() != time.UTC || r.End.Hour() != 0 || r.End.Minute() != 0 {
				t.Fatalf("%q said %v: end %v out of range or not a UTC midnight", text, said, r.End)
			}
			if r.Found && !r.End.After(r.Start) {
				t.Fatalf("%q said %v: end %v not after start %v", text, said, r.End, r.Start)
			}
		}
		if !r.Found {
			return
		}
		if y := r.Start.Year(); y < MinYear || y > MaxYear {
			t.Fatalf("%q said %v: start %v out of range", text, said, r.Start)
		}
		if r.Start.Location() != time.UTC || r.Start.Hour() != 0 || r.Start.Minute() != 0 {
			t.Fatalf("start %v is not a UTC midnight", r.Start)
		}
		switch r.Grain {
		case GrainDay, GrainWeek, GrainMonth, GrainSeason, GrainYear:
		default:
			t.Fatalf("grain %q", r.Grain)
		}
		if r.Span == "" || !utf8.ValidString(r.Span) && utf8.ValidString(text) {
			t.Fatalf("span %q", r.Span)
		}
	})
}

// TestLinearTime checks that a text many times longer than the bound costs
// no more than the bound, and that the bounded work itself is fast.
func TestLinearTime(t *testing.T) {
	said := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	for _, unit := range []string{"the day before yesterday in early May ", "в начале прошлого года с 3-го мая ", "a ", "3 ", "- ", "the 1st of ", "2 days after next ", "on 12/05 ", "yesterday; today; ", "the last friday of ", "from 1 to 2 May ", "1 - ", "с 1 по ", "May to ", "August 10 - 22, ", "for 3 days from "} {
		text := strings.Repeat(unit, 200000/len(unit))
		start := time.Now()
		Parse(text, said, "")
		if d := time.Since(start); d > time.Second {
			t.Errorf("%q x %d: %v", unit, 200000/len(unit), d)
		}
	}
}

// TestNoise checks that random-looking text gives no date.
func TestNoise(t *testing.T) {
	said := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	for _, s := range []string{
		"asdf qwer zxcv 12 34 5678 !!! ???", "ыва олдж фыва 77 88 99", "1234567890", "3.14159 2.71828",
		"+7 922 111-22-33", "£1,020 a month", "x=5; y=10; z=2048", "🙂🙂🙂", "lorem ipsum dolor sit amet",
	} {
		if r := Parse(s, said, ""); r.Found {
			t.Errorf("%q: found %v %s (%q)", s, r.Start.Format(time.DateOnly), r.Grain, r.Span)
		}
	}
}
