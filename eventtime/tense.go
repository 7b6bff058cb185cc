package eventtime

import "strings"

// tense is what the verbs around an expression say of its time.
type tense uint8

const (
	tenseNone tense = iota
	tensePast
	tenseFuture  // will, going to, be + -ing, буду: the time is to come
	tensePresent // is, are: weak evidence the time is not past
)

// token-level tense marks, combined per clause
const (
	markPresent = 1 << iota // is, are, am: weak evidence the time is not past
	markPast
	markFuture // will, going to, be + -ing, буду, хочу: strong
)

var enPast = set(
	"was", "were", "had", "did", "didn't", "wasn't", "weren't", "hadn't", "went", "came", "got", "left",
	"began", "bought", "brought", "broke", "built", "caught", "chose", "drove", "drew", "ate", "fell",
	"felt", "fought", "found", "flew", "forgot", "gave", "grew", "heard", "held", "hid", "kept", "knew",
	"laid", "led", "lent", "lost", "made", "meant", "met", "paid", "ran", "rang", "rode", "rose", "said",
	"sat", "saw", "sent", "shook", "shot", "sold", "slept", "spent", "spoke", "stood", "stole", "struck",
	"swam", "swore", "taught", "thought", "threw", "told", "took", "understood", "woke", "won", "wore",
	"wrote", "became", "hung", "fed", "fled", "dug", "sang", "sank", "stuck", "bit", "bent", "dealt",
	"been", "gone", "done", "seen", "taken", "given", "eaten", "written", "begun", "known", "grown",
	"thrown", "driven", "flown", "broken", "chosen", "spoken", "stolen", "fallen", "forgotten", "gotten",
	"worn", "ridden", "risen", "shaken", "woken", "hidden", "swum", "sung", "drunk", "ago", "used",
)

// -ed words that are not past forms, or not past in meaning
var enNotPast = set(
	"need", "speed", "bed", "red", "shed", "feed", "seed", "weed", "bleed", "breed", "indeed",
	"hundred", "proceed", "succeed", "exceed", "greed", "deed", "steed", "tweed", "creed", "reed",
	"embed", "sled", "shred", "wed", "bred", "expected", "scheduled", "supposed", "planned", "booked",
	"based", "interested", "excited", "tired", "bored", "worried", "named", "called", "related",
	"required", "limited", "unlimited", "advanced", "detailed", "dedicated", "sacred", "naked",
	"wicked", "beloved", "ragged", "rugged", "crooked", "aged", "talented", "red-haired",
)

var enBe = set("am", "is", "are", "i'm", "we're", "you're", "they're", "it's", "he's", "she's", "that's", "there's", "be", "being", "isn't", "aren't")

var enFuture = set("will", "won't", "shall", "gonna", "plan", "plans", "planning", "intend", "intends",
	"want", "wants", "hope", "hoping", "due", "soon")

var ruFuture = set("буду", "будешь", "будет", "будем", "будете", "будут", "хочу", "хотим", "хочет",
	"хотят", "хочется", "планирую", "планируем", "планирует", "планируют", "собираюсь", "собираемся",
	"собирается", "собираются", "надеюсь", "надеемся", "начнется", "начнутся", "станет", "стану")

var ruPastShort = set("был", "была", "было", "были", "мог", "смог", "помог", "лег", "слег", "привык",
	"отвык", "исчез", "замерз", "умер", "умерла", "умерли", "умерло", "шел", "шла", "шли", "шло")

var ruNotPast = set("или", "мало", "мила", "мило", "дела", "дело", "тела", "тело", "сила",
	"начало", "стали", "могила", "акула", "шкала", "скала", "недели", "цели", "модели", "мебели",
	"постели", "детали", "педали", "дали", "бали", "чили", "числа", "села", "жила")

// nouns whose forms look like past verbs (канала, отдела)
var ruNounStems = []string{"канал", "журнал", "сериал", "материал", "вокзал", "финал", "персонал",
	"квартал", "идеал", "капитал", "сигнал", "скандал", "подвал", "портал", "бокал", "карнавал",
	"интервал", "генерал", "минерал", "арсенал", "отдел", "раздел", "предел", "пробел", "крокодил",
	"стул", "караул", "тыл", "зал", "урал", "байкал", "тагил", "автомобил", "профил", "стил"}

var ruNominalEndings = set("", "а", "у", "е", "ом", "ы", "и", "ов", "ам", "ами", "ах", "ей", "ю", "ем", "я", "ям", "ях", "ями")

// ruPastVerb says whether w looks like a Russian past-tense verb.
func ruPastVerb(w string, prevPrep bool) bool {
	if ruPastShort[w] {
		return true
	}
	if prevPrep || ruNotPast[w] {
		return false
	}
	rs := []rune(w)
	if len(rs) < 4 {
		return false
	}
	// strip the reflexive ending
	if n := len(rs); rs[n-1] == 'я' && rs[n-2] == 'с' || rs[n-1] == 'ь' && rs[n-2] == 'с' {
		rs = rs[:n-2]
	}
	n := len(rs)
	if n < 3 {
		return false
	}
	var before rune
	switch {
	case rs[n-1] == 'л':
		before = rs[n-2]
	case rs[n-2] == 'л' && (rs[n-1] == 'а' || rs[n-1] == 'о' || rs[n-1] == 'и'):
		before = rs[n-3]
	default:
		return false
	}
	if !strings.ContainsRune("аеиыуя", before) && !(before == 'ш' || before == 'г') {
		return false
	}
	s := string(rs)
	if strings.HasSuffix(s, "ители") || strings.HasSuffix(s, "атели") || strings.HasSuffix(s, "ятели") {
		return false
	}
	for _, st := range ruNounStems {
		if strings.HasPrefix(w, st) && ruNominalEndings[w[len(st):]] {
			return false
		}
	}
	return true
}

var ruPrepsAll = set("в", "во", "на", "с", "со", "к", "ко", "у", "о", "об", "от", "до", "из", "для",
	"без", "по", "при", "про", "за", "под", "над", "перед", "после", "через", "около")

// tenseMarks gives each token its tense marks.
func tenseMarks(t []token) []uint8 {
	m := make([]uint8, len(t))
	for i := range t {
		if t[i].kind != kWord || t[i].hyph || (i > 0 && t[i-1].hyph) {
			continue // part of a compound: fixed-term, well-known
		}
		w := t[i].w
		prev := ""
		if i > 0 && t[i-1].kind == kWord {
			prev = t[i-1].w
		}
		switch {
		case enFuture[w], strings.HasSuffix(w, "'ll"):
			m[i] |= markFuture
		case w == "going" && i+1 < len(t) && t[i+1].w == "to":
			m[i] |= markFuture
		case w == "about" && i+1 < len(t) && t[i+1].w == "to" && prev != "talk" && prev != "talked":
			m[i] |= markFuture
		case strings.HasSuffix(w, "ing") && len(w) > 4 && (enBe[prev] || prev == "not"):
			m[i] |= markFuture
		case enBe[w]:
			m[i] |= markPresent
		case enPast[w]:
			m[i] |= markPast
		case strings.HasSuffix(w, "ed") && len(w) >= 4 && isLatin(w) && !enNotPast[w] && !enBe[prev] &&
			prev != "get" && prev != "gets" && prev != "getting" && prev != "got":
			m[i] |= markPast
		case ruFuture[w]:
			m[i] |= markFuture
		case !isLatin(w) && ruPastVerb(w, ruPrepsAll[prev]):
			if t[i].cap && i > 0 && !sentenceStart(t, i) {
				break // a proper noun: Байкал, Урала
			}
			m[i] |= markPast
		}
	}
	return m
}

func isLatin(w string) bool {
	for _, r := range w {
		if r >= 'a' && r <= 'z' {
			return true
		}
		if r >= 0x400 && r <= 0x4ff {
			return false
		}
	}
	return false
}

func sentenceStart(t []token, i int) bool {
	for j := i - 1; j >= 0; j-- {
		if t[j].kind == kPunct {
			switch t[j].p {
			case '.', '!', '?', '\n', ':', ';', '—', '–', '«', '"', '(':
				return true
			}
			continue
		}
		return false
	}
	return true
}

func clauseBreak(r rune) bool {
	switch r {
	case '.', '!', '?', ';', ':', ',', '—', '–', '(', ')', '\n', '"', '«', '»', '“', '”':
		return true
	}
	return false
}

func sentenceBreak(r rune) bool {
	switch r {
	case '.', '!', '?', ';', '\n':
		return true
	}
	return false
}

// tenses answers the tense of the clause (else the sentence) around a token.
type tenses struct {
	clause, sentence []int   // id per token
	cm, sm           []uint8 // marks per id
}

func newTenses(t []token, marks []uint8) *tenses {
	ts := &tenses{clause: make([]int, len(t)), sentence: make([]int, len(t))}
	c, s := 0, 0
	ts.cm, ts.sm = []uint8{0}, []uint8{0}
	for i := range t {
		if t[i].kind == kPunct {
			// a dot inside a sentence-initial abbreviation is rare in chat; a
			// break ends the clause and maybe the sentence
			if clauseBreak(t[i].p) {
				c++
				ts.cm = append(ts.cm, 0)
			}
			if sentenceBreak(t[i].p) {
				s++
				ts.sm = append(ts.sm, 0)
			}
		}
		ts.clause[i], ts.sentence[i] = c, s
		ts.cm[c] |= marks[i]
		ts.sm[s] |= marks[i]
	}
	return ts
}

func decide(m uint8) tense {
	switch {
	case m&markFuture != 0:
		return tenseFuture
	case m&markPast != 0:
		return tensePast
	case m&markPresent != 0:
		return tensePresent
	}
	return tenseNone
}

// clauseAt is the tense of the clause alone.
func (ts *tenses) clauseAt(i int) tense {
	if i < 0 || i >= len(ts.clause) {
		return tenseNone
	}
	return decide(ts.cm[ts.clause[i]])
}

func (ts *tenses) at(i int) tense {
	if i < 0 || i >= len(ts.clause) {
		return tenseNone
	}
	if t := decide(ts.cm[ts.clause[i]]); t != tenseNone {
		return t
	}
	return decide(ts.sm[ts.sentence[i]])
}
