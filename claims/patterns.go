package claims

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/internal/fold"
	"github.com/palimpsest-mem/memory/internal/wordlist"
)

// patternFiles holds the rules' data; each file's opening comment says
// its format.
//
//go:embed patterns/*.txt
var patternFiles embed.FS

// errPatterns marks a malformed pattern file. The files are built in, so
// it means the build is broken, and Extract finds nothing rather than
// guess.
var errPatterns = errors.New("malformed claim patterns")

// The built-in rules, read once when the package is initialised and never
// changed; rulesErr says why they could not be read.
var builtin, rulesErr = loadRules(patternFiles)

// elemKind is what one element of a pattern matches.
type elemKind int

const (
	literal elemKind = iota // one of words
	capture                 // one of words, which is the object: "[vegan|vegetarian]"
	subject                 // "S": whom the fact is about ("my sister", "Anna")
	slot                    // "X" or "NAME": the object
	skip                    // "_": one to four words not the object ("a software engineer"), the fewest that do
	dash                    // "—": a dash standing for the verb "is" ("брат — врач")
)

type elem struct {
	kind     elemKind
	words    []string // literal and capture: the alternatives
	optional bool     // literal: "the?" may be absent
	joins    bool     // literal: "club+" after the object ends it: "chess club"
	names    bool     // slot: NAME takes only a capitalised or quoted name
	prefix   string   // slot: "по-" in "по-X": the object is the rest of a word so begun
	cases    string   // slot: the Russian case its object stands in ("prep"), put back in the nominative
	// nominatives: capture words written "word=nominative" ("[щенка=щенок]"),
	// whose object is the nominative.
	nominatives map[string]string
}

// pattern is one line of a pattern file.
type pattern struct {
	rel     Relation
	kind    Kind
	elems   []elem
	obj     int  // the index in elems of the object (slot or capture)
	atStart bool // "^": only at the start of the text or of a sentence
	// implicit: the pattern names no subject (Russian verbs carry the
	// person: "сестра переехала в X"), so a subject phrase just before it
	// is its subject.
	implicit bool
	// further: a Russian "S verb ..." pattern read from its verb on, whose
	// subject is the one its sentence names earlier ("Папа уже двадцать
	// лет работает на X"); with none it matches nothing, for the verb is
	// in the third person.
	further bool
	where   string // "en.txt:12", for tests and errors
}

// rules is everything Extract reads from the pattern files.
type rules struct {
	patterns  []pattern
	byFirst   map[string][]int // the patterns beginning with a word, by the word
	bySubject []int            // the patterns beginning with S
	stop      map[string]bool  // words that end an object phrase
	lead      map[string]bool  // words dropped before an object: "a", "my"
	// describers are dropped before an object too, when in lower case: "old"
	describers map[string]bool
	subjects   map[string]bool // nouns after "my" that name a subject: "sister"
	negation   map[string]bool // a word before a pattern that denies it: "not", "не"
	adverbs    map[string]bool // a word that may stand between a pattern's words: "just"
	// indeclinable holds the Russian words no case rule rewrites: "укулеле".
	indeclinable map[string]bool
	// firstPerson, subordinators, possessives, my and interjections are
	// the files of those names: the words that make a clause the user's,
	// begin a clause of its own, make a relative someone else's or the
	// user's, and open a sentence as a word of address.
	firstPerson, subordinators, possessives, my, interjections map[string]bool

	cases map[string][][2]string // case name → ordered suffix rewrites {from, to}
	// designators holds "kind noun" for the nouns that a letter or a
	// number after them makes a name of that kind: "company A".
	designators map[string]bool
	// nonObjects holds "kind noun" for the nouns that end no object of
	// that kind: "school класс" ("во втором классе" is a stage of study).
	nonObjects map[string]bool
	// endings are the phrases of endings.txt, each a slice of words, and
	// unsaid the words that take one back: an ending after a match says
	// that what it states is over ("my cat Luna died").
	endings [][]string
	unsaid  map[string]bool
	// roles are the nouns of roles.txt, by the relation whose object
	// they name; cues the words that say a relation (Cues).
	roles, cues map[Relation][]string
	// shapes says how the last word of an object of a kind looks
	// (jobs.txt, medications.txt); a kind with none takes any.
	shapes map[Kind]*shape
}

// shape is one file of jobs.txt's format: the words that name a thing of
// a kind, the endings that do, and the words so ending that do not.
type shape struct {
	words, not map[string]bool
	endings    []string
}

func loadRules(fsys fs.FS) (*rules, error) {
	r := &rules{cases: map[string][][2]string{}}
	var err error
	lists := []struct {
		file string
		set  *map[string]bool
	}{{"stop.txt", &r.stop}, {"lead.txt", &r.lead}, {"subjects.txt", &r.subjects}, {"negation.txt", &r.negation}, {"adverbs.txt", &r.adverbs}, {"indeclinable.txt", &r.indeclinable}, {"describers.txt", &r.describers},
		{"firstperson.txt", &r.firstPerson}, {"subordinators.txt", &r.subordinators}, {"possessives.txt", &r.possessives},
		{"my.txt", &r.my}, {"interjections.txt", &r.interjections}}
	for _, l := range lists {
		if *l.set, err = readWords(fsys, l.file); err != nil {
			return nil, err
		}
	}
	if r.designators, err = readKindNouns(fsys, "designators.txt"); err != nil {
		return nil, err
	}
	if r.nonObjects, err = readKindNouns(fsys, "nonobjects.txt"); err != nil {
		return nil, err
	}
	r.shapes = map[Kind]*shape{}
	for k, file := range map[Kind]string{Job: "jobs.txt", Medication: "medications.txt"} {
		if r.shapes[k], err = readShape(fsys, file); err != nil {
			return nil, err
		}
	}
	if r.endings, r.unsaid, err = readEndings(fsys, "endings.txt"); err != nil {
		return nil, err
	}
	if err := r.readCases(fsys, "cases.txt"); err != nil {
		return nil, err
	}
	text, err := readFile(fsys, "roles.txt")
	if err != nil {
		return nil, err
	}
	if r.roles, err = readRoles(text); err != nil {
		return nil, err
	}
	for _, f := range []string{"en.txt", "ru.txt"} {
		if err := r.readPatterns(fsys, f); err != nil {
			return nil, err
		}
	}
	// Each Russian S pattern also from its verb on, for a subject that
	// stands further back than just before the verb.
	for _, p := range r.patterns {
		if p.elems[0].kind == subject && strings.HasPrefix(p.where, "ru.txt") && p.elems[1].kind == literal {
			q := p
			q.elems = slices.Clone(p.elems[1:])
			q.obj--
			q.implicit, q.further = true, true
			q.where += " (from its verb)"
			r.patterns = append(r.patterns, q)
		}
	}
	r.cues = r.cuesOf()
	r.byFirst = map[string][]int{}
	for i, p := range r.patterns {
		if p.elems[0].kind == subject {
			r.bySubject = append(r.bySubject, i)
			continue
		}
		for _, w := range p.elems[0].words {
			r.byFirst[w] = append(r.byFirst[w], i)
		}
	}
	return r, nil
}

func readFile(fsys fs.FS, file string) (string, error) {
	b, err := fs.ReadFile(fsys, "patterns/"+file)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errPatterns, err)
	}
	return string(b), nil
}

// readWords reads a list of one word a line.
func readWords(fsys fs.FS, file string) (map[string]bool, error) {
	return readSet(fsys, file, func(line string, set map[string]bool) error {
		if why := badWord(line); why != "" {
			return fmt.Errorf("word %q %s", line, why)
		}
		if set[line] {
			return fmt.Errorf("word %q twice", line)
		}
		set[line] = true
		return nil
	})
}

// readSet reads file into a set, each line added by add; a file that adds
// nothing is refused too.
func readSet(fsys fs.FS, file string, add func(line string, set map[string]bool) error) (map[string]bool, error) {
	text, err := readFile(fsys, file)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	err = wordlist.Parse(file, text, func(_ int, line string) error { return add(line, set) })
	if err == nil && len(set) == 0 {
		err = fmt.Errorf("%s: the list has no words", file)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errPatterns, err)
	}
	return set, nil
}

// badWord is wordlist.BadWord, letting an apostrophe begin a word ("'s",
// the possessive as the tokenizer writes it).
func badWord(w string) string {
	if rest, ok := strings.CutPrefix(w, "'"); ok && rest != "" {
		w = rest
	}
	return wordlist.BadWord(w)
}

// readEndings reads endings.txt: a phrase, or "!word", a line.
func readEndings(fsys fs.FS, file string) (phrases [][]string, unsaid map[string]bool, err error) {
	text, err := readFile(fsys, file)
	if err != nil {
		return nil, nil, err
	}
	unsaid = map[string]bool{}
	seen := map[string]bool{}
	err = wordlist.Parse(file, text, func(_ int, line string) error {
		if w, ok := strings.CutPrefix(line, "!"); ok {
			if why := badWord(w); why != "" {
				return fmt.Errorf("word %q %s", w, why)
			}
			if unsaid[w] {
				return fmt.Errorf("word %q twice", w)
			}
			unsaid[w] = true
			return nil
		}
		words := strings.Split(line, " ")
		for _, w := range words {
			if why := badWord(w); why != "" {
				return fmt.Errorf("word %q %s", w, why)
			}
		}
		if seen[line] {
			return fmt.Errorf("phrase %q twice", line)
		}
		seen[line] = true
		phrases = append(phrases, words)
		return nil
	})
	if err == nil && len(phrases) == 0 {
		err = fmt.Errorf("%s: the list has no phrases", file)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errPatterns, err)
	}
	return phrases, unsaid, nil
}

// readShape reads a file of jobs.txt's format: a word, "-ending" or
// "!word" a line.
func readShape(fsys fs.FS, file string) (*shape, error) {
	text, err := readFile(fsys, file)
	if err != nil {
		return nil, err
	}
	sh := &shape{words: map[string]bool{}, not: map[string]bool{}}
	err = wordlist.Parse(file, text, func(_ int, line string) error {
		w, set := line, sh.words
		switch {
		case strings.HasPrefix(line, "-"):
			w, set = line[1:], nil
		case strings.HasPrefix(line, "!"):
			w, set = line[1:], sh.not
		}
		if why := badWord(w); why != "" {
			return fmt.Errorf("word %q %s", w, why)
		}
		if set == nil {
			if slices.Contains(sh.endings, w) {
				return fmt.Errorf("ending %q twice", w)
			}
			sh.endings = append(sh.endings, w)
			return nil
		}
		if sh.words[w] || sh.not[w] {
			return fmt.Errorf("word %q twice", w)
		}
		set[w] = true
		return nil
	})
	if err == nil && len(sh.words)+len(sh.endings) == 0 {
		err = fmt.Errorf("%s: the list has no words", file)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errPatterns, err)
	}
	return sh, nil
}

// fits reports whether object, of kind, ends in a word of the kind's
// shape: its last word of two letters or more with no digit ("vitamin"
// of "vitamin D"), by the words, the exceptions and then the endings. A
// Russian head noun may come first, before a genitive ("водитель
// автобуса"), so there any word will do. A job's capitalised last word is
// a name, not a job ("I'm a native English speaker" gives no title
// "English").
func (r *rules) fits(kind Kind, object string) bool {
	sh := r.shapes[kind]
	if sh == nil {
		return true
	}
	f := strings.Fields(object)
	if len(f) > 1 && strings.ContainsFunc(object, func(c rune) bool { return unicode.Is(unicode.Cyrillic, c) }) {
		for i := range f {
			if r.fits(kind, f[i]) {
				return true
			}
		}
		return false
	}
	for len(f) > 1 {
		if w := f[len(f)-1]; utf8.RuneCountInString(w) > 1 && !strings.ContainsFunc(w, unicode.IsDigit) {
			break
		}
		f = f[:len(f)-1]
	}
	if len(f) == 0 {
		return false
	}
	last := f[len(f)-1]
	if first, _ := utf8.DecodeRuneInString(last); kind == Job && unicode.IsUpper(first) && strings.ToUpper(last) != last {
		return false
	}
	w := strings.Map(fold.Rune, last)
	switch {
	case sh.not[w]:
		return false
	case sh.words[w]:
		return true
	}
	for _, e := range sh.endings {
		if strings.HasSuffix(w, e) && utf8.RuneCountInString(w) > utf8.RuneCountInString(e)+1 {
			return true
		}
	}
	return false
}

// readCases reads the suffix rewrites: "case from to" a line, "-" for an
// empty to.
func (r *rules) readCases(fsys fs.FS, file string) error {
	text, err := readFile(fsys, file)
	if err != nil {
		return err
	}
	err = wordlist.Parse(file, text, func(_ int, line string) error {
		f := strings.Split(line, " ")
		if len(f) != 3 {
			return fmt.Errorf("want \"case from to\", got %q", line)
		}
		to := f[2]
		if to == "-" {
			to = ""
		}
		for _, w := range []string{f[0], f[1], to} {
			if why := wordlist.BadWord(w); w != "" && why != "" {
				return fmt.Errorf("word %q %s", w, why)
			}
		}
		for _, c := range r.cases[f[0]] {
			if strings.HasSuffix(f[1], c[0]) {
				return fmt.Errorf("suffix %q ends in the earlier %q, which is found first", f[1], c[0])
			}
		}
		r.cases[f[0]] = append(r.cases[f[0]], [2]string{f[1], to})
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: %w", errPatterns, err)
	}
	return nil
}

// readKindNouns reads "kind noun noun ..." a line into a set of "kind
// noun" (designators.txt, nonobjects.txt).
func readKindNouns(fsys fs.FS, file string) (map[string]bool, error) {
	return readSet(fsys, file, func(line string, set map[string]bool) error {
		f := strings.Split(line, " ")
		if len(f) < 2 {
			return fmt.Errorf("want \"kind noun ...\", got %q", line)
		}
		if !slices.Contains(Kinds(), Kind(f[0])) {
			return fmt.Errorf("unknown kind %q", f[0])
		}
		for _, w := range f[1:] {
			if why := badWord(w); why != "" {
				return fmt.Errorf("word %q %s", w, why)
			}
			if set[f[0]+" "+w] {
				return fmt.Errorf("%s %q twice", f[0], w)
			}
			set[f[0]+" "+w] = true
		}
		return nil
	})
}

// readPatterns reads "relation kind: elements" a line.
func (r *rules) readPatterns(fsys fs.FS, file string) error {
	text, err := readFile(fsys, file)
	if err != nil {
		return err
	}
	seen := map[string]int{}
	err = wordlist.Parse(file, text, func(n int, line string) error {
		if at, ok := seen[line]; ok {
			return fmt.Errorf("pattern already on line %d", at)
		}
		seen[line] = n
		p, err := r.parsePattern(line)
		if err != nil {
			return err
		}
		p.where = fmt.Sprintf("%s:%d", file, n)
		r.patterns = append(r.patterns, p)
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: %w", errPatterns, err)
	}
	return nil
}

func (r *rules) parsePattern(line string) (pattern, error) {
	head, body, ok := strings.Cut(line, ": ")
	hf := strings.Split(head, " ")
	if !ok || len(hf) != 2 {
		return pattern{}, fmt.Errorf("want \"relation kind: elements\", got %q", line)
	}
	rel, err := ParseRelation(hf[0])
	if err != nil {
		return pattern{}, err
	}
	p := pattern{rel: rel, kind: Kind(hf[1])}
	if !slices.Contains(Kinds(), p.kind) {
		return pattern{}, fmt.Errorf("unknown kind %q", hf[1])
	}
	objects := 0
	if rest, ok := strings.CutPrefix(body, "^ "); ok {
		p.atStart, body = true, rest
	}
	for i, f := range strings.Split(body, " ") {
		e, err := r.parseElem(f)
		if err != nil {
			return pattern{}, fmt.Errorf("element %q: %w", f, err)
		}
		switch {
		case e.kind == subject && i > 0:
			return pattern{}, fmt.Errorf("S must come first")
		case i == 0 && (e.kind == slot || e.kind == skip || e.kind == dash || e.optional):
			return pattern{}, fmt.Errorf("a pattern must begin with a word it needs or S")
		case e.joins && (i == 0 || p.elems[i-1].kind != slot && !p.elems[i-1].joins):
			return pattern{}, fmt.Errorf("a word+ must follow the object X or another word+")
		case e.kind == slot || e.kind == capture:
			objects++
			p.obj = i
		}
		p.elems = append(p.elems, e)
	}
	if objects != 1 {
		return pattern{}, fmt.Errorf("a pattern needs exactly one object (X, NAME or [words]), has %d", objects)
	}
	e0 := p.elems[0]
	p.implicit = e0.kind != subject && !(e0.kind == literal && (slices.Contains(e0.words, "i") || slices.Contains(e0.words, "я") || slices.Contains(e0.words, "мы") || slices.Contains(e0.words, "we")))
	return p, nil
}

func (r *rules) parseElem(f string) (elem, error) {
	switch f {
	case "S":
		return elem{kind: subject}, nil
	case "_":
		return elem{kind: skip}, nil
	case "—":
		return elem{kind: dash}, nil
	}
	if name, cases, _ := strings.Cut(f, "."); strings.HasSuffix(name, "X") || name == "NAME" {
		e := elem{kind: slot, names: name == "NAME", cases: cases}
		if name != "X" && name != "NAME" {
			e.prefix = strings.TrimSuffix(name, "X")
			if !strings.HasSuffix(e.prefix, "-") || wordlist.BadWord(strings.TrimSuffix(e.prefix, "-")) != "" {
				return elem{}, fmt.Errorf("a prefixed slot is a word, a hyphen and X: \"по-X\"")
			}
		}
		if _, ok := r.cases[cases]; cases != "" && !ok {
			return elem{}, fmt.Errorf("unknown case %q (cases.txt)", cases)
		}
		return e, nil
	}
	e := elem{kind: literal}
	if inner, ok := strings.CutPrefix(f, "["); ok {
		if inner, ok = strings.CutSuffix(inner, "]"); !ok {
			return elem{}, fmt.Errorf("no closing ]")
		}
		e.kind, f = capture, inner
	} else if f, e.optional = strings.CutSuffix(f, "?"); e.optional && utf8.RuneCountInString(f) == 0 {
		return elem{}, fmt.Errorf("nothing before ?")
	} else if f, e.joins = strings.CutSuffix(f, "+"); e.joins && (e.optional || f == "") {
		return elem{}, fmt.Errorf("a word+ cannot be absent or empty")
	}
	for _, w := range strings.Split(f, "|") {
		if word, nom, ok := strings.Cut(w, "="); ok && e.kind == capture {
			if why := badWord(nom); why != "" {
				return elem{}, fmt.Errorf("word %q %s", nom, why)
			}
			if e.nominatives == nil {
				e.nominatives = map[string]string{}
			}
			w, e.nominatives[word] = word, nom
		}
		if why := badWord(w); why != "" {
			return elem{}, fmt.Errorf("word %q %s", w, why)
		}
		if slices.Contains(e.words, w) {
			return elem{}, fmt.Errorf("word %q twice", w)
		}
		e.words = append(e.words, w)
	}
	return e, nil
}
