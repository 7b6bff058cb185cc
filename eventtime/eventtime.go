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
// ("every winter", "каждый октябрь"), of an end ("until 2036", "до
// 2028-го") and negated ones are ignored. A correction ("Correction: ...",
// "Я ошиблась: ...") restates what was always true, so its dates are
// content, not the time the fact began: Parse reports nothing. Only the
// first 2,000 runes of text are read.
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
