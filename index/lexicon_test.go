package index

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
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

// testList reads one built-in lexicon file, failing the test if it is
// malformed.
func testList(t *testing.T, kind, lang string) []entry {
	t.Helper()
	entries, err := readList(lexiconFiles, lexiconFile(kind, lang))
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// distinctWords counts the different words of entries.
func distinctWords(entries []entry) int {
	seen := map[string]bool{}
	for _, e := range entries {
		for _, w := range e.words {
			seen[w] = true
		}
	}
	return len(seen)
}

// TestLexiconSizes checks that no list has lost its bulk.
func TestLexiconSizes(t *testing.T) {
	for _, c := range []struct {
		kind                 string
		entries, distinctMin int
	}{{"topics", 100, 1500}, {"frames", 700, 3000}, {"synonyms", 900, 3000}} {
		for _, lang := range lexiconLangs {
			entries := testList(t, c.kind, lang)
			distinct := distinctWords(entries)
			if len(entries) < c.entries || distinct < c.distinctMin {
				t.Errorf("%s.%s: %d entries, %d distinct words; want at least %d and %d", c.kind, lang, len(entries), distinct, c.entries, c.distinctMin)
			}
			t.Logf("%s.%s: %d entries, %d distinct words", c.kind, lang, len(entries), distinct)
		}
	}
}

// TestLexiconFilesParse reads every built-in lexicon file with the parser
// the analyzer uses, so a malformed line fails the build's tests.
func TestLexiconFilesParse(t *testing.T) {
	files, err := fs.Glob(lexiconFiles, "lexicons/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 11 {
		t.Errorf("%d lexicon files, want 11: %v", len(files), files)
	}
	for _, f := range files {
		if _, err := readList(lexiconFiles, f); err != nil {
			t.Error(err)
		}
	}
}

func TestParseList(t *testing.T) {
	got, err := parseList("t.txt", "# c\n\n[music/instruments]\ncello\nvio-lin\n\n[music/genres]\njazz\n", topicList)
	if err != nil || len(got) != 2 || got[0].name != "music/instruments" || strings.Join(got[0].words, " ") != "cello vio-lin" ||
		got[0].line != 3 || got[1].name != "music/genres" || strings.Join(got[1].words, " ") != "jazz" {
		t.Errorf("got %+v, %v", got, err)
	}
	if got, err := parseList("t.txt", "coffee: black oat\n", frameList); err != nil || got[0].name != "coffee" || len(got[0].words) != 2 {
		t.Errorf("frames: got %+v, %v", got, err)
	}
	if got, err := parseList("t.txt", "mother mum\nfather dad\n", synonymList); err != nil || len(got) != 2 || got[1].name != "father" {
		t.Errorf("synonyms: got %+v, %v", got, err)
	}
	if got, err := parseList("t.txt", "ll\n# c\nve\n", wordList); err != nil || strings.Join(got[0].words, " ") != "ll ve" {
		t.Errorf("words: got %+v, %v", got, err)
	}
}

// TestParseListRejects checks that every kind of malformed line is an
// error naming the file and line, not a line skipped.
func TestParseListRejects(t *testing.T) {
	for _, c := range []struct {
		kind listKind
		text string
		line string // "file:line" (or "file" alone) the error must name
	}{
		{topicList, "cello\n", "t.txt:1"},
		{topicList, "[music]\ncello\n", "t.txt:1"},
		{topicList, "[music/a b]\ncello\n", "t.txt:1"},
		{topicList, "music/instruments: cello violin\n", "t.txt:1"},
		{topicList, "[music/x]\ncello violin\n", "t.txt:2"},
		{topicList, "[music/x]\ncello\n[music/x]\nharp\n", "t.txt:3"},
		{topicList, "[music/x]\ncello\ncello\n", "t.txt:3"},
		{topicList, "[music/x]\n[music/y]\nharp\n", "t.txt:1"},
		{topicList, "[music/x]\nCello\n", "t.txt:2"},
		{topicList, "[music/x]\nёлка\n", "t.txt:2"},
		{topicList, "[music/x]\n-cello\n", "t.txt:2"},
		{topicList, "[music/x]\ncel--lo\n", "t.txt:2"},
		{topicList, "[music/x]\n42\n", "t.txt:2"},
		{topicList, "[music/x]\ncello \n", "t.txt:2"},
		{topicList, "[music/x]\n cello\n", "t.txt:2"},
		{topicList, "[music/x]\ncello\r\n", "t.txt:2"},
		{topicList, "[music/x]\ncello", "t.txt:2"},
		{frameList, "coffee black oat\n", "t.txt:1"},
		{frameList, "# c\nCoffee: black oat\n", "t.txt:2"},
		{frameList, "coffee: black  oat\n", "t.txt:1"},
		{frameList, "coffee: black oat\ncoffee: tea milk\n", "t.txt:2"},
		{frameList, "coffee: black black\n", "t.txt:1"},
		{frameList, "coffee:\n", "t.txt:1"},
		{synonymList, "mother\n", "t.txt:1"},
		{synonymList, "mother mum\nmother ma\n", "t.txt:2"},
		{synonymList, "mother mum mum\n", "t.txt:1"},
		{synonymList, "mother\tmum\n", "t.txt:1"},
		{wordList, "ll\nll\n", "t.txt:2"},
		{wordList, "ll ve\n", "t.txt:1"},
		{wordList, "# only a comment\n", "t.txt"},
		{wordList, "", "t.txt"},
		{synonymList, "mother \xffmum\n", "t.txt:1"},
	} {
		_, err := parseList("t.txt", c.text, c.kind)
		if !errors.Is(err, errLexicon) || !strings.Contains(err.Error(), c.line+":") {
			t.Errorf("%q: got %v, want an error at %s", c.text, err, c.line)
		}
	}
}

// TestNewAnalyzerMalformedLexicon checks that a malformed line in any
// lexicon stops the analyzer from being built, with the file and line named.
func TestNewAnalyzerMalformedLexicon(t *testing.T) {
	for _, c := range []struct {
		file, bad string
		mode      Mode
	}{
		{"lexicons/frames.en.txt", "coffee order: black oat\n", Topics},
		{"lexicons/frames.ru.txt", "без двоеточия слова\n", Topics},
		{"lexicons/topics.en.txt", "[music/x]\nCello\n", Topics},
		{"lexicons/synonyms.ru.txt", "мама\n", Semantic},
		{"lexicons/stop.en.txt", "two words\n", Stems},
		{"lexicons/prefixes.ru.txt", "пере\n", Keywords4},
	} {
		good, bad := fstest.MapFS{}, fstest.MapFS{}
		files, _ := fs.Glob(lexiconFiles, "lexicons/*")
		at := ""
		for _, f := range files {
			b, err := fs.ReadFile(lexiconFiles, f)
			if err != nil {
				t.Fatal(err)
			}
			good[f] = &fstest.MapFile{Data: b}
			bad[f] = good[f]
			if f == c.file {
				at = fmt.Sprintf("%s:%d:", f, strings.Count(string(b), "\n")+strings.Count(c.bad, "\n"))
				bad[f] = &fstest.MapFile{Data: append(slices.Clip(b), c.bad...)}
			}
		}
		if _, err := newAnalyzer(c.mode, good); err != nil {
			t.Fatalf("untouched lexicons: %v", err)
		}
		a, err := newAnalyzer(c.mode, bad)
		if a != nil || !errors.Is(err, errLexicon) || !strings.Contains(err.Error(), at) {
			t.Errorf("%s + %q: got %v, want an error at %s", c.file, c.bad, err, at)
		}
	}
}

func TestLexiconFormat(t *testing.T) {
	for _, lang := range lexiconLangs {
		t.Run(lang, func(t *testing.T) {
			entries := testList(t, "topics", lang)
			subsPerTopic := map[string]int{}
			for _, e := range entries {
				topic, _, _ := strings.Cut(e.name, "/")
				if !lexiconTopics[topic] {
					t.Errorf("%s: unknown topic %q", e.name, topic)
				}
				subsPerTopic[topic]++
			}
			for topic := range lexiconTopics {
				if subsPerTopic[topic] == 0 {
					t.Errorf("topic %q has no subtopics", topic)
				}
			}
		})
	}
}

func TestLexiconSharedSubtopics(t *testing.T) {
	for _, c := range []struct {
		lang  string
		words []string
	}{
		{"en", []string{"cello", "violin", "instrument"}},
		{"en", []string{"employer", "job"}},
		{"ru", []string{"виолончель", "скрипка", "инструмент"}},
		{"ru", []string{"работодатель", "работа"}},
	} {
		found := false
		for _, e := range testList(t, "topics", c.lang) {
			all := true
			for _, w := range c.words {
				all = all && slices.Contains(e.words, w)
			}
			found = found || all
		}
		if !found {
			t.Errorf("%v do not share a subtopic", c.words)
		}
	}
}

// TestWordTokens checks that every word of every lexicon gives the tokens
// tokenize would give it, so loading may skip tokenize.
func TestWordTokens(t *testing.T) {
	files, _ := fs.Glob(lexiconFiles, "lexicons/*")
	for _, f := range files {
		entries, err := readList(lexiconFiles, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			for _, w := range e.words {
				var got []token
				for tok := range wordTokens(w) {
					got = append(got, tok)
				}
				want := tokenize(w, false)
				for i := range want {
					want[i].joined = false // not used in loading
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: %q: got %+v, tokenize gives %+v", f, w, got, want)
				}
			}
		}
	}
}

// TestReadListUnknownKind checks that a file whose name gives no known
// layout is refused rather than read as some other kind.
func TestReadListUnknownKind(t *testing.T) {
	fsys := fstest.MapFS{"lexicons/words.en.txt": {Data: []byte("cello\n")}}
	if _, err := readList(fsys, "lexicons/words.en.txt"); !errors.Is(err, errLexicon) || !strings.Contains(err.Error(), "words.en.txt") {
		t.Errorf("got %v", err)
	}
	if _, err := readList(fsys, "lexicons/stop.en.txt"); err == nil || errors.Is(err, errLexicon) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: got %v", err)
	}
}
