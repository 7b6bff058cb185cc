package memory

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// DefaultHalfLife is how long a fact takes to lose half its freshness in
// Prompt's ranking when PromptOptions.HalfLife is 0: a season, so that
// what was said or confirmed this month outranks what was said last year.
const DefaultHalfLife = 90 * 24 * time.Hour

// relevanceWeight is how much relevance to PromptOptions.For outweighs
// freshness: the best match counts twice a fact told this instant.
const relevanceWeight = 2

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
	// For is the message being answered: facts Search finds for it rank
	// above the others (its first MaxQueryRunes runes, control characters
	// read as spaces).
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
	// best hit of Search is 1; 0 when it is none or For is empty); Terms
	// are the terms it shares with For.
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
	r, err := s.rankPrompt(ctx, user, opts)
	if err != nil {
		return "", err
	}
	if len(r.es) == 0 {
		return "No facts are known about the user.\n", nil
	}
	// In record order (r.es is in the timeline's): the ranking chose, it
	// does not arrange.
	var b strings.Builder
	b.Grow(r.used + 80)
	b.WriteString("Facts about the user, true as of " + day(r.now) + ":\n")
	for i := range r.es {
		if e := &r.es[i]; e.in && !e.upcoming {
			b.WriteString(e.line)
			b.WriteByte('\n')
		}
	}
	header := false
	for i := range r.es {
		if e := &r.es[i]; e.in && e.upcoming {
			if !header {
				b.WriteString("Upcoming, not yet true:\n")
				header = true
			}
			b.WriteString(e.line)
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}

// ExplainPrompt lists every fact Prompt with the same options may show,
// best ranked first: pinned facts, then by Score, then by id. Each says
// whether it is in and why.
func (s *Store) ExplainPrompt(ctx context.Context, user string, opts *PromptOptions) ([]PromptEntry, error) {
	r, err := s.rankPrompt(ctx, user, opts)
	if err != nil || len(r.es) == 0 {
		return nil, err
	}
	out := make([]PromptEntry, 0, len(r.es))
	used := 0
	for _, k := range r.order {
		e := &r.es[k]
		te := &r.tl[e.i]
		pe := PromptEntry{Fact: factWithLog(&te.rec, te.evs), In: e.in, Upcoming: e.upcoming, Line: e.line,
			Score: e.score, Relevance: e.rel, Terms: e.terms, Freshness: e.fresh,
			FreshFrom: time.Unix(0, e.freshFrom).UTC(), Note: e.note}
		if e.confirmed != 0 {
			pe.Confirmed = time.Unix(0, e.confirmed).UTC()
		}
		if te.rec.Pinned {
			pe.Why = append(pe.Why, "pinned")
		}
		if e.rel > 0 {
			pe.Why = append(pe.Why, fmt.Sprintf("relevant %.2f%s", e.rel, termList(e.terms)))
		}
		what := "recorded"
		switch {
		case e.freshFrom == e.confirmed:
			what = "confirmed"
		case e.freshFrom != te.rec.RecordedAt:
			what = "starts"
		}
		pe.Why = append(pe.Why, fmt.Sprintf("freshness %.2f (%s %s)", e.fresh, what, day(e.freshFrom)))
		if e.in {
			used += e.size
		} else {
			pe.Why = append(pe.Why, fmt.Sprintf("over budget: %d characters, %d of %d left", e.size, r.budget-used, r.budget))
		}
		out = append(out, pe)
	}
	return out, nil
}

// ranking is a user's prompt as rankPrompt chose it.
type ranking struct {
	tl     timeline
	es     []rankEntry // in the timeline's order
	order  []int       // indices of es, best ranked first
	now    int64
	budget int
	used   int // characters of the lines in
}

// rankEntry is a fact the prompt may show; small, since a prompt ranks
// every fact of its user each time.
type rankEntry struct {
	i                    int // in the timeline
	pinned, upcoming, in bool
	line, note           string
	size                 int // runes of the line with its break
	score, rel, fresh    float64
	terms                []Term
	freshFrom, confirmed int64
}

// rankPrompt ranks the facts of user's prompt at now and chooses them
// within the budget.
func (s *Store) rankPrompt(ctx context.Context, user string, opts *PromptOptions) (ranking, error) {
	var o PromptOptions
	if opts != nil {
		o = *opts
	}
	if o.Budget < 0 {
		return ranking{}, fmt.Errorf("%w: PromptOptions.Budget = %d, want 0 (no limit) or more", ErrInvalidPromptOptions, o.Budget)
	}
	if o.HalfLife < 0 {
		return ranking{}, fmt.Errorf("%w: PromptOptions.HalfLife = %s, want 0 (DefaultHalfLife) or more", ErrInvalidPromptOptions, o.HalfLife)
	}
	if !utf8.ValidString(o.For) {
		return ranking{}, fmt.Errorf("PromptOptions.For: %w", ErrInvalidUTF8)
	}
	if err := validUser(user); err != nil {
		return ranking{}, err
	}
	if err := ctx.Err(); err != nil {
		return ranking{}, err
	}
	half := float64(cmp.Or(o.HalfLife, DefaultHalfLife))
	now := s.now()
	tl, err := s.userTimeline(ctx, user)
	if err != nil {
		return ranking{}, err
	}
	// Relevance: what Search finds for the message, its fused score
	// scaled so the best is 1.
	var rel map[uint64]SearchHit
	var best float64
	if q := searchable(o.For); q != "" {
		found, err := s.Search(ctx, user, q, &SearchOptions{K: MaxCandidates})
		if err != nil {
			return ranking{}, err
		}
		rel = make(map[uint64]SearchHit, len(found.Hits))
		for _, h := range found.Hits {
			rel[h.Fact.ID] = h
			best = max(best, h.Score)
		}
	}
	var notes map[uint64][]Conflict
	if !o.NoNotes {
		cs, err := s.openConflicts(ctx, user)
		if err != nil {
			return ranking{}, err
		}
		// Both sides of a conflict carry its note: the assistant reading
		// either line knows to ask.
		for _, c := range cs {
			if notes == nil {
				notes = map[uint64][]Conflict{}
			}
			notes[c.New] = append(notes[c.New], c)
			notes[c.Existing] = append(notes[c.Existing], c)
		}
	}
	byID := func(id uint64) *timelineEntry {
		i, ok := slices.BinarySearchFunc(tl, id, func(e timelineEntry, id uint64) int { return cmp.Compare(e.rec.ID, id) })
		if !ok {
			return nil
		}
		return &tl[i]
	}
	r := ranking{tl: tl, now: now, budget: o.Budget}
	for i := range tl {
		rec, evs := &tl[i].rec, tl[i].evs
		p := spanAt(rec, evs, now)
		e := rankEntry{i: i, pinned: rec.Pinned}
		switch {
		case p.contains(now):
			e.line = "- " + promptText(rec.Text)
			switch {
			case rec.HasFrom && p.hasEnd:
				e.line += " (since " + day(p.start) + ", " + endText(p.end) + ")"
			case rec.HasFrom:
				e.line += " (since " + day(p.start) + ")"
			case p.hasEnd:
				e.line += " (" + endText(p.end) + ")"
			}
		case rec.Current() && p.start > now:
			e.upcoming = true
			e.line = "- " + promptText(rec.Text) + " (from " + day(p.start)
			if p.hasEnd {
				e.line += ", " + endText(p.end)
			}
			e.line += ")"
		default:
			continue
		}
		// Freshness: from the latest of the recording and the last
		// confirmation, or the start when that is nearer now, before or
		// after it (what just began or is about to is news too).
		e.freshFrom = rec.RecordedAt
		if e.confirmed = lastConfirmed(evs); e.confirmed != 0 {
			e.freshFrom = max(e.freshFrom, e.confirmed)
		}
		age := max(now-e.freshFrom, 0)
		if rec.HasFrom && absDiff(now, rec.EventFrom) < age {
			age, e.freshFrom = absDiff(now, rec.EventFrom), rec.EventFrom
		}
		e.fresh = math.Exp2(-float64(age) / half)
		if h, ok := rel[rec.ID]; ok {
			e.terms = h.Terms
			e.rel = h.Score / best
		}
		e.score = relevanceWeight*e.rel + e.fresh
		if n := noteFor(rec.ID, notes[rec.ID], byID); n != "" {
			e.note = n
			e.line += " " + n
		}
		e.size = utf8.RuneCountInString(e.line) + 1
		r.es = append(r.es, e)
	}
	r.order = make([]int, len(r.es))
	for k := range r.order {
		r.order[k] = k
	}
	slices.SortFunc(r.order, func(a, b int) int {
		x, y := &r.es[a], &r.es[b]
		if x.pinned != y.pinned {
			if x.pinned {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return cmp.Compare(a, b) // the timeline's order is the ids'
	})
	for _, k := range r.order {
		e := &r.es[k]
		if e.pinned || o.Budget == 0 || r.used+e.size <= o.Budget {
			e.in = true
			r.used += e.size
		}
	}
	return r, nil
}

// noteFor is the note on the line of fact id that the open conflicts cs
// (each naming it on one side) say may replace, be replaced by or
// contradict another fact still current: one part per such fact, naming
// it and when it was told.
func noteFor(id uint64, cs []Conflict, byID func(uint64) *timelineEntry) string {
	// The facts it may replace read as one alternative ("may replace "A",
	// told …, or "B", told …"): a decision unsure which fact the new one
	// replaces names each.
	// Oldest first: a decision records its likeliest candidate first.
	if len(cs) == 0 {
		return ""
	}
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(a, b Conflict) int { return cmp.Compare(a.ID, b.ID) })
	var pinned, replaces, replacedBy, contradicts, against []string
	self := byID(id)
	for _, c := range cs {
		other := c.Existing
		if other == id {
			other = c.New
		}
		ex := byID(other)
		if ex == nil || !ex.rec.Current() {
			continue // the other side is gone or settled otherwise: nothing to ask
		}
		told := ex.rec.RecordedAt
		if ex.rec.Source.SaidAt != 0 {
			told = ex.rec.Source.SaidAt
		}
		said := strconv.Quote(promptText(ex.rec.Text)) + ", told " + day(told)
		switch {
		case self != nil && self.rec.Pinned:
			against = append(against, said)
		case ex.rec.Pinned:
			pinned = append(pinned, fmt.Sprintf("contradicts %s, which is pinned and stands", said))
		case c.Relation != "":
			contradicts = append(contradicts, said)
		case c.New == id:
			replaces = append(replaces, said)
		default:
			replacedBy = append(replacedBy, said)
		}
	}
	if len(against) > 0 {
		// A pinned fact stands; the assistant still hears what was said
		// against it.
		return "(pinned: contradicted by " + strings.Join(against, ", and ") + " — ask)"
	}
	parts := pinned
	if len(replaces) > 0 {
		parts = append(parts, "may replace "+strings.Join(replaces, ", or "))
	}
	if len(replacedBy) > 0 {
		parts = append(parts, "may be replaced by "+strings.Join(replacedBy, ", or "))
	}
	if len(contradicts) > 0 {
		parts = append(parts, "contradicts "+strings.Join(contradicts, ", and "))
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

// endText says where a fact's interval ends for the assistant to read. An
// end at midnight closes the day before it, and is shown as that day
// included: "from 13 to 15 July" is "through 2026-07-15", where "until
// 2026-07-16" would read as a day too many. Any other end is an instant
// (a successor recorded then), shown with its day.
func endText(end int64) string {
	t := time.Unix(0, end).UTC()
	if t.Equal(t.Truncate(24 * time.Hour)) {
		return "through " + t.AddDate(0, 0, -1).Format(time.DateOnly)
	}
	return "until " + t.Format(time.DateOnly)
}

// searchable is a message as Search takes it: control characters but line
// breaks and tabs made spaces, cut to MaxQueryRunes runes; "" when nothing
// is left.
func searchable(msg string) string {
	n := 0
	msg = strings.Map(func(r rune) rune {
		if n++; n > MaxQueryRunes {
			return -1
		}
		if r != '\n' && r != '\t' && unicode.IsControl(r) {
			return ' '
		}
		return r
	}, msg)
	return strings.TrimSpace(msg)
}
