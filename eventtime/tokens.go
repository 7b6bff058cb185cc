package eventtime

import (
	"strconv"
	"unicode"
)

// maxRunes bounds the input: Parse reads only this many runes of a text.
const maxRunes = 2000

type kind uint8

const (
	kWord  kind = iota // letters, with inner apostrophes
	kNum               // digits, with an optional suffix: 3rd, 3-го, 80s
	kNumX              // digits joined by . / - , : 12.05.2024, 1,020
	kPunct             // anything else that is not a space
)

// token is one word, number or punctuation mark of the text.
type token struct {
	w     string // lower case, ё folded to е, ’ to '
	kind  kind
	start int // rune offsets in the bounded text
	end   int
	cap   bool   // the word starts with an upper-case letter
	num   int    // kNum: value; -1 when it has more than 6 digits
	ndig  int    // kNum: number of digits
	suf   string // kNum: lower-case suffix (th, го, s, ...)
	parts []int  // kNumX: the digit groups (-1 when too long)
	plen  []int  // kNumX: their lengths
	seps  []rune // kNumX: the separators
	p     rune   // kPunct: the mark
	hyph  bool   // joined to the next word by a hyphen (fixed-term)
}

func isApos(r rune) bool { return r == '\'' || r == '’' || r == 'ʼ' }

func isHyphen(r rune) bool { return r == '-' || r == '‐' || r == '‑' }

func fold(r rune) rune {
	r = unicode.ToLower(r)
	switch r {
	case 'ё':
		return 'е'
	case '’', 'ʼ':
		return '\''
	}
	return r
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// tokenize splits rs into tokens in one pass. A hyphen between letters
// separates two words ("twenty-one", "mid-May"); between a number and
// letters it starts the number's suffix ("3-го", "2028-го").
func tokenize(rs []rune) []token {
	var toks []token
	n := len(rs)
	buf := make([]rune, 0, 32)
	for i := 0; i < n; {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			if r == '\n' {
				toks = append(toks, token{kind: kPunct, p: '\n', start: i, end: i + 1})
			}
			i++
		case unicode.IsLetter(r):
			j := i
			buf = buf[:0]
			for j < n {
				c := rs[j]
				if unicode.IsLetter(c) || isDigit(c) || unicode.Is(unicode.Mn, c) {
					buf = append(buf, fold(c))
					j++
					continue
				}
				if isApos(c) && j+1 < n && unicode.IsLetter(rs[j+1]) {
					buf = append(buf, '\'')
					j++
					continue
				}
				break
			}
			toks = append(toks, token{w: string(buf), kind: kWord, start: i, end: j, cap: unicode.IsUpper(r)})
			i = j
			// a trailing apostrophe (days' time) or an inner hyphen is skipped
			if i < n && isApos(rs[i]) {
				i++
			} else if i+1 < n && isHyphen(rs[i]) && (unicode.IsLetter(rs[i+1]) || isDigit(rs[i+1])) {
				toks[len(toks)-1].hyph = true
				i++
			}
		case isDigit(r):
			i = scanNumber(rs, i, &toks)
		default:
			toks = append(toks, token{kind: kPunct, p: r, start: i, end: i + 1})
			i++
		}
	}
	return toks
}

// scanNumber reads a number starting at rs[i] and appends its token.
func scanNumber(rs []rune, i int, toks *[]token) int {
	n := len(rs)
	j := i
	var parts, plen []int
	var seps []rune
	for {
		k := j
		for k < n && isDigit(rs[k]) {
			k++
		}
		v := -1
		if k-j <= 6 {
			v, _ = strconv.Atoi(string(rs[j:k]))
		}
		parts = append(parts, v)
		plen = append(plen, k-j)
		j = k
		if j+1 < n && (rs[j] == '.' || rs[j] == '/' || rs[j] == ',' || isHyphen(rs[j]) || rs[j] == ':') && isDigit(rs[j+1]) && len(parts) < 8 {
			seps = append(seps, rs[j])
			j++
			continue
		}
		break
	}
	t := token{start: i, end: j}
	if len(parts) > 1 {
		t.kind = kNumX
		t.parts, t.plen, t.seps = parts, plen, seps
	} else {
		t.kind = kNum
		t.num, t.ndig = parts[0], plen[0]
		// suffix: 3rd, 80s, 3-го, 2028-м
		k := j
		if k+1 < n && isHyphen(rs[k]) && unicode.IsLetter(rs[k+1]) {
			k++
		}
		if k < n && unicode.IsLetter(rs[k]) {
			m := k
			var sb []rune
			for m < n && unicode.IsLetter(rs[m]) && m-k < 12 {
				sb = append(sb, fold(rs[m]))
				m++
			}
			if m < n && unicode.IsLetter(rs[m]) {
				// a long glued word: keep it out of the suffix
				for m < n && unicode.IsLetter(rs[m]) {
					m++
				}
				sb = append(sb[:0], '?')
			}
			t.suf = string(sb)
			j = m
			t.end = j
		}
	}
	*toks = append(*toks, t)
	return j
}
