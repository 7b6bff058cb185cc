package memory

import (
	"sync"
	"unicode"

	"github.com/palimpsest-mem/memory/index"
)

// A hard delete erases a fact's words from the decision log too: the
// reason, the model's answer, the fallback message and the claims note of
// a decision that showed the fact as a candidate may quote it. They are
// removed when they may, and kept when they cannot: a reason that holds no
// word of the deleted fact but those of the decision's own text (which
// stays) quotes nothing that is gone. "candidate 1 gives another works_at
// (words compani, work)" outlives the delete of a third candidate about an
// offsite; "compared … | My locker code is 7731" does not outlive the
// delete of the locker code.

// quoteAnalyzer stems words as the lookup's Stems mode does, whatever the
// store's mode: a reason quotes the stems the evidence showed.
var quoteAnalyzer = sync.OnceValues(func() (*index.Analyzer, error) { return index.NewAnalyzer(index.Stems) })

// quoteTerms are what a text may be quoted by: its stems without the stop
// words, and its numbers of any length (a code, a PIN), which the stems
// leave out when short. With words, its words as written too, lowercased:
// a reason may quote a stem ("offsit") that stems again to another.
func quoteTerms(an *index.Analyzer, text string, words bool) map[string]bool {
	out := map[string]bool{}
	for _, w := range an.Analyze(text).Words {
		out[w] = true
	}
	word := []rune{}
	for _, r := range text + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			word = append(word, unicode.ToLower(r))
			continue
		}
		if len(word) > 0 && (words || isNumber(word)) {
			out[string(word)] = true
		}
		word = word[:0]
	}
	return out
}

func isNumber(word []rune) bool {
	for _, r := range word {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// quotes tells, for the texts of a decision, whether each may quote a
// deleted fact: whether it holds a term of one that the decision's own
// text, which stays, does not hold.
type quotes struct {
	an   *index.Analyzer
	gone []map[string]bool // the terms of each deleted text
}

// newQuotes reads the texts of the deleted facts; without an analyzer
// every text may quote them.
func newQuotes(texts []string) quotes {
	an, err := quoteAnalyzer()
	if err != nil {
		return quotes{}
	}
	q := quotes{an: an}
	for _, t := range texts {
		q.gone = append(q.gone, quoteTerms(an, t, false))
	}
	return q
}

// may reports whether s may quote a deleted fact, beside own.
func (q quotes) may(s, own string) bool {
	if s == "" {
		return false
	}
	if q.an == nil {
		return true
	}
	kept := quoteTerms(q.an, own, true)
	for t := range quoteTerms(q.an, s, true) {
		if kept[t] {
			continue
		}
		for _, g := range q.gone {
			if g[t] {
				return true
			}
		}
	}
	return false
}
