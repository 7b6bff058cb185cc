// Package fold holds the word normalisation that the candidate index and
// the rules decider must agree on, so that a term one produces is the term
// the other compares.
package fold

import "unicode"

// Rune lowercases r and folds ё to е, which Russian writing often omits.
func Rune(r rune) rune {
	r = unicode.ToLower(r)
	if r == 'ё' {
		return 'е'
	}
	return r
}

// Prefix returns the first n runes of s, or s if it is shorter.
func Prefix(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
