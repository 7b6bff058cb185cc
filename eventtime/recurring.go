package eventtime

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/palimpsest-mem/memory/internal/wordlist"
)

// recurringFile is recurring.txt: the occasions that come once a year and
// the words that name a recurring day; its opening comment says more.
//
//go:embed recurring.txt
var recurringFile string

// lexicon is what recurring.txt lists: the yearly occasions, each a slice
// of words, and the plural words.
type lexicon struct {
	yearly [][]string
	plural map[string]bool
}

// recurring is recurring.txt, read once when the package is initialised
// and never changed; recurringErr says why it could not be read, and then
// Parse reads no recurring time (the tests fail on it: the file is built
// in).
var recurring, recurringErr = parseRecurring("recurring.txt", recurringFile)

// parseRecurring reads a file of recurring.txt's format, strictly: a line
// that is not "kind: phrase" of a known kind and well-formed words, or an
// entry twice, is an error naming the file and line.
func parseRecurring(file, text string) (lexicon, error) {
	lx := lexicon{plural: map[string]bool{}}
	seen := map[string]bool{}
	err := wordlist.Parse(file, text, func(_ int, line string) error {
		kind, phrase, ok := strings.Cut(line, ": ")
		if !ok {
			return fmt.Errorf("want \"kind: phrase\", got %q", line)
		}
		words := strings.Split(phrase, " ")
		for _, w := range words {
			if why := wordlist.BadWord(w); why != "" {
				return fmt.Errorf("word %q %s", w, why)
			}
		}
		if seen[phrase] {
			return fmt.Errorf("%q twice", phrase)
		}
		seen[phrase] = true
		switch kind {
		case "yearly":
			lx.yearly = append(lx.yearly, words)
		case "plural":
			if len(words) != 1 {
				return fmt.Errorf("plural %q is not one word", phrase)
			}
			lx.plural[phrase] = true
		default:
			return fmt.Errorf("unknown kind %q (yearly or plural)", kind)
		}
		return nil
	})
	if err == nil && (len(lx.yearly) == 0 || len(lx.plural) == 0) {
		err = fmt.Errorf("%s: want yearly and plural entries", file)
	}
	if err != nil {
		return lexicon{}, fmt.Errorf("eventtime: %w", err)
	}
	return lx, nil
}

// yearlyAt reports whether a yearly occasion's words begin at token i.
func (lx *lexicon) yearlyAt(t []token, i int) bool {
	for _, ph := range lx.yearly {
		if i+len(ph) <= len(t) && slices.EqualFunc(t[i:i+len(ph)], ph, func(k token, w string) bool { return k.kind == kWord && k.w == w }) {
			return true
		}
	}
	return false
}

// yearlyGroups marks, per clause of p, whether a yearly occasion stands in
// it or in a clause joined to it by a dash or a colon: the group of
// clauses a date of no year is told of.
func (p *parser) yearlyGroups() []bool {
	n := len(p.ts.cm)
	group := make([]int, n) // clause → the first clause of its group
	for c := range group {
		group[c] = c
	}
	for i := range p.t {
		// The break that opens clause c is its first token.
		if c := p.ts.clause[i]; c > 0 && p.t[i].kind == kPunct && (i == 0 || p.ts.clause[i-1] != c) {
			switch p.t[i].p {
			case '—', '–', ':':
				group[c] = group[c-1]
			}
		}
	}
	has := make([]bool, n)
	for i := range p.t {
		if recurring.yearlyAt(p.t, i) {
			has[group[p.ts.clause[i]]] = true
		}
	}
	out := make([]bool, n)
	for c := range out {
		out[c] = has[group[c]]
	}
	return out
}

// yearlyDate reports whether c is a date of no year told of a yearly
// occasion: when the occasion recurs, not when a fact began.
func (p *parser) yearlyDate(c cand) bool {
	if c.fixed || c.mod != modNone || c.mk != mkNone || !p.yearly[p.ts.clause[c.a]] {
		return false
	}
	switch c.r.k {
	case rDayOfMonth, rMonthDay, rMonth, rSeason:
		return true
	}
	return false
}

// every reports whether w is a word of frequency before a time: every,
// each, каждый.
func every(w string) bool { return w == "every" || w == "each" || ruEvery[w] }

// timeNoun reports whether w names a recurring time: a weekday, a month,
// a season, a unit ("week", "неделю") or a part of the day.
func timeNoun(w string) bool {
	_, wd := enWeekdays[w]
	_, rwd := ruWeekdays[w]
	_, mon := enMonths[w]
	_, rmon := ruMonths[w]
	_, sea := enSeasons[w]
	_, rsea := ruSeasons[w]
	_, u := enUnits[w]
	_, ru := ruUnits[w]
	return wd || rwd || mon || rmon || sea || rsea || u || ru || ruWeekWords[w] || ruMonthWords[w] || ruYearWords[w] ||
		ruWeekendWords[w] || ruDayPartWords[w] || ruNightWords[w] || w == "weekend" || w == "morning" || w == "evening" || w == "night" || w == "afternoon"
}
