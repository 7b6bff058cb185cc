package memory

import (
	"cmp"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
)

// period runs the time ranker: the facts that began within the period the
// query names, those with a start of their own first, nearest its
// beginning first; then the facts the other rankers found that were true
// at some time in it.
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
	type began struct {
		id    uint64
		own   bool
		start int64
	}
	var in []began
	sr.inPeriod = map[uint64]bool{}
	for id, i := range sr.vis {
		r := &sr.tl[i].rec
		if st := eventStart(r); st >= lo && st < hi {
			in = append(in, began{id, r.HasFrom, st})
			sr.inPeriod[id] = true
		}
	}
	slices.SortFunc(in, func(a, b began) int {
		if a.own != b.own {
			if a.own {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.id, a.id))
	})
	var list []uint64
	for _, b := range in[:min(len(in), rankDepth)] {
		list = append(list, b.id)
	}
	// True then, though begun before: only among what the others found.
	for _, id := range sr.found() {
		if sr.inPeriod[id] {
			continue
		}
		i := sr.vis[id]
		p := spanAt(&sr.tl[i].rec, sr.tl[i].evs, k)
		if p.visible && p.start < hi && (!p.hasEnd || p.end > lo) {
			list = append(list, id)
			sr.inPeriod[id] = true
		}
	}
	sr.lists[RankTime] = list
}

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
