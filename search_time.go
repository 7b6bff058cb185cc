package memory

import (
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
)

// period runs the time ranker: the facts that began within the period the
// query names (those with a start of their own above those whose start is
// only when they were told), then the facts the other rankers found that
// were true at some time in it.
func (sr *searcher) period(query string, out *SearchResult) {
	res := eventtime.Parse(query, time.Unix(0, sr.now).UTC(), "")
	if !res.Found {
		return
	}
	from := res.Start
	until := res.End
	if until.IsZero() {
		until = periodEnd(from, res.Grain)
	}
	out.PeriodFrom, out.PeriodUntil = from, until
	lo, hi := from.UnixNano(), until.UnixNano()
	k := orNow(sr.o.Known, sr.now)
	var l []ranked
	sr.inPeriod = map[uint64]bool{}
	for id, i := range sr.vis {
		r := &sr.tl[i].rec
		if st := eventStart(r); st >= lo && st < hi {
			x := beganTold
			if r.HasFrom {
				x = beganOwn
			}
			l = append(l, ranked{id, x})
			sr.inPeriod[id] = true
		}
	}
	// True then, though begun before: only among what the others found.
	for _, id := range sr.found() {
		if sr.inPeriod[id] {
			continue
		}
		i := sr.vis[id]
		p := spanAt(&sr.tl[i].rec, sr.tl[i].evs, k)
		if p.visible && p.start < hi && (!p.hasEnd || p.end > lo) {
			l = append(l, ranked{id, trueThen})
			sr.inPeriod[id] = true
		}
	}
	sortRanked(l)
	sr.lists[RankTime] = l
}

// The time ranker's scores: a fact that began in the period by its own
// start, by when it was told, or that was true in it, begun before.
const (
	beganOwn  = 1
	beganTold = 0.6
	trueThen  = 0.3
)

// periodEnd is where a period of grain g that starts at from ends.
func periodEnd(from time.Time, g eventtime.Grain) time.Time {
	switch g {
	case eventtime.GrainWeek:
		return from.AddDate(0, 0, 7)
	case eventtime.GrainMonth:
		return from.AddDate(0, 1, 0)
	case eventtime.GrainSeason:
		return from.AddDate(0, 3, 0)
	case eventtime.GrainYear:
		return from.AddDate(1, 0, 0)
	}
	return from.AddDate(0, 0, 1)
}
