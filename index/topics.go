package index

import (
	"io/fs"
	"iter"
	"slices"
	"strings"

	"github.com/palimpsest-mem/memory/internal/term"
)

// lexiconLangs are the languages of the lexicons, read in this order.
var lexiconLangs = [...]string{"en", "ru"}

// lexiconFile names the file of a kind of list in a language.
func lexiconFile(kind, lang string) string { return "lexicons/" + kind + "." + lang + ".txt" }

// loadLexicons parses the English and Russian lexicons into a map from
// stem to the tags of every topic and subtopic the word belongs to, and of
// every frame: a specific recurring thing of a life ("coffee-order",
// "broken-bone") narrower than a subtopic, tagged "#name". Words pass
// through the same analysis as text, so any form of a word finds them.
func (a *Analyzer) loadLexicons(fsys fs.FS) (map[string][]string, error) {
	out := map[string][]string{}
	if err := a.tagLists(fsys, out, "frames", func(e entry) []string { return []string{"#" + e.name} }); err != nil {
		return nil, err
	}
	err := a.tagLists(fsys, out, "topics", func(e entry) []string {
		// A copy, so the tags do not keep the file's text alive.
		sub := strings.Clone(e.name)
		topic, _, _ := strings.Cut(sub, "/")
		return []string{topic, sub}
	})
	if err != nil {
		return nil, err
	}
	dedupeTags(out)
	return out, nil
}

// tagLists reads the lists of a kind in every language and adds to out,
// for the stem of every word of an entry, the tags tagsOf gives the entry.
func (a *Analyzer) tagLists(fsys fs.FS, out map[string][]string, kind string, tagsOf func(entry) []string) error {
	for _, lang := range lexiconLangs {
		entries, err := readList(fsys, lexiconFile(kind, lang))
		if err != nil {
			return err
		}
		for _, e := range entries {
			a.tagWords(out, e.words, tagsOf(e))
		}
	}
	return nil
}

// dedupeTags sorts the tags of every stem and keeps each once.
func dedupeTags(out map[string][]string) {
	for s, tags := range out {
		out[s] = dedupe(tags)
	}
}

// tagWords adds tags to the stem of every word that is not a stop word.
func (a *Analyzer) tagWords(out map[string][]string, words []string, tags []string) {
	for _, w := range words {
		for tok := range wordTokens(w) {
			if a.stop(tok) {
				continue
			}
			s := a.stem(tok)
			// Forms of one word often stand together and share a stem:
			// tag it once.
			if have := out[s]; len(have) < len(tags) || !slices.Equal(have[len(have)-len(tags):], tags) {
				// The stem may be a substring of the file's text, and a
				// map assignment stores the key given even when it is
				// there already: a copy, so the map does not keep the text.
				out[strings.Clone(s)] = append(have, tags...)
			}
		}
	}
}

// wordTokens yields the tokens of a word of a lexicon: the ones tokenize
// would make, without building each again, since the parser let through
// only lowercase letters and digits, with е for ё, in parts joined by
// hyphens.
func wordTokens(w string) iter.Seq[token] {
	return func(yield func(token) bool) {
		for part := range strings.SplitSeq(w, "-") {
			if !yield(token{text: part, cyrillic: strings.ContainsFunc(part, isCyrillic)}) {
				return
			}
		}
	}
}

// loadSynonyms maps the stem of every word in the English and Russian
// synonym sets to a term naming its set: "mum" and "mother" both index
// "≈mother", and so meet as directly as a shared word. The mark keeps a set
// from ever meeting a stem of the same spelling; Shared gives it as a
// term.Synonym.
func (a *Analyzer) loadSynonyms(fsys fs.FS) (map[string][]string, error) {
	out := map[string][]string{}
	if err := a.tagLists(fsys, out, "synonyms", func(e entry) []string { return []string{term.SynonymMark + e.name} }); err != nil {
		return nil, err
	}
	dedupeTags(out)
	return out, nil
}
