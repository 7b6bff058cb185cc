package index

import (
	"strings"
	"testing"
	"unicode"
)

// testParseSynonyms splits a synonyms constant into its sets: one set per
// non-blank line that does not start with #, words separated by spaces.
func testParseSynonyms(text string) [][]string {
	var sets [][]string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sets = append(sets, strings.Split(line, " "))
	}
	return sets
}

func TestSynonymsWellFormed(t *testing.T) {
	for _, c := range []struct {
		lang string
		text string
	}{{"en", synonymsEN}, {"ru", synonymsRU}} {
		t.Run(c.lang, func(t *testing.T) {
			sets := testParseSynonyms(c.text)
			distinct := map[string]bool{}
			names := map[string]bool{}
			for _, set := range sets {
				// A set is known by its first word, so two sets with the
				// same first word would be merged into one.
				if names[set[0]] {
					t.Errorf("two sets are named %q", set[0])
				}
				names[set[0]] = true
				if len(set) < 2 {
					t.Errorf("set %q has fewer than 2 words", strings.Join(set, " "))
				}
				seen := map[string]bool{}
				for _, w := range set {
					if w == "" {
						t.Errorf("set %q: empty word (double space?)", strings.Join(set, " "))
						continue
					}
					if w != strings.ToLower(w) {
						t.Errorf("set %q: word %q is not lowercase", set[0], w)
					}
					for _, r := range w {
						if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' {
							t.Errorf("set %q: word %q has %q", set[0], w, r)
						}
					}
					if c.lang == "ru" && strings.ContainsRune(w, 'ё') {
						t.Errorf("set %q: word %q: write ё as е", set[0], w)
					}
					if seen[w] {
						t.Errorf("set %q: word %q repeats", set[0], w)
					}
					seen[w] = true
					distinct[w] = true
				}
			}
			if len(sets) < 900 {
				t.Errorf("%d sets, want at least 900", len(sets))
			}
			if len(distinct) < 3000 {
				t.Errorf("%d distinct words, want at least 3000", len(distinct))
			}
			t.Logf("%s: %d sets, %d distinct words", c.lang, len(sets), len(distinct))
		})
	}
}

func TestSynonymsKnownPairs(t *testing.T) {
	for _, c := range []struct {
		text string
		a, b string
	}{
		{synonymsEN, "mum", "mother"},
		{synonymsEN, "kitty", "cat"},
		{synonymsEN, "film", "movie"},
		{synonymsEN, "salary", "pay"},
		{synonymsRU, "мама", "мать"},
		{synonymsRU, "телик", "телевизор"},
		{synonymsRU, "универ", "университет"},
	} {
		found := false
		for _, set := range testParseSynonyms(c.text) {
			var hasA, hasB bool
			for _, w := range set {
				hasA = hasA || w == c.a
				hasB = hasB || w == c.b
			}
			if hasA && hasB {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%q and %q share no set", c.a, c.b)
		}
	}
}
