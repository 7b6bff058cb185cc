package index

import (
	"strings"
	"testing"
	"unicode"
)

// lexiconTopics is the closed set of topic names the lexicons may use.
var lexiconTopics = map[string]bool{
	"employment": true, "residence": true, "family": true, "relationships": true,
	"pets": true, "health": true, "medication": true, "diet": true, "sleep": true,
	"schedule": true, "education": true, "hobbies": true, "music": true,
	"sport": true, "devices": true, "media": true, "travel": true,
	"finances": true, "vehicles": true, "commute": true, "languages": true,
	"contact": true, "names": true, "preferences": true, "subscriptions": true,
	"home": true, "food": true, "appearance": true, "documents": true,
	"events": true, "weather": true, "religion": true,
}

var testLexicons = []struct{ name, src string }{{"en", lexiconEN}, {"ru", lexiconRU}}

func TestLexiconFormat(t *testing.T) {
	for _, lx := range testLexicons {
		t.Run(lx.name, func(t *testing.T) {
			entries, err := parseLexicon(lx.src)
			if err != nil {
				t.Fatal(err)
			}
			distinct := map[string]bool{}
			subsPerTopic := map[string]int{}
			for key, words := range entries {
				topic, sub, _ := strings.Cut(key, "/")
				if !lexiconTopics[topic] {
					t.Errorf("%s: unknown topic %q", key, topic)
				}
				if sub != strings.ToLower(sub) || strings.Contains(sub, "/") {
					t.Errorf("%s: bad subtopic %q", key, sub)
				}
				subsPerTopic[topic]++
				seen := map[string]bool{}
				for _, w := range words {
					if w != strings.ToLower(w) {
						t.Errorf("%s: %q is not lowercase", key, w)
					}
					if strings.ContainsRune(w, 'ё') {
						t.Errorf("%s: %q: write ё as е", key, w)
					}
					if strings.IndexFunc(w, unicode.IsLetter) < 0 {
						t.Errorf("%s: %q has no letters", key, w)
					}
					if strings.HasPrefix(w, "-") || strings.HasSuffix(w, "-") {
						t.Errorf("%s: %q: stray hyphen", key, w)
					}
					if seen[w] {
						t.Errorf("%s: %q repeated", key, w)
					}
					seen[w] = true
					distinct[w] = true
				}
			}
			for topic := range lexiconTopics {
				if subsPerTopic[topic] == 0 {
					t.Errorf("topic %q has no subtopics", topic)
				}
			}
			if len(distinct) < 1500 {
				t.Errorf("%d distinct words, want >= 1500", len(distinct))
			}
			t.Logf("%s: %d subtopics, %d distinct words", lx.name, len(entries), len(distinct))
		})
	}
}

func TestLexiconSharedSubtopics(t *testing.T) {
	for _, c := range []struct {
		src   string
		words []string
	}{
		{lexiconEN, []string{"cello", "violin", "instrument"}},
		{lexiconEN, []string{"employer", "job"}},
		{lexiconRU, []string{"виолончель", "скрипка", "инструмент"}},
		{lexiconRU, []string{"работодатель", "работа"}},
	} {
		entries, err := parseLexicon(c.src)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, words := range entries {
			set := map[string]bool{}
			for _, w := range words {
				set[w] = true
			}
			all := true
			for _, w := range c.words {
				all = all && set[w]
			}
			found = found || all
		}
		if !found {
			t.Errorf("%v do not share a subtopic", c.words)
		}
	}
}
