package eventtime

import (
	"time"
)

// periodRef reads a named period at i: relative (next week, в прошлом
// месяце, last spring), a date (3 May 2024, 5 марта, the 25th, 15-го
// числа), a month, season, year, weekday or holiday. inMod is set after
// "early", "the end of", "в начале" and friends, where bare forms and the
// generic "the month", "года" are dates too.
func (p *parser) periodRef(i int, inMod bool) (cand, bool) {
	if c, ok := p.relative(i, inMod); ok {
		return c, true
	}
	t := p.tok(i)
	switch t.kind {
	case kNumX:
		return p.numericDate(i)
	case kNum:
		if c, ok := p.gluedYearMonth(i); ok {
			return c, true
		}
		if c, ok := p.dayMonth(i); ok {
			return c, true
		}
		if c, ok := p.dayOfMonth(i); ok {
			return c, true
		}
		return p.year(i, inMod)
	case kWord:
	default:
		return cand{}, false
	}
	w := t.w
	if c, ok := p.dayMonth(i); ok { // ordinal words: the first of May, пятого марта
		return c, true
	}
	if c, ok := p.dayOfMonth(i); ok {
		return c, true
	}
	if c, ok := p.monthFirst(i, inMod); ok {
		return c, true
	}
	if s, ok := enSeasons[w]; ok {
		return p.season(i, s, inMod, false)
	}
	if s, ok := ruSeasons[w]; ok {
		return p.season(i, s, inMod, ruSeasonInstr[w])
	}
	if c, ok := p.weekday(i); ok {
		return c, true
	}
	if c, ok := p.holiday(i); ok {
		return c, true
	}
	if w == "weekend" || ruWeekendWords[w] {
		// at the weekend, на выходных: a Saturday
		c := recC(i, i+1, rec{k: rWeekday, wd: time.Saturday}, modNone)
		c.needLead = true
		return c, true
	}
	if inMod {
		return p.generic(i)
	}
	return cand{}, false
}

// yearSpec reads a year after a month or season: 2024, 2024 года, 2023-го,
// next year, прошлого года. "of" and a comma before it are allowed.
func (p *parser) yearSpec(i int) (int, int, bool) {
	j := i
	if p.w(j) == "of" || (p.tok(j).kind == kPunct && p.tok(j).p == ',') {
		j++
	}
	t := p.tok(j)
	if t.kind == kNum && t.ndig == 4 && yearSuffix(t.suf) {
		n := j - i + 1
		switch p.w(j + 1) {
		case "года", "году", "год", "годом":
			n++
		case "г":
			n++
			if q := p.tok(j + 2); q.kind == kPunct && q.p == '.' {
				n++
			}
		}
		return t.num, n, true
	}
	y := p.said.Year()
	w, next := p.w(j), p.w(j+1)
	if next == "year" {
		switch w {
		case "this":
			return y, j - i + 2, true
		case "next":
			return y + 1, j - i + 2, true
		case "last":
			return y - 1, j - i + 2, true
		}
	}
	if next == "года" || next == "году" {
		switch ruRel(w) {
		case modThis:
			return y, j - i + 2, true
		case modNext:
			return y + 1, j - i + 2, true
		case modLast:
			return y - 1, j - i + 2, true
		case modBeforeLast:
			return y - 2, j - i + 2, true
		}
	}
	return 0, 0, false
}

func yearSuffix(s string) bool {
	switch s {
	case "", "го", "м", "й", "ого", "ом", "г":
		return true
	}
	return false
}

// relative: this/next/last + week, month, year, weekend, season, month,
// weekday; the week before last; на прошлой неделе, в следующем году,
// прошлым летом, в эту субботу, позапрошлой осенью.
func (p *parser) relative(i int, inMod bool) (cand, bool) {
	w := p.w(i)
	mod := modNone
	j := i + 1
	switch w {
	case "this":
		switch p.w(i + 1) {
		case "coming":
			mod, j = modNext, i+2
		case "past":
			mod, j = modLast, i+2
		default:
			mod = modThis
		}
	case "next", "coming", "following":
		if w != "coming" && w != "following" && p.w(i-1) == "the" {
			return cand{}, false // the next day, the next two weeks
		}
		mod = modNext
	case "last", "previous", "past":
		if (w == "last" || w == "past") && p.w(i-1) == "the" {
			return cand{}, false // the last month: a duration
		}
		mod = modLast
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		// Friday after next: the one after the coming one
		if p.w(i+1) == "after" && p.w(i+2) == "next" && p.unitAt(i+3) == uNone {
			return recC(i, i+3, rec{k: rWeekday, wd: enWeekdays[w]}, modAfterNext), true
		}
		return cand{}, false
	case "week", "month", "year":
		// the week before last, the month after next
		a := i
		if p.w(i-1) == "the" {
			a = i - 1
		}
		k := 0
		switch {
		case p.w(i+1) == "before" && p.w(i+2) == "last":
			k = -2
		case p.w(i+1) == "after" && p.w(i+2) == "next":
			k = 2
		default:
			return cand{}, false
		}
		return fixedC(a, i+3, p.unitPeriod(w, k)), true
	default:
		mod = ruRel(w)
		if mod == modNone {
			return cand{}, false
		}
		return p.relPeriod(i, i+1, mod, &ruRelWords)
	}
	return p.relPeriod(i, j, mod, &enRelWords)
}

// relWords is what a language's relative adjective can qualify: the
// nouns of each kind, in every form it takes there.
type relWords struct {
	units    map[string]string // word → "week", "month" or "year"
	weekend  map[string]bool
	night    map[string]bool
	dayPart  map[string]bool // this morning, этим вечером: today
	seasons  map[string]int
	months   map[string]time.Month
	weekdays map[string]time.Weekday
	// a word after the unit or the weekday that makes it something else:
	// the last week of May, next Monday mornings
	notAfterUnit, notAfterWeekday map[string]bool
}

var (
	enRelWords = relWords{
		units:   map[string]string{"week": "week", "month": "month", "year": "year"},
		weekend: set("weekend"), night: set("night"), dayPart: set("morning", "afternoon", "evening"),
		seasons: enSeasons, months: enMonths, weekdays: enWeekdays,
		notAfterUnit: set("of"), notAfterWeekday: todPlural,
	}
	ruRelWords = relWords{
		units:   ruUnitWords,
		weekend: ruWeekendWords, night: ruNightWords, dayPart: ruDayPartWords,
		seasons: ruSeasons, months: ruMonths, weekdays: ruWeekdays,
	}
)

// relPeriod reads at j what the relative adjective mod at i qualifies.
func (p *parser) relPeriod(i, j int, mod relMod, l *relWords) (cand, bool) {
	u := p.w(j)
	step := map[relMod]int{modThis: 0, modNext: 1, modLast: -1, modBeforeLast: -2}[mod]
	if unit, ok := l.units[u]; ok {
		if l.notAfterUnit[p.w(j+1)] {
			return cand{}, false
		}
		return fixedC(i, j+1, p.unitPeriod(unit, step)), true
	}
	switch {
	case l.weekend[u]:
		if mod == modBeforeLast {
			return cand{}, false
		}
		return fixedC(i, j+1, p.weekend(step)), true
	case l.night[u]:
		switch mod {
		case modLast:
			return fixedC(i, j+1, dayP(p.said.AddDate(0, 0, -1))), true
		case modThis:
			return fixedC(i, j+1, dayP(p.said)), true
		}
		return cand{}, false
	case l.dayPart[u]:
		if mod == modThis {
			return fixedC(i, j+1, dayP(p.said)), true
		}
		return cand{}, false
	}
	if s, ok := l.seasons[u]; ok {
		return recC(i, j+1, rec{k: rSeason, season: s}, mod), true
	}
	if m, ok := l.months[u]; ok {
		return recC(i, j+1, rec{k: rMonth, mon: m}, mod), true
	}
	if wd, ok := l.weekdays[u]; ok {
		if l.notAfterWeekday[p.w(j+1)] {
			return cand{}, false
		}
		return recC(i, j+1, rec{k: rWeekday, wd: wd}, mod), true
	}
	return cand{}, false
}

// unitPeriod is the week, month or year k steps from the one of said.
func (p *parser) unitPeriod(u string, k int) period {
	switch u {
	case "week":
		return period{weekStart(p.said).AddDate(0, 0, 7*k), GrainWeek}
	case "month":
		m := addMonths(date(p.said.Year(), p.said.Month(), 1), k)
		return period{m, GrainMonth}
	}
	return yearP(p.said.Year() + k)
}

// weekend is the Saturday of this (0), next (1) or last (-1) weekend; the
// next one is the coming one.
func (p *parser) weekend(k int) period {
	sat := weekStart(p.said).AddDate(0, 0, 5)
	switch k {
	case 1:
		if sat.After(p.said) {
			return dayP(sat)
		}
		return dayP(sat.AddDate(0, 0, 7))
	case -1:
		return dayP(sat.AddDate(0, 0, -7))
	case -2:
		return dayP(sat.AddDate(0, 0, -14))
	}
	return dayP(sat)
}

// dayWords is how a language writes a day of the month: a number with an
// optional suffix, an ordinal word, or a tens word and an ordinal below 10.
type dayWords struct {
	suffixes map[string]bool
	ordinals map[string]int
	tens     map[string]int
}

var (
	enDayWords = dayWords{
		suffixes: set("", "st", "nd", "rd", "th"),
		ordinals: enOrdinals,
		tens:     map[string]int{"twenty": enNumbers["twenty"], "thirty": enNumbers["thirty"]},
	}
	ruDayWords = dayWords{
		suffixes: set("", "го", "е", "ое", "ого", "му", "ому"),
		ordinals: ruOrdinals,
		tens:     map[string]int{"двадцать": ruNumbers["двадцать"], "тридцать": ruNumbers["тридцать"]},
	}
)

// enDay reads a day of the month: 3, 3rd, third, twenty-first.
func (p *parser) enDay(i int) (int, int) { return p.day(i, &enDayWords) }

// ruDay reads a day of the month: 5, 5-го, пятого, двадцать пятого.
func (p *parser) ruDay(i int) (int, int) { return p.day(i, &ruDayWords) }

// day reads a day of the month written in words l and returns it with the
// number of tokens it took, or 0, 0.
func (p *parser) day(i int, l *dayWords) (int, int) {
	t := p.tok(i)
	if t.kind == kNum {
		if t.ndig <= 2 && t.num >= 1 && t.num <= 31 && l.suffixes[t.suf] {
			return t.num, 1
		}
		return 0, 0
	}
	w := p.w(i)
	if v, ok := l.ordinals[w]; ok {
		return v, 1
	}
	if tens, ok := l.tens[w]; ok {
		if v, ok := l.ordinals[p.w(i+1)]; ok && v < 10 {
			return tens + v, 2
		}
	}
	return 0, 0
}

func (p *parser) monthWord(i int, abbr bool) (time.Month, bool) {
	w := p.w(i)
	if m, ok := enMonths[w]; ok {
		return m, true
	}
	if m, ok := ruMonths[w]; ok {
		return m, true
	}
	if abbr {
		if m, ok := enMonthAbbr[w]; ok {
			return m, true
		}
		if m, ok := ruMonthAbbr[w]; ok {
			return m, true
		}
	}
	return 0, false
}

// monthDay builds a day of a month, with the year if one follows at j.
func (p *parser) monthDay(a, j int, m time.Month, d int) (cand, bool) {
	if q, y := p.tok(j), p.tok(j+1); q.kind == kPunct && (q.p == '/' || isHyphen(q.p)) && q.start == p.tok(j-1).end &&
		y.kind == kNum && y.start == q.end {
		j++ // 09/JAN/2017, 21-APR-16
	}
	if y, n, ok := p.yearSpec(j); ok {
		if !validDay(y, m, d) {
			return cand{a: a, b: j + n, bad: true}, true
		}
		return fixedC(a, j+n, dayP(date(y, m, d))), true
	}
	if y, n, ok := p.shortYear(j); ok {
		if !validDay(y, m, d) {
			return cand{a: a, b: j + n, bad: true}, true
		}
		return fixedC(a, j+n, dayP(date(y, m, d))), true
	}
	if d > daysIn(2024, m) {
		return cand{a: a, b: j, bad: true}, true
	}
	return recC(a, j, rec{k: rMonthDay, mon: m, day: d}, modNone), true
}

// dayMonth: 3 May, 3rd of May, the first of January, 5 марта, пятого
// марта, 3-го мая, 12 мая 2024 года.
func (p *parser) dayMonth(i int) (cand, bool) {
	if c, ok := p.gluedDayMonth(i); ok {
		return c, true
	}
	d, n := p.enDay(i)
	if n == 0 {
		d, n = p.ruDay(i)
	}
	if n == 0 {
		return cand{}, false
	}
	j := i + n
	if p.w(j) == "of" {
		j++
	} else if q := p.tok(j); q.kind == kPunct && q.p == '/' && p.tok(j-1).end == q.start {
		j++ // 10/August 2012
	}
	m, ok := p.monthWord(j, true)
	if !ok {
		return cand{}, false
	}
	return p.monthDay(i, j+1, m, d)
}

// monthFirst: May 3rd, May 3, 2024, May 2024, May of next year, в октябре
// 2023 года, в мае следующего года, and a bare month (in May, в мае).
func (p *parser) monthFirst(i int, inMod bool) (cand, bool) {
	m, ok := p.monthWord(i, true)
	if !ok {
		return cand{}, false
	}
	w := p.w(i)
	_, full := enMonths[w]
	_, ru := ruMonths[w]
	// Sep. 2012, Dec. 21, сен. 2012: the dot of an abbreviation
	dot := 0
	if q := p.tok(i + 1); !full && !ru && q.kind == kPunct && q.p == '.' {
		dot = 1
	}
	if !ru {
		j := i + 1 + dot
		if p.w(j) == "the" {
			j++
		}
		if d, n := p.enDay(j); n > 0 && p.unitAt(j+n) == uNone {
			if q := p.tok(j + n); !(q.kind == kPunct && q.p == ':') {
				return p.monthDay(i, j+n, m, d)
			}
		}
	}
	if y, n, ok := p.yearSpec(i + 1 + dot); ok {
		return fixedC(i, i+1+dot+n, monthP(y, m)), true
	}
	if y, n, ok := p.shortYear(i + 1 + dot); ok && p.tok(i+1+dot).num > 31 {
		return fixedC(i, i+1+dot+n, monthP(y, m)), true // Aug 96
	}
	if !full && !ru {
		// an abbreviation alone: Jan is a name; in Jan, в янв, 2024 Aug
		if q := p.tok(i - 1); (dot == 0 && abbrLead[p.w(i-1)]) || (q.kind == kNum && q.ndig == 4 && q.suf == "") {
			return recC(i, i+1+dot, rec{k: rMonth, mon: m}, modNone), true
		}
		return cand{}, false
	}
	c := recC(i, i+1, rec{k: rMonth, mon: m}, modNone)
	if inMod {
		return c, true
	}
	if ru {
		c.needLead = true
		return c, true
	}
	// "may" and "march" are verbs too: they need a preposition
	if p.hasLead(i) {
		return c, true
	}
	if w == "may" || w == "march" || !p.t[i].cap {
		return cand{}, false
	}
	c.weak = true
	return c, true
}

// dayOfMonth: the 25th, on the 3rd, 15-го числа, третьего числа, 3-го.
func (p *parser) dayOfMonth(i int) (cand, bool) {
	t := p.tok(i)
	next := p.w(i + 1)
	isNumber := next == "числа" || next == "число" || next == "числу"
	if t.kind == kNum {
		if t.ndig > 2 || t.num < 1 || t.num > 31 {
			return cand{}, false
		}
		switch t.suf {
		case "го", "е", "ое", "ого", "му", "ому":
			b := i + 1
			if isNumber {
				b++
			}
			return recC(i, b, rec{k: rDayOfMonth, day: t.num}, modNone), true
		case "":
			if isNumber {
				return recC(i, i+2, rec{k: rDayOfMonth, day: t.num}, modNone), true
			}
			return cand{}, false
		case "st", "nd", "rd", "th":
			if p.w(i-1) != "the" {
				return cand{}, false
			}
			return p.enDayTail(i, t.num)
		}
		return cand{}, false
	}
	if d, n := p.ruDay(i); n > 0 {
		if v := p.w(i + n); v == "числа" || v == "число" || v == "числу" {
			return recC(i, i+n+1, rec{k: rDayOfMonth, day: d}, modNone), true
		}
		return cand{}, false
	}
	if d, n := p.enDay(i); n > 0 && p.w(i-1) == "the" {
		switch p.w(i - 2) {
		case "on", "from", "since", "by", "until", "till":
			return p.enDayTail(i+n-1, d)
		}
	}
	return cand{}, false
}

// enDayTail checks what follows "the 25th" (not "the 25th anniversary")
// and reads "of this month", "of next month".
func (p *parser) enDayTail(last, d int) (cand, bool) {
	first := last
	for k := 0; k < 2 && first > 0 && p.w(first-1) != "the"; k++ {
		first-- // twenty first
	}
	j := last + 1
	nx := p.tok(j)
	if nx.kind == kWord {
		if nx.w == "of" {
			step, ok := map[string]int{"this": 0, "next": 1, "last": -1}[p.w(j+1)]
			if ok && p.w(j+2) == "month" {
				m := addMonths(date(p.said.Year(), p.said.Month(), 1), step)
				if !validDay(m.Year(), m.Month(), d) {
					return cand{}, false
				}
				return fixedC(first, j+3, dayP(date(m.Year(), m.Month(), d))), true
			}
			if p.w(j+1) == "the" && p.w(j+2) == "month" {
				return recC(first, j+3, rec{k: rDayOfMonth, day: d}, modNone), true
			}
		}
		if !enDayFollow[nx.w] {
			return cand{}, false
		}
	}
	return recC(first, last+1, rec{k: rDayOfMonth, day: d}, modNone), true
}

// season: last spring is handled by relative; here the summer of 2023,
// летом 2023 года, зимой прошлого года, in spring, весной, с осени.
func (p *parser) season(i, s int, inMod, instr bool) (cand, bool) {
	if y, n, ok := p.yearSpec(i + 1); ok {
		return fixedC(i, i+1+n, seasonP(y, s)), true
	}
	c := recC(i, i+1, rec{k: rSeason, season: s}, modNone)
	if inMod || instr {
		return c, true
	}
	c.needLead = true
	return c, true
}

// year: in 2018, since 2019, с 2019 года, в 2023 году, 2028-го.
func (p *parser) year(i int, inMod bool) (cand, bool) {
	t := p.tok(i)
	if t.ndig != 4 || !yearSuffix(t.suf) {
		return cand{}, false
	}
	b := i + 1
	marked := t.suf == "го" || t.suf == "м" || t.suf == "ого" || t.suf == "ом"
	switch p.w(i + 1) {
	case "года", "году", "год", "годом":
		b++
		marked = true
	case "г":
		b++
		marked = true
		if q := p.tok(b); q.kind == kPunct && q.p == '.' {
			b++
		}
	}
	c := fixedC(i, b, yearP(t.num))
	if !marked && !inMod && p.w(i-1) != "year" {
		c.needLead = true
	}
	return c, true
}

// weekday: on Monday, from Tuesday, Friday (weak), в среду, с понедельника.
// this/next/last Monday is handled by relative.
func (p *parser) weekday(i int) (cand, bool) {
	w := p.w(i)
	if wd, ok := enWeekdays[w]; ok {
		if todPlural[p.w(i+1)] {
			return cand{}, false
		}
		c := recC(i, i+1, rec{k: rWeekday, wd: wd}, modNone)
		switch p.w(i - 1) {
		case "on", "from", "since", "starting", "by", "until", "till", "before", "after", "of", "this", "next", "last", "coming":
		default:
			c.weak = true
		}
		return c, true
	}
	if wd, ok := ruWeekdays[w]; ok {
		prev := p.w(i - 1)
		if !ruPreps[prev] || (w == "среде" && (prev == "в" || prev == "во")) {
			return cand{}, false
		}
		return recC(i, i+1, rec{k: rWeekday, wd: wd}, modNone), true
	}
	return cand{}, false
}

// holiday: New Year, New Year's Day/Eve, Christmas, Новый год, Рождество.
func (p *parser) holiday(i int) (cand, bool) {
	w := p.w(i)
	var m time.Month
	var d, b int
	switch {
	case w == "new" && (p.w(i+1) == "year" || p.w(i+1) == "year's"):
		m, d, b = 1, 1, i+2
		switch p.w(b) {
		case "day":
			b++
		case "eve":
			m, d = 12, 31
			b++
		}
	case w == "christmas" || w == "xmas":
		m, d, b = 12, 25, i+1
		switch p.w(b) {
		case "day":
			b++
		case "eve":
			d = 24
			b++
		}
	case (w == "новый" || w == "нового" || w == "новому" || w == "новым") && ruYearWords[p.w(i+1)]:
		m, d, b = 1, 1, i+2
	case w == "рождество" || w == "рождества" || w == "рождеству":
		m, d, b = 1, 7, i+1
	default:
		return cand{}, false
	}
	c := recC(i, b, rec{k: rMonthDay, mon: m, day: d}, modNone)
	c.needLead = true
	return c, true
}

// numericDate: 2024-05-12, 12.05.2024, 12/05/2024 (day first).
func (p *parser) numericDate(i int) (cand, bool) {
	t := p.tok(i)
	if p.isVersion(i) {
		return cand{}, false
	}
	if len(t.parts) == 2 {
		if c, ok := p.monthYear(i); ok {
			return c, true
		}
		return p.numericDayMonth(i)
	}
	if len(t.parts) != 3 || t.seps[0] != t.seps[1] {
		return cand{}, false
	}
	a, b, c := t.parts[0], t.parts[1], t.parts[2]
	var y, m, d int
	switch {
	case t.plen[0] == 4 && (t.seps[0] == '-' || t.seps[0] == '.' || t.seps[0] == '/'):
		y, m, d = a, b, c
	case (t.seps[0] == '.' || t.seps[0] == '/' || isHyphen(t.seps[0])) && t.plen[0] <= 2 && t.plen[1] <= 2 && (t.plen[2] == 4 || t.plen[2] == 2):
		y, m, d = c, b, a
		if b > 12 && a <= 12 {
			m, d = a, b // 05/25/2015: only month first can be read
		}
		if t.plen[2] == 2 {
			y = pivotYear(y, p.said.Year())
		}
	default:
		return cand{}, false
	}
	if m < 1 || m > 12 || !validDay(y, time.Month(m), d) {
		return cand{}, false
	}
	return fixedC(i, i+1, dayP(date(y, time.Month(m), d))), true
}

// generic: "the month", "the year", "the week", "the summer" after a
// start/middle/end word; месяца, года, недели alone.
func (p *parser) generic(i int) (cand, bool) {
	w := p.w(i)
	a := i
	if w == "the" {
		i++
		w = p.w(i)
	}
	switch {
	case w == "month" || ruMonthWords[w]:
		return fixedC(a, i+1, p.unitPeriod("month", 0)), true
	case w == "year" || ruYearWords[w]:
		return fixedC(a, i+1, p.unitPeriod("year", 0)), true
	case w == "week" || ruWeekWords[w]:
		return fixedC(a, i+1, p.unitPeriod("week", 0)), true
	}
	if s, ok := enSeasons[w]; ok {
		return recC(a, i+1, rec{k: rSeason, season: s}, modNone), true
	}
	return cand{}, false
}
