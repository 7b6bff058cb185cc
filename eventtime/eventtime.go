package eventtime

import (
	"time"
	"unicode"
	"unicode/utf8"
)

// Grain is how precise a Result is.
type Grain string

const (
	GrainDay    Grain = "day"
	GrainWeek   Grain = "week"
	GrainMonth  Grain = "month"
	GrainSeason Grain = "season"
	GrainYear   Grain = "year"
)

// Result is the time a text gives for its fact.
type Result struct {
	Found bool
	Start time.Time // first day of the period, 00:00 UTC
	Grain Grain
	Span  string // the matched text
	Lang  string // "en" or "ru"

	// End is where the period the text names stops, exclusive, at the grain
	// of what was said ("to 15 July" ends at 16 July 00:00); zero when the
	// text names no end. EndGrain is the grain of the end's expression.
	End      time.Time
	EndGrain Grain

	// Recurring says the text names a time that recurs: a frequency
	// ("every Monday", "on Mondays", "по субботам", "каждый вторник") or
	// the date of a yearly occasion ("My birthday is on 14 May", "день
	// рождения 14 мая"; the occasions are those of recurring.txt). Such a
	// time says when something comes round, not when the fact began, and
	// gives no Start; another time of the text may still give one
	// ("Since March I swim on Mondays").
	Recurring bool
}

// The range of event times of the whole module — Parse, the deciders'
// answers and every time a store keeps — is the years MinYear to MaxYear,
// both whole (in UTC): from 1900-01-01T00:00:00Z up to, not including,
// 2200-01-01T00:00:00Z. InRange is its one test; a time Parse returns, a
// store accepts and its export holds all pass it, so that whatever can be
// written can be exported and imported.
const (
	MinYear = 1900
	MaxYear = 2199
)

// InRange reports whether t lies within the years MinYear to MaxYear, in UTC.
func InRange(t time.Time) bool {
	y := t.UTC().Year()
	return y >= MinYear && y <= MaxYear
}

// RangeText is the range in words, for error messages.
const RangeText = "years 1900 to 2199"

// Parse finds the time expression in text that says when a fact became (or
// becomes) true, resolved against said (the moment the text was said; its
// calendar date in its own location is the reference day). lang is "en",
// "ru" or "" (detect from the script).
//
// When several expressions occur, one that marks a beginning ("since",
// "from", "as of", "с") wins, else the first, unless a later time stands
// in a separate statement ("Last week I …; today I …": the latest change
// dates the fact; the two ends of a range keep the first); expressions of frequency
// ("every winter", "каждый октябрь", "on Mondays") and the date of a
// yearly occasion ("my birthday is on 14 May") set Recurring instead;
// those of an end ("until 2036", "до 2028-го") and negated ones are
// ignored. A correction ("Correction: ...",
// "Я ошиблась: ...") restates what was always true, so its dates are
// content, not the time the fact began: Parse reports nothing. Only the
// first 2,000 runes of text are read.
//
// End is where the period stops, exclusive, at the grain of what was said;
// it is zero when the text names no end, and always after Start when
// Found. It is read from:
//   - a range, whose end is included whole: "from 13 to 15 July" ends on
//     16 July, "between May and August" on 1 September, "10–22 August",
//     "с 10 по 22 августа", "Friday to Monday". A year said at the end
//     belongs to both ends ("Aug 10 - Nov 12, 2011"), and the start goes a
//     year back if it would not come first ("From December to May 2022":
//     December 2021 to 1 June 2022). When both ends recur (no year, no
//     next/last) and the text is not about the future, a stretch that holds
//     the day said is the one meant ("From December to May", said in
//     April: the December past).
//   - a length after a start: "for two weeks from Monday" ends 14 days
//     after that Monday (day grain); "this summer only" and "только этим
//     летом" end where the period ends.
//   - an end alone: "until Friday", "до пятницы" include the day (End is
//     Saturday); "until 2036", "до 2028 года", "until May" stop where the
//     longer period starts (1 January 2036); "through"/"по" include it
//     whole ("по 2028 год": 1 January 2029); "till the end of the month",
//     "до конца месяца" end where the period ends. An end alone names no
//     start: Found stays false, End is set. With a start named elsewhere
//     in the text, the first end alone that falls after it is kept.
//
// A range that names a day that does not exist ("February 20 - 29, 2022")
// is refused whole: no Start and no End. An end not after the start gives
// no End; an End outside InRange is dropped.
func Parse(text string, said time.Time, lang string) (res Result) {
	defer func() {
		if recover() != nil {
			res = Result{Lang: res.Lang}
			if res.Lang == "" {
				res.Lang = "en"
			}
		}
	}()
	return parse(text, said, lang)
}

// parse is Parse without the guard against panics (the fuzz test calls it
// to find them).
func parse(text string, said time.Time, lang string) (res Result) {
	rs := boundedRunes(text, maxRunes)
	if lang != "en" && lang != "ru" {
		lang = detectLang(rs)
	}
	res.Lang = lang
	y, m, d := said.Date()
	if y < MinYear-10 || y > MaxYear+10 {
		return res
	}
	toks := tokenize(rs)
	if isCorrection(toks) {
		return res
	}
	p := newParser(toks, date(y, m, d))
	c, per, ok := p.best()
	res.Recurring = p.recurring
	if !ok {
		res.End, res.EndGrain = p.untilEnd(p.cands, time.Time{})
		return res
	}
	res.End, res.EndGrain = p.endOf(c, per, p.cands)
	res.Found = true
	res.Start = per.start
	res.Grain = per.g
	res.Span = string(rs[toks[c.lead].start:toks[c.b-1].end])
	return res
}

func boundedRunes(s string, max int) []rune {
	n := utf8.RuneCountInString(s)
	if n > max {
		n = max
	}
	rs := make([]rune, 0, n)
	for _, r := range s {
		if len(rs) == max {
			break
		}
		rs = append(rs, r)
	}
	return rs
}

// detectLang calls a text Russian when it has more Cyrillic than Latin letters.
func detectLang(rs []rune) string {
	cyr, lat := 0, 0
	for _, r := range rs {
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case r < 0x80 && unicode.IsLetter(r):
			lat++
		}
	}
	if cyr > lat {
		return "ru"
	}
	return "en"
}
