package index

import (
	"bufio"
	"fmt"
	"strings"
)

// loadLexicons parses the English and Russian lexicons into a map from
// stem to the tags of every topic and subtopic the word belongs to, and of
// every frame: a specific recurring thing of a life ("coffee-order",
// "broken-bone") narrower than a subtopic, tagged "#name". Words pass
// through the same analysis as text, so any form of a word finds them.
func (a *Analyzer) loadLexicons() (map[string][]string, error) {
	out := map[string][]string{}
	for _, frames := range []string{framesEN, framesRU} {
		for _, line := range strings.Split(frames, "\n") {
			name, words, ok := strings.Cut(line, ":")
			if name = strings.TrimSpace(name); !ok || name == "" || strings.HasPrefix(name, "#") {
				continue
			}
			for _, w := range strings.Fields(words) {
				for _, tok := range tokenize(w, false) {
					if !a.stop(tok) {
						s := a.stem(tok)
						out[s] = append(out[s], "#"+name)
					}
				}
			}
		}
	}
	for _, lex := range []string{lexiconEN, lexiconRU} {
		entries, err := parseLexicon(lex)
		if err != nil {
			return nil, err
		}
		for sub, words := range entries {
			topic, _, _ := strings.Cut(sub, "/")
			for _, w := range words {
				for _, tok := range tokenize(w, false) {
					if a.stop(tok) {
						continue
					}
					s := a.stem(tok)
					out[s] = append(out[s], topic, sub)
				}
			}
		}
	}
	for s, tags := range out {
		out[s] = dedupe(tags)
	}
	return out, nil
}

// parseLexicon reads lines of the form "topic/subtopic: word word ...";
// # starts a comment. A subtopic may continue over several lines.
func parseLexicon(text string) (map[string][]string, error) {
	out := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, words, ok := strings.Cut(line, ":")
		topic, sub, ok2 := strings.Cut(strings.TrimSpace(head), "/")
		if !ok || !ok2 || topic == "" || sub == "" || strings.ContainsAny(head, " \t") {
			return nil, fmt.Errorf("lexicon line %d: want \"topic/subtopic: words\"", n)
		}
		key := topic + "/" + sub
		out[key] = append(out[key], strings.Fields(words)...)
	}
	return out, sc.Err()
}

// synonymMark begins the term of a synonym set, so that it never equals a
// stem; Shared shows it as the set's first word, e.g. "≈mother".
const synonymMark = "≈"

// loadSynonyms maps the stem of every word in the English and Russian
// synonym sets to a term naming its set: "mum" and "mother" both index
// "≈mother", and so meet as directly as a shared word.
func (a *Analyzer) loadSynonyms() map[string][]string {
	out := map[string][]string{}
	for _, text := range []string{synonymsEN, synonymsRU} {
		for _, line := range strings.Split(text, "\n") {
			words := strings.Fields(line)
			if len(words) < 2 || strings.HasPrefix(words[0], "#") {
				continue
			}
			name := synonymMark + words[0]
			for _, w := range words {
				for _, tok := range tokenize(w, false) {
					if !a.stop(tok) {
						s := a.stem(tok)
						out[s] = append(out[s], name)
					}
				}
			}
		}
	}
	for s, names := range out {
		out[s] = dedupe(names)
	}
	return out
}
