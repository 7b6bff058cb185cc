package index

import (
	"slices"
	"testing"
)

func TestSynonymsWellFormed(t *testing.T) {
	for _, lang := range lexiconLangs {
		t.Run(lang, func(t *testing.T) {
			// The parser rejects repeated set names and words, sets of one
			// word, and words that are not lowercase with е for ё.
			sets := testList(t, "synonyms", lang)
			if len(sets) < 900 {
				t.Errorf("%d sets, want at least 900", len(sets))
			}
			distinct := distinctWords(sets)
			if distinct < 3000 {
				t.Errorf("%d distinct words, want at least 3000", distinct)
			}
			t.Logf("%s: %d sets, %d distinct words", lang, len(sets), distinct)
		})
	}
}

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
