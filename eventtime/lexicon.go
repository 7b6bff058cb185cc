package eventtime

import (
	"strings"
	"time"
)

// unit is a length of time in an offset ("three weeks ago").
type unit uint8

const (
	uNone unit = iota
	uMinute
	uHour
	uDay
	uWeek
	uFortnight
	uMonth
	uYear
	uDecade
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var enMonths = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
	"july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
}

// enMonthAbbr are used only next to a day number or a year.
var enMonthAbbr = map[string]time.Month{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
	"sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

// ruMonths holds every case form of the Russian month names.
var ruMonths = func() map[string]time.Month {
	m := map[string]time.Month{}
	// stem, nominative ending: январ-ь, март-, ма-й
	type st struct{ stem, nom string }
	soft := []st{{"январ", "ь"}, {"феврал", "ь"}, {"апрел", "ь"}, {"июн", "ь"}, {"июл", "ь"},
		{"сентябр", "ь"}, {"октябр", "ь"}, {"ноябр", "ь"}, {"декабр", "ь"}}
	num := map[string]time.Month{"январ": 1, "феврал": 2, "апрел": 4, "июн": 6, "июл": 7,
		"сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12}
	for _, s := range soft {
		for _, e := range []string{"ь", "я", "е", "ю", "ем"} {
			m[s.stem+e] = num[s.stem]
		}
	}
	for _, e := range []string{"", "а", "е", "у", "ом"} {
		m["март"+e] = 3
		m["август"+e] = 8
	}
	for _, w := range []string{"май", "мая", "мае", "маю", "маем"} {
		m[w] = 5
	}
	return m
}()

var enWeekdays = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday,
}

var ruWeekdays = func() map[string]time.Weekday {
	m := map[string]time.Weekday{}
	for _, e := range []string{"", "а", "у", "ом"} {
		m["понедельник"+e] = time.Monday
		m["вторник"+e] = time.Tuesday
		m["четверг"+e] = time.Thursday
	}
	for _, e := range []string{"а", "у", "ы", "е", "ой"} {
		m["сред"+e] = time.Wednesday
		m["суббот"+e] = time.Saturday
	}
	for _, e := range []string{"а", "у", "ы", "е", "ей"} {
		m["пятниц"+e] = time.Friday
	}
	for _, e := range []string{"е", "я", "ю", "ем"} {
		m["воскресень"+e] = time.Sunday
	}
	return m
}()

// seasons: 0 spring, 1 summer, 2 autumn, 3 winter.
var enSeasons = map[string]int{"spring": 0, "summer": 1, "autumn": 2, "fall": 2, "winter": 3}

var ruSeasons = map[string]int{
	"весна": 0, "весной": 0, "весною": 0, "весну": 0, "весны": 0, "весне": 0,
	"лето": 1, "летом": 1, "лета": 1, "лету": 1, "лете": 1,
	"осень": 2, "осенью": 2, "осени": 2,
	"зима": 3, "зимой": 3, "зимою": 3, "зиму": 3, "зимы": 3, "зиме": 3,
}

// ruSeasonInstr are the forms that alone say "in that season" (весной).
var ruSeasonInstr = set("весной", "весною", "летом", "осенью", "зимой", "зимою")

var enNumbers = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
	"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
	"eighty": 80, "ninety": 90,
}

var enOrdinals = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
	"fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
	"nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}

var ruNumbers = func() map[string]int {
	m := map[string]int{}
	add := func(v int, ws ...string) {
		for _, w := range ws {
			m[w] = v
		}
	}
	add(1, "один", "одна", "одну", "одного", "одной", "одном", "одно")
	add(2, "два", "две", "двух", "двум", "двумя", "двое", "двоих")
	add(3, "три", "трех", "трем", "тремя", "трое", "троих")
	add(4, "четыре", "четырех", "четырем", "четырьмя", "четверо", "четверых")
	add(5, "пять", "пяти", "пятеро")
	add(6, "шесть", "шести", "шестеро")
	add(7, "семь", "семи", "семеро")
	add(8, "восемь", "восьми")
	add(9, "девять", "девяти")
	add(10, "десять", "десяти")
	add(11, "одиннадцать", "одиннадцати")
	add(12, "двенадцать", "двенадцати")
	add(13, "тринадцать", "тринадцати")
	add(14, "четырнадцать", "четырнадцати")
	add(15, "пятнадцать", "пятнадцати")
	add(16, "шестнадцать", "шестнадцати")
	add(17, "семнадцать", "семнадцати")
	add(18, "восемнадцать", "восемнадцати")
	add(19, "девятнадцать", "девятнадцати")
	add(20, "двадцать", "двадцати")
	add(30, "тридцать", "тридцати")
	add(40, "сорок", "сорока")
	add(50, "пятьдесят", "пятидесяти")
	add(60, "шестьдесят", "шестидесяти")
	add(70, "семьдесят", "семидесяти")
	add(80, "восемьдесят", "восьмидесяти")
	add(90, "девяносто", "девяноста")
	return m
}()

// ruOrdinals holds the day ordinals in the forms a date takes: пятого
// (genitive), пятое (nominative/accusative), пятому (dative).
var ruOrdinals = func() map[string]int {
	m := map[string]int{}
	stems := map[string]int{
		"перв": 1, "втор": 2, "четверт": 4, "пят": 5, "шест": 6, "седьм": 7, "восьм": 8,
		"девят": 9, "десят": 10, "одиннадцат": 11, "двенадцат": 12, "тринадцат": 13,
		"четырнадцат": 14, "пятнадцат": 15, "шестнадцат": 16, "семнадцат": 17,
		"восемнадцат": 18, "девятнадцат": 19, "двадцат": 20, "тридцат": 30,
	}
	for s, v := range stems {
		for _, e := range []string{"ого", "ое", "ому"} {
			m[s+e] = v
		}
	}
	for _, w := range []string{"третьего", "третье", "третьему"} {
		m[w] = 3
	}
	return m
}()

// enUnits and ruUnits name the units of an offset.
var enUnits = map[string]unit{
	"minute": uMinute, "minutes": uMinute, "hour": uHour, "hours": uHour,
	"day": uDay, "days": uDay, "week": uWeek, "weeks": uWeek,
	"fortnight": uFortnight, "fortnights": uFortnight,
	"month": uMonth, "months": uMonth, "year": uYear, "years": uYear,
	"decade": uDecade, "decades": uDecade,
}

var ruUnits = func() map[string]unit {
	m := map[string]unit{}
	add := func(u unit, ws ...string) {
		for _, w := range ws {
			m[w] = u
		}
	}
	add(uMinute, "минуту", "минуты", "минут", "минутку")
	add(uHour, "час", "часа", "часов", "часик")
	add(uDay, "день", "дня", "дней", "сутки", "суток", "денек", "денька")
	add(uWeek, "неделю", "недели", "недель", "неделя", "недельку", "недельки")
	add(uMonth, "месяц", "месяца", "месяцев", "месячишко")
	add(uYear, "год", "года", "лет", "годик", "годика")
	return m
}()

// relMod is the this/next/last of a relative expression.
type relMod int8

const (
	modNone relMod = iota
	modThis
	modNext
	modLast
	modBeforeLast
	modAfterNext
)

var ruThis = set("этот", "эта", "это", "эту", "этой", "этом", "этим", "этого", "эти", "этих", "этими", "этою")

// ruRel reads a Russian relative adjective in any case form.
func ruRel(w string) relMod {
	switch {
	case strings.HasPrefix(w, "позапрошл"):
		return modBeforeLast
	case strings.HasPrefix(w, "прошл"), strings.HasPrefix(w, "минувш"), strings.HasPrefix(w, "предыдущ"):
		return modLast
	case strings.HasPrefix(w, "следующ"), strings.HasPrefix(w, "будущ"), strings.HasPrefix(w, "ближайш"),
		strings.HasPrefix(w, "грядущ"), strings.HasPrefix(w, "наступающ"):
		return modNext
	case ruThis[w], strings.HasPrefix(w, "текущ"), strings.HasPrefix(w, "нынешн"):
		return modThis
	}
	return modNone
}

// Russian period nouns for relative expressions (на прошлой неделе).
var (
	ruWeekWords    = set("неделя", "недели", "неделе", "неделю", "неделей", "неделею")
	ruMonthWords   = set("месяц", "месяца", "месяце", "месяцу", "месяцем")
	ruYearWords    = set("год", "года", "году", "годом")
	ruWeekendWords = set("выходные", "выходных", "выходным", "выходными")
	ruNightWords   = set("ночь", "ночью", "ночи")
	ruDayPartWords = set("утро", "утром", "вечер", "вечером", "днем")
)

// ruUnitWords names the unit of each Russian period noun.
var ruUnitWords = func() map[string]string {
	m := map[string]string{}
	for unit, words := range map[string]map[string]bool{"week": ruWeekWords, "month": ruMonthWords, "year": ruYearWords} {
		for w := range words {
			m[w] = unit
		}
	}
	return m
}()

// words before an expression that mark where a period begins or ends
var (
	ruPreps     = set("в", "во", "с", "со", "к", "ко", "на", "до", "по", "после", "около", "перед", "между")
	enDateLead  = set("in", "since", "from", "during", "by", "until", "till", "til", "of", "after", "before", "throughout", "around", "through", "over", "starting", "beginning", "back", "early", "late", "mid", "on", "for", "at", "as", "between")
	enHabitual  = set("usually", "always", "often", "normally", "typically", "generally", "sometimes", "every", "each", "weekly", "monthly", "nightly", "daily", "yearly", "annually")
	ruHabitual  = set("обычно", "всегда", "часто", "иногда", "каждый", "каждую", "каждое", "каждой", "каждого", "каждом", "каждым", "ежегодно", "ежемесячно", "еженедельно", "ежедневно")
	ruEvery     = set("каждый", "каждую", "каждое", "каждой", "каждого", "каждом", "каждым", "каждые", "каждых")
	todPlural   = set("mornings", "evenings", "afternoons", "nights")
	enDayFollow = set("of", "and", "so", "but", "when", "then", "i", "we", "he", "she", "they", "it", "my", "our", "at", "in", "on", "to", "for", "because", "as", "which", "that", "morning", "evening", "afternoon", "night", "this", "next", "is", "was", "will", "i'll", "we'll", "i'm", "we're")
)
