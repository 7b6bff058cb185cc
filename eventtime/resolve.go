package eventtime

import "time"

// period is a resolved stretch of time: its first day and its grain.
type period struct {
	start time.Time
	g     Grain
}

func (p period) end() time.Time {
	switch p.g {
	case GrainWeek:
		return p.start.AddDate(0, 0, 7)
	case GrainMonth:
		return p.start.AddDate(0, 1, 0)
	case GrainSeason:
		return p.start.AddDate(0, 3, 0)
	case GrainYear:
		return p.start.AddDate(1, 0, 0)
	}
	return p.start.AddDate(0, 0, 1)
}

func (p period) contains(d time.Time) bool { return !d.Before(p.start) && d.Before(p.end()) }

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func dayP(t time.Time) period { return period{t, GrainDay} }

func monthP(y int, m time.Month) period { return period{date(y, m, 1), GrainMonth} }

func yearP(y int) period { return period{date(y, 1, 1), GrainYear} }

// seasonP is the season s (0 spring .. 3 winter) that starts in year y.
func seasonP(y, s int) period { return period{date(y, time.Month(3+3*s), 1), GrainSeason} }

// weekStart is the Monday of d's week.
func weekStart(d time.Time) time.Time {
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

func daysIn(y int, m time.Month) int { return date(y, m+1, 0).Day() }

// validDay says whether d is a day of month m of year y.
func validDay(y int, m time.Month, d int) bool { return d >= 1 && d <= daysIn(y, m) }

// addMonths moves d by n months, keeping the day within the target month
// (31 March minus one month is 28 or 29 February, not 3 March).
func addMonths(d time.Time, n int) time.Time {
	y, m := d.Year(), int(d.Month())-1+n
	y += m / 12
	m %= 12
	if m < 0 {
		m += 12
		y--
	}
	day := d.Day()
	if dim := daysIn(y, time.Month(m+1)); day > dim {
		day = dim
	}
	return date(y, time.Month(m+1), day)
}

// rec is a recurring period: a weekday, a day of the month, a day of a
// month, a month or a season, to be placed relative to the day said.
type recKind uint8

const (
	rNone recKind = iota
	rWeekday
	rDayOfMonth
	rMonthDay
	rMonth
	rSeason
)

type rec struct {
	k      recKind
	wd     time.Weekday
	day    int
	mon    time.Month
	season int
}

// occ lists the occurrences of r around said, in order.
func (r rec) occ(said time.Time) []period {
	var out []period
	y := said.Year()
	switch r.k {
	case rWeekday:
		base := weekStart(said).AddDate(0, 0, (int(r.wd)+6)%7)
		for k := -3; k <= 3; k++ {
			out = append(out, dayP(base.AddDate(0, 0, 7*k)))
		}
	case rDayOfMonth:
		for k := -3; k <= 3; k++ {
			m := addMonths(date(y, said.Month(), 1), k)
			if validDay(m.Year(), m.Month(), r.day) {
				out = append(out, dayP(date(m.Year(), m.Month(), r.day)))
			}
		}
	case rMonthDay:
		for k := -2; k <= 2; k++ {
			if validDay(y+k, r.mon, r.day) {
				out = append(out, dayP(date(y+k, r.mon, r.day)))
			}
		}
	case rMonth:
		for k := -2; k <= 2; k++ {
			out = append(out, monthP(y+k, r.mon))
		}
	case rSeason:
		for k := -3; k <= 2; k++ {
			out = append(out, seasonP(y+k, r.season))
		}
	}
	return out
}

// how picks one occurrence of a recurring period.
type how uint8

const (
	hPast    how = iota // the latest that has begun (a weekday: before today)
	hFuture             // the earliest not yet over (a weekday: after today)
	hNearest            // the one closest to said
	hLast               // the latest that is over
	hNext               // the earliest that begins after said
	hThisFut            // the current one, else the earliest to come (today counts)
)

func pick(occ []period, said time.Time, h how, weekday bool) (period, bool) {
	var best period
	found := false
	switch h {
	case hPast:
		for _, p := range occ {
			if p.start.After(said) || (weekday && !p.start.Before(said)) {
				break
			}
			best, found = p, true
		}
	case hFuture, hThisFut:
		for _, p := range occ {
			if weekday && h == hFuture {
				if p.start.After(said) {
					return p, true
				}
				continue
			}
			if p.end().After(said) {
				return p, true
			}
		}
	case hLast:
		for _, p := range occ {
			if p.end().After(said) {
				break
			}
			best, found = p, true
		}
	case hNext:
		for _, p := range occ {
			if p.start.After(said) {
				return p, true
			}
		}
	case hNearest:
		var bd time.Duration
		for _, p := range occ {
			var d time.Duration
			switch {
			case p.contains(said):
				d = 0
			case said.Before(p.start):
				d = p.start.Sub(said)
			default:
				d = said.Sub(p.end()) + 24*time.Hour
			}
			if !found || d <= bd {
				best, bd, found = p, d, true
			}
		}
	}
	return best, found
}

// subPeriod narrows p to its start, middle or end: a year gives January,
// July or December; a season its first, second or third month; a month
// and a week stay as they are.
func subPeriod(p period, s sub) period {
	if s == subNone {
		return p
	}
	switch p.g {
	case GrainYear:
		m := map[sub]time.Month{subStart: 1, subMid: 7, subEnd: 12}[s]
		return monthP(p.start.Year(), m)
	case GrainSeason:
		k := map[sub]int{subStart: 0, subMid: 1, subEnd: 2}[s]
		t := p.start.AddDate(0, k, 0)
		return monthP(t.Year(), t.Month())
	}
	return p
}

type sub uint8

const (
	subNone sub = iota
	subStart
	subMid
	subEnd
)

// offset moves said by q units (q may be fractional: полтора, and a half).
func offset(said time.Time, q float64, u unit, sign int) time.Time {
	whole := int(q)
	frac := q - float64(whole)
	switch u {
	case uMinute, uHour:
		return said
	case uDay:
		return said.AddDate(0, 0, sign*int(q+0.5))
	case uWeek:
		return said.AddDate(0, 0, sign*int(q*7+0.5))
	case uFortnight:
		return said.AddDate(0, 0, sign*int(q*14+0.5))
	case uMonth:
		return addMonths(said, sign*whole).AddDate(0, 0, sign*int(frac*30+0.5))
	case uYear:
		return addMonths(said, sign*(whole*12+int(frac*12+0.5)))
	case uDecade:
		return addMonths(said, sign*int(q*120+0.5))
	}
	return said
}
