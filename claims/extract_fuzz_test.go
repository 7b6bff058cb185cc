package claims_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/claims"
)

// FuzzExtract checks that Extract never panics, that every claim it returns
// is valid, and that every object comes from the text: each word of its
// Normalize key is in the text's key, but for the last two letters of a
// Russian word put back in the nominative ("Казани" → "Казань").
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"I work at Contoso and live in Kazan.", "My sister Anna lives in Kazan", "Живу в Казани",
		"Говорю по-английски", "I'm a member of the \"Chess Club\"", "мою собаку зовут «Рекс»",
		"I speak English, French and", "I drive a", "\"", "my sister", "Работаю программистом в",
		"I LIVE IN KAZAN", "i'm'm allergic to to to", "a\xffb I live in Ё\xc0", "I have a dog named",
		"my dog's name is Rex", "и и и живу в", "хожу в шахматный клуб", "I love X and Y but hate Z",
		"У сестры аллергия на мёд", "Брат в этом году переехал в Омск", "у у у", "Езжу на стареньком «",
		"My cat Luna died", "My boyfriend Tom and I broke up", "Кошка Луна чуть не умерла", "died died",
		"My wife is Olga", "Моя жена — Ольга", "my husband is German and",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		key := claims.Normalize(text)
		for _, c := range claims.Extract(text) {
			if err := c.Validate(); err != nil {
				t.Fatalf("Extract(%q): %+v: %v", text, c, err)
			}
			if c.Kind == "" {
				t.Errorf("Extract(%q): %+v has no kind", text, c)
			}
			if !fromText(key, c.Object) {
				t.Errorf("Extract(%q): object %q is not from the text", text, c.Object)
			}
			if c.Subject != "" && !fromText(key, c.Subject) {
				t.Errorf("Extract(%q): subject %q is not from the text", text, c.Subject)
			}
		}
	})
}

// fromText reports whether each word of the Normalize key of s is in the
// text's key, but for the last two letters of a word put back in the
// nominative.
func fromText(key, s string) bool {
	for _, w := range strings.Fields(claims.Normalize(s)) {
		if n := utf8.RuneCountInString(w); n > 2 && !strings.Contains(key, w) {
			w = string([]rune(w)[:n-2])
		}
		if !strings.Contains(key, w) {
			return false
		}
	}
	return true
}
