package wordlist

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	var got []string
	err := Parse("t.txt", "# a comment\n\nfirst\n#second\nthird word\n\n", func(n int, line string) error {
		got = append(got, fmt.Sprintf("%d:%s", n, line))
		return nil
	})
	if err != nil || strings.Join(got, " ") != "3:first 5:third word" {
		t.Errorf("got %q, %v", got, err)
	}
	if err := Parse("t.txt", "", func(int, string) error { panic("no line") }); err != nil {
		t.Errorf("empty: %v", err)
	}
}

// TestParseRejects checks that a malformed line, or one entry refuses,
// stops the reading with an error naming the file and line.
func TestParseRejects(t *testing.T) {
	errBad := errors.New("bad entry")
	for _, c := range []struct{ text, want string }{
		{"one\ntwo", "t.txt:2: no newline at the end of the file"},
		{"# c\n", ""},
		{"# c", "t.txt:1: no newline at the end of the file"},
		{"one\n two\n", "t.txt:2: space at the start or end of the line"},
		{"one\ntwo\t\n", "t.txt:2: space at the start or end of the line"},
		{"one\n\nbad\nnever\n", "t.txt:3: bad entry"},
	} {
		var seen []string
		err := Parse("t.txt", c.text, func(n int, line string) error {
			if seen = append(seen, line); line == "bad" {
				return errBad
			}
			return nil
		})
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
		if read := strings.Join(seen, " "); strings.Contains(read, "never") {
			t.Errorf("%q: read on after the error: %q", c.text, seen)
		}
	}
	err := Parse("t.txt", "bad\n", func(int, string) error { return errBad })
	if !errors.Is(err, errBad) {
		t.Errorf("entry's error not wrapped: %v", err)
	}
}

func TestBadWord(t *testing.T) {
	for w, want := range map[string]string{
		"cello": "", "e-mail": "", "работа": "", "mp3": "", "трейд-ин": "",
		"": "is empty", "-x": "stray hyphen", "x-": "stray hyphen", "a--b": "stray hyphen",
		"ёлка": "has ё", "Cello": "not lowercase", "42": "no letter", "it's": "has '\\''", "a b": "has ' '",
	} {
		if got := BadWord(w); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("BadWord(%q) = %q, want %q", w, got, want)
		}
	}
}
