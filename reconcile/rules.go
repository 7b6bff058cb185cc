package reconcile

import (
	"context"
	"fmt"
	"strings"
	"unicode"
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

// Decide applies, in order: a restatement is a noop; an explicit correction
// ("I was wrong", "ошиблась", "not X but Y") invalidates the best matching
// candidate; an explicit change ("now", "no longer", "moved", "теперь",
// "больше не") updates the best candidate on the same topic; anything else
// is added.
func (Rules) Decide(_ context.Context, in Input) (Decision, error) {
	d := Decision{Action: Add, Decider: "rules"}
	words := tokens(in.Text)
	for _, c := range in.Candidates {
		if c.Overlap >= restateOverlap || normalize(c.Text) == normalize(in.Text) {
			d.Action, d.Target = Noop, c.N
			d.Reason = fmt.Sprintf("restates fact %d (%.0f%% of its stems)", c.N, 100*c.Overlap)
			return d, nil
		}
	}
	if m := findMarker(words, correctionMarkers); m != "" {
		if c, why := best(in.Candidates, true); c != nil {
			d.Action, d.Target = Invalidate, c.N
			d.Reason = fmt.Sprintf("correction marker %q; fact %d matches on %s", m, c.N, why)
			return d, nil
		}
		d.Reason = fmt.Sprintf("correction marker %q but no fact it clearly corrects: added", m)
		return d, nil
	}
	if m := findMarker(words, changeMarkers); m != "" {
		if c, why := best(in.Candidates, false); c != nil {
			d.Action, d.Target = Update, c.N
			d.Reason = fmt.Sprintf("change marker %q; fact %d is on the same subject (%s)", m, c.N, why)
			return d, nil
		}
		d.Reason = fmt.Sprintf("change marker %q but no fact clearly on the same subject: added", m)
		return d, nil
	}
	d.Reason = "no restatement, correction or change marker: added"
	return d, nil
}

// best returns the first eligible candidate with clear evidence, and the
// evidence. Candidates come best first. A correction may rest on shared
// words alone; a change needs a shared word or a shared specific topic
// (a frame or subtopic, not a broad topic).
func best(cs []Candidate, correction bool) (*Candidate, string) {
	for i := range cs {
		c := &cs[i]
		if c.Pinned {
			continue
		}
		var specific []string
		for _, t := range c.Topics {
			if strings.HasPrefix(t, "#") || strings.Contains(t, "/") {
				specific = append(specific, t)
			}
		}
		switch {
		case len(c.Terms) > 0:
			return c, "words " + strings.Join(c.Terms, ", ")
		case len(specific) > 0 && !correction:
			return c, "topics " + strings.Join(specific, ", ")
		}
		// The best candidate has no clear evidence: the others have less.
		return nil, ""
	}
	return nil, ""
}

// Markers are phrases of one or more lowercased words (ё as е).
var (
	correctionMarkers = phrases(`i was wrong|i got that wrong|correction|i misspoke|misspoke|i meant|i misremembered|
i misread|misread|my mistake|sorry, i|oops|scratch that|i mixed up|mixed up|not quite|to correct|
ошиблась|ошибся|ошиблись|поправка|поправлюсь|поправлю себя|на самом деле|неправильно|напутала|напутал|
перепутала|перепутал|оговорилась|оговорился|неточно|неверно|я ошиблась|я ошибся|не так`)
	changeMarkers = phrases(`now|no longer|not anymore|anymore|moved|moved to|switched|changed|swapped|replaced|
started|quit|left|gave up|stopped|sold|bought|upgraded|since|these days|nowadays|from now on|as of|starting|
became|retired|finished|got a new|new|
теперь|больше не|уже не|отныне|перешла|перешел|переехала|переехал|переехали|сменила|сменил|поменяла|поменял|
начала|начал|бросила|бросил|ушла|ушел|уволилась|уволился|продала|продал|купила|купил|стала|стал|закончила|
закончил|перестала|перестал|с тех пор|сейчас|новый|новая|новое|новую`)
)

func phrases(s string) [][]string {
	var out [][]string
	for _, p := range strings.Split(s, "|") {
		if w := tokens(p); len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// findMarker returns the first marker phrase found in words, or "".
func findMarker(words []string, markers [][]string) string {
	for _, m := range markers {
		for i := 0; i+len(m) <= len(words); i++ {
			if equal(words[i:i+len(m)], m) {
				return strings.Join(m, " ")
			}
		}
	}
	return ""
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// tokens lowercases text, folds ё to е and splits it into words.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(s, "ё", "е"), "Ё", "Е")), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

func normalize(s string) string { return strings.Join(tokens(s), " ") }
