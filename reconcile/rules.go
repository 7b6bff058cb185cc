package reconcile

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

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

// Decide applies, in order: a restatement is a noop; an explicit correction
// ("I was wrong", "ошиблась", "not X but Y") invalidates the best matching
// candidate; an explicit change ("now", "no longer", "moved", "теперь",
// "больше не") updates the best candidate on the same topic; anything else
// is added. The markers are the phrases of markers/correction.txt and
// markers/change.txt.
func (Rules) Decide(_ context.Context, in Input) (Decision, error) {
	if markersErr != nil {
		return Decision{}, fmt.Errorf("rules: %w", markersErr)
	}
	d := Decision{Action: Add, Decider: "rules"}
	words := tokens(in.Text)
	marked := findMarker(words, correctionMarkers) != "" || findMarker(words, changeMarkers) != ""
	for _, c := range in.Candidates {
		// Short of the very same words, a marker or a number that differs
		// means the fact says something new, however many words it repeats.
		same := normalize(c.Text) == normalize(in.Text)
		if same || (!marked && sameNumbers(c.Text, in.Text) && c.Overlap >= restateOverlap) {
			d.Action, d.Target = Noop, c.N
			d.Reason = fmt.Sprintf("restates candidate %d (%.0f%% of its stems)", c.N, 100*c.Overlap)
			return d, nil
		}
	}
	for _, k := range []struct {
		markers [][]string
		action  Action
		what    string
	}{{correctionMarkers, Invalidate, "correction"}, {changeMarkers, Update, "change"}} {
		m := findMarker(words, k.markers)
		if m == "" {
			continue
		}
		c, why, sure := best(in.Candidates, m)
		switch {
		case c == nil:
			d.Reason = fmt.Sprintf("%s marker %q but no fact it clearly concerns: added", k.what, m)
		case c.Pinned:
			d.ConflictWith = c.N
			d.Reason = fmt.Sprintf("%s marker %q points at candidate %d (%s), which is pinned: added, conflict recorded", k.what, m, c.N, why)
		case !sure:
			d.ConflictWith = c.N
			d.Reason = fmt.Sprintf("%s marker %q; candidate %d matches on %s, but not clearly more than another: added, conflict recorded", k.what, m, c.N, why)
		default:
			d.Action, d.Target = k.action, c.N
			d.Reason = fmt.Sprintf("%s marker %q; candidate %d matches on %s", k.what, m, c.N, why)
		}
		return d, nil
	}
	d.Reason = "no restatement, correction or change marker: added"
	return d, nil
}

// margin is how much more the best candidate must score than the next for
// the rules to act on it: a close second means the target is a guess.
const margin = 3.0

// best returns the candidate a marker points at, its evidence, and whether
// it stands out: the best-scoring candidate sharing a content word with the
// new fact, sure when it scores clearly above the next. The marker's own
// word is no evidence: "moved" shares "move" with every fact about a move.
// A pinned candidate may be returned: the caller will not change it.
func best(cs []Candidate, marker string) (c *Candidate, why string, sure bool) {
	var top, second *Candidate
	for i := range cs {
		c := &cs[i]
		switch {
		case top == nil || c.Score > top.Score:
			top, second = c, top
		case second == nil || c.Score > second.Score:
			second = c
		}
	}
	if top == nil {
		return nil, "", false
	}
	content := contentTerms(top.Terms, marker)
	if len(content) == 0 {
		return nil, "", false
	}
	shown := make([]string, len(content))
	for i, t := range content {
		shown[i] = t.String()
	}
	return top, "words " + strings.Join(shown, ", "), second == nil || top.Score >= margin*second.Score
}

// contentTerms drops from shared terms the synonym sets (they may name the
// marker's meaning) and the stems of the marker's words.
func contentTerms(terms []term.Term, marker string) []term.Term {
	var out []term.Term
	for _, t := range terms {
		if t.Kind == term.Synonym {
			continue
		}
		stem := t.Text
		fromMarker := false
		for _, w := range strings.Fields(marker) {
			if n := min(4, len([]rune(stem)), len([]rune(w))); n > 0 && fold.Prefix(stem, n) == fold.Prefix(w, n) {
				fromMarker = true
			}
		}
		if !fromMarker {
			out = append(out, t)
		}
	}
	return out
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
