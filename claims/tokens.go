package claims

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/internal/fold"
)

// token is a word or a mark of a text. Contractions are expanded ("I'm"
// gives "i" and "am"), each part spanning the whole written word, so that
// patterns are written in full words.
type token struct {
	word       string // folded: lowercase, ё as е; "" for a mark
	mark       rune   // for a mark: the punctuation rune; 0 for a word
	start, end int    // byte span in the text
	upper      bool   // the written word begins with an upper-case letter or a digit
	adverb     bool   // the word may stand between a pattern's words (set by extract)
}

// quote reports whether a mark opens or closes a quotation.
func quote(r rune) bool { return strings.ContainsRune("\"'«»“”„‘’`", r) }

// inWord reports whether r, between two letters or digits, belongs to the
// word: "Rostov-on-Don", "AT&T", "O'Brien", "I'm", "3.5".
func inWord(r rune) bool { return strings.ContainsRune("-'’&._", r) }

// tokenize splits text into words and marks; space separates and is not a
// token.
func tokenize(text string) []token {
	var out []token
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i + n
			for j < len(text) {
				r2, n2 := utf8.DecodeRuneInString(text[j:])
				if unicode.IsLetter(r2) || unicode.IsDigit(r2) || unicode.Is(unicode.Mn, r2) {
					j += n2
					continue
				}
				if inWord(r2) && j+n2 < len(text) {
					if r3, _ := utf8.DecodeRuneInString(text[j+n2:]); unicode.IsLetter(r3) || unicode.IsDigit(r3) {
						j += n2
						continue
					}
				}
				break
			}
			out = append(out, words(text, i, j)...)
			i = j
		case unicode.IsSpace(r):
			i += n
		default:
			out = append(out, token{mark: r, start: i, end: i + n})
			i += n
		}
	}
	return out
}

// contractions maps the ending after an apostrophe to the word it stands
// for; "n't" is handled apart.
var contractions = map[string]string{"m": "am", "re": "are", "ve": "have", "ll": "will", "d": "would"}

// pronounS lists the words whose "'s" is "is" rather than a possessive.
var pronounS = map[string]bool{"he": true, "she": true, "it": true, "that": true, "there": true, "who": true, "what": true, "here": true}

// words turns the written word text[i:j] into tokens.
func words(text string, i, j int) []token {
	w := text[i:j]
	first, _ := utf8.DecodeRuneInString(w)
	t := token{start: i, end: j, upper: unicode.IsUpper(first) || unicode.IsDigit(first)}
	f := strings.Map(fold.Rune, strings.ReplaceAll(w, "’", "'"))
	base, end, ok := strings.Cut(f, "'")
	if !ok || strings.Contains(end, "'") {
		t.word = f
		return []token{t}
	}
	one := func(word string) token { u := t; u.word = word; return u }
	switch {
	case end == "t" && strings.HasSuffix(base, "n"):
		base = strings.TrimSuffix(base, "n")
		switch base {
		case "wo":
			base = "will"
		case "ca":
			base = "can"
		}
		return []token{one(base), one("not")}
	case contractions[end] != "":
		return []token{one(base), one(contractions[end])}
	case end == "s" && pronounS[base]:
		return []token{one(base), one("is")}
	case end == "s":
		return []token{one(base), one("'s")}
	}
	t.word = f
	return []token{t}
}
