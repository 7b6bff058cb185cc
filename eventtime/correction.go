package eventtime

import "strings"

var enCorrection = set("correction", "misspoke", "miscounted", "misread", "mistyped", "misremembered",
	"misheard", "misstated", "misspelt", "misspelled")

var ruCorrectionPrefixes = []string{"поправк", "поправлю", "поправлюсь", "ошиблась", "ошибся", "ошиблись",
	"перепутал", "напутал", "оговорил", "неправильно", "неверно", "неточно", "обмолвил"}

// isCorrection says whether the text corrects something said before
// ("Correction: ...", "I misspoke", "I got that wrong", "Я ошиблась",
// "Поправка"). A correction restates what was always true: its dates are
// what the fact is about, not when it began.
func isCorrection(t []token) bool {
	for i := range t {
		if t[i].kind != kWord {
			continue
		}
		w := t[i].w
		if enCorrection[w] {
			return true
		}
		for _, pf := range ruCorrectionPrefixes {
			if strings.HasPrefix(w, pf) {
				return true
			}
		}
		next := func(k int) string {
			if i+k < len(t) && t[i+k].kind == kWord {
				return t[i+k].w
			}
			return ""
		}
		switch w {
		case "mixed", "mix", "muddled":
			// mixed it up, mixed up the dates
			if next(1) == "up" || next(2) == "up" {
				return true
			}
		case "got", "get":
			if (next(1) == "it" || next(1) == "that" || next(1) == "this") && next(2) == "wrong" {
				return true
			}
		case "was":
			if next(1) == "wrong" || next(1) == "mistaken" {
				return true
			}
		case "my":
			if next(1) == "mistake" || next(1) == "bad" {
				return true
			}
		case "correct":
			if next(1) == "that" || next(1) == "myself" || next(1) == "this" {
				return true
			}
		case "swapped", "transposed", "confused":
			for k := 1; k <= 3; k++ {
				switch next(k) {
				case "digits", "letters", "numbers", "dates", "two":
					return true
				}
			}
		}
	}
	return false
}
