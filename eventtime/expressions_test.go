package eventtime

import "testing"

// Said 2026-03-04 is a Wednesday.

func TestTwoDigitYears(t *testing.T) {
	run(t, "en", []tc{
		{"I was born on 3 Aug 96.", "2026-03-04", "1996-08-03", GrainDay},
		{"We married on Aug 9, 96", "2026-03-04", "1996-08-09", GrainDay},
		{"Moved here in Aug 96", "2026-03-04", "1996-08-01", GrainMonth},
		{"The contract was signed 21-APR-16", "2026-03-04", "2016-04-21", GrainDay},
		{"I meet her on 3 May 12 people will be there", "2026-03-04", "2026-05-03", GrainDay},
	})
	run(t, "ru", []tc{
		{"Родилась 31.10.74", "2026-03-04", "1974-10-31", GrainDay},
		{"Договор до 12.05.30, с 01.06.30 новый", "2026-03-04", "2030-06-01", GrainDay},
		{"Поженились 03 авг 96", "2026-03-04", "1996-08-03", GrainDay},
	})
}

func TestPivotYear(t *testing.T) {
	for _, c := range []struct{ yy, said, want int }{
		{74, 2026, 1974}, {30, 2026, 2030}, {46, 2026, 2046}, {47, 2026, 1947},
		{0, 2026, 2000}, {99, 2026, 1999}, {10, 2095, 2110}, {96, 2012, 1996},
	} {
		if got := pivotYear(c.yy, c.said); got != c.want {
			t.Errorf("pivotYear(%d, %d) = %d, want %d", c.yy, c.said, got, c.want)
		}
	}
}

func TestOnlyReading(t *testing.T) {
	run(t, "en", []tc{
		{"Paid on 05/25/2015", "2026-03-04", "2015-05-25", GrainDay},
		{"Paid on 12/05/2015", "2026-03-04", "2015-05-12", GrainDay}, // day first when both can be months
		{"Paid on 25/05/2015", "2026-03-04", "2015-05-25", GrainDay},
		{"Published: 06/2004", "2026-03-04", "2004-06-01", GrainMonth},
		{"Paid on 13/13/2015", "2026-03-04", "", ""},
	})
}

func TestAbbreviatedMonths(t *testing.T) {
	run(t, "en", []tc{
		{"We moved in Sep. 2012.", "2026-03-04", "2012-09-01", GrainMonth},
		{"The party is on Dec. 21.", "2026-03-04", "2026-12-21", GrainDay},
		{"Sun 15Sep we will fly out", "2026-03-04", "2026-09-15", GrainDay},
		{"Jan said hello", "2026-03-04", "", ""},
	})
	run(t, "ru", []tc{
		{"Переехали в сен 2012", "2026-03-04", "2012-09-01", GrainMonth},
		{"Переехали в сен. 2012", "2026-03-04", "2012-09-01", GrainMonth},
		{"Свадьба 10-августа 2012", "2026-03-04", "2012-08-10", GrainDay},
	})
}

func TestWindows(t *testing.T) {
	run(t, "en", []tc{
		{"I've been ill for the last 2 weeks.", "2026-03-04", "2026-02-18", GrainDay},
		{"Past 2 days I've been working from home.", "2026-03-04", "2026-03-02", GrainDay},
		{"I'm off for the next two weeks.", "2026-03-04", "2026-03-04", GrainDay},
		{"Last week I moved.", "2026-03-04", "2026-02-23", GrainWeek},
	})
	run(t, "ru", []tc{
		{"Прошлые два дня я болела.", "2026-03-04", "2026-03-02", GrainDay},
		{"Последние 3 недели живу у мамы.", "2026-03-04", "2026-02-11", GrainDay},
	})
}

func TestAnchoredOffsets(t *testing.T) {
	run(t, "en", []tc{
		{"I start 2 days after next Friday.", "2026-03-04", "2026-03-08", GrainDay},
		{"The move is a week after tomorrow.", "2026-03-04", "2026-03-12", GrainDay},
		{"It broke a week before yesterday.", "2026-03-04", "2026-02-24", GrainDay},
		{"We'll arrive 2 days later.", "2026-03-04", "2026-03-06", GrainDay},
		{"We landed on Monday and 3 days later flew home.", "2026-03-04", "2026-03-02", GrainDay}, // later than the story
		{"The parcel arrives three days hence.", "2026-03-04", "2026-03-07", GrainDay},
		{"Connect back after this year", "2026-03-04", "2027-01-01", GrainYear},
		{"After next week I'm free.", "2026-03-04", "2026-03-16", GrainWeek},
	})
	run(t, "ru", []tc{
		{"Дедлайн позапозавчера", "2026-03-04", "2026-03-01", GrainDay},
		{"Дедлайн послепослезавтра", "2026-03-04", "2026-03-07", GrainDay},
	})
}

func TestVersionsAreNotDates(t *testing.T) {
	run(t, "en", []tc{
		{"Version: 1.1.30", "2026-03-04", "", ""},
		{"I upgraded to version 1.10.30", "2026-03-04", "", ""},
	})
	run(t, "ru", []tc{
		{"Поставил версию 2.10.24", "2026-03-04", "", ""},
	})
}

func TestMoreForms(t *testing.T) {
	run(t, "en", []tc{
		{"The deadline was past Friday.", "2026-03-04", "2026-02-27", GrainDay},
		{"I was ill the past week.", "2026-03-04", "", ""}, // the past week: a duration
		{"I was ill past week.", "2026-03-04", "2026-02-23", GrainWeek},
		{"I'm moving in Jan", "2025-11-22", "2026-01-01", GrainMonth},
		{"We moved 2024 Aug", "2026-03-04", "2024-08-01", GrainMonth},
		{"We moved 2024-August", "2026-03-04", "2024-08-01", GrainMonth},
		{"Signed 09/JAN/2017", "2026-03-04", "2017-01-09", GrainDay},
		{"Paid 05-25-2015", "2026-03-04", "2015-05-25", GrainDay},
		{"I'll retire after a year", "2026-03-04", "2027-03-04", GrainDay},
		{"After two years at Google I left.", "2026-03-04", "", ""},
		{"I'll call you next day", "2026-03-04", "2026-03-05", GrainDay},
		{"My last day at work is near", "2026-03-04", "", ""},
		{"Next day we went to the beach", "2026-03-04", "", ""},
		{"I ran 20 last month", "2026-03-04", "2026-02-01", GrainMonth},
		{"I cut it by 2/3", "2026-03-04", "", ""},
		{"I got a gift from Jan", "2026-03-04", "", ""},
		{"The last 3 days of May were hot", "2026-03-04", "2025-05-01", GrainMonth},
		{"Pay it next weekday", "2026-03-06", "2026-03-09", GrainDay},
		{"It will arrive 3 wks later", "2026-03-04", "2026-03-25", GrainDay},
		{"It arrives 3w later", "2026-03-04", "2026-03-25", GrainDay},
		{"I work in 3D modelling", "2026-03-04", "", ""},
		{"I'm at 10.1 now", "2026-03-04", "", ""},
		{"It weighs 6.5 kilograms", "2026-03-04", "", ""},
		{"I start on 12/05", "2026-03-04", "2026-05-12", GrainDay},
		{"It was 2 months before 02/02", "2026-03-04", "2025-12-02", GrainDay},
	})
	run(t, "ru", []tc{
		{"Переезжаю в янв", "2025-11-22", "2026-01-01", GrainMonth},
		{"Выхожу на работу с 12.05", "2026-03-04", "2026-05-12", GrainDay},
		{"Встреча в 10.12", "2026-03-04", "", ""},
	})
}

func TestModifiers(t *testing.T) {
	run(t, "en", []tc{
		{"The party is on the last friday of october", "2026-03-04", "2026-10-30", GrainDay},
		{"We met on the last Friday of October 2024", "2026-03-04", "2024-10-25", GrainDay},
		{"Rent is due the first Monday of the month", "2026-03-04", "2026-03-02", GrainDay},
		{"I start on the first Monday of next month", "2026-03-04", "2026-04-06", GrainDay},
		{"The second Tuesday in May I fly out", "2026-03-04", "2026-05-12", GrainDay},
		{"I'm moving on 20 of next month", "2026-03-04", "2026-04-20", GrainDay},
		{"We open March in 1 year", "2026-03-04", "2027-03-01", GrainMonth},
		{"I'll see her friday after next", "2026-03-04", "2026-03-13", GrainDay},
		{"Last week's Sunday I ran a marathon", "2026-03-04", "2026-03-01", GrainDay},
		{"Friday after next week we go", "2026-03-04", "2026-03-20", GrainDay}, // the week after next
	})
	run(t, "ru", []tc{
		{"В последнюю пятницу октября будет праздник", "2026-03-04", "2026-10-30", GrainDay},
		{"В первый понедельник следующего месяца выхожу", "2026-03-04", "2026-04-06", GrainDay},
		{"Переезжаю 20 числа следующего месяца", "2026-03-04", "2026-04-20", GrainDay},
		{"Откроемся в марте через год", "2026-03-04", "2027-03-01", GrainMonth},
	})
}

// TestLaterStatement: of expressions in separate statements, the latest
// change dates the fact; a range and one clause keep the first.
func TestLaterStatement(t *testing.T) {
	run(t, "en", []tc{
		{"Last week I was still at the old office; today I started at the new one.", "2026-03-04", "2026-03-04", GrainDay},
		{"Yesterday I quit. Next month I move to Berlin.", "2026-03-04", "2026-04-01", GrainMonth},
		{"Next Friday I'm off to Dublin for the weekend.", "2026-03-04", "2026-03-06", GrainDay},
		{"We were away 10 August - 12 September.", "2026-03-04", "2025-08-10", GrainDay},
		{"I renewed my passport last year, it's now valid until 2036.", "2026-03-04", "2025-01-01", GrainYear},
		{"Today I found the letter I wrote last year.", "2026-03-04", "2026-03-04", GrainDay},
		{"I started at Google in 2019, and my sister was born in 2021.", "2026-03-04", "2019-01-01", GrainYear}, // another person's news
		{"I paid on Monday; she pays tomorrow.", "2026-03-04", "2026-03-02", GrainDay},
	})
	run(t, "ru", []tc{
		{"Вчера я уволилась, а завтра выхожу на новую работу.", "2026-03-04", "2026-03-05", GrainDay},
		{"На прошлой неделе я болел; сегодня я вышел на работу.", "2026-03-04", "2026-03-04", GrainDay},
	})
}
