package index

import (
	"slices"
	"testing"
)

func TestSynonymsKnownPairs(t *testing.T) {
	for _, c := range []struct {
		lang string
		a, b string
	}{
		{"en", "mum", "mother"},
		{"en", "kitty", "cat"},
		{"en", "film", "movie"},
		{"en", "salary", "pay"},
		{"ru", "мама", "мать"},
		{"ru", "телик", "телевизор"},
		{"ru", "универ", "университет"},
	} {
		found := false
		for _, set := range testList(t, "synonyms", c.lang) {
			if slices.Contains(set.words, c.a) && slices.Contains(set.words, c.b) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%q and %q share no set", c.a, c.b)
		}
	}
}
