package eventtime

import (
	"strings"
	"time"
)

// cand is one time expression found in the text, before resolution.
type cand struct {
	a, b     int // token range of the expression
	lead     int // first token of the span, with a leading since/from/с
	fixed    bool
	p        period // when fixed
	r        rec    // when recurring
	mod      relMod
	sub      sub
	weak     bool // a bare weekday or capitalised month: used only when nothing better is found
	needLead bool // a bare form that needs a preposition before it to be a date
	bad      bool // a date that does not exist (31 February): read, then dropped
	mk       marker
	end      *cand  // the other end of a range (from May to December), read with it
	dur      length // a length after the start: for three days
	whole    bool   // the period meant whole: this summer only
}

type marker uint8

const (
	mkNone  marker = iota
	mkSince        // since: a past start
	mkFrom         // from, starting: a start, future unless the verbs are past
	mkAsOf         // as of, с: a start in either direction
	mkBack         // back in: past
	mkUntil        // until, до, before: an end, not a start
	mkEvery        // every, each, каждый: a frequency
	mkNeg          // not, не
)

type parser struct {
	t        []token
	said     time.Time
	ts       *tenses
	habitual []bool // per clause
	yearly   []bool // per clause: a yearly occasion is told of in it
	cands    []cand // the expressions best found, for the end alone
	// recurring says a time of the text recurs ("every Monday", "on
	// Mondays", a birthday's date), which best read as no start.
	recurring bool
}

func newParser(t []token, said time.Time) *parser {
	p := &parser{t: t, said: said}
	p.ts = newTenses(t, tenseMarks(t))
	p.habitual = make([]bool, len(p.ts.cm))
	for i := range t {
		if t[i].kind == kWord && (enHabitual[t[i].w] || ruHabitual[t[i].w]) {
			p.habitual[p.ts.clause[i]] = true
		}
		if t[i].kind == kWord && (recurring.plural[t[i].w] || every(t[i].w) && i+1 < len(t) && timeNoun(t[i+1].w)) {
			// "on Mondays", "каждый вторник" (which names no date of its
			// own: a bare weekday needs a preposition)
			p.recurring = true
		}
	}
	p.yearly = p.yearlyGroups()
	return p
}

func (p *parser) tok(i int) token {
	if i < 0 || i >= len(p.t) {
		return token{kind: kPunct}
	}
	return p.t[i]
}

// w is the word at i, or "" for a number, a mark or the text's edge.
func (p *parser) w(i int) string {
	if i < 0 || i >= len(p.t) || p.t[i].kind != kWord {
		return ""
	}
	return p.t[i].w
}

// best finds every expression and picks the one that says when the fact began.
func (p *parser) best() (cand, period, bool) {
	var cands []cand
	for i := 0; i < len(p.t); {
		c, ok := p.matchAt(i)
		if !ok || c.b <= i {
			i++
			continue
		}
		cands = append(cands, c)
		i = c.b
	}
	cands = p.joinRanges(p.merge(cands))
	p.cands = cands
	var best cand
	var bestP period
	bestS := -1
	for _, c := range cands {
		c.mk, c.lead = p.marker(c.a)
		switch c.mk {
		case mkEvery:
			p.recurring = true
			continue
		case mkUntil, mkNeg:
			continue
		}
		if c.bad {
			continue
		}
		if c.needLead && !p.hasLead(c.a) && c.mk == mkNone {
			continue
		}
		if !c.fixed && c.mod == modNone && c.mk == mkNone && p.habitual[p.ts.clause[c.a]] {
			p.recurring = true
			continue
		}
		if p.yearlyDate(c) {
			// "My birthday is on 14 May": when it comes round, not since when.
			p.recurring = true
			continue
		}
		per, ok := p.resolveStart(c)
		if !ok || !InRange(per.start) {
			continue
		}
		s := 2
		switch {
		case c.mk == mkSince || c.mk == mkFrom || c.mk == mkAsOf:
			s = 3
		case c.weak:
			s = 1
		}
		if s > bestS || (s == bestS && p.laterStatement(best, bestP, c, per)) {
			best, bestP, bestS = c, per, s
		}
	}
	return best, bestP, bestS >= 0
}

// merge joins neighbours that name one time: a year and a month or season
// after it ("в 2023 году летом", "last year in May"), a week and a weekday
// ("next week on Wednesday", "в среду на следующей неделе"), a weekday and
// a date ("Monday, 5 May", "в пятницу, 13-го").
func (p *parser) merge(cs []cand) []cand {
	out := cs[:0]
	for k := 0; k < len(cs); k++ {
		c := cs[k]
		if k+1 < len(cs) {
			if m, ok := mergePair(c, cs[k+1]); ok {
				out = append(out, m)
				k++
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

func mergePair(c, n cand) (cand, bool) {
	if gap := n.a - c.b; gap < 0 || gap > 2 || c.bad || n.bad {
		return cand{}, false
	}
	plain := func(x cand) bool { return !x.fixed && x.mod == modNone && x.sub == subNone }
	isWeek := func(x cand) bool { return x.fixed && x.p.g == GrainWeek && x.sub == subNone }
	switch {
	case c.fixed && c.p.g == GrainYear && c.sub == subNone && plain(n):
		y := c.p.start.Year()
		switch n.r.k {
		case rMonth:
			n.p = monthP(y, n.r.mon)
		case rSeason:
			n.p = seasonP(y, n.r.season)
		case rMonthDay:
			if !validDay(y, n.r.mon, n.r.day) {
				return cand{}, false
			}
			n.p = dayP(date(y, n.r.mon, n.r.day))
		default:
			return cand{}, false
		}
		n.fixed, n.a, n.needLead, n.weak = true, c.a, false, false
		return n, true
	case plain(c) && c.r.k == rWeekday && ((plain(n) && (n.r.k == rMonthDay || n.r.k == rDayOfMonth)) ||
		(n.fixed && n.p.g == GrainDay && n.sub == subNone)):
		// Monday, 5 May; в пятницу, 13-го: the date says more than the weekday
		n.a, n.needLead, n.weak = c.a, false, false
		return n, true
	case isWeek(c) && plain(n) && n.r.k == rWeekday:
		c.p = dayP(c.p.start.AddDate(0, 0, (int(n.r.wd)+6)%7))
		c.b = n.b
		return c, true
	case isWeek(n) && plain(c) && c.r.k == rWeekday:
		n.p = dayP(n.p.start.AddDate(0, 0, (int(c.r.wd)+6)%7))
		n.a = c.a
		return n, true
	}
	return cand{}, false
}

// marker reads the word before an expression: since, from, as of, until,
// every, not, с, до, каждый. It returns the first token of the span.
func (p *parser) marker(a int) (marker, int) {
	j := a - 1
	for k := 0; k < 2; k++ {
		switch p.w(j) {
		case "the", "on", "in", "at", "в", "во", "на":
			j--
			continue
		}
		break
	}
	switch w := p.w(j); {
	case w == "since":
		return mkSince, j
	case w == "from" || w == "starting" || w == "beginning" || w == "effective" || w == "commencing":
		if p.w(j-1) == "as" {
			return mkAsOf, j - 1
		}
		return mkFrom, j
	case w == "of" && p.w(j-1) == "as":
		return mkAsOf, j - 1
	case w == "back":
		return mkBack, j
	case w == "until" || w == "till" || w == "til" || w == "through" || w == "thru" || w == "before" ||
		w == "до" || w == "по" || w == "перед":
		return mkUntil, j
	case w == "every" || w == "each" || ruEvery[w] || (w == "other" && p.w(j-1) == "every"):
		return mkEvery, j
	case w == "not" || w == "не":
		return mkNeg, j
	case w == "с" || w == "со":
		if p.w(j-1) == "начиная" {
			return mkAsOf, j - 1
		}
		return mkAsOf, j
	}
	return mkNone, a
}

// hasLead says whether a bare month, season, year or holiday at a is led
// by a preposition that makes it a date (in May, в мае, с осени).
func (p *parser) hasLead(a int) bool {
	j := a - 1
	if p.w(j) == "the" {
		j--
	}
	w := p.w(j)
	return enDateLead[w] || ruPreps[w]
}

// resolve places a candidate relative to the day said.
func (p *parser) resolve(c cand) (period, bool) {
	if c.fixed {
		return subPeriod(c.p, c.sub), true
	}
	weekday := c.r.k == rWeekday
	occ := c.r.occ(p.said)
	tn := p.ts.at(c.a)
	if weekday && (c.mk == mkFrom || c.mk == mkAsOf) && p.clauseHasOtherWords(c) {
		// "с понедельника выхожу ..., уже уволилась": the coming one
		// unless its own clause is in the past
		tn = p.ts.clauseAt(c.a)
	}
	var h how
	shift := 0
	switch c.mod {
	case modLast:
		h = hLast
	case modBeforeLast:
		h, shift = hLast, -1
	case modNext:
		h = hNext
	case modAfterNext:
		h, shift = hNext, 1
	case modThis:
		switch {
		case tn == tensePast:
			h = hPast
			if !weekday {
				for _, o := range occ {
					if o.contains(p.said) {
						return subPeriod(o, c.sub), true
					}
				}
			}
		case weekday || tn == tenseFuture || tn == tensePresent:
			h = hThisFut
		default:
			h = hNearest
		}
	default:
		dflt := hNearest
		if weekday || c.r.k == rDayOfMonth {
			dflt = hFuture
		}
		switch {
		case c.mk == mkSince || c.mk == mkBack:
			h = hPast
		case tn == tensePast:
			h = hPast
		case tn == tenseFuture || c.mk == mkFrom:
			h = hFuture
		case tn == tensePresent && c.mk != mkAsOf:
			h = hFuture // "the wedding is in September"
		default:
			h = dflt // "as of June I'm self-employed", "с осени хожу"
		}
	}
	per, ok := pick(occ, p.said, h, weekday)
	if !ok {
		return period{}, false
	}
	if shift != 0 {
		for k, o := range occ {
			if o.start.Equal(per.start) {
				if k+shift < 0 || k+shift >= len(occ) {
					return period{}, false
				}
				per = occ[k+shift]
				break
			}
		}
	}
	return subPeriod(per, c.sub), true
}

// clauseHasOtherWords says whether c's clause has words besides c.
func (p *parser) clauseHasOtherWords(c cand) bool {
	id := p.ts.clause[c.a]
	for j := c.lead - 1; j >= 0 && j >= c.lead-3 && p.ts.clause[j] == id; j-- {
		if p.t[j].kind == kWord {
			return true
		}
	}
	for j := c.b; j < len(p.t) && j < c.b+3 && p.ts.clause[j] == id; j++ {
		if p.t[j].kind == kWord {
			return true
		}
	}
	return false
}

// matchAt tries every expression that can start at token i.
func (p *parser) matchAt(i int) (cand, bool) {
	if c, ok := p.matchExpr(i); ok {
		return c, true
	}
	if c, ok := p.matchModifier(i); ok {
		return c, true
	}
	if c, ok := p.matchOffset(i); ok {
		return c, true
	}
	if c, ok := p.matchDeictic(i); ok {
		return c, true
	}
	return p.periodRef(i, false)
}

func fixedC(a, b int, per period) cand { return cand{a: a, b: b, fixed: true, p: per} }

func recC(a, b int, r rec, mod relMod) cand { return cand{a: a, b: b, r: r, mod: mod} }

// matchDeictic: yesterday, today, tomorrow, the day before yesterday, вчера,
// позавчера, послезавтра.
func (p *parser) matchDeictic(i int) (cand, bool) {
	w := p.w(i)
	day := func(n int) period { return dayP(p.said.AddDate(0, 0, n)) }
	switch w {
	case "yesterday", "yesterday's":
		return fixedC(i, i+1, day(-1)), true
	case "today", "today's", "tonight", "tonight's":
		return fixedC(i, i+1, day(0)), true
	case "tomorrow", "tomorrow's":
		return fixedC(i, i+1, day(1)), true
	case "day":
		a := i
		if p.w(i-1) == "the" {
			a = i - 1
		}
		switch {
		case p.w(i+1) == "before" && p.w(i+2) == "yesterday":
			return fixedC(a, i+3, day(-2)), true
		case p.w(i+1) == "after" && p.w(i+2) == "tomorrow":
			return fixedC(a, i+3, day(2)), true
		}
		return cand{}, false
	case "вчера":
		return fixedC(i, i+1, day(-1)), true
	case "сегодня":
		return fixedC(i, i+1, day(0)), true
	case "завтра":
		return fixedC(i, i+1, day(1)), true
	case "позавчера":
		return fixedC(i, i+1, day(-2)), true
	case "послезавтра":
		return fixedC(i, i+1, day(2)), true
	}
	for _, f := range []struct {
		prefix string
		n      int
	}{{"позавчерашн", -2}, {"послезавтрашн", 2}, {"вчерашн", -1}, {"сегодняшн", 0}, {"завтрашн", 1}} {
		if strings.HasPrefix(w, f.prefix) {
			b := i + 1
			if p.w(b) == "дня" {
				b++
			}
			return fixedC(i, b, day(f.n)), true
		}
	}
	return cand{}, false
}

// quantity reads a count: 3, three, twenty-one, a, a couple of, a few, half
// a, три, две, пару, несколько, полтора, двадцать пять.
func (p *parser) quantity(i int) (float64, int) {
	t := p.tok(i)
	if t.kind == kNum {
		if t.suf != "" || t.num < 0 || t.num > 100000 {
			return 0, 0
		}
		return p.andHalf(float64(t.num), i, 1)
	}
	w := p.w(i)
	switch w {
	case "a", "an":
		switch p.w(i + 1) {
		case "couple":
			if p.w(i+2) == "of" {
				return 2, 3
			}
			return 2, 2
		case "few":
			return 3, 2
		case "dozen":
			return 12, 2
		}
		return p.andHalf(1, i, 1)
	case "couple":
		if p.w(i+1) == "of" {
			return 2, 2
		}
		return 2, 1
	case "few", "several":
		return 3, 1
	case "half":
		if p.w(i+1) == "a" || p.w(i+1) == "an" {
			return 0.5, 2
		}
		return 0, 0
	case "пару", "пара", "пары", "парочку", "парочка":
		return 2, 1
	case "несколько", "нескольких":
		return 3, 1
	case "полтора", "полторы":
		return 1.5, 1
	}
	if v, ok := enNumbers[w]; ok {
		if v >= 20 {
			if u, ok := enNumbers[p.w(i+1)]; ok && u < 10 {
				return p.andHalf(float64(v+u), i, 2)
			}
		}
		return p.andHalf(float64(v), i, 1)
	}
	if v, ok := ruNumbers[w]; ok {
		n := 1
		if v >= 20 {
			if u, ok := ruNumbers[p.w(i+1)]; ok && u < 10 {
				v, n = v+u, 2
			}
		}
		return p.andHalf(float64(v), i, n) // три с половиной
	}
	return 0, 0
}

// andHalf reads "and a half" after a count: one and a half years.
func (p *parser) andHalf(q float64, i, n int) (float64, int) {
	if p.w(i+n) == "and" && p.w(i+n+1) == "a" && p.w(i+n+2) == "half" {
		return q + 0.5, n + 3
	}
	if p.w(i+n) == "с" && p.w(i+n+1) == "половиной" {
		return q + 0.5, n + 2
	}
	return q, n
}

func (p *parser) unitAt(i int) unit {
	w := p.w(i)
	if u, ok := enUnits[w]; ok {
		return u
	}
	if u, ok := unitAbbr[w]; ok && len(w) > 1 {
		return u // 3 wks, 2 yrs
	}
	return ruUnits[w]
}

// ruHalf are the Russian words for half a unit: полгода, полмесяца.
var ruHalf = map[string]unit{"полгода": uYear, "полмесяца": uMonth, "полнедели": uWeek, "полчаса": uHour, "полдня": uDay}

// quantUnit reads "three weeks", "a couple of days", "неделю", "полгода",
// "недели две" (an inverted, approximate count) at i.
func (p *parser) quantUnit(i int, allowBare bool) (float64, unit, int) {
	if u, ok := ruHalf[p.w(i)]; ok {
		return 0.5, u, 1
	}
	if q, u, n := p.gluedUnit(i); n > 0 {
		return q, u, n
	}
	if q, n := p.quantity(i); n > 0 {
		if u := p.unitAt(i + n); u != uNone {
			q, m := p.andHalf(q, i+n, 1)
			return q, u, n + m
		}
		return 0, uNone, 0
	}
	if u := p.unitAt(i); u != uNone {
		// inverted: недели через две, дня три назад
		if q, n := p.quantity(i + 1); n > 0 && !isLatin(p.w(i)) {
			return q, u, 1 + n
		}
		if allowBare && !isLatin(p.w(i)) {
			// неделю назад, через месяц
			switch p.w(i) {
			case "неделю", "месяц", "год", "день", "час", "минуту", "сутки", "недельку", "годик":
				return 1, u, 1
			}
		}
	}
	return 0, uNone, 0
}

// matchOffset: three days ago, in two weeks, a year ago, через неделю,
// три дня назад, пару недель назад, полгода назад.
func (p *parser) matchOffset(i int) (cand, bool) {
	w := p.w(i)
	switch w {
	case "in":
		q, u, n := p.quantUnit(i+1, false)
		if n == 0 {
			return cand{}, false
		}
		b := i + 1 + n
		if p.w(b) == "time" {
			b++
		}
		// "I learned it in three weeks": a duration, not a date
		if p.ts.at(i) == tensePast {
			return cand{}, false
		}
		return fixedC(i, b, dayP(offset(p.said, q, u, 1))), true
	case "через":
		q, u, n := p.quantUnit(i+1, true)
		if n == 0 {
			return cand{}, false
		}
		return fixedC(i, i+1+n, dayP(offset(p.said, q, u, 1))), true
	}
	q, u, n := p.quantUnit(i, true)
	if n == 0 {
		return cand{}, false
	}
	j := i + n
	switch p.w(j) {
	case "ago", "back", "назад":
		return fixedC(i, j+1, dayP(offset(p.said, q, u, -1))), true
	case "тому":
		if p.w(j+1) == "назад" {
			return fixedC(i, j+2, dayP(offset(p.said, q, u, -1))), true
		}
	case "from":
		if p.w(j+1) == "now" || p.w(j+1) == "today" {
			return fixedC(i, j+2, dayP(offset(p.said, q, u, 1))), true
		}
	}
	return cand{}, false
}

// matchModifier: early May, the end of last year, mid-2023, в начале мая,
// в конце прошлого года, в середине лета, ранней весной.
func (p *parser) matchModifier(i int) (cand, bool) {
	w := p.w(i)
	var s sub
	j := -1
	switch w {
	case "early":
		s, j = subStart, i+1
	case "late":
		s, j = subEnd, i+1
	case "mid":
		s, j = subMid, i+1
	case "beginning", "start":
		if p.w(i+1) == "of" {
			s, j = subStart, i+2
		}
	case "middle":
		if p.w(i+1) == "of" {
			s, j = subMid, i+2
		}
	case "end":
		if p.w(i+1) == "of" {
			s, j = subEnd, i+2
		}
	case "начале", "начала", "началу", "начало":
		s, j = subStart, i+1
	case "конце", "конца", "концу", "конец":
		s, j = subEnd, i+1
	case "середине", "середины", "середину", "середина":
		s, j = subMid, i+1
	case "первых":
		if p.w(i+1) == "числах" {
			s, j = subStart, i+2
		}
	case "последних":
		if p.w(i+1) == "числах" {
			s, j = subEnd, i+2
		}
	default:
		switch {
		case strings.HasPrefix(w, "ранн"):
			s, j = subStart, i+1
		case strings.HasPrefix(w, "поздн"):
			s, j = subEnd, i+1
		}
	}
	if j < 0 {
		return cand{}, false
	}
	if (w == "early" || w == "late") && p.w(j) == "in" {
		j++ // early in the year
	}
	c, ok := p.periodRef(j, true)
	if !ok {
		return cand{}, false
	}
	switch {
	case c.fixed && (c.p.g == GrainDay):
		return cand{}, false // "the end of yesterday" is not a period start
	case !c.fixed && (c.r.k == rWeekday || c.r.k == rDayOfMonth || c.r.k == rMonthDay):
		return cand{}, false
	}
	c.a, c.sub, c.needLead, c.weak = i, s, false, false
	return c, true
}
