package eventtime

import (
	"strings"
	"time"
	"unicode/utf8"
)

// This file holds the constructions read on top of grammar.go and
// periods.go: windows back from now (the last two weeks, прошлые два
// дня), offsets from another expression (two days after next Friday, a
// week before yesterday), offsets after the fact (three weeks later, three
// days hence), the period after one (after this year), the doubled
// deictic words (позапозавчера, послепослезавтра), two-digit years and
// abbreviated months with a dot (Sep. 2012, сен 2012).

// matchExpr tries the constructions of this file at i.
func (p *parser) matchExpr(i int) (cand, bool) {
	if c, ok := p.matchWindow(i); ok {
		return c, true
	}
	if c, ok := p.matchAnchored(i); ok {
		return c, true
	}
	if c, ok := p.matchAfterPeriod(i); ok {
		return c, true
	}
	if c, ok := p.matchNthWeekday(i); ok {
		return c, true
	}
	if c, ok := p.matchDayOfRelMonth(i); ok {
		return c, true
	}
	if c, ok := p.matchWeekdayOfWeek(i); ok {
		return c, true
	}
	if c, ok := p.matchMonthInYears(i); ok {
		return c, true
	}
	if c, ok := p.matchGluedDayRange(i); ok {
		return c, true
	}
	switch p.w(i) {
	case "next", "last":
		if p.w(i-1) == "the" {
			break // the next day: the day after another, not after today
		}
		step := 1
		if p.w(i) == "last" {
			step = -1
		}
		switch p.w(i + 1) {
		case "day":
			// "last day" is a final one (my last day at work); "next day"
			// in a story is the day after another
			if step > 0 && p.ts.at(i) != tensePast {
				return fixedC(i, i+2, dayP(p.said.AddDate(0, 0, 1))), true
			}
		case "weekday", "workday":
			d := p.said.AddDate(0, 0, step)
			for d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
				d = d.AddDate(0, 0, step)
			}
			return fixedC(i, i+2, dayP(d)), true
		}
	case "позапозавчера":
		return fixedC(i, i+1, dayP(p.said.AddDate(0, 0, -3))), true
	case "послепослезавтра":
		return fixedC(i, i+1, dayP(p.said.AddDate(0, 0, 3))), true
	}
	return cand{}, false
}

// unitAbbr are the units written short, alone (3 wks) or glued to the
// count (3w, 2yrs, 3mo); not "3d", a kind of printing and film.
var unitAbbr = map[string]unit{
	"w": uWeek, "wk": uWeek, "wks": uWeek, "mo": uMonth, "mos": uMonth, "mth": uMonth, "mths": uMonth,
	"yr": uYear, "yrs": uYear,
}

// gluedUnit reads a count with its unit glued to it: 3w, 2yrs.
func (p *parser) gluedUnit(i int) (float64, unit, int) {
	t := p.tok(i)
	if t.kind != kNum || t.num < 0 || t.num > 100000 {
		return 0, uNone, 0
	}
	if u, ok := unitAbbr[t.suf]; ok {
		return float64(t.num), u, 1
	}
	return 0, uNone, 0
}

// windowBack and windowAhead lead a window of a counted length: "the last
// two weeks" starts two weeks ago, "the next two weeks" and "within a
// month" start now.
var (
	windowBack  = set("last", "past", "previous", "прошлые", "прошедшие", "последние", "предыдущие")
	windowAhead = set("next", "coming", "following", "within", "следующие", "ближайшие")
)

func (p *parser) matchWindow(i int) (cand, bool) {
	w := p.w(i)
	back, ahead := windowBack[w], windowAhead[w]
	if !back && !ahead {
		return cand{}, false
	}
	// a count is required: "last week" is a calendar week (relative)
	if _, n := p.quantity(i + 1); n == 0 {
		return cand{}, false
	}
	q, u, n := p.quantUnit(i+1, false)
	if n == 0 {
		return cand{}, false
	}
	a, b := i, i+1+n
	if p.w(b) == "of" {
		return cand{}, false // the last 3 days of May
	}
	if p.w(i-1) == "the" {
		a = i - 1
	}
	if ahead {
		return fixedC(a, b, dayP(p.said)), true
	}
	return fixedC(a, b, dayP(offset(p.said, q, u, -1))), true
}

// matchAnchored: a count of units before or after another expression
// (2 days after next Friday, a week before yesterday), or after the time
// of the text (3 weeks later, 3 days hence).
func (p *parser) matchAnchored(i int) (cand, bool) {
	q, u, n := p.quantUnit(i, false)
	if n == 0 {
		return cand{}, false
	}
	j := i + n
	switch p.w(j) {
	case "later", "спустя", "позже":
		if p.ts.at(i) == tensePast {
			return cand{}, false // "3 days later we flew home": later than the story, not than now
		}
		return fixedC(i, j+1, dayP(offset(p.said, q, u, 1))), true
	case "hence":
		return fixedC(i, j+1, dayP(offset(p.said, q, u, 1))), true
	case "after", "before", "после", "до", "перед":
	default:
		return cand{}, false
	}
	sign := 1
	if w := p.w(j); w == "before" || w == "до" || w == "перед" {
		sign = -1
	}
	anchor, ok := p.anchorAt(j + 1)
	if !ok {
		return cand{}, false
	}
	per, ok := p.resolve(anchor)
	if !ok || per.g != GrainDay {
		return cand{}, false
	}
	return fixedC(i, anchor.b, dayP(offset(per.start, q, u, sign))), true
}

// anchorAt reads the expression an offset counts from: a deictic word, a
// relative or a named day.
func (p *parser) anchorAt(i int) (cand, bool) {
	if c, ok := p.matchDeictic(i); ok {
		return c, true
	}
	c, ok := p.periodRef(i, false)
	if !ok || c.bad {
		return cand{}, false
	}
	return c, true
}

// matchAfterPeriod: after this year, after next week, after today: the
// period that follows the one named, at its grain.
func (p *parser) matchAfterPeriod(i int) (cand, bool) {
	if p.w(i) != "after" {
		return cand{}, false
	}
	// after a year: in a year, unless the text tells of the past ("after
	// two years at Google I left": a duration)
	if q, u, n := p.quantUnit(i+1, false); n > 0 {
		if p.ts.at(i) == tensePast {
			return cand{}, false
		}
		return fixedC(i, i+1+n, dayP(offset(p.said, q, u, 1))), true
	}
	c, ok := p.matchDeictic(i + 1)
	if !ok {
		c, ok = p.relative(i+1, false)
	}
	if !ok || !c.fixed || c.bad {
		return cand{}, false
	}
	return fixedC(i, c.b, period{c.p.end(), c.p.g}), true
}

// shortYear reads a two-digit year at j after a day and month ("3 Aug 96",
// "Aug 9, 96"), allowing a comma before it; it must end the phrase, so
// that "3 May 12 people" keeps its count.
func (p *parser) shortYear(j int) (int, int, bool) {
	k := j
	if t := p.tok(k); t.kind == kPunct && t.p == ',' {
		k++
	}
	t := p.tok(k)
	if t.kind != kNum || t.ndig != 2 || t.suf != "" || p.tok(k+1).kind == kWord || p.tok(k+1).kind == kNum {
		return 0, 0, false
	}
	return pivotYear(t.num, p.said.Year()), k - j + 1, true
}

// pivotYear places a two-digit year in the century that puts it nearest
// the year said without going more than 20 years into the future: said in
// 2026, 74 is 1974, 30 is 2030, 46 is 2046 and 47 is 1947. Birthdays and
// past events are what two-digit years mostly write; a plan rarely reaches
// further than that.
func pivotYear(yy, said int) int {
	y := said/100*100 + yy
	if y > said+20 {
		y -= 100
	} else if y+100 <= said+20 {
		y += 100
	}
	return y
}

// abbrLead are the prepositions that make an abbreviated month alone a
// date: in Jan, в янв; not "from Jan" or "with Jan", a name.
var abbrLead = set("in", "since", "until", "till", "в", "во", "с", "со", "до", "к")

// ruMonthAbbr are the Russian month abbreviations, read like enMonthAbbr
// only next to a day number or a year.
var ruMonthAbbr = map[string]time.Month{
	"янв": 1, "фев": 2, "февр": 2, "мар": 3, "апр": 4, "июн": 6, "июл": 7, "авг": 8,
	"сен": 9, "сент": 9, "окт": 10, "ноя": 11, "нояб": 11, "дек": 12,
}

// versionWords make the number after them a version, not a date: Version:
// 1.1.30, v 2.10.24, версия 1.2.25.
var versionWords = set("version", "ver", "v", "build", "release", "версия", "версии", "версию", "сборка", "релиз")

// isVersion says whether the number at i follows a version word (with a
// colon or "is" between).
func (p *parser) isVersion(i int) bool {
	j := i - 1
	if t := p.tok(j); t.kind == kPunct && (t.p == ':' || t.p == '#') {
		j--
	}
	return versionWords[p.w(j)]
}

// monthYear: 09/2012, 9.2012 (a month and a four-digit year).
func (p *parser) monthYear(i int) (cand, bool) {
	t := p.tok(i)
	if (t.seps[0] != '/' && t.seps[0] != '.') || t.plen[0] > 2 || t.plen[1] != 4 || t.parts[0] < 1 || t.parts[0] > 12 {
		return cand{}, false
	}
	return fixedC(i, i+1, monthP(t.parts[1], time.Month(t.parts[0]))), true
}

// gluedDayMonth: 15Sep, 10-August 2012, 21-APR-16, 10-августа-2012: a day
// with the month glued to it, and the year after a hyphen or a slash.
func (p *parser) gluedDayMonth(i int) (cand, bool) {
	t := p.tok(i)
	if t.kind != kNum || t.ndig > 2 || t.num < 1 || t.num > 31 || t.suf == "" {
		return cand{}, false
	}
	m, ok := enMonths[t.suf]
	if !ok {
		if m, ok = enMonthAbbr[t.suf]; !ok {
			if m, ok = ruMonths[t.suf]; !ok {
				if m, ok = ruMonthAbbr[t.suf]; !ok {
					return cand{}, false
				}
			}
		}
	}
	j := i + 1
	if q := p.tok(j); q.kind == kPunct && (isHyphen(q.p) || q.p == '/') && q.start == t.end {
		j++
	}
	return p.monthDay(i, j, m, t.num)
}

// gluedYearMonth: 2024-August, 2024-авг.
func (p *parser) gluedYearMonth(i int) (cand, bool) {
	t := p.tok(i)
	if t.kind != kNum || t.ndig != 4 || t.suf == "" {
		return cand{}, false
	}
	m, ok := enMonths[t.suf]
	if !ok {
		if m, ok = enMonthAbbr[t.suf]; !ok {
			return cand{}, false
		}
	}
	return fixedC(i, i+1, monthP(t.num, m)), true
}

// numericDayMonth: 12.05, 8/10 (day first) without a year. A fraction, a
// decimal or a time of day (at 10.12, в 10.12, by 2/3) reads the same, so
// it needs a preposition of dates before it (on 8/10, с 12.05, before
// 02/02), and after a dot two digits.
func (p *parser) numericDayMonth(i int) (cand, bool) {
	t := p.tok(i)
	if (t.seps[0] != '.' && t.seps[0] != '/') || t.plen[0] > 2 || t.plen[1] > 2 ||
		(t.seps[0] == '.' && t.plen[1] != 2) || !dayMonthLead[p.w(i-1)] {
		return cand{}, false
	}
	d, m := t.parts[0], t.parts[1]
	if m > 12 && d <= 12 {
		d, m = m, d
	}
	if m < 1 || m > 12 || d < 1 || d > daysIn(2024, time.Month(m)) {
		return cand{}, false
	}
	return recC(i, i+1, rec{k: rMonthDay, mon: time.Month(m), day: d}, modNone), true
}

var dayMonthLead = set("on", "since", "from", "until", "till", "before", "after",
	"с", "со", "до", "по", "к", "перед", "после")

// enNth and ruNth are the ordinals that pick a weekday in a month; -1 is
// the last.
var (
	enNth = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
	ruNth = func() map[string]int {
		m := map[string]int{}
		for stem, n := range map[string]int{"перв": 1, "втор": 2, "четверт": 4, "последн": -1} {
			for _, e := range []string{"ый", "ий", "ая", "яя", "ую", "юю", "ое", "ее", "ой", "ей", "ого", "его"} {
				m[stem+e] = n
			}
		}
		for _, w := range []string{"третий", "третья", "третью", "третье", "третьего", "третьей"} {
			m[w] = 3
		}
		return m
	}()
)

// matchNthWeekday: the last Friday of October, the first Monday of the
// month, the second Tuesday in May 2027, в последнюю пятницу октября, в
// первый понедельник следующего месяца.
func (p *parser) matchNthWeekday(i int) (cand, bool) {
	j := i
	if p.w(j) == "the" {
		j++
	}
	n, ok := enNth[p.w(j)]
	if !ok {
		if n, ok = ruNth[p.w(j)]; !ok {
			return cand{}, false
		}
	}
	wd, ok := enWeekdays[p.w(j+1)]
	if !ok {
		if wd, ok = ruWeekdays[p.w(j+1)]; !ok {
			return cand{}, false
		}
	}
	k := j + 2
	if w := p.w(k); w == "of" || w == "in" {
		k++
	}
	mc, ok := p.monthFirst(k, true)
	if !ok || mc.bad {
		if mc, ok = p.relative(k, true); !ok {
			if mc, ok = p.generic(k); !ok {
				return cand{}, false
			}
		}
	}
	per, ok := p.resolve(mc)
	if !ok || per.g != GrainMonth {
		return cand{}, false
	}
	d, ok := nthWeekday(per.start, wd, n)
	if !ok {
		return cand{}, false
	}
	return fixedC(i, mc.b, dayP(d)), true
}

// nthWeekday is the n-th weekday wd of the month starting at first (n -1:
// the last).
func nthWeekday(first time.Time, wd time.Weekday, n int) (time.Time, bool) {
	if n < 0 {
		d := first.AddDate(0, 1, -1)
		for d.Weekday() != wd {
			d = d.AddDate(0, 0, -1)
		}
		return d, true
	}
	d := first.AddDate(0, 0, (int(wd)-int(first.Weekday())+7)%7+7*(n-1))
	return d, d.Month() == first.Month()
}

// matchDayOfRelMonth: 20 of next month, the 3rd of last month, 20 числа
// следующего месяца, 5-го прошлого месяца.
func (p *parser) matchDayOfRelMonth(i int) (cand, bool) {
	a := i
	if p.w(i) == "the" {
		i++
	}
	d, n := p.enDay(i)
	j := i + n
	if n > 0 && p.w(j) == "of" {
		j++
	} else {
		if d, n = p.ruDay(i); n == 0 {
			return cand{}, false
		}
		j = i + n
		if w := p.w(j); w == "числа" || w == "число" {
			j++
		}
		if isLatin(p.w(j)) {
			return cand{}, false // "I ran 20 last month": a count
		}
	}
	mc, ok := p.relative(j, true)
	if !ok || !mc.fixed || mc.p.g != GrainMonth {
		return cand{}, false
	}
	y, m := mc.p.start.Year(), mc.p.start.Month()
	if !validDay(y, m, d) {
		return cand{a: a, b: mc.b, bad: true}, true
	}
	return fixedC(a, mc.b, dayP(date(y, m, d))), true
}

// matchWeekdayOfWeek: last week's Sunday, next week's Friday.
func (p *parser) matchWeekdayOfWeek(i int) (cand, bool) {
	step, ok := map[string]int{"this": 0, "next": 1, "last": -1}[p.w(i)]
	if !ok || p.w(i+1) != "week's" {
		return cand{}, false
	}
	wd, ok := enWeekdays[p.w(i+2)]
	if !ok {
		return cand{}, false
	}
	start := p.unitPeriod("week", step).start
	return fixedC(i, i+3, dayP(start.AddDate(0, 0, (int(wd)+6)%7))), true
}

// matchMonthInYears: March in 1 year, в марте через год: that month of
// the year so many years on.
func (p *parser) matchMonthInYears(i int) (cand, bool) {
	w := p.w(i)
	m, ok := enMonths[w]
	if ok && (w == "may" || w == "march") && !p.t[i].cap {
		return cand{}, false // verbs
	}
	if !ok {
		if m, ok = ruMonths[w]; !ok {
			return cand{}, false
		}
	}
	if v := p.w(i + 1); v != "in" && v != "через" {
		return cand{}, false
	}
	q, u, n := p.quantUnit(i+2, p.w(i+1) == "через")
	if n == 0 || u != uYear || q != float64(int(q)) {
		return cand{}, false
	}
	return fixedC(i, i+2+n, monthP(p.said.Year()+int(q), m)), true
}

// laterStatement says whether c, found after prev, dates the fact instead
// of it: the two stand in separate statements (each clause with words of
// its own, not the two ends of a range), c's tells of the speaker, and
// c's time is later. A message
// telling how things went ("Last week I interviewed; today I signed the
// offer", "Вчера уволилась, а с понедельника выхожу") ends at the state
// the memory keeps: the latest change.
func (p *parser) laterStatement(prev cand, prevP period, c cand, per period) bool {
	ca, cb := p.ts.clause[prev.a], p.ts.clause[c.a]
	if ca == cb || !per.start.After(prevP.start) {
		return false
	}
	if !p.clauseHasOtherWords(prev) || !p.clauseHasOtherWords(c) || !p.firstPerson(c) {
		return false // a list of times, or another person's news
	}
	for j := prev.b; j < c.a && j < prev.b+3; j++ { // a range's dash stands between its ends
		if t := p.tok(j); t.kind == kPunct && (isHyphen(t.p) || t.p == '–' || t.p == '—') {
			return false // a range: its start dates the fact
		}
	}
	return true
}

// firstPerson says whether c's clause tells of the speaker: I, we, я,
// мы, or a Russian verb in the first person singular of the present or
// future (выхожу, начинаю), where the pronoun is often dropped.
func (p *parser) firstPerson(c cand) bool {
	id := p.ts.clause[c.a]
	for j := c.a - 1; j >= 0 && p.ts.clause[j] == id; j-- {
		if p.speakerWord(j) {
			return true
		}
	}
	for j := c.b; j < len(p.t) && p.ts.clause[j] == id; j++ {
		if p.speakerWord(j) {
			return true
		}
	}
	return false
}

var (
	enSpeaker    = set("i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we've", "we'll")
	ruSpeaker    = set("я", "мы", "меня", "мне", "нас", "нам")
	ru1sgEndings = []string{"аю", "яю", "ую", "юю", "жу", "шу", "чу", "щу", "жусь", "шусь", "аюсь", "яюсь", "уюсь"}
)

func (p *parser) speakerWord(j int) bool {
	w := p.w(j)
	if enSpeaker[w] || ruSpeaker[w] {
		return true
	}
	if utf8.RuneCountInString(w) < 5 || isLatin(w) {
		return false
	}
	for _, e := range ru1sgEndings {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}
