package eventtime

import (
	"testing"
	"time"
)

// ic is an interval case: the start wanted ("" when nothing should be
// found) and the end wanted ("" when the text names no end).
type ic struct {
	text     string
	said     string
	start    string
	grain    Grain
	end      string
	endGrain Grain
}

func runIntervals(t *testing.T, lang string, cases []ic) {
	t.Helper()
	for _, c := range cases {
		r := Parse(c.text, day(t, c.said), lang)
		switch {
		case c.start == "" && r.Found:
			t.Errorf("%q said %s: want no start, got %s %s (%q)", c.text, c.said, r.Start.Format(time.DateOnly), r.Grain, r.Span)
		case c.start != "" && !r.Found:
			t.Errorf("%q said %s: want start %s, got nothing", c.text, c.said, c.start)
		case c.start != "" && (r.Start.Format(time.DateOnly) != c.start || r.Grain != c.grain):
			t.Errorf("%q said %s: want start %s %s, got %s %s (%q)", c.text, c.said, c.start, c.grain, r.Start.Format(time.DateOnly), r.Grain, r.Span)
		}
		switch {
		case c.end == "" && !r.End.IsZero():
			t.Errorf("%q said %s: want no end, got %s %s", c.text, c.said, r.End.Format(time.DateOnly), r.EndGrain)
		case c.end != "" && (r.End.IsZero() || r.End.Format(time.DateOnly) != c.end || r.EndGrain != c.endGrain):
			t.Errorf("%q said %s: want end %s %s, got %s %s", c.text, c.said, c.end, c.endGrain, r.End.Format(time.DateOnly), r.EndGrain)
		}
		if !r.End.IsZero() && (r.End.Location() != time.UTC || r.End.Hour() != 0) {
			t.Errorf("%q: end %v is not 00:00 UTC", c.text, r.End)
		}
	}
}

// Said dates: 2026-06-10 is a Wednesday, 2023-04-09 a Sunday, 2012-08-10 a
// Friday.

func TestIntervalsEN(t *testing.T) {
	runIntervals(t, "en", []ic{
		// two ends: the end named is included whole
		{"I'll be in Rome from 13 to 15 July.", "2026-06-10", "2026-07-13", GrainDay, "2026-07-16", GrainDay},
		{"We rent the flat 10–22 August.", "2026-06-10", "2026-08-10", GrainDay, "2026-08-23", GrainDay},
		{"We rent the flat 10-22 August.", "2026-06-10", "2026-08-10", GrainDay, "2026-08-23", GrainDay},
		{"I'm away from the 13th to the 15th of July.", "2026-06-10", "2026-07-13", GrainDay, "2026-07-16", GrainDay},
		{"Aug 10 - Nov 12, 2011", "2012-08-10", "2011-08-10", GrainDay, "2011-11-13", GrainDay},
		{"August 10 - 22, 2012", "2012-08-10", "2012-08-10", GrainDay, "2012-08-23", GrainDay},
		{"10 August - 12 September 2013", "2012-08-10", "2013-08-10", GrainDay, "2013-09-13", GrainDay},
		{"Eighth to eleventh May 2010", "2012-08-10", "2010-05-08", GrainDay, "2010-05-12", GrainDay},
		{"From December to May 2022", "2023-04-09", "2021-12-01", GrainMonth, "2022-06-01", GrainMonth},
		{"From May to December", "2023-04-09", "2023-05-01", GrainMonth, "2024-01-01", GrainMonth},
		// both ends recur and a stretch of them holds the day said
		{"From December to May", "2023-04-09", "2022-12-01", GrainMonth, "2023-06-01", GrainMonth},
		{"Friday to Monday", "2023-04-09", "2023-04-07", GrainDay, "2023-04-11", GrainDay},
		{"Monday to Friday", "2023-04-09", "2023-04-10", GrainDay, "2023-04-15", GrainDay},
		{"I'm at the lake between May and August.", "2026-03-04", "2026-05-01", GrainMonth, "2026-09-01", GrainMonth},
		{"I worked there from 2019 to 2021.", "2026-03-04", "2019-01-01", GrainYear, "2022-01-01", GrainYear},
		{"The event is today - next friday", "2012-08-04", "2012-08-04", GrainDay, "2012-08-11", GrainDay},
		// a length or "only" after a start
		{"I'm in Lisbon for two weeks from Monday.", "2026-06-10", "2026-06-15", GrainDay, "2026-06-29", GrainDay},
		{"From Monday I'm off for three days.", "2026-06-10", "2026-06-15", GrainDay, "2026-06-18", GrainDay},
		{"I'm working from home this summer only.", "2026-06-10", "2026-06-01", GrainSeason, "2026-09-01", GrainSeason},
		// an end alone is not a start
		{"I'm in Paris until Friday.", "2026-06-10", "", "", "2026-06-13", GrainDay},
		{"I'm staying till the end of the month.", "2026-06-10", "", "", "2026-07-01", GrainMonth},
		{"The lease runs until 2036.", "2026-06-10", "", "", "2036-01-01", GrainYear},
		{"The lease runs through 2028.", "2026-06-10", "", "", "2029-01-01", GrainYear},
		{"Since Monday I've been on leave until 20 June.", "2026-06-10", "2026-06-08", GrainDay, "2026-06-21", GrainDay},
		// refused: a day that does not exist makes the range no date at all
		{"February 20 - 29, 2022", "2012-08-10", "", "", "", ""},
		{"June 10 - 31, 2022", "2012-08-10", "", "", "", ""},
		{"from 30 to 31 February", "2026-01-10", "", "", "", ""},
		// an end not after the start gives no end; a bare pair of years is no date
		{"since 2024 until 2020", "2026-06-10", "2024-01-01", GrainYear, "", ""},
		{"2019 to 2020", "2012-08-10", "", "", "", ""},
		{"I'm at 10.1 - 10.12", "2012-08-10", "", "", "", ""},
		// no end named: Start as before; a length after "since" runs up to now
		{"Since May I've been here for three weeks.", "2026-06-10", "2026-05-01", GrainMonth, "", ""},
		{"I moved to Paris three weeks ago.", "2026-06-10", "2026-05-20", GrainDay, "", ""},
		{"From Monday I'm starting at the bank.", "2026-06-10", "2026-06-15", GrainDay, "", ""},
	})
}

func TestIntervalsRU(t *testing.T) {
	runIntervals(t, "ru", []ic{
		{"Я буду в Риме с 13 по 15 июля.", "2026-06-10", "2026-07-13", GrainDay, "2026-07-16", GrainDay},
		{"с 10 по 22 августа 2012", "2012-08-10", "2012-08-10", GrainDay, "2012-08-23", GrainDay},
		{"Снимаем квартиру 10–22 августа.", "2026-06-10", "2026-08-10", GrainDay, "2026-08-23", GrainDay},
		{"10 августа - 12 сентября 2013", "2012-08-10", "2013-08-10", GrainDay, "2013-09-13", GrainDay},
		{"С декабря по май 2022 года жил в Таиланде.", "2023-04-09", "2021-12-01", GrainMonth, "2022-06-01", GrainMonth},
		{"Между маем и августом я на даче.", "2026-03-04", "2026-05-01", GrainMonth, "2026-09-01", GrainMonth},
		{"Событие с сегодня и до послезавтра", "2012-08-04", "2012-08-04", GrainDay, "2012-08-07", GrainDay},
		{"Событие сегодня-завтра", "2012-08-10", "2012-08-10", GrainDay, "2012-08-12", GrainDay},
		{"Еду в отпуск на две недели с понедельника.", "2026-06-10", "2026-06-15", GrainDay, "2026-06-29", GrainDay},
		{"С понедельника на три дня уезжаю.", "2026-06-10", "2026-06-15", GrainDay, "2026-06-18", GrainDay},
		{"Работаю из дома только этим летом.", "2026-06-10", "2026-06-01", GrainSeason, "2026-09-01", GrainSeason},
		{"Я в Париже до пятницы.", "2026-06-10", "", "", "2026-06-13", GrainDay},
		{"Остаюсь до конца месяца.", "2026-06-10", "", "", "2026-07-01", GrainMonth},
		{"Контракт до 2028 года.", "2026-06-10", "", "", "2028-01-01", GrainYear},
		{"Контракт по 2028 год.", "2026-06-10", "", "", "2029-01-01", GrainYear},
		{"с 20 по 30 февраля 2026", "2026-01-10", "", "", "", ""},
		{"С понедельника перехожу в отдел продаж.", "2026-06-10", "2026-06-15", GrainDay, "", ""},
		{"Я только вчера узнала.", "2026-06-10", "2026-06-09", GrainDay, "", ""},
	})
}
