package eventtime

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRecurring checks that a time that recurs gives no start and says
// so, in English and Russian, while a one-off date beside an occasion
// (a weekday, "next Friday", a year) still dates the fact.
func TestRecurring(t *testing.T) {
	said := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		text      string
		start     string // "" for none
		recurring bool
	}{
		{"My birthday is on 14 May.", "", true},
		{"My birthday is May 14.", "", true},
		{"My mum's birthday is on 2 April.", "", true},
		{"Our wedding anniversary is in June.", "", true},
		{"My name day is on 5 March.", "", true},
		{"Birthday: 14 May.", "", true},
		{"Мой день рождения 14 мая.", "", true},
		{"Мой день рождения — 14 мая.", "", true},
		{"День рождения у меня 14 мая.", "", true},
		{"14 мая у меня день рождения.", "", true},
		{"Мои именины 5 марта.", "", true},
		{"У нас годовщина свадьбы 3 июня.", "", true},
		{"I go to the gym every Monday.", "", true},
		{"I go to the gym on Mondays.", "", true},
		{"По субботам я хожу в бассейн.", "", true},
		{"Каждый вторник я хожу на йогу.", "", true},
		{"Каждую среду созваниваемся с мамой.", "", true},
		{"Каждый из нас любит кофе.", "", false},
		{"I usually go skiing in February.", "", true},
		{"Since March I swim on Mondays.", "2026-03-01", true},
		{"My birthday party is on Saturday.", "2026-03-14", false},
		{"В следующую пятницу у мужа день рождения.", "2026-03-13", false},
		{"My birthday was last week.", "2026-03-02", false},
		{"My 40th birthday is on 14 May 2027.", "2027-05-14", false},
		{"My birthday is on 14 May, and I moved to Berlin in June.", "2025-06-01", true},
		{"I moved to Berlin in June.", "2025-06-01", false},
		{"I start at Yandex on 14 May.", "2026-05-14", false},
	} {
		r := Parse(c.text, said, "")
		got := ""
		if r.Found {
			got = r.Start.Format(time.DateOnly)
		}
		if got != c.start || r.Recurring != c.recurring {
			t.Errorf("%q: start %q recurring %v (%q), want start %q recurring %v", c.text, got, r.Recurring, r.Span, c.start, c.recurring)
		}
	}
}

// TestRecurringFile checks the built-in recurring.txt, and that a
// malformed line is an error naming its file and line.
func TestRecurringFile(t *testing.T) {
	if recurringErr != nil {
		t.Fatal(recurringErr)
	}
	if len(recurring.yearly) < 10 || !recurring.plural["mondays"] || !recurring.plural["субботам"] {
		t.Errorf("recurring.txt: %d yearly, %d plural", len(recurring.yearly), len(recurring.plural))
	}
	for _, c := range []struct{ text, want string }{
		{"yearly: birthday", "r.txt:1: no newline"},
		{"yearly birthday\n", "r.txt:1: want \"kind: phrase\""},
		{"weekly: mondays\n", "r.txt:1: unknown kind \"weekly\""},
		{"yearly: Birthday\n", "r.txt:1: word \"Birthday\" is not lowercase"},
		{"yearly: день рождения\nyearly: день рождения\n", "r.txt:2: \"день рождения\" twice"},
		{"plural: on mondays\n", "r.txt:1: plural \"on mondays\" is not one word"},
		{"yearly: birthday\n", "want yearly and plural entries"},
		{"yearly: ёлка\nplural: mondays\n", "has ё"},
	} {
		if _, err := parseRecurring("r.txt", c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.text, err, c.want)
		}
	}
}

// FuzzParseRecurring checks that the reader of recurring.txt's format
// never panics, and that what it accepts is well formed: known kinds,
// words as Parse reads them, one word a plural.
func FuzzParseRecurring(f *testing.F) {
	for _, s := range []string{recurringFile, "yearly: birthday\nplural: mondays\n", "yearly: \n", ": \n", "plural: a b\n", "yearly: x\nyearly: x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lx, err := parseRecurring("f.txt", text)
		if err != nil {
			return
		}
		for _, ph := range lx.yearly {
			if len(ph) == 0 || slices.Contains(ph, "") {
				t.Fatalf("%q: yearly %q", text, ph)
			}
		}
		for w := range lx.plural {
			if w == "" || strings.ContainsAny(w, " \n") {
				t.Fatalf("%q: plural %q", text, w)
			}
		}
	})
}
