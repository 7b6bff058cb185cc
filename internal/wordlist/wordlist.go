// Package wordlist reads the word lists built into the module, the
// analyzer's lexicons (index/lexicons), the rules decider's marker
// phrases (reconcile/markers) and the claim patterns (claims/patterns),
// with one strict line reader and one notion
// of a well-formed word, so that a list is never half read: a bad line is
// an error naming its file and line, not a line skipped.
package wordlist

import (
	"fmt"
	"strings"
	"unicode"
)

// Parse calls entry with the number (from 1) and text of every line of
// text, the content of file, that is neither blank nor a comment (a line
// beginning with "#"), in order. It is strict: every line must end in a
// newline and have no space at its start or end. Any error, its own or
// entry's, names file and line: "file:line: what is wrong". Lines are
// substrings of text.
func Parse(file, text string, entry func(n int, line string) error) error {
	n := 0
	for line := range strings.Lines(text) {
		n++
		line, ended := strings.CutSuffix(line, "\n")
		var err error
		switch {
		case !ended:
			err = fmt.Errorf("no newline at the end of the file")
		case line == "" || line[0] == '#':
			continue
		case strings.TrimSpace(line) != line:
			err = fmt.Errorf("space at the start or end of the line")
		default:
			err = entry(n, line)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", file, n, err)
		}
	}
	return nil
}

// BadWord says what is wrong with a word of a list, or "" when nothing is:
// it must be lowercase letters and digits, with ё written as е, in parts
// joined by single hyphens, and hold a letter.
func BadWord(w string) string {
	if w == "" {
		return "is empty (two spaces in a row?)"
	}
	letter := false
	for i, r := range w {
		switch {
		case r == '-':
			if i == 0 || i == len(w)-1 || w[i-1] == '-' {
				return "has a stray hyphen"
			}
		case r == 'ё':
			return "has ё: write е"
		case unicode.IsLetter(r):
			if unicode.ToLower(r) != r {
				return "is not lowercase"
			}
			letter = true
		case unicode.IsDigit(r):
		default:
			return fmt.Sprintf("has %q", r)
		}
	}
	if !letter {
		return "has no letter"
	}
	return ""
}
