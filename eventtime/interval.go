package eventtime

import "time"

// This file reads where a period ends: the two ends of a range ("from 13
// to 15 July", "10–22 August", "с 10 по 22 августа", "between May and
// August"), a length after a start ("for two weeks from Monday"), a period
// meant whole ("this summer only") and an end alone ("until Friday", "до
// конца месяца"). An end is exclusive and at the grain of what was said:
// in a range the end named is included whole; alone, "until"/"до" include
// a day but stop where a longer period starts, and "through"/"по" include
// it whole; "until the end of X" ends where X ends.

// length is a count of units read after a start: for three days.
type length struct {
	q float64
	u unit
}

// rangeTo are the words between the two ends of a range.
var rangeTo = set("to", "through", "thru", "till", "until", "til", "по", "до")

// rangeBetween lead a range whose ends are joined by and/и.
var rangeBetween = set("between", "между")

// untilIncl are the end words that include the period named whole
// (through May: May too); the others (until, till, до) include only a day.
var untilIncl = set("through", "thru", "по")

// untilWords are the end words an end alone is read after; before and
// перед say when something happens, not how long a state lasts.
var untilWords = set("until", "till", "til", "through", "thru", "до", "по")

// joinRanges joins the ends of ranges into one candidate that carries its
// end, reads the bare days of "10 - 22 August" and "August 10 - 22, 2012",
// and the lengths and "only" after a start.
func (p *parser) joinRanges(cs []cand) []cand {
	out := cs[:0]
	prevB := 0
	for k := 0; k < len(cs); k++ {
		c := cs[k]
		if c.end == nil && k+1 < len(cs) {
			if r, ok := p.joinPair(c, cs[k+1]); ok {
				c = r
				k++
			}
		}
		if c.end == nil {
			if n, ok := p.endAfter(c); ok {
				if r, ok := p.joinPair(c, n); ok {
					c = r
				}
			}
		}
		if c.end == nil {
			if r, ok := p.bareDayStart(c, prevB); ok {
				c = r
			} else if r, ok := p.bareDayEnd(c); ok {
				c = r
			}
		}
		for k+1 < len(cs) && cs[k+1].a < c.b {
			k++ // read as part of this range
		}
		if c.end == nil && !c.bad {
			p.lengthOf(&c)
		}
		out = append(out, c)
		prevB = c.b
	}
	return out
}

// connector says whether the tokens b..a-1 join two ends of a range (a
// dash, to, through, по, до, and after between), with "the" or "on" after
// it; first is the start's first token. A hyphen that glues two words
// (сегодня-завтра) joins them too.
func (p *parser) connector(b, a, first int) bool {
	if b == a {
		return b > 0 && p.tok(b-1).hyph
	}
	k := b
	w := p.w(k)
	switch {
	case (w == "and" || w == "и") && rangeTo[p.w(k+1)]:
		k++ // с сегодня и до послезавтра
	case w == "and" || w == "и":
		if !rangeBetween[p.w(first-1)] && !rangeBetween[p.w(first-2)] {
			return false
		}
	case rangeTo[w]:
	default:
		t := p.tok(k)
		if t.kind != kPunct || !(isHyphen(t.p) || t.p == '–' || t.p == '—') {
			return false
		}
	}
	k++
	if w := p.w(k); w == "the" || w == "on" {
		k++
	}
	return k == a
}

// endAfter reads after a range's connector the bare forms that need a
// preposition before them elsewhere: From December to May (a verb too),
// с мая по август, from 2019 to 2021.
func (p *parser) endAfter(c cand) (cand, bool) {
	k := c.b
	if (p.w(k) == "and" || p.w(k) == "и") && rangeTo[p.w(k+1)] {
		k++
	}
	k++
	if w := p.w(k); w == "the" || w == "on" {
		k++
	}
	if k-c.b > 3 || !p.connector(c.b, k, c.a) {
		return cand{}, false
	}
	n, ok := p.periodRef(k, true)
	if !ok || (n.fixed && n.p.g != GrainYear) || (!n.fixed && n.r.k != rMonth && n.r.k != rSeason) {
		return cand{}, false
	}
	return n, true
}

// joinPair joins c and the n after it when a connector stands between
// them. A start without a year takes the end's (the year at the end of a
// range belongs to both ends: "Aug 10 - Nov 12, 2011"), a year earlier
// when the start would not come before the end ("From December to May
// 2022"); a day of the month takes the end's month ("from the 13th to the
// 15th of July"). A range with a date that does not exist is bad whole.
func (p *parser) joinPair(c, n cand) (cand, bool) {
	if !p.connector(c.b, n.a, c.a) {
		return cand{}, false
	}
	if c.bad || n.bad {
		return cand{a: c.a, b: n.b, bad: true}, true
	}
	if !c.fixed && c.mod == modNone && c.sub == subNone && n.fixed && n.sub == subNone {
		switch n.p.g {
		case GrainDay, GrainMonth, GrainSeason:
			per, ok, bad := borrowYear(c.r, n.p.start)
			if bad {
				return cand{a: c.a, b: n.b, bad: true}, true
			}
			if ok {
				c.fixed, c.p = true, per
			}
		}
	}
	if !c.fixed && c.r.k == rDayOfMonth && c.mod == modNone {
		switch {
		case n.fixed && n.p.g == GrainDay && n.sub == subNone && c.r.day < n.p.start.Day():
			c.fixed, c.p = true, dayP(date(n.p.start.Year(), n.p.start.Month(), c.r.day))
		case !n.fixed && n.r.k == rMonthDay && c.r.day < n.r.day:
			c.r = rec{k: rMonthDay, mon: n.r.mon, day: c.r.day}
		}
	}
	end := n
	c.end, c.b = &end, n.b
	return c, true
}

// borrowYear places the recurring r in the year of end, or the year
// before when it would not start before end. bad: r's day does not exist
// in that year.
func borrowYear(r rec, end time.Time) (per period, ok, bad bool) {
	at := func(y int) (period, bool) {
		switch r.k {
		case rMonthDay:
			if !validDay(y, r.mon, r.day) {
				return period{}, false
			}
			return dayP(date(y, r.mon, r.day)), true
		case rMonth:
			return monthP(y, r.mon), true
		case rSeason:
			return seasonP(y, r.season), true
		}
		return period{}, false
	}
	if r.k != rMonthDay && r.k != rMonth && r.k != rSeason {
		return period{}, false, false
	}
	y := end.Year()
	if r.k == rSeason && end.Month() < 3 {
		y-- // January 2022 is in the winter of 2021
	}
	per, ok = at(y)
	if ok && per.start.Before(end) {
		return per, true, false
	}
	per, ok = at(y - 1)
	return per, ok, !ok
}

// hasMonthWord says whether a month is named among c's tokens.
func (p *parser) hasMonthWord(c cand) bool {
	for k := c.a; k < c.b; k++ {
		if _, ok := p.monthWord(k, true); ok {
			return true
		}
		if t := p.tok(k); t.kind == kNum && t.suf != "" {
			if _, ok := p.monthWord(k, false); ok {
				return true
			}
			if _, ok := enMonthAbbr[t.suf]; ok {
				return true
			}
			if _, ok := ruMonths[t.suf]; ok {
				return true
			}
		}
	}
	return false
}

// dayOf is the day and month of a date candidate with a month named, and
// whether it has one.
func (p *parser) dayOf(c cand) (d int, m time.Month, ok bool) {
	if c.bad || c.sub != subNone || c.mod != modNone {
		return 0, 0, false
	}
	switch {
	case c.fixed && c.p.g == GrainDay && p.hasMonthWord(c):
		return c.p.start.Day(), c.p.start.Month(), true
	case !c.fixed && c.r.k == rMonthDay && p.hasMonthWord(c):
		return c.r.day, c.r.mon, true
	}
	return 0, 0, false
}

// bareDay reads a day of the month, a number or an ordinal word, ending
// at token last; it returns the day and its first token.
func (p *parser) bareDay(last int) (int, int, bool) {
	for first := last; first >= last-1 && first >= 0; first-- {
		if p.tok(first).kind == kNumX {
			return 0, 0, false
		}
		if d, n := p.enDay(first); n > 0 && first+n-1 == last {
			return d, first, true
		}
		if d, n := p.ruDay(first); n > 0 && first+n-1 == last {
			return d, first, true
		}
	}
	return 0, 0, false
}

// bareDayStart reads the bare day before a date as the start of a range:
// 10 - 22 August 2012, from 13 to 15 July, с 10 по 22 августа, eighth to
// eleventh May 2010. prevB is where the candidate before c ends.
func (p *parser) bareDayStart(c cand, prevB int) (cand, bool) {
	de, m, ok := p.dayOf(c)
	if !ok {
		return cand{}, false
	}
	k := c.a
	if p.w(k-1) == "the" {
		k--
	}
	// the connector is one token, or two: и до, and until
	j := k - 1
	if rangeTo[p.w(j)] && (p.w(j-1) == "and" || p.w(j-1) == "и") {
		j--
	}
	ds, first, ok := p.bareDay(j - 1)
	if !ok {
		return cand{}, false
	}
	a := first
	if p.w(a-1) == "the" {
		a--
	}
	if a < prevB || !p.connector(j, c.a, a) || ds >= de {
		return cand{}, false
	}
	return startBefore(c, a, m, ds), true
}

// startBefore is the range from day ds of month m, written at token a, to
// end: in end's year when it has one; bad when that day does not exist.
func startBefore(end cand, a int, m time.Month, ds int) cand {
	start := cand{a: a, b: end.b}
	if end.fixed {
		y := end.p.start.Year()
		if !validDay(y, m, ds) {
			return cand{a: a, b: end.b, bad: true}
		}
		start.fixed, start.p = true, dayP(date(y, m, ds))
	} else {
		start.r = rec{k: rMonthDay, mon: m, day: ds}
	}
	start.end = &end
	return start
}

// bareDayEnd reads the bare day after a date as the end of a range, with
// the year that follows it for both: August 10 - 22, 2012; May eighth -
// tenth, 2010; February 20 - 29, 2022 (no such day: bad whole).
func (p *parser) bareDayEnd(c cand) (cand, bool) {
	ds, m, ok := p.dayOf(c)
	if !ok {
		return cand{}, false
	}
	k := c.b + 1
	if p.w(k) == "the" {
		k++
	}
	var de, last int
	found := false
	for n := 1; n <= 2 && !found; n++ {
		if d, first, ok := p.bareDay(k + n - 1); ok && first == k {
			de, last, found = d, k+n-1, true
		}
	}
	if !found || !p.connector(c.b, k, c.a) {
		return cand{}, false
	}
	if _, isMonth := p.monthWord(last+1, true); isMonth || p.unitAt(last+1) != uNone {
		return cand{}, false
	}
	if q := p.tok(last + 1); q.kind == kPunct && q.p == ':' {
		return cand{}, false // 10 - 11:30
	}
	b := last + 1
	y, hasY := 0, false
	if c.fixed {
		y, hasY = c.p.start.Year(), true
	} else if yy, n, ok := p.yearSpec(b); ok {
		y, hasY, b = yy, true, b+n
	} else if yy, n, ok := p.shortYear(b); ok {
		y, hasY, b = yy, true, b+n
	}
	end := cand{a: k, b: last + 1}
	if hasY {
		if !validDay(y, m, ds) || !validDay(y, m, de) {
			return cand{a: c.a, b: b, bad: true}, true
		}
		c.fixed, c.p = true, dayP(date(y, m, ds))
		end.fixed, end.p = true, dayP(date(y, m, de))
	} else {
		if de > daysIn(2024, m) {
			return cand{a: c.a, b: b, bad: true}, true
		}
		end.r = rec{k: rMonthDay, mon: m, day: de}
	}
	if de <= ds {
		return cand{}, false
	}
	c.end, c.b = &end, b
	return c, true
}

// matchGluedDayRange: 10-22 August, 10-22 августа 2012 (two days joined
// by a hyphen into one number, then the month).
func (p *parser) matchGluedDayRange(i int) (cand, bool) {
	t := p.tok(i)
	if t.kind != kNumX || len(t.parts) != 2 || !isHyphen(t.seps[0]) || t.plen[0] > 2 || t.plen[1] > 2 {
		return cand{}, false
	}
	m, ok := p.monthWord(i+1, true)
	if !ok {
		return cand{}, false
	}
	ds, de := t.parts[0], t.parts[1]
	if ds < 1 || ds >= de || de > 31 {
		return cand{}, false
	}
	end, ok := p.monthDay(i, i+2, m, de)
	if !ok {
		return cand{}, false
	}
	if end.bad {
		return end, true
	}
	return startBefore(end, i, m, ds), true
}

// lengthOf reads what bounds a start with no end named: a length before or
// after it (for two weeks from Monday, from Monday for three days, на две
// недели с понедельника) or "only" (this summer only, только этим летом).
func (p *parser) lengthOf(c *cand) {
	mk, lead := p.marker(c.a)
	if mk == mkSince || mk == mkBack {
		return // "since May I've been here for three weeks": up to now, not an end
	}
	// after it in its clause: from Monday I'm off for three days
	for k := c.b; k < len(p.t) && k <= c.b+4 && p.ts.clause[k] == p.ts.clause[c.a]; k++ {
		if l, _, ok := p.lengthAt(k); ok {
			c.dur = l
			return
		}
	}
	for k := lead - 1; k >= 0 && k >= lead-5; k-- {
		if l, n, ok := p.lengthAt(k); ok && k+1+n == lead {
			c.dur = l
			return
		}
	}
	c.whole = p.w(c.b) == "only" || p.w(lead-1) == "только"
}

// lengthAt reads "for three days", "на три дня" at i, with the number of
// tokens of the count after i.
func (p *parser) lengthAt(i int) (length, int, bool) {
	w := p.w(i)
	if w != "for" && w != "на" {
		return length{}, 0, false
	}
	q, u, n := p.quantUnit(i+1, w == "на")
	if n == 0 || (w == "на" && p.w(i+1+n) == "рождения") {
		return length{}, 0, false // на день рождения: a birthday
	}
	return length{q, u}, n, true
}

// resolveStart resolves a candidate's start. When both ends of a range
// recur (From December to May, Friday to Monday) and the text is not
// about the future, a stretch that holds the day said is the one meant.
func (p *parser) resolveStart(c cand) (period, bool) {
	if c.end != nil && !c.fixed && c.mod == modNone && !c.end.fixed && c.end.mod == modNone &&
		p.ts.at(c.a) != tenseFuture {
		for _, o := range c.r.occ(p.said) {
			o = subPeriod(o, c.sub)
			if e, ok := p.resolveEnd(*c.end, o); ok && !o.start.After(p.said) && e.end().After(p.said) {
				return o, true
			}
		}
	}
	return p.resolve(c)
}

// resolveEnd places the end of a range after its start s: the first
// occurrence of a recurring end that does not begin before s.
func (p *parser) resolveEnd(e cand, s period) (period, bool) {
	if e.fixed || e.mod != modNone {
		return p.resolve(e)
	}
	for _, o := range e.r.occ(s.start) {
		if !o.start.Before(s.start) && o.end().After(s.end()) {
			return subPeriod(o, e.sub), true
		}
	}
	return period{}, false
}

// endOf is where the period of c, resolved to start, ends, from what c
// carries or, failing that, from an end alone elsewhere in the text.
func (p *parser) endOf(c cand, start period, cands []cand) (time.Time, Grain) {
	var end time.Time
	var g Grain
	switch {
	case c.end != nil:
		if e, ok := p.resolveEnd(*c.end, start); ok {
			end, g = e.end(), e.g
		}
	case c.dur.u != uNone:
		end, g = offset(start.start, c.dur.q, c.dur.u, 1), GrainDay
	case c.whole && (p.w(c.b) == "only" || start.g != GrainDay):
		end, g = start.end(), start.g
	default:
		return p.untilEnd(cands, start.start)
	}
	if !end.After(start.start) || !InRange(end) {
		return time.Time{}, ""
	}
	return end, g
}

// untilEnd is the end alone that the first "until X" (till, through, до,
// по) after from gives: a day is included, a longer period ends where it
// starts ("until 2028": 1 January 2028), unless through/по include it
// whole or the words name its end ("till the end of the month").
func (p *parser) untilEnd(cands []cand, from time.Time) (time.Time, Grain) {
	for _, c := range cands {
		mk, lead := p.marker(c.a)
		w := p.w(lead)
		if mk != mkUntil || !untilWords[w] || c.bad || c.end != nil {
			continue
		}
		c.mk = mkFrom // an end is ahead unless the words tell of the past
		if per, ok := p.resolve(c); ok {
			if end := untilAt(per, w, c.sub); end.After(from) && InRange(end) {
				return end, per.g
			}
		}
		// "since Monday I've been on leave until 20 June": the past tense
		// is the start's; the end is the first after it
		if per, ok := p.resolveEnd(c, dayP(from)); ok && !from.IsZero() {
			if end := untilAt(per, w, c.sub); end.After(from) && InRange(end) {
				return end, per.g
			}
		}
	}
	return time.Time{}, ""
}

// untilAt is where "until per" stops, after the end word w.
func untilAt(per period, w string, s sub) time.Time {
	if per.g == GrainDay || untilIncl[w] || s == subEnd {
		return per.end()
	}
	return per.start
}
