package eventtime

import (
	"testing"
	"time"
)

type tc struct {
	text  string
	said  string // YYYY-MM-DD
	want  string // YYYY-MM-DD, "" when nothing should be found
	grain Grain
}

func day(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func run(t *testing.T, lang string, cases []tc) {
	t.Helper()
	for _, c := range cases {
		r := Parse(c.text, day(t, c.said), lang)
		if c.want == "" {
			if r.Found {
				t.Errorf("%q said %s: want nothing, got %s %s (%q)", c.text, c.said, r.Start.Format(time.DateOnly), r.Grain, r.Span)
			}
			continue
		}
		if !r.Found {
			t.Errorf("%q said %s: want %s %s, got nothing", c.text, c.said, c.want, c.grain)
			continue
		}
		if got := r.Start.Format(time.DateOnly); got != c.want || r.Grain != c.grain {
			t.Errorf("%q said %s: want %s %s, got %s %s (%q)", c.text, c.said, c.want, c.grain, got, r.Grain, r.Span)
		}
		if r.Start.Location() != time.UTC || r.Start.Hour() != 0 {
			t.Errorf("%q: start %v is not 00:00 UTC", c.text, r.Start)
		}
		if r.Lang != lang {
			t.Errorf("%q: lang %q, want %q", c.text, r.Lang, lang)
		}
	}
}

// Weekdays of the said dates used below: 2025-12-31 Wed, 2026-01-10 Sat,
// 2026-02-27 Fri, 2026-03-01 Sun, 2026-03-04 Wed, 2026-03-06 Fri,
// 2026-03-08 Sun, 2026-03-09 Mon, 2026-03-27 Fri, 2026-04-15 Wed.

func TestDeicticEN(t *testing.T) {
	run(t, "en", []tc{
		{"I fixed the boiler yesterday.", "2026-03-01", "2026-02-28", GrainDay},
		{"Yesterday's meeting went well, I got the job.", "2026-01-01", "2025-12-31", GrainDay},
		{"Tomorrow I start at the new gym.", "2025-12-31", "2026-01-01", GrainDay},
		{"I passed my exam today!", "2026-03-04", "2026-03-04", GrainDay},
		{"Tonight I'm cooking for my in-laws.", "2026-03-04", "2026-03-04", GrainDay},
		{"I had an interview the day before yesterday.", "2026-03-01", "2026-02-27", GrainDay},
		{"The day after tomorrow I'm moving out.", "2026-02-27", "2026-03-01", GrainDay},
		{"Last night my laptop died.", "2026-03-01", "2026-02-28", GrainDay},
		{"This morning I quit my job.", "2026-03-04", "2026-03-04", GrainDay},
	})
}

func TestOffsetsEN(t *testing.T) {
	run(t, "en", []tc{
		{"I moved to Paris three weeks ago.", "2026-03-04", "2026-02-11", GrainDay},
		{"Twenty-one days ago I stopped drinking.", "2026-03-04", "2026-02-11", GrainDay},
		{"I bought it a couple of days ago.", "2026-03-04", "2026-03-02", GrainDay},
		{"A few weeks ago I joined a choir.", "2026-03-04", "2026-02-11", GrainDay},
		{"I started the cello half a year ago.", "2026-03-04", "2025-09-04", GrainDay},
		{"I quit smoking a year and a half ago.", "2026-03-04", "2024-09-04", GrainDay},
		{"We split up two and a half years ago.", "2026-03-04", "2023-09-04", GrainDay},
		{"I got back from Rome 4 days ago.", "2026-03-01", "2026-02-25", GrainDay},
		{"A fortnight ago I changed banks.", "2026-03-04", "2026-02-18", GrainDay},
		{"A decade ago I lived in Rome.", "2026-07-01", "2016-07-01", GrainDay},
		{"I changed my number three months ago.", "2026-05-31", "2026-02-28", GrainDay},
		{"A year ago I quit my job.", "2024-02-29", "2023-02-28", GrainDay},
		{"A few weeks back I sold the car.", "2026-03-04", "2026-02-11", GrainDay},
		{"My new job starts in two weeks.", "2026-03-04", "2026-03-18", GrainDay},
		{"In a month my contract ends.", "2026-01-31", "2026-02-28", GrainDay},
		{"The package arrives in 3 days.", "2026-12-30", "2027-01-02", GrainDay},
		{"Two weeks from now I'll be in Lisbon.", "2026-03-04", "2026-03-18", GrainDay},
		{"In six months' time I finish the course.", "2026-03-04", "2026-09-04", GrainDay},
	})
}

func TestRelativePeriodsEN(t *testing.T) {
	run(t, "en", []tc{
		{"Next week I'm starting a new project.", "2026-03-08", "2026-03-09", GrainWeek},
		{"Next week I'm starting a new project.", "2026-12-29", "2027-01-04", GrainWeek},
		{"I went back to the gym last week.", "2026-03-09", "2026-03-02", GrainWeek},
		{"Last week I started a new medication.", "2026-01-02", "2025-12-22", GrainWeek},
		{"This week I'm covering for my manager.", "2026-03-04", "2026-03-02", GrainWeek},
		{"The week before last I was off sick.", "2026-03-04", "2026-02-16", GrainWeek},
		{"Last month I joined a running club.", "2026-01-10", "2025-12-01", GrainMonth},
		{"Next month we're adopting a dog.", "2026-12-10", "2027-01-01", GrainMonth},
		{"This month I'm not buying clothes.", "2026-03-04", "2026-03-01", GrainMonth},
		{"The month before last I changed jobs.", "2026-02-10", "2025-12-01", GrainMonth},
		{"Last year I started the saxophone.", "2026-03-04", "2025-01-01", GrainYear},
		{"Next year I want to run a marathon.", "2026-03-04", "2027-01-01", GrainYear},
		{"This year I finally saved properly.", "2026-03-04", "2026-01-01", GrainYear},
		{"The year before last we lived in Leeds.", "2026-03-04", "2024-01-01", GrainYear},
		{"From next week my yoga class moves.", "2026-03-04", "2026-03-09", GrainWeek},
		{"As of last week I've repaid Dad.", "2026-03-04", "2026-02-23", GrainWeek},
		{"Over the last month I have been tired.", "2026-03-04", "", ""},
		{"The following week I start.", "2026-03-04", "2026-03-09", GrainWeek},
	})
}

func TestWeekdaysEN(t *testing.T) {
	run(t, "en", []tc{
		{"I start at the new company on Monday.", "2026-03-09", "2026-03-16", GrainDay},
		{"I start at the new company on Monday.", "2026-03-04", "2026-03-09", GrainDay},
		{"Starting Monday I'll work from Manchester.", "2026-03-06", "2026-03-09", GrainDay},
		{"Next Friday I'm off to Dublin.", "2026-03-06", "2026-03-13", GrainDay},
		{"Next Wednesday I have an interview.", "2026-03-04", "2026-03-11", GrainDay},
		{"This Sunday is my last day at the old job.", "2026-03-04", "2026-03-08", GrainDay},
		{"Last Monday I got the keys.", "2026-03-09", "2026-03-02", GrainDay},
		{"Last Friday we got engaged!", "2026-03-04", "2026-02-27", GrainDay},
		{"On Saturday I ran my first 10K.", "2026-03-09", "2026-03-07", GrainDay},
		{"We moved the furniture in on Sunday.", "2026-03-04", "2026-03-01", GrainDay},
		{"From Tuesday the office opens at 8.", "2026-03-04", "2026-03-10", GrainDay},
		{"Since Tuesday I've been working from home.", "2026-03-04", "2026-03-03", GrainDay},
		{"As of Saturday, my partner has moved in.", "2026-03-09", "2026-03-07", GrainDay},
		{"This coming Monday I fly out.", "2026-03-04", "2026-03-09", GrainDay},
		{"This weekend we're painting the kitchen.", "2026-03-04", "2026-03-07", GrainDay},
		{"Last weekend we bought a sofa.", "2026-03-04", "2026-02-28", GrainDay},
		{"I'll have it done by Friday.", "2026-03-04", "2026-03-06", GrainDay},
		{"We meet on Wednesdays now.", "2026-03-04", "", ""},
		{"I now train on Monday evenings.", "2026-03-04", "", ""},
		{"I visit my gran every Sunday.", "2026-03-04", "", ""},
		{"We bought a sofa at the weekend.", "2026-03-04", "2026-02-28", GrainDay},
		{"Next week on Wednesday I have a test.", "2026-03-04", "2026-03-11", GrainDay},
		{"Monday, 5 May, I start.", "2026-03-04", "2026-05-05", GrainDay},
		{"I see her every other Wednesday.", "2026-03-04", "", ""},
	})
}

func TestMonthsAndDatesEN(t *testing.T) {
	run(t, "en", []tc{
		{"I'll travel to Peru in May.", "2026-03-04", "2026-05-01", GrainMonth},
		{"We moved here in May.", "2026-03-04", "2025-05-01", GrainMonth},
		{"We moved here in March.", "2026-03-04", "2026-03-01", GrainMonth},
		{"I left that job back in December.", "2026-01-15", "2025-12-01", GrainMonth},
		{"I've gone vegan since January.", "2026-03-04", "2026-01-01", GrainMonth},
		{"From June my rent goes up.", "2026-03-04", "2026-06-01", GrainMonth},
		{"Starting in November, my savings rise.", "2025-10-14", "2025-11-01", GrainMonth},
		{"Our band split up in February, so I don't play now.", "2026-03-04", "2026-02-01", GrainMonth},
		{"My sister is getting married in September.", "2026-10-04", "2027-09-01", GrainMonth},
		{"This December I'm going home.", "2026-03-04", "2026-12-01", GrainMonth},
		{"Next March I'm retiring.", "2026-03-04", "2027-03-01", GrainMonth},
		{"Last May I ran a half marathon.", "2026-05-20", "2025-05-01", GrainMonth},
		{"Last May I ran a half marathon.", "2026-06-20", "2026-05-01", GrainMonth},
		{"In May next year I'll finish.", "2025-11-11", "2026-05-01", GrainMonth},
		{"In May last year we moved.", "2026-03-04", "2025-05-01", GrainMonth},
		{"I started this job in October 2023.", "2026-03-04", "2023-10-01", GrainMonth},
		{"My exam is on 3 May.", "2026-03-04", "2026-05-03", GrainDay},
		{"I got married on May 3rd.", "2026-03-04", "2025-05-03", GrainDay},
		{"The gym opens on February 14th.", "2026-01-19", "2026-02-14", GrainDay},
		{"My lease ends on the 30th of September.", "2026-06-12", "2026-09-30", GrainDay},
		{"I stopped on the first of January.", "2026-02-05", "2026-01-01", GrainDay},
		{"On December 1st I switched insurers.", "2026-01-08", "2025-12-01", GrainDay},
		{"We married on 17 August 2022.", "2026-03-04", "2022-08-17", GrainDay},
		{"I've lived here since May 12, 2024.", "2026-03-04", "2024-05-12", GrainDay},
		{"On 2024-05-12 I moved in.", "2026-03-04", "2024-05-12", GrainDay},
		{"My rent is due on the 25th.", "2026-03-27", "2026-04-25", GrainDay},
		{"I moved out on the 3rd.", "2026-03-04", "2026-03-03", GrainDay},
		{"The tenant moves in on the 1st.", "2026-09-20", "2026-10-01", GrainDay},
		{"It's our 25th anniversary.", "2026-03-04", "", ""},
		{"I may come along.", "2026-03-04", "", ""},
		{"They march on the embassy.", "2026-03-04", "", ""},
		{"April called me yesterday.", "2026-03-04", "2026-03-03", GrainDay},
		{"The new gym opens on 31 February.", "2026-03-04", "", ""},
	})
}

func TestYearsSeasonsEN(t *testing.T) {
	run(t, "en", []tc{
		{"I've been a member since 2019.", "2026-03-04", "2019-01-01", GrainYear},
		{"I got my first tattoo in 2018.", "2026-03-04", "2018-01-01", GrainYear},
		{"I'll earn more from 2027.", "2026-03-04", "2027-01-01", GrainYear},
		{"My passport is valid until 2036.", "2026-03-04", "", ""},
		{"My dad raced bikes in the 80s.", "2026-03-04", "", ""},
		{"My grandfather was born in 1850.", "2026-03-04", "", ""},
		{"We met in the summer of 2023.", "2026-03-04", "2023-06-01", GrainSeason},
		{"We moved in the spring of 2022.", "2026-03-04", "2022-03-01", GrainSeason},
		{"Last spring I started volunteering.", "2026-08-20", "2026-03-01", GrainSeason},
		{"Last spring we renovated.", "2026-04-15", "2025-03-01", GrainSeason},
		{"Last winter I broke my wrist.", "2026-01-10", "2024-12-01", GrainSeason},
		{"Last winter I broke my wrist.", "2026-03-20", "2025-12-01", GrainSeason},
		{"This spring my parents moved to Spain.", "2026-07-14", "2026-03-01", GrainSeason},
		{"This winter I'm learning to ski.", "2026-11-02", "2026-12-01", GrainSeason},
		{"Next winter I'll go to Norway.", "2026-01-10", "2026-12-01", GrainSeason},
		{"Next autumn I'm starting a PhD.", "2026-10-04", "2027-09-01", GrainSeason},
		{"Since last summer I cycle to work.", "2026-03-04", "2025-06-01", GrainSeason},
		{"We got married in the autumn.", "2026-03-04", "2025-09-01", GrainSeason},
		{"I left the project back in spring.", "2026-09-15", "2026-03-01", GrainSeason},
		{"I feed the birds every winter.", "2026-03-04", "", ""},
		{"Summer is my favourite season.", "2026-03-04", "", ""},
	})
}

func TestStartMiddleEndEN(t *testing.T) {
	run(t, "en", []tc{
		{"We got the keys at the beginning of May.", "2026-07-09", "2026-05-01", GrainMonth},
		{"I quit smoking in early February.", "2027-05-02", "2027-02-01", GrainMonth},
		{"I moved in late May.", "2026-03-04", "2025-05-01", GrainMonth},
		{"I'm moving at the end of the month.", "2026-03-04", "2026-03-01", GrainMonth},
		{"At the end of next month I'm leaving.", "2026-03-04", "2026-04-01", GrainMonth},
		{"At the end of last year I got a new passport.", "2026-03-04", "2025-12-01", GrainMonth},
		{"We'll go in the middle of the summer.", "2026-03-04", "2026-07-01", GrainMonth},
		{"The firm was sold in mid-2023.", "2026-03-04", "2023-07-01", GrainMonth},
		{"Since the start of the year I've been running.", "2026-03-04", "2026-01-01", GrainMonth},
		{"Early next year I'll switch teams.", "2026-03-04", "2027-01-01", GrainMonth},
		{"I changed jobs late last year.", "2026-03-04", "2025-12-01", GrainMonth},
		{"I started in early spring.", "2026-08-04", "2026-03-01", GrainMonth},
		{"No calls early in the morning, please.", "2026-03-04", "", ""},
		{"Since New Year I've been running every day.", "2026-03-04", "2026-01-01", GrainDay},
		{"At Christmas we're going to Vienna.", "2026-03-04", "2026-12-25", GrainDay},
	})
}

func TestSelectionAndNullsEN(t *testing.T) {
	run(t, "en", []tc{
		{"I moved to Paris three weeks ago; my lease runs until May.", "2026-03-04", "2026-02-11", GrainDay},
		{"I renewed my passport last year, it's valid until 2036.", "2026-03-04", "2025-01-01", GrainYear},
		{"Priya moved on, so since last week I report to Owen.", "2026-03-04", "2026-02-23", GrainWeek},
		{"I learned Spanish in three months.", "2026-03-04", "", ""},
		{"I have lived here for three weeks.", "2026-03-04", "", ""},
		{"Correction: I moved in May, not June.", "2026-03-04", "", ""},
		{"Sorry, I got that wrong: the dentist has me down for the 17th.", "2026-03-04", "", ""},
		{"I misspoke, my birthday is on 5 April.", "2026-03-04", "", ""},
		{"These days I prefer oat milk.", "2026-03-04", "", ""},
		{"I usually go skiing in February.", "2026-03-04", "", ""},
		{"My address is 1 Wellington Place, Leeds LS6 2DQ.", "2026-03-04", "", ""},
		{"I pay £39 a month, twice a year I get a refund.", "2026-03-04", "", ""},
		{"I work 40 hours a week.", "2026-03-04", "", ""},
		{"I live on the 3rd floor.", "2026-03-04", "", ""},
		{"The 1990s were fun.", "2026-03-04", "", ""},
		{"As of June I'm self-employed.", "2026-07-01", "2026-06-01", GrainMonth},
		{"", "2026-03-04", "", ""},
	})
}

func TestDeicticRU(t *testing.T) {
	run(t, "ru", []tc{
		{"Вчера я сдала годовой отчёт.", "2026-03-01", "2026-02-28", GrainDay},
		{"Вчера мне одобрили ипотеку.", "2027-01-01", "2026-12-31", GrainDay},
		{"Позавчера я подвернула ногу.", "2026-03-01", "2026-02-27", GrainDay},
		{"Сегодня утром получила права!", "2026-03-04", "2026-03-04", GrainDay},
		{"Завтра выхожу на новую работу.", "2025-12-31", "2026-01-01", GrainDay},
		{"Послезавтра переезжаем.", "2026-02-27", "2026-03-01", GrainDay},
		{"Со вчерашнего дня я на больничном.", "2026-03-04", "2026-03-03", GrainDay},
		{"Прошлой ночью у нас отключили свет.", "2026-03-04", "2026-03-03", GrainDay},
	})
}

func TestOffsetsRU(t *testing.T) {
	run(t, "ru", []tc{
		{"Три недели назад я переехала.", "2026-03-04", "2026-02-11", GrainDay},
		{"Двадцать один день назад я бросила курить.", "2026-03-04", "2026-02-11", GrainDay},
		{"Пару дней назад купила ноутбук.", "2026-03-04", "2026-03-02", GrainDay},
		{"Несколько недель назад записалась в бассейн.", "2026-03-04", "2026-02-11", GrainDay},
		{"Неделю назад я вышла из декрета.", "2026-03-04", "2026-02-25", GrainDay},
		{"Месяц назад я поменяла работу.", "2026-03-31", "2026-02-28", GrainDay},
		{"Три месяца назад мы расстались.", "2026-05-31", "2026-02-28", GrainDay},
		{"Полгода назад начала учить корейский.", "2026-03-04", "2025-09-04", GrainDay},
		{"Полтора года назад мы переехали.", "2026-03-04", "2024-09-04", GrainDay},
		{"Год назад я уволилась из банка.", "2026-03-04", "2025-03-04", GrainDay},
		{"5 лет назад я переехала в Москву.", "2026-03-04", "2021-03-04", GrainDay},
		{"Два года тому назад мы поженились.", "2026-03-04", "2024-03-04", GrainDay},
		{"Дня три назад сломался телефон.", "2026-03-04", "2026-03-01", GrainDay},
		{"Три с половиной года назад я переехала.", "2026-03-04", "2022-09-04", GrainDay},
		{"Двое суток назад отключили воду.", "2026-07-01", "2026-06-29", GrainDay},
		{"Лет пять назад я жила в Питере.", "2026-07-01", "2021-07-01", GrainDay},
		{"Через три дня у меня операция.", "2026-02-26", "2026-03-01", GrainDay},
		{"Через неделю выхожу на работу.", "2025-12-29", "2026-01-05", GrainDay},
		{"Через пару недель уезжаю.", "2026-03-04", "2026-03-18", GrainDay},
		{"Через месяц заканчивается аренда.", "2026-01-31", "2026-02-28", GrainDay},
		{"Через полгода у нас свадьба.", "2026-03-04", "2026-09-04", GrainDay},
		{"Через два месяца переезжаем.", "2026-03-04", "2026-05-04", GrainDay},
		{"Я работаю тут уже три недели.", "2026-03-04", "", ""},
		{"Раз в две недели у меня встреча.", "2026-03-04", "", ""},
	})
}

func TestRelativePeriodsRU(t *testing.T) {
	run(t, "ru", []tc{
		{"На следующей неделе начинается ремонт.", "2026-03-08", "2026-03-09", GrainWeek},
		{"На следующей неделе начинается ремонт.", "2027-12-30", "2028-01-03", GrainWeek},
		{"На прошлой неделе я сменила оператора.", "2026-03-09", "2026-03-02", GrainWeek},
		{"На этой неделе я на больничном.", "2026-03-04", "2026-03-02", GrainWeek},
		{"На позапрошлой неделе я болела.", "2026-03-04", "2026-02-16", GrainWeek},
		{"Со следующей недели занятия переносятся.", "2026-03-04", "2026-03-09", GrainWeek},
		{"С прошлой недели стоит новый монитор.", "2026-03-04", "2026-02-23", GrainWeek},
		{"В прошлом месяце мы купили машину.", "2026-01-10", "2025-12-01", GrainMonth},
		{"В следующем месяце переходим на новую систему.", "2026-12-10", "2027-01-01", GrainMonth},
		{"С этого месяца работаю удалённо.", "2026-03-04", "2026-03-01", GrainMonth},
		{"Со следующего месяца перехожу на полставки.", "2026-12-03", "2027-01-01", GrainMonth},
		{"В прошлом году мы сделали ремонт.", "2026-03-04", "2025-01-01", GrainYear},
		{"В следующем году хочу сменить работу.", "2026-03-04", "2027-01-01", GrainYear},
		{"В этом году я начала откладывать.", "2026-03-04", "2026-01-01", GrainYear},
		{"В позапрошлом году мы жили в Казани.", "2026-03-04", "2024-01-01", GrainYear},
		{"С прошлого года живу без машины.", "2026-03-04", "2025-01-01", GrainYear},
		{"В будущем году поступаю в магистратуру.", "2026-03-04", "2027-01-01", GrainYear},
	})
}

func TestWeekdaysRU(t *testing.T) {
	run(t, "ru", []tc{
		{"С понедельника перехожу в отдел продаж.", "2026-03-04", "2026-03-09", GrainDay},
		{"С понедельника перехожу в отдел продаж.", "2026-03-09", "2026-03-16", GrainDay},
		{"С понедельника выхожу на работу, из старой фирмы уже уволилась.", "2026-03-04", "2026-03-09", GrainDay},
		{"В понедельник выхожу на работу.", "2026-03-06", "2026-03-09", GrainDay},
		{"Во вторник у меня приём у врача.", "2026-03-04", "2026-03-10", GrainDay},
		{"Во вторник была встреча с начальником.", "2026-03-04", "2026-03-03", GrainDay},
		{"Со среды начинаю ходить в бассейн.", "2026-03-04", "2026-03-11", GrainDay},
		{"В следующую пятницу у мужа день рождения.", "2026-03-06", "2026-03-13", GrainDay},
		{"В следующий вторник начинаются занятия.", "2026-03-09", "2026-03-10", GrainDay},
		{"В эту субботу идём на свадьбу.", "2026-03-04", "2026-03-07", GrainDay},
		{"В это воскресенье едем на дачу.", "2026-03-04", "2026-03-08", GrainDay},
		{"В прошлую пятницу мы забрали ключи.", "2026-03-04", "2026-02-27", GrainDay},
		{"В прошлый понедельник мне сняли швы.", "2026-03-09", "2026-03-02", GrainDay},
		{"В субботу мы забрали щенка.", "2026-03-09", "2026-03-07", GrainDay},
		{"В воскресенье я переехала к родителям.", "2026-03-04", "2026-03-01", GrainDay},
		{"В эти выходные красим кухню.", "2026-03-04", "2026-03-07", GrainDay},
		{"На выходных мы переехали.", "2026-03-04", "2026-02-28", GrainDay},
		{"В среду на следующей неделе у меня экзамен.", "2026-03-04", "2026-03-11", GrainDay},
		{"В пятницу, 13-го, мы расписались.", "2026-03-20", "2026-03-13", GrainDay},
		{"На прошлых выходных купили диван.", "2026-03-04", "2026-02-28", GrainDay},
		{"К пятнице всё будет готово.", "2026-03-04", "2026-03-06", GrainDay},
		{"Каждую субботу хожу в бассейн.", "2026-03-04", "", ""},
		{"Отчёт сдаю по пятницам.", "2026-03-04", "", ""},
		{"Встречи перенесли на утро четверга.", "2026-03-04", "", ""},
	})
}

func TestMonthsAndDatesRU(t *testing.T) {
	run(t, "ru", []tc{
		{"В мае поеду в Крым.", "2026-03-04", "2026-05-01", GrainMonth},
		{"В мае мы переехали.", "2026-03-04", "2025-05-01", GrainMonth},
		{"В ноябре я начала ходить к психологу.", "2026-04-06", "2025-11-01", GrainMonth},
		{"В январе меня переводят в другой отдел.", "2026-10-21", "2027-01-01", GrainMonth},
		{"С января я не курю.", "2026-03-04", "2026-01-01", GrainMonth},
		{"С июня буду работать удалённо.", "2026-03-04", "2026-06-01", GrainMonth},
		{"С февраля сахар исключила полностью.", "2026-05-27", "2026-02-01", GrainMonth},
		{"С марта хозяйка поднимает плату.", "2026-01-21", "2026-03-01", GrainMonth},
		{"В октябре 2023 года я устроилась на работу.", "2026-03-04", "2023-10-01", GrainMonth},
		{"В марте 2024 года мы поженились.", "2026-03-04", "2024-03-01", GrainMonth},
		{"В мае следующего года я защищаюсь.", "2026-03-04", "2027-05-01", GrainMonth},
		{"3 мая у меня экзамен.", "2026-03-04", "2026-05-03", GrainDay},
		{"3 мая 2024 года я переехала.", "2026-03-04", "2024-05-03", GrainDay},
		{"12 мая 2024 г. мы подали заявление.", "2026-03-04", "2024-05-12", GrainDay},
		{"Третьего мая я уволилась.", "2026-03-04", "2025-05-03", GrainDay},
		{"Пятого марта я вышла на новую работу.", "2026-08-20", "2026-03-05", GrainDay},
		{"Двадцатого декабря я уволилась.", "2026-01-22", "2025-12-20", GrainDay},
		{"Восьмого июля мы переезжаем в Казань.", "2026-06-03", "2026-07-08", GrainDay},
		{"С 1 сентября сын идёт в первый класс.", "2027-06-16", "2027-09-01", GrainDay},
		{"С 3-го мая работаю в новом офисе.", "2026-05-20", "2026-05-03", GrainDay},
		{"Зарплата придёт 25-го числа.", "2026-03-27", "2026-04-25", GrainDay},
		{"Я переехала 1-го.", "2026-03-04", "2026-03-01", GrainDay},
		{"Третьего числа я сдала машину в ремонт.", "2027-04-11", "2027-04-03", GrainDay},
		{"Двадцать пятого числа у меня вылет.", "2026-11-26", "2026-12-25", GrainDay},
		{"12.05.2024 я переехала.", "2026-03-04", "2024-05-12", GrainDay},
		{"Каждый октябрь у меня продление ОСАГО.", "2026-03-04", "", ""},
		{"Встаю теперь в половине восьмого.", "2026-03-04", "", ""},
		{"Мой любимый месяц — май.", "2026-03-04", "", ""},
	})
}

func TestYearsSeasonsRU(t *testing.T) {
	run(t, "ru", []tc{
		{"С 2019 года я не ем мясо.", "2026-03-04", "2019-01-01", GrainYear},
		{"В 2023 году я получила права.", "2026-03-04", "2023-01-01", GrainYear},
		{"В 2021-м мы переехали.", "2026-03-04", "2021-01-01", GrainYear},
		{"Виза действует до 2028-го.", "2026-03-04", "", ""},
		{"В 1850 году построили дом.", "2026-03-04", "", ""},
		{"Летом 2023 года мы ездили на Байкал.", "2026-03-04", "2023-06-01", GrainSeason},
		{"Летом прошлого года я работала в кафе.", "2026-03-04", "2025-06-01", GrainSeason},
		{"В прошлом году летом мы купили дачу.", "2026-03-04", "2025-06-01", GrainSeason},
		{"Прошлой весной я записалась в хор.", "2026-08-20", "2026-03-01", GrainSeason},
		{"Прошлой весной мы ездили в Казань.", "2026-04-15", "2025-03-01", GrainSeason},
		{"Прошлым летом я подрабатывала официанткой.", "2025-12-08", "2025-06-01", GrainSeason},
		{"Прошлой зимой я сломала руку.", "2026-01-10", "2024-12-01", GrainSeason},
		{"Этой весной мы развелись.", "2026-07-08", "2026-03-01", GrainSeason},
		{"Этим летом я научилась плавать.", "2025-08-28", "2025-06-01", GrainSeason},
		{"Этой зимой хочу встать на сноуборд.", "2026-10-19", "2026-12-01", GrainSeason},
		{"Следующей зимой поедем в горы.", "2026-01-10", "2026-12-01", GrainSeason},
		{"Следующей осенью поступаю в магистратуру.", "2027-10-05", "2028-09-01", GrainSeason},
		{"Весной мы переехали в новую квартиру.", "2025-10-22", "2025-03-01", GrainSeason},
		{"Осенью мы поженились.", "2026-03-04", "2025-09-01", GrainSeason},
		{"С осени хожу на танцы.", "2027-01-18", "2026-09-01", GrainSeason},
		{"С прошлой осени не играю в волейбол.", "2026-03-04", "2025-09-01", GrainSeason},
		{"Наш ансамбль распался ещё зимой.", "2026-05-11", "2025-12-01", GrainSeason},
		{"Сейчас мне милее весна.", "2026-03-04", "", ""},
		{"Зимние колёса храню в гараже.", "2026-03-04", "", ""},
	})
}

func TestStartMiddleEndRU(t *testing.T) {
	run(t, "ru", []tc{
		{"В начале мая мы переехали в Екатеринбург.", "2026-07-14", "2026-05-01", GrainMonth},
		{"В начале мая мы переехали в Екатеринбург.", "2026-03-04", "2025-05-01", GrainMonth},
		{"В конце месяца переезжаю.", "2026-03-04", "2026-03-01", GrainMonth},
		{"В конце следующего месяца уезжаю.", "2026-03-04", "2026-04-01", GrainMonth},
		{"В конце прошлого года я сделала операцию.", "2026-03-04", "2025-12-01", GrainMonth},
		{"В начале года я сменила работу.", "2026-03-04", "2026-01-01", GrainMonth},
		{"В начале следующего года переезжаем.", "2026-03-04", "2027-01-01", GrainMonth},
		{"В середине лета поедем к морю.", "2026-03-04", "2026-07-01", GrainMonth},
		{"В конце марта у меня отпуск.", "2026-01-04", "2026-03-01", GrainMonth},
		{"С начала года я бегаю.", "2026-03-04", "2026-01-01", GrainMonth},
		{"Ранней весной мы переехали.", "2026-08-04", "2026-03-01", GrainMonth},
		{"Поздней осенью я уволилась.", "2026-03-04", "2025-11-01", GrainMonth},
		{"В первых числах мая мы переехали.", "2026-06-10", "2026-05-01", GrainMonth},
		{"С Нового года у меня сухой закон.", "2026-02-11", "2026-01-01", GrainDay},
		{"В середине дня ем салат.", "2026-03-04", "", ""},
	})
}

func TestSelectionAndNullsRU(t *testing.T) {
	run(t, "ru", []tc{
		{"Две недели назад я переехала, а договор до мая.", "2026-03-04", "2026-02-18", GrainDay},
		{"Со следующей недели занятия переносятся на субботу.", "2026-04-29", "2026-05-04", GrainWeek},
		{"Здесь нет никакой даты.", "2026-03-04", "", ""},
		{"Поправка: я переехала в мае, а не в июне.", "2026-03-04", "", ""},
		{"Я ошиблась: день рождения у меня 15 февраля.", "2026-03-04", "", ""},
		{"Я перепутала: у Кати день рождения 13 апреля, а не 3-го.", "2026-03-04", "", ""},
		{"Недавно переехала в Новосибирск.", "2026-03-04", "", ""},
		{"Обычно летом я езжу на дачу.", "2026-03-04", "", ""},
		{"Рабочий адрес: улица Малышева, 51, офис 1204.", "2026-03-04", "", ""},
		{"Поправлюсь: я выше, во мне сто семьдесят два.", "2026-03-04", "", ""},
		{"Мне 35 лет.", "2026-03-04", "", ""},
		{"Я работаю 5 дней в неделю.", "2026-03-04", "", ""},
		{"Встреча в 9 утра.", "2026-03-04", "", ""},
		{"Мы женаты уже пять лет.", "2026-03-04", "", ""},
	})
}

func TestDetectLanguage(t *testing.T) {
	said := day(t, "2026-03-04")
	if r := Parse("Вчера я переехала.", said, ""); r.Lang != "ru" || !r.Found || r.Start.Format(time.DateOnly) != "2026-03-03" {
		t.Errorf("ru detection: %+v", r)
	}
	if r := Parse("Yesterday I moved.", said, ""); r.Lang != "en" || !r.Found {
		t.Errorf("en detection: %+v", r)
	}
	if r := Parse("I moved three weeks ago.", said, "en"); r.Span != "three weeks ago" {
		t.Errorf("span %q, want %q", r.Span, "three weeks ago")
	}
	if r := Parse("С 2019 года живу здесь.", said, "ru"); r.Span != "С 2019 года" {
		t.Errorf("span %q, want %q", r.Span, "С 2019 года")
	}
}

func TestBounds(t *testing.T) {
	said := day(t, "2026-03-04")
	for _, s := range []string{"in 1899", "since 2201", "10000 years ago", "in 99999 days", "с 1800 года"} {
		if r := Parse(s, said, ""); r.Found {
			t.Errorf("%q: want nothing, got %v", s, r.Start)
		}
	}
	// only the first 2,000 runes are read
	long := make([]byte, 0, 5000)
	for len(long) < 4000 {
		long = append(long, "blah "...)
	}
	if r := Parse(string(long)+"yesterday", said, "en"); r.Found {
		t.Errorf("read past the bound: %+v", r)
	}
	// a said date out of range gives nothing
	if r := Parse("yesterday", day(t, "1700-01-01"), "en"); r.Found {
		t.Errorf("said in 1700: %+v", r)
	}
}
