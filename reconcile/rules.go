package reconcile

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/internal/fold"
	"github.com/palimpsest-mem/memory/internal/term"
)

// Rules is the embedded decider: no model, a few explicit signals, and
// add whenever it is unsure. A wrong add costs a duplicate; a wrong update
// retires a true fact, so it acts only on a clear marker and a clear
// target.
type Rules struct{}

// Name is "rules".
func (Rules) Name() string { return "rules" }

// restateOverlap is the share of stems two texts must have in common to
// count as the same statement.
const restateOverlap = 0.8

// paraphraseOverlap is the share of stems a paraphrase must have in common
// with the one candidate it clearly concerns to count as a restatement:
// other words for the same thing share few stems, but some.
const paraphraseOverlap = 0.15

// Decide applies, in order:
//   - a restatement is a noop (never of a fact whose claims differ: other
//     words about another subject or object);
//   - an explicit correction ("I was wrong", "ошиблась", "not X but Y")
//     invalidates the candidate it clearly concerns;
//   - an addition ("also", "too", "ещё") is added beside what it resembles;
//   - an explicit change ("now", "no longer", "moved", "теперь", "больше
//     не") updates the candidate it clearly concerns; a correction or
//     change giving other numbers for a whole word it shares with the
//     best-evidenced candidate acts on it, when the lookup or the most
//     specific evidence points there too;
//   - a time it began ("from January", "с сентября"), with no marker,
//     acts only on other numbers as above, or on the one other value of a
//     single-valued relation, and is otherwise a conflict;
//   - a second value of a single-valued relation (a city, an employer)
//     with neither may replace the first: a conflict;
//   - a fact that clearly concerns one candidate, with the same numbers
//     and many of its words, no time of its own and no negation the
//     candidate lacks (or the other way round), restates it: a noop;
//   - a fact that concerns one candidate much more than any other is a
//     conflict with it, and so is one saying when, before it was told,
//     something happened ("last week", "вчера": an event may end what
//     was true) with the candidate it most concerns, when that one shares
//     its topic or leads;
//   - anything else is added.
//
// A correction or change that concerns a candidate, but not clearly, is
// added with a conflict naming it ("may replace candidate N") and the
// candidate of the most specific evidence after it: never
// silently beside it, and never retiring a fact on a guess. The phrases
// are those of the files in markers/.
func (Rules) Decide(_ context.Context, in Input) (Verdict, error) {
	for _, err := range []error{markersErr, additionErr, weakErr, negationErr, startErr, hedgeErr} {
		if err != nil {
			return Verdict{}, fmt.Errorf("rules: %w", err)
		}
	}
	d := Verdict{Action: Add, Decider: "rules"}
	words := tokens(in.Text)
	correction := findSaid(words, correctionMarkers)
	change := findSaid(words, changeMarkers)
	addition := findMarker(words, additionMarkers)
	marked := correction != "" || change != ""
	for _, c := range in.Candidates {
		// Short of the very same words, a marker or a number that differs
		// means the fact says something new, however many words it repeats.
		same := normalize(c.Text) == normalize(in.Text)
		if same || (!marked && !c.ClaimsDiffer && sameNumbers(c.Text, in.Text) && c.Overlap >= restateOverlap) {
			d.Action, d.Target = Noop, c.N
			d.Reason = fmt.Sprintf("restates candidate %d (%.0f%% of its stems)", c.N, 100*c.Overlap)
			return d, nil
		}
	}
	if correction != "" {
		return changeOf(d, in, correction, Invalidate, "correction"), nil
	}
	if change != "" && addition != "" {
		// "Priya moved to another department", "I also started yoga": a
		// change, or something told beside; never acted on.
		return changeOf(d, in, change, Add, "change"), nil
	}
	if addition != "" {
		d.Reason = fmt.Sprintf("addition marker %q: added beside what it resembles", addition)
		return d, nil
	}
	if change != "" {
		return changeOf(d, in, change, Update, "change"), nil
	}
	// The time the words give, read once for the rules below.
	when := eventtime.Parse(in.Text, in.SaidAt, "")
	start := startTime(when)
	for _, c := range in.Candidates {
		switch {
		case c.Relation == "" || c.Pinned:
		case !c.RelationDiffers && sameNumbers(c.Text, in.Text):
			// The same value of a single-valued relation, told again.
			d.Action, d.Target = Noop, c.N
			d.Reason = fmt.Sprintf("restates candidate %d: the same %s of the same subject, the same numbers, no marker", c.N, c.Relation)
			return d, nil
		case c.RelationDiffers && start == "":
			// One value at a time: the new one may replace the old, or be a
			// second job; without a marker the user says which.
			d.ConflictWith = c.N
			d.Reason = fmt.Sprintf("may replace candidate %d: another %s of the same subject, with no change marker: added, conflict recorded", c.N, c.Relation)
			return alsoConflicts(d, rank(in.Candidates, "")), nil
		}
	}
	if start != "" {
		// "My rent goes up to £1,020 from January", "с сентября я работаю
		// в Яндексе": a fact that says when it began may end one told
		// before; which, the user says, unless it gives another number for
		// what it clearly concerns, or another value of its relation.
		return changeOf(d, in, start, Update, "start"), nil
	}
	ev := rank(in.Candidates, "")
	if len(ev) > 0 && ev[0].clear(ev, restateMargin) && len(ev[0].content) > 0 && ev[0].c.Overlap >= paraphraseOverlap && !ev[0].c.ClaimsDiffer &&
		sameNumbers(ev[0].c.Text, in.Text) && ev[0].c == topScore(in.Candidates) && !when.Found &&
		negated(in.Text) == negated(ev[0].c.Text) {
		d.Action, d.Target = Noop, ev[0].c.N
		d.Reason = fmt.Sprintf("restates candidate %d in other words (%s; %.0f%% of its stems, the same numbers, no marker)", ev[0].c.N, ev[0].why(), 100*ev[0].c.Overlap)
		return d, nil
	}
	if len(ev) > 0 && ev[0].strong(ev) {
		d.ConflictWith = ev[0].c.N
		d.Reason = fmt.Sprintf("may replace candidate %d: no marker, but it concerns the same (%s) and no other as much: added, conflict recorded", ev[0].c.N, ev[0].why())
		return alsoConflicts(d, ev), nil
	}
	if len(ev) > 0 && pastEvent(when, in.SaidAt) && ev[0].real() && (ev[0].frame != "" || len(ev) == 1 || ev[0].weight > ev[1].weight) {
		d.ConflictWith = ev[0].c.N
		d.Reason = fmt.Sprintf("may replace candidate %d: no marker, but it says when it happened and concerns %s: added, conflict recorded", ev[0].c.N, ev[0].why())
		return alsoConflicts(d, ev), nil
	}
	d.Reason = "no restatement, correction or change marker: added"
	return d, nil
}

// A fact with no marker that concerns one candidate much more than any
// other may replace it: conflictWeight is the least evidence (a shared
// word), conflictLead how many times the next candidate's it must be.
const (
	conflictWeight = 1.5
	conflictLead   = 2.0
)

// strong reports whether e, the first of ev, is evidence enough that a
// fact with no marker concerns it: shared content words, and a weight
// well above the next candidate's.
func (e *evidence) strong(ev []evidence) bool {
	if len(e.content) == 0 || e.weight < conflictWeight {
		return false
	}
	return len(ev) == 1 || e.weight >= conflictLead*ev[1].weight
}

// pastEvent reports whether the time r of the new fact, said at said, is
// when something happened before it was told ("last week", "вчера"): an
// event may end a state told before, while a plan ("next spring") ends
// nothing yet.
func pastEvent(r eventtime.Result, said time.Time) bool {
	return r.Found && r.Start.Before(said)
}

// startTime returns the span of r, the time of the new fact, when it says
// when the fact began ("from January", "since 2024", "с сентября"), ""
// when it names none or only when it happened ("last month").
func startTime(r eventtime.Result) string {
	if !r.Found {
		return ""
	}
	span := tokens(r.Span)
	for _, m := range startMarkers {
		if len(span) > len(m) && slices.Equal(span[:len(m)], m) {
			return r.Span
		}
	}
	return ""
}

// renumbers reports whether the new fact gives other numbers than e's
// candidate, with a whole word in common: both hold numbers, not the same.
// The numbers of the marker (the time a fact begins, "from 13 to 15
// October") say when, not what changed, and are not counted.
func renumbers(e *evidence, text, marker string) bool {
	a, b := numbers(e.c.Text), numbers(strings.Replace(text, marker, " ", 1))
	if len(a) == 0 || len(b) == 0 || slices.Equal(a, b) {
		return false
	}
	for _, t := range e.content {
		if t.Kind == term.Word {
			return true
		}
	}
	return false
}

// negated reports whether a text holds a negation of markers/negation.txt.
func negated(text string) bool { return findMarker(tokens(text), negationMarkers) != "" }

// changeOf decides on a fact carrying a correction or change marker, or a
// time it began: it acts on the candidate the fact clearly concerns, and
// records a conflict with the one it most likely concerns when that is
// not clear or the candidate is pinned. A time it began ("start") is the
// weaker sign: it acts only on other numbers or another value of a
// single-valued relation.
func changeOf(d Verdict, in Input, marker string, action Action, what string) Verdict {
	startOnly := what == "start"
	cs := in.Candidates
	ev := rank(cs, marker)
	if len(ev) == 0 {
		d.Reason = fmt.Sprintf("%s marker %q but no fact it concerns: added", what, marker)
		return d
	}
	e := ev[0]
	switch {
	case e.c.Pinned:
		d.ConflictWith = e.c.N
		d.Reason = fmt.Sprintf("%s marker %q: may replace candidate %d (%s), which is pinned: added, conflict recorded", what, marker, e.c.N, e.why())
		d = alsoConflicts(d, ev)
	case action != Add && renumbers(&e, in.Text, marker) && (e.c == topScore(cs) || bySpecificity(ev)[0].c == e.c):
		// "My rent is £950", "my rent goes up to £1,020 from January": a
		// shared word and other numbers say what changed, and to what,
		// when the lookup or the most specific evidence points there too.
		d.Action, d.Target = action, e.c.N
		d.Reason = fmt.Sprintf("%s marker %q; candidate %d gives other numbers for %s", what, marker, e.c.N, e.why())
	case action != Add && e.c.RelationDiffers && onlyValue(cs, e.c):
		// A marker, or a time it began, and a second value of a
		// single-valued relation: the claims say what the words may not.
		d.Action, d.Target = action, e.c.N
		d.Reason = fmt.Sprintf("%s marker %q; candidate %d gives another %s of the same subject (%s)", what, marker, e.c.N, e.c.Relation, e.why())
	case action == Add || startOnly || !e.enough() || e.c != topScore(cs) || !e.clear(ev, margin):
		d.ConflictWith = e.c.N
		d.Reason = fmt.Sprintf("%s marker %q: may replace candidate %d, which matches on %s, but not clearly: added, conflict recorded", what, marker, e.c.N, e.why())
		d = alsoConflicts(d, ev)
	default:
		d.Action, d.Target = action, e.c.N
		d.Reason = fmt.Sprintf("%s marker %q; candidate %d matches on %s", what, marker, e.c.N, e.why())
	}
	return d
}

// maxConflicts is how many candidates an unsure decision names at most:
// the old fact is often not the best-evidenced candidate but the next, and
// each conflict is a question the user answers. On the dev set a third
// surfaced 2 cases more for 80 more questions.
const maxConflicts = 2

// specificShare is how many candidates at most may share a topic frame for
// it to be evidence enough, alone, to name a candidate in a conflict.
const specificShare = 1

// alsoConflicts names in d, beside its ConflictWith, the candidates of ev
// with evidence of their own (a content word, a synonym set, a specific
// frame, another value of the relation), the most specific first, up to
// maxConflicts in all.
func alsoConflicts(d Verdict, ev []evidence) Verdict {
	var named []string
	// The first is the best evidenced; the next the most specific, as the
	// old fact is often the one fact sharing a word or frame, however few.
	ev = bySpecificity(ev)
	for i := range ev {
		if len(d.AlsoConflictWith)+1 >= maxConflicts {
			break
		}
		e := &ev[i]
		if e.c.N == d.ConflictWith || !e.real() {
			continue
		}
		d.AlsoConflictWith = append(d.AlsoConflictWith, e.c.N)
		named = append(named, fmt.Sprintf("%d (%s)", e.c.N, e.why()))
	}
	if len(named) > 0 {
		d.Reason += "; or candidate " + strings.Join(named, " or ")
	}
	return d
}

// real reports whether e is evidence of its own that the new fact
// concerns its candidate, not a frame most candidates share.
func (e *evidence) real() bool {
	return len(e.content) > 0 || len(e.synonyms) > 0 || e.c.RelationDiffers || (e.frame != "" && e.share <= specificShare)
}

// minActWords is how many content words (or roots) the new fact must
// share with a candidate for the rules to change it: one word in common
// ("course", "department") is as often another fact on another matter,
// unless it is much of what the two say (soloOverlap of their stems: "my
// cat is 4", "my cat is 5") or the candidate is the only fact sharing
// anything with the new one.
const (
	minActWords = 2
	soloOverlap = 0.2
)

// enough reports whether the words e shares are enough to act on.
func (e *evidence) enough() bool {
	return len(e.content) >= minActWords || (len(e.content) == 1 && (e.c.Overlap >= soloOverlap || e.alone))
}

// onlyValue reports whether c is the one candidate giving another value of
// its relation: with two, which one the new fact replaces is a guess.
func onlyValue(cs []Candidate, c *Candidate) bool {
	for i := range cs {
		if &cs[i] != c && cs[i].RelationDiffers && cs[i].Relation == c.Relation {
			return false
		}
	}
	return true
}

// margin is how much more the best candidate must score than the next for
// the rules to act on it: a close second means the target is a guess.
const margin = 1.5

// restateMargin is how much more the candidate a paraphrase restates must
// score than the next: a noop drops the new words, so it needs more.
const restateMargin = 2.0

// evidence is what ties a candidate to the new fact, by the rules' reading.
type evidence struct {
	c *Candidate
	// content are the shared words and roots that are neither the
	// marker's nor weak; synonyms the shared synonym sets that are not.
	content, synonyms []term.Term
	// frame is the shared topic frame ("#pet-cat") the fewest other
	// candidates share, and share how many candidates share it; none for
	// a candidate claiming none of the new fact's relations.
	frame string
	share int
	// weight orders the candidates: words count most, then synonym sets,
	// roots and the frame, more the fewer candidates share it.
	weight float64
	// specific is the weight with each word, root and synonym set divided
	// by the number of candidates sharing it: "travel", shared by four
	// facts about trips, says less of which one than "passport" of one.
	specific float64
	// alone says no other candidate has any evidence: the only fact the
	// new one shares anything with.
	alone bool
}

// why says what the evidence is, as people read it.
func (e *evidence) why() string {
	var parts []string
	if len(e.content) > 0 {
		parts = append(parts, "words "+termList(e.content))
	}
	if len(e.synonyms) > 0 && len(e.content) == 0 {
		// Named only when no word is: they are the weaker evidence.
		parts = append(parts, "synonyms "+termList(e.synonyms))
	}
	if e.frame != "" {
		parts = append(parts, "frame "+e.frame)
	}
	if e.c.Relation != "" {
		parts = append(parts, "relation "+e.c.Relation)
	}
	return strings.Join(parts, "; ")
}

// clear reports whether e, the first of ev, stands out: it scores margin
// times more than the next, by the lookup's score.
func (e *evidence) clear(ev []evidence, margin float64) bool {
	for _, o := range ev[1:] {
		if o.c.Score*margin > e.c.Score {
			return false
		}
	}
	return true
}

func termList(ts []term.Term) string {
	shown := make([]string, len(ts))
	for i, t := range ts {
		shown[i] = t.String()
	}
	return strings.Join(shown, ", ")
}

// topScore is the candidate the lookup scores highest, nil for none.
func topScore(cs []Candidate) *Candidate {
	var top *Candidate
	for i := range cs {
		if top == nil || cs[i].Score > top.Score {
			top = &cs[i]
		}
	}
	return top
}

// rank returns the candidates with any evidence, the most likely target
// first (ties by the lookup's score). The marker's own words are no
// evidence ("moved" shares "move" with every fact about a move), nor are
// weak words (a "Friday" any fact may name).
func rank(cs []Candidate, marker string) []evidence {
	share := map[string]int{}
	for _, c := range cs {
		for _, t := range c.Topics {
			if strings.HasPrefix(t, "#") {
				share[t]++
			}
		}
	}
	markerWords := tokens(marker)
	evident := func(t term.Term) bool { return !fromMarker(t, markerWords) && !weak(t) }
	shared := map[term.Term]int{}
	for _, c := range cs {
		for _, t := range c.Terms {
			if evident(t) {
				shared[t]++
			}
		}
	}
	var out []evidence
	for i := range cs {
		if cs[i].AboutOther {
			continue // shared words about another subject are no evidence
		}
		e := evidence{c: &cs[i]}
		for _, t := range cs[i].Topics {
			if cs[i].OtherRelations {
				// The claims say what each fact is about, and it is not the
				// same: a frame both touch ("a cat named Luna", "my name is
				// Maria": #baby-shower) is no sign of one concerning the other.
				break
			}
			if n := share[t]; strings.HasPrefix(t, "#") && (e.frame == "" || n < e.share) {
				e.frame, e.share = t, n
			}
		}
		for _, t := range cs[i].Terms {
			if !evident(t) {
				continue
			}
			w := wordWeight
			switch t.Kind {
			case term.Synonym:
				e.synonyms = append(e.synonyms, t)
				w = synonymWeight
				if ownSynonym(t, cs[i].Terms) {
					w = ownSynonymWeight
				}
			case term.Root:
				e.content = append(e.content, t)
				w = rootWeight
			default:
				e.content = append(e.content, t)
			}
			if e.frame == "" && len(share) > 0 && t.Kind != term.Synonym {
				w *= framelessShare
			}
			e.weight += w
			e.specific += w / float64(shared[t])
		}
		if e.frame != "" {
			e.weight += frameWeight / float64(e.share)
			e.specific += frameWeight / float64(e.share)
		}
		if cs[i].RelationDiffers {
			e.weight += 3 // a claim on the same slot outweighs a word or two
			e.specific += 3
		}
		if e.weight > 0 {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b evidence) int {
		if c := cmp.Compare(b.weight, a.weight); c != 0 {
			return c
		}
		return cmp.Compare(b.c.Score, a.c.Score)
	})
	if len(out) == 1 {
		out[0].alone = true
	}
	return out
}

// The weights of evidence: a shared word, a shared root, a synonym set, a
// topic frame (divided by how many candidates share it). A synonym set
// named by a word the two share anyway ("shop" and "≈shop") is mostly the
// same evidence twice: ownSynonymWeight. The words of a candidate sharing
// no frame with the new fact, when others share one, are scaled by
// framelessShare: one word in common and no topic ("colleague", "close")
// is as often incidental as the matter itself. (Weighing a frame only one
// candidate shares above a word put more conflicts on facts told beside
// the old one, and acted wrongly more, on the dev set.)
const (
	wordWeight       = 1.5
	rootWeight       = 0.7
	synonymWeight    = 1.0
	ownSynonymWeight = 0.5
	frameWeight      = 1.0
	framelessShare   = 0.5
)

// ownSynonym reports whether a shared synonym set is named by a word or
// root the two facts share anyway ("shop" and "≈shop"): the same evidence
// twice.
func ownSynonym(set term.Term, ts []term.Term) bool {
	name := strings.Map(fold.Rune, set.Text)
	for _, t := range ts {
		if t.Kind == term.Synonym {
			continue
		}
		w := strings.Map(fold.Rune, t.Text)
		if len([]rune(w)) >= 3 && (strings.HasPrefix(name, w) || strings.HasPrefix(w, name)) {
			return true
		}
	}
	return false
}

// bySpecificity returns ev ordered by specific evidence, most first (ties
// by the lookup's score), leaving ev as it is.
func bySpecificity(ev []evidence) []evidence {
	out := slices.Clone(ev)
	slices.SortStableFunc(out, func(a, b evidence) int {
		if c := cmp.Compare(b.specific, a.specific); c != 0 {
			return c
		}
		return cmp.Compare(b.c.Score, a.c.Score)
	})
	return out
}

// fromMarker reports whether a shared term is one of the marker's words
// (tokens of the marker, so in any case: a time's span keeps the text's
// own, "from 13 to 15 October"): its first four letters are theirs, or all
// of a shorter one's (a word of the marker such as "с" is no prefix of
// every term).
func fromMarker(t term.Term, words []string) bool {
	for _, w := range words {
		if len([]rune(t.Text)) < 4 || len([]rune(w)) < 4 {
			if t.Text == w {
				return true
			}
			continue
		}
		if fold.Prefix(t.Text, 4) == fold.Prefix(w, 4) {
			return true
		}
	}
	return false
}

// weak reports whether a shared term is a word of markers/weak.txt: the
// same, or one the start of the other, the shorter at least three letters
// and three quarters of the longer.
func weak(t term.Term) bool {
	s := strings.Map(fold.Rune, t.Text)
	for _, w := range weakWords {
		short, long := s, w
		if len(short) > len(long) {
			short, long = long, short
		}
		n, m := len([]rune(short)), len([]rune(long))
		if strings.HasPrefix(long, short) && n >= 3 && 4*n >= 3*m {
			return true
		}
	}
	return false
}

// findMarker returns the first marker phrase found in words, or "".
func findMarker(words []string, markers [][]string) string {
	for _, m := range markers {
		for i := 0; i+len(m) <= len(words); i++ {
			if slices.Equal(words[i:i+len(m)], m) {
				return strings.Join(m, " ")
			}
		}
	}
	return ""
}

// findSaid is findMarker for a marker that a negation (negation.txt) or
// a hedge (hedge.txt) just before it takes back: "I have not moved",
// "my cat almost died", "чуть не уехала" say no change.
func findSaid(words []string, markers [][]string) string {
	for _, m := range markers {
		for i := 0; i+len(m) <= len(words); i++ {
			if slices.Equal(words[i:i+len(m)], m) && (i == 0 || !unsaid(words[i-1])) {
				return strings.Join(m, " ")
			}
		}
	}
	return ""
}

// unsaid reports whether w, before a marker, takes it back.
func unsaid(w string) bool {
	return slices.Contains(hedgeWords, w) || slices.ContainsFunc(negationMarkers, func(m []string) bool { return len(m) == 1 && m[0] == w })
}

// tokens lowercases text, folds ё to е and splits it into words.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.Map(fold.Rune, s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

func normalize(s string) string { return strings.Join(tokens(s), " ") }

// sameNumbers reports whether two texts hold the same numbers.
func sameNumbers(a, b string) bool { return slices.Equal(numbers(a), numbers(b)) }

func numbers(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
}
