package index

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/palimpsest-mem/memory/internal/wordlist"
)

// lexiconFiles holds the word lists the analyzer is built from; their
// format is in lexicons/README.txt.
//
//go:embed lexicons/*.en.txt lexicons/*.ru.txt
var lexiconFiles embed.FS

// errLexicon marks a malformed line in a lexicon file. The files are built
// in, so it means the build is broken: NewAnalyzer fails rather than skip
// the line and quietly find fewer candidates.
var errLexicon = errors.New("malformed lexicon")

// listKind is the layout of a lexicon file, given by its name's first part.
type listKind int

const (
	wordList    listKind = iota // stop.*, question.*, prefixes.*: one word a line
	topicList                   // topics.*: "[topic/subtopic]", then one word a line
	frameList                   // frames.*: "name: word word ..."
	synonymList                 // synonyms.*: "word word ...", the first naming the set
)

// kindOf gives the kind of a list from its file's name, KIND.LANG.txt.
func kindOf(file string) (listKind, bool) {
	switch kind, _, _ := strings.Cut(path.Base(file), "."); kind {
	case "stop", "question", "prefixes":
		return wordList, true
	case "topics":
		return topicList, true
	case "frames":
		return frameList, true
	case "synonyms":
		return synonymList, true
	}
	return 0, false
}

// entry is a class of a topic list, a frame, a synonym set, or the whole of
// a word list (named ""). Words are in the order of the file.
type entry struct {
	name  string
	words []string
	line  int // where the entry begins
}

// readList reads and parses one lexicon file of fsys.
func readList(fsys fs.FS, file string) ([]entry, error) {
	kind, ok := kindOf(file)
	if !ok {
		return nil, fmt.Errorf("%w: %s: unknown kind of list (want stop, prefixes, topics, frames or synonyms)", errLexicon, file)
	}
	text, err := readText(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	return parseList(file, text, kind)
}

// readText reads a file into a string with a single copy.
func readText(fsys fs.FS, file string) (string, error) {
	f, err := fsys.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	if st, err := f.Stat(); err == nil {
		b.Grow(int(st.Size()))
	}
	// A small buffer: the builder already holds room for the whole file.
	if _, err := io.CopyBuffer(&b, f, make([]byte, 4096)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// parseList parses the text of a lexicon file. It is strict: any line that
// is not blank, a comment or a well-formed entry of the file's kind is an
// error naming the file and line. Words and names are substrings of text.
func parseList(file, text string, kind listKind) ([]entry, error) {
	// Sized from the text, so that neither grows while it is read.
	entries := strings.Count(text, "\n")
	if kind == topicList {
		entries = strings.Count(text, "\n[") + 1
	}
	out := make([]entry, 0, entries)
	names := make(map[string]int, entries) // entry name -> line
	inEntry := map[string]int{}            // word -> line, within the current entry
	var one [1]string                      // the word of a one-word line
	begin := func(n int, name string) (ok bool, prev int) {
		if prev, dup := names[name]; dup {
			return false, prev
		}
		names[name] = n
		clear(inEntry)
		out = append(out, entry{name: name, line: n})
		return true, 0
	}
	if kind == wordList {
		out = append(out, entry{line: 1})
	}
	err := wordlist.Parse(file, text, func(n int, line string) error {
		var words []string
		switch kind {
		case wordList:
			one[0], words = line, one[:]
		case topicList:
			if head, ok := strings.CutPrefix(line, "["); ok {
				head, ok = strings.CutSuffix(head, "]")
				topic, sub, ok2 := strings.Cut(head, "/")
				if !ok || !ok2 || wordlist.BadWord(topic) != "" || wordlist.BadWord(sub) != "" {
					return fmt.Errorf("want \"[topic/subtopic]\", got %q", line)
				}
				if ok, prev := begin(n, head); !ok {
					return fmt.Errorf("class %q already opened on line %d", head, prev)
				}
				return nil
			}
			if len(out) == 0 {
				return fmt.Errorf("word %q before the first \"[topic/subtopic]\"", line)
			}
			one[0], words = line, one[:]
		case frameList:
			name, rest, ok := strings.Cut(line, ": ")
			if !ok {
				return fmt.Errorf("want \"name: word word ...\", got %q", line)
			}
			if why := wordlist.BadWord(name); why != "" {
				return fmt.Errorf("frame name %q %s", name, why)
			}
			if ok, prev := begin(n, name); !ok {
				return fmt.Errorf("frame %q already defined on line %d", name, prev)
			}
			words = strings.Split(rest, " ")
		case synonymList:
			words = strings.Split(line, " ")
			if len(words) < 2 {
				return fmt.Errorf("a set needs two or more words, got %q", line)
			}
			if why := wordlist.BadWord(words[0]); why != "" {
				return fmt.Errorf("word %q %s", words[0], why)
			}
			if ok, prev := begin(n, words[0]); !ok {
				return fmt.Errorf("a set named %q already begins line %d", words[0], prev)
			}
		}
		for _, w := range words {
			if why := wordlist.BadWord(w); why != "" {
				return fmt.Errorf("word %q %s", w, why)
			}
			if prev, dup := inEntry[w]; dup {
				return fmt.Errorf("word %q already on line %d", w, prev)
			}
			inEntry[w] = n
		}
		if e := &out[len(out)-1]; kind == frameList || kind == synonymList {
			e.words = words
		} else {
			e.words = append(e.words, words...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errLexicon, err)
	}
	for _, e := range out {
		if len(e.words) == 0 && e.name == "" {
			return nil, fmt.Errorf("%w: %s: the list has no words", errLexicon, file)
		}
		if len(e.words) == 0 {
			return nil, fmt.Errorf("%w: %s:%d: %q has no words", errLexicon, file, e.line, e.name)
		}
	}
	return out, nil
}
