package claims

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/internal/fold"
)

// Extract returns the claims text states, found by the built-in rules in
// English and Russian, in the order their objects appear, each once; nil
// when none is found. Every claim it returns passes Validate, and its
// object is a span of the text (Normalize of the object is a substring of
// Normalize of the text) but for the last two letters of a Russian word
// put back in the nominative. It never panics.
func Extract(text string) []Claim {
	if rulesErr != nil {
		return nil
	}
	return builtin.extract(text)
}

// found is one match of a pattern in a text.
type found struct {
	p          *pattern
	start, end int    // the tokens matched, [start, end)
	lits       []int  // the tokens the pattern's words matched
	subject    string // "" for the user
	// also is a second subject joined to the first by "and" ("my mum and
	// my aunt"), when pair is set.
	also    string
	pair    bool
	objects []span // the first from the pattern, the rest joined to it by "and" or a comma
}

// subjects returns whom f is about: its subject, and the one joined to it.
func (f *found) subjects() []string {
	if f.pair {
		return []string{f.subject, f.also}
	}
	return []string{f.subject}
}

// span is an object: tokens [a, b), and its text.
type span struct {
	a, b int
	text string
}

const (
	maxPhrase = 3 // words of an object that is not a name
	maxName   = 6 // words of a capitalised name
	maxSkip   = 4 // words a "_" passes over
	maxQuote  = 12
	maxJoined = 16 // objects joined to one another
	// maxSpan bounds the tokens of a match: a subject, the pattern's words
	// with adverbs between them, a "_", and maxJoined objects with their
	// conjunctions.
	maxSpan = 8 + 2*16 + maxSkip + maxJoined*(maxQuote+4)
)

func (r *rules) extract(text string) []Claim {
	toks := tokenize(text)
	for i := range toks {
		toks[i].adverb = r.adverb(toks[i])
	}
	var all []*found // in the order of their start
	for ti, t := range toks {
		try := func(pi int) {
			if f := r.matchAt(text, toks, &r.patterns[pi], ti, all); f != nil {
				all = append(all, f)
			}
		}
		if conjunction(t.word) { // may stand for any pattern's subject
			for pi := range r.patterns {
				try(pi)
			}
			continue
		}
		for _, pi := range r.byFirst[t.word] {
			try(pi)
		}
		if t.word != "" && (t.upper || r.subjects[t.word] || r.lead[t.word]) {
			// Every such pattern begins with S: none matches where no
			// subject phrase begins.
			if _, _, ok := r.subjectAt(text, toks, ti); ok {
				for _, pi := range r.bySubject {
					try(pi)
				}
			}
		}
	}
	type at struct {
		pos int
		c   Claim
	}
	var out []at
	type key struct{ s, r, o string }
	seen := map[key]bool{}
	for _, f := range r.kept(toks, all) {
		for _, o := range f.objects {
			if overlapsLiteral(o, f, near(all, f)) {
				continue
			}
			if !r.fits(f.p.kind, o.text) {
				continue // "I'm a night owl", "I take the bus"
			}
			for _, s := range f.subjects() {
				c := Claim{Subject: s, Relation: f.p.rel, Object: o.text, Kind: f.p.kind}
				k := key{Normalize(c.Subject), string(c.Relation), Normalize(c.Object)}
				if seen[k] || c.Validate() != nil {
					continue
				}
				seen[k] = true
				out = append(out, at{o.a, c})
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.SortStableFunc(out, func(x, y at) int { return x.pos - y.pos })
	claims := make([]Claim, len(out))
	for i, x := range out {
		claims[i] = x.c
	}
	return claims
}

// kept drops the matches another match overrules: one denied by the word
// before it ("not", "не"), and one whose words are a part of another's
// with the same object ("люблю X" inside "не люблю X", "i am a X" inside
// "i am a vegetarian"), and one needing the same words as an earlier one
// ("Anna lives in X" inside "my sister Anna lives in X").
func (r *rules) kept(toks []token, all []*found) []*found {
	var out []*found
	for i, f := range all {
		if f.start > 0 && r.negation[toks[f.start-1].word] || r.ended(toks, all[i+1:], f) {
			continue
		}
		if slices.ContainsFunc(near(all, f), func(g *found) bool {
			return g != f && overrules(g, f) || g.start < f.start && slices.Equal(g.lits, f.lits)
		}) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// near returns the matches of all (in the order of their start) that may
// overlap f: those starting before its end and at most maxSpan before its
// start. Looking no further keeps a long text linear.
func near(all []*found, f *found) []*found {
	i, _ := slices.BinarySearchFunc(all, f.start-maxSpan, func(g *found, start int) int { return g.start - start })
	j, _ := slices.BinarySearchFunc(all, f.end, func(g *found, start int) int { return g.start - start })
	return all[i:j]
}

// endReach is how many tokens after a match an ending may stand: "my cat
// Luna, who was 15, died".
const endReach = 8

// ended reports whether an ending of endings.txt follows f in its clause,
// before the next match (of later, in the order of their start) begins,
// and is not taken back by the word before it: "my cat Luna died" states
// no has_pet, "my cat Luna almost died" does. "And I" goes on with the
// clause ("my boyfriend Tom and I broke up"); another "and" or the end of
// a sentence ends it.
func (r *rules) ended(toks []token, later []*found, f *found) bool {
	stop := min(len(toks), f.end+endReach)
	if i := slices.IndexFunc(later, func(g *found) bool { return g.start >= f.end }); i >= 0 {
		stop = min(stop, later[i].start)
	}
	for i := f.end; i < stop; i++ {
		w := toks[i].word
		if strings.ContainsRune(".!?;", toks[i].mark) && toks[i].mark != 0 {
			return false
		}
		if conjunction(w) && (i+1 >= len(toks) || toks[i+1].word != "i" && toks[i+1].word != "я") {
			return false
		}
		for _, e := range r.endings {
			if i+len(e) <= len(toks) && slices.EqualFunc(toks[i:i+len(e)], e, func(t token, w string) bool { return t.word == w }) {
				if prev := toks[i-1].word; !r.negation[prev] && !r.unsaid[prev] {
					return true
				}
			}
		}
	}
	return false
}

func overrules(g, f *found) bool {
	// "my mum and I …" aside, a match of two subjects says more than one
	// of either.
	if len(g.lits) <= len(f.lits) || !overlap(g.objects[0], f.objects[0]) || f.pair && !g.pair {
		return false
	}
	for _, i := range f.lits {
		if !slices.Contains(g.lits, i) {
			return false
		}
	}
	return true
}

func overlap(a, b span) bool { return a.a < b.b && b.a < a.b }

// overlapsLiteral reports whether an object of f is a word another match
// needs: "member" of "i am a member of X" is no job title.
func overlapsLiteral(o span, f *found, all []*found) bool {
	for _, g := range all {
		if g == f {
			continue
		}
		for _, i := range g.lits {
			if o.a <= i && i < o.b {
				return true
			}
		}
	}
	return false
}

// conjunction reports whether w may stand for the subject of the match
// before it: "I love coffee but hate tea".
func conjunction(w string) bool {
	switch w {
	case "and", "but", "и", "а", "но":
		return true
	}
	return false
}

// onHeap copies a successful match off the stack.
func onHeap(f *found) *found {
	out := *f
	return &out
}

// matchAt matches p at token ti; earlier are the matches found so far,
// which a leading "and" continues ("I work at A and live in B").
func (r *rules) matchAt(text string, toks []token, p *pattern, ti int, earlier []*found) *found {
	if p.atStart && !r.sentenceStart(toks, ti) && !(ti < len(toks) && conjunction(toks[ti].word)) {
		return nil // cheaply, before the match is tried
	}
	// Most tries fail: the match lives on the stack until one succeeds.
	var try found
	f := &try
	*f = found{p: p, start: ti}
	e0, implicit := p.elems[0], p.implicit
	if ti < len(toks) && conjunction(toks[ti].word) {
		prev := continued(earlier, ti)
		switch {
		case prev == nil:
		case e0.kind == subject && prev.subject != "":
			f.subject = prev.subject
			if r.rest(text, toks, p, 1, ti+1, f) {
				return onHeap(f)
			}
		case e0.kind == literal && !implicit && prev.subject == "":
			if r.rest(text, toks, p, 1, ti+1, f) {
				return onHeap(f)
			}
		}
		if prev != nil && prev.p == p && ti+1 < len(toks) && (e0.kind == subject || !implicit) {
			// The same pattern again from a later word of its own: "I have
			// a son named Leo and a daughter named Mia".
			for ei := 2; ei < len(p.elems); ei++ {
				if e := p.elems[ei]; e.kind == literal && !e.optional && slices.Contains(e.words, toks[ti+1].word) {
					*f = found{p: p, start: ti, subject: prev.subject}
					if r.rest(text, toks, p, ei, ti+1, f) {
						return onHeap(f)
					}
				}
			}
		}
		*f = found{p: p, start: ti}
	}
	if p.atStart && !r.sentenceStart(toks, ti) || !r.rest(text, toks, p, 0, ti, f) {
		return nil
	}
	if implicit {
		// The longest subject phrase ending here: "моя подруга Маша", not
		// "Маша".
		direct := false
		for back := max(ti-5, 0); back < ti; back++ {
			if s, next, ok := r.subjectAt(text, toks, back); ok && next == ti && (back == 0 || toks[back-1].word != "у") {
				f.subject, direct = s, true
				break
			}
		}
		if !direct && r.verbFirst(p) {
			s, ok := r.clauseSubject(text, toks, ti, f)
			if !ok {
				return nil // whose the clause is is not clear
			}
			f.subject = s
		}
		if !direct && p.further && f.subject == "" {
			return nil // "работает в X" with no one named: not the user
		}
	}
	return onHeap(f)
}

// verbFirst reports whether p begins with a word of its own, not a
// possessive that names its subject ("моя сестра NAME", "у меня есть X",
// "my wife NAME"): only such a pattern may take its subject from further
// back in the sentence.
func (r *rules) verbFirst(p *pattern) bool {
	e := p.elems[0]
	return e.kind == literal && !slices.ContainsFunc(e.words, func(w string) bool {
		return r.lead[w] || w == "у" || r.firstPerson[w]
	})
}

// clauseSubject returns the subject of an implicit match f at ti that no
// subject phrase stands just before: the nearest relative named earlier in
// its sentence ("Сын в этом году поступил в X", "Родители продали дом и
// переехали в X") or by "у" and the genitive ("у сына аллергия на X"),
// else the user. A verb in the first person ("живу", "работаем") or a
// first-person pronoun in between ("а я переехала") keeps it the user's.
// It reports false when the subject is not clear: a clause of its own
// begins in between ("…, что учительница переехала"), or the relative is
// someone else's ("её муж").
func (r *rules) clauseSubject(text string, toks []token, ti int, f *found) (string, bool) {
	for _, i := range f.lits {
		if firstPersonVerb(toks[i].word) {
			return "", true
		}
	}
	for i := ti - 1; i >= 0 && i >= ti-maxSpan && !strings.ContainsRune(".!?;", toks[i].mark); i-- {
		w := toks[i].word
		if (w == "меня" || w == "нас") && i > 0 && toks[i-1].word == "у" {
			i-- // "Муж у меня инженер": an aside, not the subject
			continue
		}
		switch {
		case r.firstPerson[w]:
			return "", true
		case r.subordinators[w]:
			return "", false
		case w == "у" && i+1 < ti:
			if s, ok := r.genitiveSubject(text, toks[i+1]); ok {
				return s, true
			}
		case r.subjects[w]:
			if i > 0 && (toks[i-1].word == "у" || r.lead[toks[i-1].word] && !r.my[toks[i-1].word]) {
				continue // "у сына" is read at "у"; "свою сестру" is an object
			}
			if i > 0 && r.possessives[toks[i-1].word] {
				return "", false
			}
			if name, ok := r.appositionName(text, toks, i); ok {
				return name, true // "Олег, мой коллега, живёт в X"
			}
			return text[toks[i].start:toks[i].end], true
		}
	}
	return "", true
}

// appositionName returns the name a relative at i is set off after by
// commas: "Олег" of "Олег, мой коллега, живёт".
func (r *rules) appositionName(text string, toks []token, i int) (string, bool) {
	j := i
	for n := 0; n < 2 && j > 1 && toks[j-1].word != "" && !r.my[toks[j-1].word]; n++ {
		j-- // "мой младший брат"
	}
	if j > 0 && r.my[toks[j-1].word] {
		j--
	} else {
		j = i
	}
	if j < 2 || toks[j-1].mark != ',' || i+1 >= len(toks) || toks[i+1].mark != ',' || !named(toks[j-2]) {
		return "", false
	}
	k := j - 2
	for k > 0 && named(toks[k-1]) && j-2-k < 2 {
		k--
	}
	return text[toks[k].start:toks[j-2].end], true
}

// firstPersonVerb reports whether w ends as a Russian verb in the first
// person of the present or future: "живу", "работаю", "учусь",
// "живем", "учимся". No third-person form ends so.
func firstPersonVerb(w string) bool {
	for _, e := range []string{"ю", "у", "юсь", "усь", "ем", "им", "емся", "имся"} {
		if strings.HasSuffix(w, e) && utf8.RuneCountInString(w) > len([]rune(e))+1 {
			return true
		}
	}
	return false
}

// genitiveSubject reads the relative or the name after "у" ("у сына",
// "у дочери", "у Пети"), put back in the nominative by the rules of
// "gen": a relative by the first rule giving a noun of subjects.txt, a
// name by the first rule that fits.
func (r *rules) genitiveSubject(text string, t token) (string, bool) {
	if t.word == "" {
		return "", false
	}
	name := named(t)
	for _, c := range r.cases["gen"] {
		if rest, ok := strings.CutSuffix(t.word, c[0]); ok && (name || r.subjects[rest+c[1]]) {
			w := []rune(text[t.start:t.end])
			return string(w[:len(w)-utf8.RuneCountInString(c[0])]) + c[1], true
		}
	}
	return "", false
}

// sentenceStart reports whether ti begins the text or a sentence, but
// for up to two adverbs before it: "Just moved to Porto".
func (r *rules) sentenceStart(toks []token, ti int) bool {
	for n := 0; n <= 2; n++ {
		i := ti - n
		if i <= 0 || strings.ContainsRune(".!?;", toks[i-1].mark) {
			return true
		}
		if !toks[i-1].adverb {
			return false
		}
	}
	return false
}

// adverb reports whether t may stand between a pattern's words: a word of
// adverbs.txt, or an English word in "-ly" ("absolutely").
func (r *rules) adverb(t token) bool {
	if r.adverbs[t.word] {
		return true
	}
	w := t.word
	return len(w) >= 5 && strings.HasSuffix(w, "ly") && !t.upper && !r.stop[w] && !strings.ContainsFunc(w, func(c rune) bool { return c < 'a' || c > 'z' })
}

// adverbsBefore returns how many adverbs, up to two and none of words,
// stand at ti just before one of words.
func (r *rules) adverbsBefore(toks []token, ti int, words []string) int {
	for n := 1; n <= 2 && ti+n < len(toks); n++ {
		t := toks[ti+n-1]
		if !t.adverb || slices.Contains(words, t.word) {
			return 0
		}
		if slices.Contains(words, toks[ti+n].word) {
			return n
		}
	}
	return 0
}

// continued returns the match a conjunction at ti continues: one ending,
// or whose first object ends, just before it.
func continued(earlier []*found, ti int) *found {
	var prev *found
	for i := len(earlier) - 1; i >= 0 && earlier[i].start >= ti-maxSpan; i-- {
		// The earliest such match has the whole subject: "my brother Dan
		// lives in X and works at Y" continues "my brother", not "Dan".
		if f := earlier[i]; f.end == ti || f.objects[0].b == ti {
			prev = f
		}
	}
	return prev
}

// rest matches p's elements from ei on at token ti, filling f.
func (r *rules) rest(text string, toks []token, p *pattern, ei, ti int, f *found) bool {
	if ei == len(p.elems) {
		f.end = ti
		return true
	}
	e := p.elems[ei]
	word := func(i int) string {
		if i < len(toks) {
			return toks[i].word
		}
		return ""
	}
	switch e.kind {
	case literal, capture:
		// Up to two adverbs may stand between a pattern's words: "I just
		// moved to", "я сейчас живу в", "she still only speaks".
		if ei > 0 {
			ti += r.adverbsBefore(toks, ti, e.words)
		}
		if w := word(ti); w != "" && slices.Contains(e.words, w) {
			n := len(f.lits)
			var was []span
			switch {
			case e.joins && len(f.objects) > 0:
				// "хожу в шахматный клуб": the word ends the object.
				was = f.objects
				o := f.objects[0]
				o.b = ti + 1
				o.text = r.nominative(text[toks[o.a].start:toks[ti].end], p.elems[p.obj].cases)
				f.objects = []span{o}
			case e.kind == literal:
				f.lits = append(f.lits, ti)
			default:
				o := text[toks[ti].start:toks[ti].end]
				if n, ok := e.nominatives[w]; ok {
					o = n // "[щенка=щенок]"
				}
				f.objects = []span{{ti, ti + 1, o}}
			}
			if r.rest(text, toks, p, ei+1, ti+1, f) {
				return true
			}
			f.lits = f.lits[:n]
			if was != nil {
				f.objects = was
			}
		}
		return e.optional && r.rest(text, toks, p, ei+1, ti, f)
	case subject:
		s, next, ok := r.subjectAt(text, toks, ti)
		if !ok {
			return false
		}
		f.subject, f.also, f.pair = s, "", false
		// "my mum and my aunt", "мама и папа" (but "my brother and I" is
		// read at "I").
		if next+1 < len(toks) && (toks[next].word == "and" || toks[next].word == "и") {
			if w := toks[next+1].word; r.my[w] || r.subjects[w] {
				if s2, n2, ok := r.subjectAt(text, toks, next+1); ok {
					f.also, f.pair, next = s2, true, n2
				}
			}
		}
		return r.rest(text, toks, p, ei+1, next, f)
	case dash:
		if ti < len(toks) && strings.ContainsRune("—–-", toks[ti].mark) && toks[ti].mark != 0 {
			return r.rest(text, toks, p, ei+1, ti+1, f)
		}
		return false
	case skip:
		for n := 1; n <= maxSkip; n++ {
			i := ti + n - 1
			if w := word(i); w == "" || r.negation[w] || conjunction(w) {
				return false // "работаю _ в X" must not reach past "и живу в"
			}
			if r.rest(text, toks, p, ei+1, i+1, f) {
				return true
			}
		}
		return false
	}
	// Adverbs may stand before the object too: "говорит только
	// по-армянски".
	if ei > 0 {
		n := 0
		for n < 2 && ti+n+1 < len(toks) && toks[ti+n].adverb {
			n++
		}
		if w := word(ti + n); n > 0 && w != "" && !r.stop[w] && !r.negation[w] {
			ti += n
		}
	}
	// A phrase that is not a name may end sooner, for the pattern's next
	// word: "хожу в X клуб" on "хожу в шахматный клуб".
	for limit := maxPhrase; limit > 0; limit-- {
		o, next, ok := r.object(text, toks, ti, e, p.kind, limit)
		if !ok {
			if o, ok := r.nameBefore(text, toks, p, ei, ti, f.start); ok {
				return r.objects(text, toks, p, e, ei, o, ti, f)
			}
			return false
		}
		if r.nonObjects[string(p.kind)+" "+toks[o.b-1].word] {
			// "учится во втором классе в школе 5": a stage, not a school;
			// the same preposition again may bring the object.
			if ei == 0 || next >= len(toks) || !slices.Contains(p.elems[ei-1].words, toks[next].word) {
				return false
			}
			ti, limit = next+1, maxPhrase+1
			continue
		}
		if r.objects(text, toks, p, e, ei, o, next, f) {
			return true
		}
		if o.b-o.a < limit {
			limit = o.b - o.a
		}
		if limit <= 1 || o.a >= len(toks) || toks[o.a].upper || quote(toks[max(o.a-1, 0)].mark) {
			return false
		}
	}
	return false
}

// nameBefore reads the name a relative is set off after by commas, for
// a pattern naming the relative and then the name ("my wife NAME") that
// meets the closing comma at ti instead: "Katie, my wife, works".
func (r *rules) nameBefore(text string, toks []token, p *pattern, ei, ti, start int) (span, bool) {
	e := p.elems[ei]
	if !e.names || ei != len(p.elems)-1 || ti >= len(toks) || toks[ti].mark != ',' || start < 2 || toks[start-1].mark != ',' {
		return span{}, false
	}
	b := start - 1
	a := b
	for a > 0 && b-a < 3 && named(toks[a-1]) {
		a--
	}
	if a == b || a > 0 && toks[a-1].mark == 0 {
		return span{}, false // not a name standing alone before the comma
	}
	// "Honestly, my wife, ...": a capital at the start of a sentence makes
	// no name of an adverb (but "Emily", "Beverly").
	if t := toks[a]; r.stop[t.word] || r.lead[t.word] || t.adverb || r.negation[t.word] || r.interjections[t.word] ||
		len(t.word) >= 6 && strings.HasSuffix(t.word, "ly") && !strings.HasSuffix(t.word, "erly") {
		return span{}, false
	}
	return span{a, b, text[toks[a].start:toks[b-1].end]}, true
}

// indefinite reports whether w is a Russian indefinite word, "когда-то",
// "где-нибудь", which a capital makes look like a name.
func indefinite(w string) bool {
	return strings.HasSuffix(w, "-то") || strings.HasSuffix(w, "-нибудь") || strings.HasSuffix(w, "-либо")
}

// objects goes on from the object o of slot e, ending before token next,
// gathering the objects joined to it, and matches the rest of p.
func (r *rules) objects(text string, toks []token, p *pattern, e elem, ei int, o span, next int, f *found) bool {
	word := func(i int) string {
		if i < len(toks) {
			return toks[i].word
		}
		return ""
	}
	// A place narrowed after a comma with the same preposition: "живём в
	// Подмосковье, в Химках" lives in "Химки".
	if (p.kind == Place || p.kind == City) && ei > 0 && next+2 < len(toks) && toks[next].mark == ',' {
		if pre := p.elems[ei-1]; pre.kind == literal && slices.Contains(pre.words, word(next+1)) && named(toks[next+2]) {
			if o2, n2, ok := r.object(text, toks, next+2, e, p.kind, maxPhrase); ok {
				o, next = o2, n2
			}
		}
	}
	f.objects = []span{o}
	// More objects joined by "and" or a comma, of the same shape: "I speak
	// English, French and German". A comma after a place qualifies it
	// ("Kazan, Russia") and joins nothing.
	for len(f.objects) < maxJoined && next < len(toks) && (toks[next].mark == ',' && p.kind != Place && p.kind != City || word(next) == "and" || word(next) == "or" || word(next) == "и" || word(next) == "или") {
		at := next + 1
		if toks[next].mark == ',' && (word(at) == "and" || word(at) == "и") {
			at++
		}
		// "по-английски и немного по-португальски", "на гитаре и на
		// укулеле": adverbs, and the slot's preposition again.
		for n := 0; n < 2 && at < len(toks) && toks[at].adverb; n++ {
			at++
		}
		if pre := p.elems[max(ei-1, 0)]; ei > 0 && pre.kind == literal && !pre.optional && slices.Contains(pre.words, word(at)) {
			at++
		}
		o2, n2, ok := r.object(text, toks, at, e, p.kind, maxPhrase)
		if !ok || o2.a < len(toks) && toks[o2.a].upper != toks[o.a].upper {
			break
		}
		f.objects = append(f.objects, o2)
		next = n2
	}
	return r.rest(text, toks, p, ei+1, next, f)
}

// subjectAt reads a subject phrase at ti: "my sister", "my older sister
// Anna", "моя сестра" (the noun, as written), or a capitalised name.
func (r *rules) subjectAt(text string, toks []token, ti int) (string, int, bool) {
	if ti >= len(toks) || toks[ti].word == "" {
		return "", 0, false
	}
	if r.my[toks[ti].word] {
		for n := ti + 1; n <= ti+2 && n < len(toks); n++ {
			if r.subjects[toks[n].word] {
				return text[toks[n].start:toks[n].end], r.afterName(toks, n+1), true
			}
			if w := toks[n].word; w == "" || r.stop[w] {
				break
			}
		}
		return "", 0, false
	}
	if r.subjects[toks[ti].word] { // "Мама живет в Твери", "Сын учится в гимназии"
		if ti > 0 && r.possessives[toks[ti-1].word] {
			return "", 0, false // "её муж" is not the user's
		}
		next := ti + 1
		if next < len(toks) && named(toks[next]) {
			_, next = r.name(toks, next)
		} else {
			next = r.afterName(toks, next)
		}
		return text[toks[ti].start:toks[ti].end], next, true
	}
	if w := toks[ti].word; !named(toks[ti]) || r.stop[w] || r.lead[w] || r.negation[w] || r.adverbs[w] || r.interjections[w] || indefinite(w) {
		return "", 0, false
	}
	a, b := r.name(toks, ti)
	if b-a > 3 {
		return "", 0, false
	}
	return text[toks[a].start:toks[b-1].end], b, true
}

// afterName returns the token after the name that follows a relative at
// ti, the name written next to it ("my sister Anna") or set off by commas
// ("my cousin, Tariq,"); ti when there is none.
func (r *rules) afterName(toks []token, ti int) int {
	switch {
	case ti < len(toks) && toks[ti].upper && toks[ti].word != "i":
		_, b := r.name(toks, ti)
		return b
	case ti+2 < len(toks) && toks[ti].mark == ',' && named(toks[ti+1]):
		if _, b := r.name(toks, ti+1); b < len(toks) && toks[b].mark == ',' {
			return b + 1
		}
	}
	return ti
}

// name returns the run of capitalised words at ti, with "of", "de" and the
// like between them ("University of Tartu") and numbers after them
// ("Model 3").
func (r *rules) name(toks []token, ti int) (int, int) {
	b := ti + 1
	for b < len(toks) && b-ti < maxName {
		t := toks[b]
		switch {
		case t.word != "" && t.upper && t.word != "i":
			b++
			continue
		case (t.word == "of" || t.word == "de" || t.word == "la" || t.word == "на") && b+1 < len(toks) && toks[b+1].upper && toks[b+1].word != "":
			b += 2
			continue
		}
		break
	}
	return ti, b
}

// object reads the object of slot e at ti: a quotation, a capitalised
// name, or (not for NAME) a phrase of up to limit words ending at a stop
// word or a mark. It returns the object and the token after it.
func (r *rules) object(text string, toks []token, ti int, e elem, kind Kind, limit int) (span, int, bool) {
	if ti < len(toks) && strings.ContainsRune("—–-:", toks[ti].mark) && toks[ti].mark != 0 {
		ti++ // "мой родной язык — татарский"
	}
	for ti < len(toks) && (r.lead[toks[ti].word] || r.describers[toks[ti].word] && !toks[ti].upper) {
		ti++
	}
	if ti >= len(toks) {
		return span{}, 0, false
	}
	t := toks[ti]
	if e.prefix != "" {
		rest, ok := strings.CutPrefix(t.word, e.prefix)
		if !ok || rest == "" {
			return span{}, 0, false
		}
		w := text[t.start:t.end]
		for range utf8.RuneCountInString(e.prefix) {
			_, n := utf8.DecodeRuneInString(w)
			w = w[n:]
		}
		return span{ti, ti + 1, r.nominative(w, e.cases)}, ti + 1, true
	}
	var a, b, next int
	switch {
	case t.mark != 0 && quote(t.mark):
		a, b = ti+1, ti+1
		for b < len(toks) && b-a < maxQuote && toks[b].word != "" {
			b++
		}
		if b == a || b >= len(toks) || !quote(toks[b].mark) {
			return span{}, 0, false
		}
		next = b + 1
	case t.mark == ',' && e.names:
		// A name set off by commas: "my partner, Alex, is".
		if ti+1 >= len(toks) || !named(toks[ti+1]) {
			return span{}, 0, false
		}
		a, b = r.name(toks, ti+1)
		if b < len(toks) && toks[b].mark == 0 && !conjunction(toks[b].word) || b-a > 3 {
			return span{}, 0, false
		}
		next = b
	case t.word == "":
		return span{}, 0, false
	case t.upper && t.word != "i":
		a, b = r.name(toks, ti)
		next = b
		if b < len(toks) && toks[b].word != "" && !toks[b].upper {
			w := toks[b].word
			if r.designators[string(kind)+" "+w] {
				// "a Danish startup, Vivid": the capital describes the
				// noun; the name, if any, comes after it.
				return r.namedAfter(text, toks, b+1)
			}
			if !e.names && !r.stop[w] && !r.negation[w] && !toks[b].adverb {
				// "Italian food": a phrase beginning with a capital.
				for b < len(toks) && b-a < limit && toks[b].word != "" && !toks[b].upper && !r.stop[toks[b].word] && !r.negation[toks[b].word] {
					b++
				}
				next = b
			}
		}
	case e.names:
		// A common noun with a letter or a number names one thing:
		// "company A", "school 57", "школа 57" — an organisation of the
		// kind the pattern wants ("moved to company B" is no place).
		if !r.designation(toks, ti, kind) {
			// "a small agency called Brightside": the name after the noun.
			for j := ti; j < ti+3 && j < len(toks) && toks[j].word != "" && !toks[j].upper; j++ {
				if r.designators[string(kind)+" "+toks[j].word] {
					return r.namedAfter(text, toks, j+1)
				}
			}
			return span{}, 0, false
		}
		a, b = ti, ti+2
		next = b
	default:
		a, b = ti, ti
		for b < len(toks) && b-a < limit && toks[b].word != "" && !r.stop[toks[b].word] && !r.negation[toks[b].word] {
			if b > a && named(toks[b]) {
				// Words before a name describe it: "an old Volvo", "a
				// little Italian", "старой Ладе".
				a, b = r.name(toks, b)
				break
			}
			if b > a && b+1 < len(toks) && quote(toks[b].mark) {
				break // "группа «Кино»": the quotation, below
			}
			b++
		}
		if b > a && b+1 < len(toks) && toks[b].mark == '№' && number(toks[b+1].word) {
			b += 2 // "школа №57" names one school
		}
		if b == a || !r.inCase(toks[b-1], e.cases) {
			return span{}, 0, false
		}
		next = b
		if b < len(toks) && quote(toks[b].mark) {
			if q, n, ok := r.object(text, toks, b, e, kind, limit); ok {
				return q, n, true
			}
		}
	}
	before := ""
	if i := a - 1; i >= 0 {
		if quote(toks[i].mark) && i > 0 {
			i--
		}
		before = toks[i].word
	}
	return span{a, b, r.nominativeAfter(text[toks[a].start:toks[b-1].end], before, e.cases)}, next, true
}

// namedAfter reads the name that a common noun ending at ti is given:
// ", Vivid" or "called Brightside".
func (r *rules) namedAfter(text string, toks []token, ti int) (span, int, bool) {
	if ti+1 >= len(toks) || !(toks[ti].mark == ',' || toks[ti].word == "called" || toks[ti].word == "named") || !named(toks[ti+1]) {
		return span{}, 0, false
	}
	a, b := r.name(toks, ti+1)
	return span{a, b, text[toks[a].start:toks[b-1].end]}, b, true
}

// inCase reports whether t, the last word of a phrase in lower case, may
// stand in the case cases: where cases.txt lists the endings of a case
// ("prep-forms"), a declinable Cyrillic word must end in one of them ("на
// работу" is no prepositional; "на метро" does not decline).
func (r *rules) inCase(t token, cases string) bool {
	forms := r.cases[cases+"-forms"]
	if forms == nil || t.upper || r.indeclinable[t.word] || !strings.ContainsFunc(t.word, func(c rune) bool { return unicode.Is(unicode.Cyrillic, c) }) {
		return true
	}
	for _, f := range forms {
		if strings.HasSuffix(t.word, f[0]) {
			return true
		}
	}
	return false
}

// designation reports whether toks[ti:ti+2] are a word and a letter or
// a number that together name one thing of kind ("company A", "school
// 57"): a noun of designators.txt for that kind, then a single capital
// letter or a number.
func (r *rules) designation(toks []token, ti int, kind Kind) bool {
	if ti+1 >= len(toks) {
		return false
	}
	w, d := toks[ti], toks[ti+1]
	if w.upper || !r.designators[string(kind)+" "+w.word] || d.word == "" {
		return false
	}
	// Not the pronoun: "my brother and I".
	letter := d.upper && d.word != "i" && utf8.RuneCountInString(d.word) == 1 && unicode.IsLetter([]rune(d.word)[0])
	return letter || number(d.word)
}

// number reports whether w is written in digits only.
func number(w string) bool {
	return w != "" && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsDigit(r) })
}

// named reports whether t may begin a name inside a phrase: a capitalised
// word of two letters or more with no digit ("Volvo", not the "D" of
// "vitamin D" or "B12").
func named(t token) bool {
	if !t.upper || t.word == "i" || utf8.RuneCountInString(t.word) < 2 {
		return false
	}
	return !strings.ContainsFunc(t.word, unicode.IsDigit)
}

// nominative puts each Russian word of an object back in the nominative by
// the first suffix rule of its case that fits (cases.txt): "Казани" →
// "Казань", "итальянскую кухню" → "итальянская кухня". A word not
// Cyrillic, in capitals, too short, or indeclinable is left as written.
func (r *rules) nominative(s, cases string) string { return r.nominativeAfter(s, "", cases) }

// nominativeAfter is nominative for an object that follows the word
// before (a describer dropped from it: "стареньком «Солярисе»"). A word
// before the last one is first read as an adjective ("case-adj" of
// cases.txt: "Нижнем" → "Нижний"), and the last one after a masculine
// adjective by the masculine rules of its case where it has them
// ("case-m"): the ending alone says "Новгороде" → "Новгорода", the
// adjective says "Новгород".
func (r *rules) nominativeAfter(s, before, cases string) string {
	if r.cases[cases] == nil {
		return strings.TrimSpace(s)
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	// The adjectives before the head noun; the words after it
	// ("клубе любителей джаза") are read by the case's own rules.
	head := 0
	for ; head < len(f)-1; head++ {
		a, ok := r.nominativeWord(f[head], cases+"-adj")
		if !ok {
			break
		}
		before, f[head] = f[head], a
	}
	for i, w := range f[head:] {
		c := cases
		if i == 0 && r.cases[cases+"-m"] != nil && masculine(before) {
			c = cases + "-m"
		}
		f[head+i], _ = r.nominativeWord(w, c)
	}
	return strings.Join(f, " ")
}

// masculine reports whether w ends as a masculine or neuter adjective or
// pronoun in the prepositional: "стареньком", "своём", "Нижнем".
func masculine(w string) bool {
	low := strings.Map(fold.Rune, w)
	return utf8.RuneCountInString(low) >= 4 && (strings.HasSuffix(low, "ом") || strings.HasSuffix(low, "ем"))
}

// nominativeWord rewrites w by the first rule of cases that fits, and
// reports whether one did.
func (r *rules) nominativeWord(w, cases string) (string, bool) {
	rules := r.cases[cases]
	if len(rules) == 0 || w == "" {
		return w, false
	}
	runes := []rune(w)
	last := runes[len(runes)-1]
	if !unicode.Is(unicode.Cyrillic, last) || !unicode.IsLower(last) {
		return w, false
	}
	low := strings.Map(fold.Rune, w)
	if r.indeclinable[low] {
		return w, false
	}
	for _, c := range rules {
		if strings.HasSuffix(low, c[0]) {
			n := utf8.RuneCountInString(c[0])
			if len(runes)-n < 2 {
				return w, false
			}
			return string(runes[:len(runes)-n]) + c[1], true
		}
	}
	return w, false
}
