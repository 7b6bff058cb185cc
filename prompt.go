package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/kv"
)

// DefaultHalfLife is how long a fact takes to lose half its freshness in
// Prompt's ranking when PromptOptions.HalfLife is 0: a season, so that
// what was said or confirmed this month outranks what was said last year.
const DefaultHalfLife = 90 * 24 * time.Hour

// relevanceWeight is how much relevance to PromptOptions.For outweighs
// freshness: the best match counts twice a fact told this instant.
const relevanceWeight = 2

// ErrInvalidPromptOptions: a negative budget or half-life.
var ErrInvalidPromptOptions = errors.New("invalid prompt options")

// PromptOptions shape Prompt; nil means the defaults: every fact, ranked
// by freshness alone, with notes.
type PromptOptions struct {
	// Budget is the most characters (runes, each line's break included)
	// the fact lines may take, headers not counted; 0 means no limit.
	// Pinned facts are always in, even past it; the others fill what is
	// left, best ranked first, and one that does not fit is left out while
	// a shorter one below it may still fit. The upcoming facts' lines
	// share the one budget.
	Budget int
	// For is the message being answered: facts the candidate lookup finds
	// for it rank above the others.
	For string
	// HalfLife is how fast freshness decays; 0 means DefaultHalfLife.
	HalfLife time.Duration
	// NoNotes leaves out the notes on facts in an open conflict.
	NoNotes bool
}

// PromptEntry is one fact Prompt may show, with how it ranked: what
// ExplainPrompt returns.
type PromptEntry struct {
	Fact Fact
	// In says the fact is in the prompt; a fact left out stays current
	// everywhere else.
	In bool
	// Upcoming: current, but true only from a later start.
	Upcoming bool
	// Line is the fact's line as it stands, or would stand, in the
	// prompt, without its line break.
	Line string
	// Score is relevanceWeight·Relevance + Freshness; pinned facts rank
	// above every other whatever their score.
	Score float64
	// Relevance is how well the fact matches PromptOptions.For, 0..1 (the
	// best candidate of the lookup is 1; 0 when it is none or For is
	// empty); Terms are the terms it shares with For.
	Relevance float64
	Terms     []Term
	// Freshness is 0.5^(age/half-life), 0..1, where age is from the most
	// recent of when the fact was recorded, last confirmed, and (when the
	// text or caller gave one) when it starts or started.
	Freshness float64
	// FreshFrom is that most recent time; Confirmed is the last time the
	// fact was told again (zero if never).
	FreshFrom time.Time
	Confirmed time.Time
	// Note is the open-conflict note on the line ("" for none, and always
	// with NoNotes).
	Note string
	// Why says in words why the fact is in or out.
	Why []string
}

// Prompt renders the block an assistant puts into its context: the facts of
// user true now, then the current ones that start later, with their start
// date. Superseded and retracted facts never appear, except a superseded one
// whose successor has not started yet: it is still true, and is shown with
// the date it ends. Each fact is one line; line breaks in a text are folded.
//
// Which facts are in is a ranking (see ExplainPrompt), limited by
// opts.Budget: a fact left out is forgotten from this prompt only. The
// lines keep the order the facts were recorded in, whatever their rank, so
// that a prompt changes only where a fact enters or leaves it. A fact that
// an open conflict (Conflicts) says may replace, or contradicts, another
// current fact carries a note naming that one, so the assistant can ask
// rather than guess; resolving the conflict removes it. nil opts means
// the defaults. The same store, clock and options give the same prompt.
func (s *Store) Prompt(ctx context.Context, user string, opts *PromptOptions) (string, error) {
	es, now, err := s.rankPrompt(ctx, user, opts)
	if err != nil {
		return "", err
	}
	if len(es) == 0 {
		return "No facts are known about the user.\n", nil
	}
	// Back to record order: the ranking chose, it does not arrange.
	slices.SortFunc(es, func(a, b PromptEntry) int { return cmp.Compare(a.Fact.ID, b.Fact.ID) })
	var b strings.Builder
	fmt.Fprintf(&b, "Facts about the user, true as of %s:\n", day(now))
	for _, e := range es {
		if e.In && !e.Upcoming {
			b.WriteString(e.Line + "\n")
		}
	}
	header := false
	for _, e := range es {
		if e.In && e.Upcoming {
			if !header {
				b.WriteString("Upcoming, not yet true:\n")
				header = true
			}
			b.WriteString(e.Line + "\n")
		}
	}
	return b.String(), nil
}

// ExplainPrompt lists every fact Prompt with the same options may show,
// best ranked first: pinned facts, then by Score, then by id. Each says
// whether it is in and why.
func (s *Store) ExplainPrompt(ctx context.Context, user string, opts *PromptOptions) ([]PromptEntry, error) {
	es, _, err := s.rankPrompt(ctx, user, opts)
	return es, err
}

// rankPrompt builds the entries of user's prompt at now, ranked and
// chosen within the budget.
func (s *Store) rankPrompt(ctx context.Context, user string, opts *PromptOptions) ([]PromptEntry, int64, error) {
	var o PromptOptions
	if opts != nil {
		o = *opts
	}
	if o.Budget < 0 {
		return nil, 0, fmt.Errorf("%w: budget %d, want 0 (no limit) or more", ErrInvalidPromptOptions, o.Budget)
	}
	if o.HalfLife < 0 {
		return nil, 0, fmt.Errorf("%w: half-life %s, want 0 (the default) or more", ErrInvalidPromptOptions, o.HalfLife)
	}
	if !utf8.ValidString(o.For) {
		return nil, 0, fmt.Errorf("prompt for a message: %w", ErrInvalidUTF8)
	}
	if err := validUser(user); err != nil {
		return nil, 0, err
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	half := cmp.Or(o.HalfLife, DefaultHalfLife)
	now := s.now()
	tl, err := s.userTimeline(ctx, user)
	if err != nil {
		return nil, 0, err
	}
	// Relevance: the lookup's candidates for the message, scaled so the
	// best is 1. A relation's peer found by its claim alone has no text
	// score, and counts half.
	rel := map[uint64]Candidate{}
	var best float64
	if strings.TrimSpace(o.For) != "" {
		look, err := s.candidates(ctx, user, o.For, claims.Extract(o.For), MaxCandidates)
		if err != nil {
			return nil, 0, err
		}
		for _, c := range look.Candidates {
			rel[c.Fact.ID] = c
			best = max(best, c.Score)
		}
	}
	var notes map[uint64][]Conflict
	if !o.NoNotes {
		cs, err := s.Conflicts(ctx, user, nil)
		if err != nil {
			return nil, 0, err
		}
		for _, c := range cs {
			if notes == nil {
				notes = map[uint64][]Conflict{}
			}
			notes[c.New] = append(notes[c.New], c)
		}
	}
	byID := func(id uint64) *timelineEntry {
		i, ok := slices.BinarySearchFunc(tl, id, func(e timelineEntry, id uint64) int { return cmp.Compare(e.rec.ID, id) })
		if !ok {
			return nil
		}
		return &tl[i]
	}
	var es []PromptEntry
	for i := range tl {
		r, evs := &tl[i].rec, tl[i].evs
		p := spanAt(r, evs, now)
		var e PromptEntry
		switch {
		case p.contains(now):
			var marks []string
			if r.HasFrom {
				marks = append(marks, "since "+day(p.start))
			}
			if p.hasEnd {
				marks = append(marks, "until "+day(p.end))
			}
			e.Line = "- " + promptText(r.Text)
			if len(marks) > 0 {
				e.Line += " (" + strings.Join(marks, ", ") + ")"
			}
		case r.Current() && p.start > now:
			e.Upcoming = true
			e.Line = fmt.Sprintf("- %s (from %s)", promptText(r.Text), day(p.start))
		default:
			continue
		}
		e.Fact = factWithLog(r, evs)
		fresh := r.RecordedAt
		for _, ev := range evs {
			if ev.Kind == kv.Confirmed {
				e.Confirmed = time.Unix(0, ev.At).UTC()
				fresh = max(fresh, ev.At)
			}
		}
		age := now - fresh
		if r.HasFrom {
			// A start near now, before or after it, is news too.
			age = min(age, absDiff(now, r.EventFrom))
			if absDiff(now, r.EventFrom) < now-fresh {
				fresh = r.EventFrom
			}
		}
		e.FreshFrom = time.Unix(0, fresh).UTC()
		e.Freshness = math.Exp2(-float64(max(age, 0)) / float64(half))
		if c, ok := rel[r.ID]; ok {
			e.Terms = c.Terms
			e.Relevance = 0.5
			if best > 0 && c.Score > 0 {
				e.Relevance = c.Score / best
			}
		}
		e.Score = relevanceWeight*e.Relevance + e.Freshness
		if n := noteFor(notes[r.ID], byID); n != "" {
			e.Note = n
			e.Line += " " + n
		}
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b PromptEntry) int {
		if a.Fact.Pinned != b.Fact.Pinned {
			if a.Fact.Pinned {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Fact.ID, b.Fact.ID)
	})
	used := 0
	for i := range es {
		e := &es[i]
		n := utf8.RuneCountInString(e.Line) + 1
		switch {
		case e.Fact.Pinned:
			e.In = true
			e.Why = append(e.Why, "pinned")
		case o.Budget == 0 || used+n <= o.Budget:
			e.In = true
		}
		if e.Relevance > 0 {
			e.Why = append(e.Why, fmt.Sprintf("relevant %.2f%s", e.Relevance, termList(e.Terms)))
		}
		what := "recorded"
		switch {
		case e.FreshFrom.Equal(e.Confirmed):
			what = "confirmed"
		case !e.FreshFrom.Equal(e.Fact.RecordedAt):
			what = "starts"
		}
		e.Why = append(e.Why, fmt.Sprintf("freshness %.2f (%s %s)", e.Freshness, what, e.FreshFrom.Format(time.DateOnly)))
		if e.In {
			used += n
		} else {
			e.Why = append(e.Why, fmt.Sprintf("over budget: %d characters, %d of %d left", n, o.Budget-used, o.Budget))
		}
	}
	return es, now, nil
}

// noteFor is the note on the line of a fact that the open conflicts cs
// say may replace or contradict another fact still current: one part per
// such fact, naming it and when it was told.
func noteFor(cs []Conflict, byID func(uint64) *timelineEntry) string {
	var parts []string
	for _, c := range cs {
		ex := byID(c.Existing)
		if ex == nil || !ex.rec.Current() {
			continue // the other side is gone or settled otherwise: nothing to ask
		}
		told := ex.rec.RecordedAt
		if ex.rec.Source.SaidAt != 0 {
			told = ex.rec.Source.SaidAt
		}
		if ex.rec.Pinned {
			parts = append(parts, fmt.Sprintf("contradicts %q, told %s, which is pinned and stands", promptText(ex.rec.Text), day(told)))
		} else {
			parts = append(parts, fmt.Sprintf("may replace %q, told %s", promptText(ex.rec.Text), day(told)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(unconfirmed: " + strings.Join(parts, "; ") + " — ask)"
}

func termList(ts []Term) string {
	if len(ts) == 0 {
		return ""
	}
	ss := make([]string, len(ts))
	for i, t := range ts {
		ss[i] = t.String()
	}
	return " (" + strings.Join(ss, ", ") + ")"
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}
