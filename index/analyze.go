package index

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/russian"

	"github.com/palimpsest-mem/memory/internal/fold"
	"github.com/palimpsest-mem/memory/internal/term"
)

// Mode names a way of finding candidates.
type Mode string

const (
	// Keywords4 matches lowercased words of four or more letters, unstemmed:
	// the behaviour of the system this project grew from, kept as the baseline.
	Keywords4 Mode = "keywords4"
	// Stems matches English and Russian Snowball stems without stop words,
	// plus stem prefixes ("roots") that join derived words.
	Stems Mode = "stems"
	// Topics adds tags from lexicons of everyday personal topics to Stems.
	Topics Mode = "topics"
	// Semantic fuses Topics with cosine similarity of embeddings.
	Semantic Mode = "semantic"
)

// Modes lists every mode.
var Modes = []Mode{Keywords4, Stems, Topics, Semantic}

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown lookup mode %q (want one of %v)", s, Modes)
}

// maxQueryRunes bounds the text analysed for one lookup, so a huge input
// costs no more than a long fact.
const maxQueryRunes = 4000

// Terms is what analysis keeps of one text, per index field.
type Terms struct {
	Words  []string // keywords, or stems
	Roots  []string // stem prefixes and compounds (stems and later modes)
	Topics []string // topic and topic/subtopic tags (topics and later modes)
}

// Empty reports whether the text gave nothing to match on.
func (t Terms) Empty() bool { return len(t.Words)+len(t.Roots)+len(t.Topics) == 0 }

// Analyzer turns text into Terms for one mode. It is immutable once built
// and safe for concurrent use.
type Analyzer struct {
	mode     Mode
	stopEN   analysis.TokenMap
	stopRU   analysis.TokenMap
	askEN    analysis.TokenMap // the words of asking, dropped from questions
	askRU    analysis.TokenMap
	topics   map[string][]string // stem -> tags
	synonyms map[string][]string // stem -> index terms of its synonym sets (term.SynonymMark + name)
	prefixes []string            // Russian verbal prefixes, longest first
}

// NewAnalyzer builds the analyzer of a mode from the built-in lexicons. A
// malformed line in one of them is an error naming its file and line.
func NewAnalyzer(mode Mode) (*Analyzer, error) {
	return newAnalyzer(mode, lexiconFiles)
}

// newAnalyzer builds the analyzer of a mode from the lexicons in fsys.
func newAnalyzer(mode Mode, fsys fs.FS) (*Analyzer, error) {
	if _, err := ParseMode(string(mode)); err != nil {
		return nil, err
	}
	a := &Analyzer{mode: mode, stopEN: analysis.NewTokenMap(), stopRU: analysis.NewTokenMap(),
		askEN: analysis.NewTokenMap(), askRU: analysis.NewTokenMap()}
	if err := a.stopEN.LoadBytes(en.EnglishStopWords); err != nil {
		return nil, err
	}
	if err := a.stopRU.LoadBytes(ru.RussianStopWords); err != nil {
		return nil, err
	}
	// The Snowball stop lists, extended with the filler of chat and bare
	// units of time (lexicons/stop.*.txt says why); the words of asking.
	for kind, maps := range map[string][2]analysis.TokenMap{"stop": {a.stopEN, a.stopRU}, "question": {a.askEN, a.askRU}} {
		for i, m := range maps {
			words, err := readList(fsys, lexiconFile(kind, lexiconLangs[i]))
			if err != nil {
				return nil, err
			}
			for _, w := range words[0].words {
				m.AddToken(strings.Clone(w))
			}
		}
	}
	prefixes, err := readList(fsys, lexiconFile("prefixes", "ru"))
	if err != nil {
		return nil, err
	}
	for _, p := range prefixes[0].words {
		a.prefixes = append(a.prefixes, strings.Clone(p))
	}
	if mode == Topics || mode == Semantic {
		if a.topics, err = a.loadLexicons(fsys); err != nil {
			return nil, err
		}
		if a.synonyms, err = a.loadSynonyms(fsys); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Mode returns the analyzer's mode.
func (a *Analyzer) Mode() Mode { return a.mode }

// token is a word of the text with its script.
type token struct {
	text     string // lowercased, ё folded to е
	cyrillic bool
	joined   bool // the text joins it to the previous token with a hyphen
}

// tokenize splits text into runs of letters and digits, lowercased.
func tokenize(text string, lettersOnly bool) []token {
	var out []token
	var b strings.Builder
	cyr, hyphen := false, false
	flush := func(next rune) {
		if b.Len() > 0 {
			out = append(out, token{text: b.String(), cyrillic: cyr, joined: hyphen})
			b.Reset()
		}
		hyphen = next == '-' && len(out) > 0
		cyr = false
	}
	n := 0
	for _, r := range text {
		if n++; n > maxQueryRunes {
			break
		}
		switch {
		case unicode.IsLetter(r):
			r = fold.Rune(r)
			cyr = cyr || isCyrillic(r)
			b.WriteRune(r)
		case !lettersOnly && unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			flush(r)
		}
	}
	flush(0)
	return out
}

func isCyrillic(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }

// Analyze returns the terms of text in the analyzer's mode, each once.
func (a *Analyzer) Analyze(text string) Terms {
	if a.mode == Keywords4 {
		var words []string
		for _, t := range tokenize(text, true) {
			if utf8.RuneCountInString(t.text) >= 4 {
				words = append(words, t.text)
			}
		}
		return Terms{Words: dedupe(words)}
	}
	var t Terms
	a.words(text, a.stop, func(w Terms) {
		t.Words = append(t.Words, w.Words...)
		t.Roots = append(t.Roots, w.Roots...)
		t.Topics = append(t.Topics, w.Topics...)
	})
	t.Words, t.Roots, t.Topics = dedupe(t.Words), dedupe(t.Roots), dedupe(t.Topics)
	return t
}

// Words returns the terms of text word by word: what each word adds to
// Analyze(text), whose terms are their union. A lookup weighs each word of
// a text once, by the most specific term it shares, so that a word with
// many synonym sets or topics counts no more than a word with one.
func (a *Analyzer) Words(text string) []Terms {
	var out []Terms
	if a.mode == Keywords4 {
		for _, w := range a.Analyze(text).Words {
			out = append(out, Terms{Words: []string{w}})
		}
		return out
	}
	a.words(text, a.stop, func(w Terms) { out = append(out, w) })
	return out
}

// Question is Words for a question or a message: beside the stop words it
// drops the words of asking (lexicons/question.*.txt), which the facts that
// answer a question do not hold ("remind me what I told you about my
// knee" keeps knee). In LookupKeywords4 it drops them and the stop words
// from the words of 4+ letters, which hold "what" and "where" otherwise.
func (a *Analyzer) Question(text string) []Terms {
	drop := func(t token) bool {
		if a.stop(t) {
			return true
		}
		if t.cyrillic {
			return a.askRU[t.text]
		}
		return a.askEN[t.text]
	}
	var out []Terms
	if a.mode == Keywords4 {
		seen := map[string]bool{}
		for _, t := range tokenize(text, true) {
			if utf8.RuneCountInString(t.text) >= 4 && !drop(t) && !seen[t.text] {
				seen[t.text] = true
				out = append(out, Terms{Words: []string{t.text}})
			}
		}
		return out
	}
	a.words(text, drop, func(w Terms) { out = append(out, w) })
	return out
}

// words calls f with the terms of each word of text in turn, leaving out
// the words drop says.
func (a *Analyzer) words(text string, drop func(token) bool, f func(Terms)) {
	toks := tokenize(text, false)
	for i, tok := range toks {
		var w Terms
		if tok.joined && i > 0 {
			// "e-mail" also meets "email", "трейд-ин" meets "трейдин".
			w.Roots = append(w.Roots, a.stem(token{text: toks[i-1].text + tok.text, cyrillic: tok.cyrillic}))
		}
		if !drop(tok) && !isShortNumber(tok.text) {
			s := a.stem(tok)
			w.Words = append(w.Words, s)
			w.Roots = append(w.Roots, a.roots(tok, s)...)
			if a.topics != nil {
				w.Topics = append(w.Topics, a.topics[s]...)
				w.Words = append(w.Words, a.synonyms[s]...)
			}
		}
		if !w.Empty() {
			f(w)
		}
	}
}

func (a *Analyzer) stop(t token) bool {
	if utf8.RuneCountInString(t.text) < 2 {
		return true
	}
	if t.cyrillic {
		return a.stopRU[t.text]
	}
	return a.stopEN[t.text]
}

// isShortNumber drops numbers of one or two digits ("3 days", "at 8"),
// which say little about what a fact is about.
func isShortNumber(s string) bool {
	if len(s) > 2 {
		return false
	}
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func (a *Analyzer) stem(t token) string {
	env := snowballstem.NewEnv(t.text)
	if t.cyrillic {
		russian.Stem(env)
	} else {
		english.Stem(env)
	}
	return env.Current()
}

// rootLens are the lengths, in runes, of the stem prefixes kept as roots.
// Sharing a longer prefix adds more score: piano/pianist share four runes,
// physics/physicist five. (A third level, six, found no more on the dev set
// and cost a fifth more build time.)
var rootLens = []int{4, 5}

// roots returns the root terms of a token whose stem is s. Stripping a
// Russian verbal prefix lets переехать meet ехать and накопительный meet
// копить.
func (a *Analyzer) roots(t token, s string) []string {
	var out []string
	add := func(stem string) {
		for _, n := range rootLens {
			// A root that is all verbal prefix ("пере…" of переводить and
			// переживать) joins words on their prefix alone.
			if p := fold.Prefix(stem, n); utf8.RuneCountInString(p) == n && !(t.cyrillic && slices.Contains(a.prefixes, p)) {
				out = append(out, p)
			}
		}
	}
	add(s)
	if t.cyrillic {
		for _, p := range a.prefixes {
			if rest := strings.TrimPrefix(s, p); rest != s && utf8.RuneCountInString(rest) >= 4 {
				add(rest)
				break
			}
		}
	}
	return out
}

func dedupe(s []string) []string {
	if len(s) < 2 {
		return s
	}
	slices.Sort(s)
	return slices.Compact(s)
}

// Union is the terms of words together, each once, as Analyze gives them
// for the text the words are of.
func Union(words []Terms) Terms {
	var t Terms
	for _, w := range words {
		t.Words = append(t.Words, w.Words...)
		t.Roots = append(t.Roots, w.Roots...)
		t.Topics = append(t.Topics, w.Topics...)
	}
	t.Words, t.Roots, t.Topics = dedupe(t.Words), dedupe(t.Roots), dedupe(t.Topics)
	return t
}

// Why is what a query and a fact share: the evidence for a candidate.
type Why struct {
	// Terms are the shared words or stems and synonym sets, in the order
	// of their index terms, then the shared roots, longest first.
	Terms  []term.Term
	Topics []string // shared topic tags
}

// Shared explains why d matched q.
func Shared(q, d Terms) Why {
	var w Why
	for _, s := range intersect(q.Words, d.Words) {
		if set, ok := strings.CutPrefix(s, term.SynonymMark); ok {
			w.Terms = append(w.Terms, term.Term{Text: set, Kind: term.Synonym})
		} else {
			w.Terms = append(w.Terms, term.Term{Text: s, Kind: term.Word})
		}
	}
	shared := intersect(q.Roots, d.Roots)
	// Longest first, and a root that begins a word or root already listed
	// says nothing more: keep "physic…", not also "phys…" and "physi…". A
	// synonym set is not its name's word, so it does not hide a root.
	slices.SortFunc(shared, func(a, b string) int { return len(b) - len(a) })
	for _, r := range shared {
		if !slices.ContainsFunc(w.Terms, func(t term.Term) bool { return t.Kind != term.Synonym && strings.HasPrefix(t.Text, r) }) {
			w.Terms = append(w.Terms, term.Term{Text: r, Kind: term.Root})
		}
	}
	w.Topics = intersect(q.Topics, d.Topics)
	return w
}

// intersect returns the elements common to two sorted, deduplicated slices.
func intersect(a, b []string) []string {
	var out []string
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			out = append(out, a[i])
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return out
}
