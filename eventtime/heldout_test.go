package eventtime

import (
	"testing"
	"time"
)

// Phrases written after the parser was finished, never used to tune it: a
// small check that the grammar generalises beyond the dev set.
func TestHeldOut(t *testing.T) {
	said := time.Date(2026, 10, 14, 15, 0, 0, 0, time.UTC) // a Wednesday
	for _, c := range []struct{ text, start string }{
		{"I got a puppy four days ago.", "2026-10-10"},
		{"We moved house a fortnight ago.", "2026-09-30"},
		{"Since February I've been vegetarian.", "2026-02-01"},
		{"From next Tuesday my gym class moves to 7am.", "2026-10-20"},
		{"Last autumn I took up the guitar.", "2025-09-01"},
		{"I quit smoking back in 2021.", "2021-01-01"},
		{"At the end of August I changed banks.", "2026-08-01"},
		{"My new job starts on the 2nd of November.", "2026-11-02"},
		{"I love jazz.", ""},
		{"Я переехала в Казань три месяца назад.", "2026-07-14"},
		{"С прошлой недели работаю из дома.", "2026-10-05"},
		{"В начале июня я сменила телефон.", "2026-06-01"},
		{"Позавчера купил велосипед.", "2026-10-12"},
		{"Со следующего понедельника хожу на йогу.", "2026-10-19"},
		{"Прошлой зимой я каталась на лыжах.", "2025-12-01"},
		{"Люблю зелёный чай.", ""},
	} {
		r := Parse(c.text, said, "")
		got := ""
		if r.Found {
			got = r.Start.Format(time.DateOnly)
		}
		if got != c.start {
			t.Errorf("%q: got %q, want %q", c.text, got, c.start)
		}
	}
}
