package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
)

// addTools adds every tool and returns their names.
func (x *srv) addTools(server *mcp.Server) []string {
	var n []string
	tool(server, &n, &mcp.Tool{Name: "remember", Annotations: writes("Remember a fact", false, false),
		Description: `Record a fact the user told about themselves and reconcile it with what is known: the store's decider adds it, updates (supersedes) the fact it replaces, invalidates (retracts) one it shows was wrong, or does nothing (noop) when it restates one. Answers the decision (action, reason, fallback when the decider failed), the fact stored, the fact it replaced, and the open conflicts of the new fact: for each, a question to ask the user, then settle it with resolve. undo reverses a decision. The event time comes from event_from/event_until, else from the words ("since May", "from Monday"), read against said_at.`},
		x.remember)
	tool(server, &n, &mcp.Tool{Name: "recall", Annotations: reads("Recall facts for a question"),
		Description: `Find the facts that bear on a question or message, best first, with why each was found: the words of asking dropped ("remind me what I told you about"), the text index (shared words, stems, synonyms, topics), the people, places and things the query names through the user's graph, the period it names ("in May", "last summer"), and recency, fused by rank. Current facts only, unless history (superseded and retracted versions too, and each fact's versions listed). With event, only the facts true then; with known, as the store knew them then. A query of only function words finds nothing. A fact is relevant only if its words say so: read them.`},
		x.recall)
	tool(server, &n, &mcp.Tool{Name: "context", Annotations: reads("The memory context for a message"),
		Description: `The block of facts to put in your context before answering: what is true now, then what is upcoming with its date, ranked (pinned first, then what is relevant to "for", then what is fresh) within budget characters. A fact of an open conflict carries a note naming the other ("unconfirmed: may replace … — ask"): ask the user, then call resolve.`},
		x.context)
	tool(server, &n, &mcp.Tool{Name: "get", Annotations: reads("A fact, its versions and lifecycle"),
		Description: "A fact with every version of its line (oldest first: what it replaced and what replaced it) and its lifecycle log (recorded, superseded, retracted, restored, pinned, confirmed…, each with its record time and cause)."},
		x.get)
	tool(server, &n, &mcp.Tool{Name: "at", Annotations: reads("Facts true at a time, as known at a time"),
		Description: `The facts that were true at event time event, as the store knew them at record time known (both default to now). "Where did I work in May?" is event 2026-05-15; "what did you believe on 1 August about July?" is event 2026-07-01, known 2026-08-01. Each fact is shown as it is now (its state is today's).`},
		x.at)
	tool(server, &n, &mcp.Tool{Name: "correct", Annotations: writes("Correct a fact: the world changed", false, true),
		Description: "Replace a current fact with what is true now (supersede): the new fact and the mark on the old one are one write; the old one stays as history, true until event_from (default: now). Use it when the user says a fact changed; use retract when it was never true."},
		x.correct)
	tool(server, &n, &mcp.Tool{Name: "retract", Annotations: writes("Retract a fact that was never true", false, true),
		Description: "Mark a current fact as never true (a mistake). It stays as history, out of answers and the context; restore brings it back."},
		x.change((*memory.Store).Invalidate))
	tool(server, &n, &mcp.Tool{Name: "restore", Annotations: writes("Restore a fact", false, true),
		Description: "Make a superseded or retracted fact current again. Restoring a superseded fact leaves its successor current too."},
		x.change((*memory.Store).Restore))
	tool(server, &n, &mcp.Tool{Name: "pin", Annotations: writes("Pin a fact", false, true),
		Description: "Protect a fact from automation: no decider ever changes a pinned fact (a contradiction becomes a conflict to ask about)."},
		x.pin((*memory.Store).Pin))
	tool(server, &n, &mcp.Tool{Name: "unpin", Annotations: writes("Unpin a fact", false, true),
		Description: "Let automation change a pinned fact again."},
		x.pin((*memory.Store).Unpin))
	tool(server, &n, &mcp.Tool{Name: "forget", Annotations: writes("Forget a fact for good", true, true),
		Description: "Erase a fact for good, only when the user asks: the record, its log, its text in decisions and conflicts, its index terms and every byte of it in the file. Nothing can bring it back. Refused unless confirm is true. Erasing the newest version brings back the one it replaced; chain erases every version. Answers the ids erased."},
		x.forget)
	tool(server, &n, &mcp.Tool{Name: "decisions", Annotations: reads("The decision log"),
		Description: "remember's decisions, newest first: the text, the action, the fact it concerned (target) and added, the candidates shown, the decider and its reason, the fallback when it failed, and when it was undone."},
		x.decisions)
	tool(server, &n, &mcp.Tool{Name: "undo", Annotations: writes("Undo a decision", false, true),
		Description: "Reverse a decision of remember as a whole: retract the fact it added and restore the one it changed, in one write. Refused once the facts changed again, or when undone before."},
		x.undo)
	tool(server, &n, &mcp.Tool{Name: "conflicts", Annotations: reads("Open conflicts"),
		Description: "The open conflicts, newest first: a new fact that may replace an existing one, or two current facts that claim two values of a relation that holds one (where the user lives, works…), each with both facts. all adds the resolved and moot ones."},
		x.conflicts)
	tool(server, &n, &mcp.Tool{Name: "resolve", Annotations: writes("Resolve a conflict", false, true),
		Description: `Settle an open conflict as the user says: keep "new" (the new fact supersedes the existing one), "existing" (the new fact is retracted) or "both" (both stay true, and it is not asked again).`,
		InputSchema: schemaFor[resolveIn](map[string][]any{"keep": {"new", "existing", "both"}})},
		x.resolve)
	tool(server, &n, &mcp.Tool{Name: "edges", Annotations: reads("Edges of the graph"),
		Description: "The graph of what the facts state, (subject, relation, object), derived from the facts on both time axes: the edges true at event time event as known at record time known (default now), selected by subject, relation and object (empty: any). all adds the ended, upcoming and retracted intervals.",
		InputSchema: schemaFor[edgesIn](map[string][]any{"relation": relationNames(true)})},
		x.edges)
	tool(server, &n, &mcp.Tool{Name: "entity", Annotations: reads("An entity's timeline"),
		Description: "Every interval of every edge of an entity (a company, a city, a person…), on both time axes: when it was true in the world, and when the store believed so (known_from, known_until)."},
		x.entity)
	tool(server, &n, &mcp.Tool{Name: "merge", Annotations: writes("Merge two names of one entity", false, true),
		Description: `Make one entity an alias of another ("Яндекс" is "Yandex"), on the user's word: their edges join. Logged and undoable (unmerge). Refused for entities of different kinds, a cycle, or a name no fact gives.`},
		x.merge)
	tool(server, &n, &mcp.Tool{Name: "unmerge", Annotations: writes("Undo a merge", false, true),
		Description: "Undo a merge: the alias is its own entity again. The merge stays in the log."},
		x.unmerge)
	return n
}

// schemaFor is the input schema inferred from In, with the enums given by
// property: the values a model may choose from, in the schema it reads.
func schemaFor[In any](enums map[string][]any) *jsonschema.Schema {
	sc, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(In), err)) // the types are this package's own
	}
	for name, values := range enums {
		sc.Properties[name].Enum = values
	}
	return sc
}

// relationNames are the relations of the vocabulary, and "" when any is
// allowed.
func relationNames(orAny bool) []any {
	var out []any
	if orAny {
		out = append(out, "")
	}
	for _, r := range memory.Relations() {
		out = append(out, string(r))
	}
	return out
}

type rememberIn struct {
	Text        string `json:"text" jsonschema:"one fact the user told, in their words (1 to 600 characters)"`
	EventFrom   string `json:"event_from,omitempty" jsonschema:"when it became true in the world (YYYY-MM-DD or RFC 3339), over what the words say"`
	EventUntil  string `json:"event_until,omitempty" jsonschema:"when it stops being true, not included (YYYY-MM-DD or RFC 3339), over what the words say"`
	SourceRef   string `json:"source_ref,omitempty" jsonschema:"where it came from, e.g. a message id"`
	SourceQuote string `json:"source_quote,omitempty" jsonschema:"the user's words it came from"`
	SaidAt      string `json:"said_at,omitempty" jsonschema:"when the user said it (default: now); times in the words are read from it"`
}

type rememberOut struct {
	Decision Decision `json:"decision"`
	Fact     *Fact    `json:"fact" jsonschema:"the fact stored, or for a noop the fact it restates; null when none"`
	Replaced *Fact    `json:"replaced" jsonschema:"the fact it superseded or retracted, as it is now; null for none"`
	Fallback string   `json:"fallback" jsonschema:"when the decider failed: why, and what was done instead; empty otherwise"`
	// Conflicts are the open conflicts of the new fact, oldest first.
	Conflicts []Question `json:"conflicts" jsonschema:"the open conflicts of the new fact: ask the user each question, then call resolve"`
}

// Question is an open conflict as a question for the user.
type Question struct {
	Conflict  uint64 `json:"conflict" jsonschema:"the conflict's id, for resolve"`
	Fact      uint64 `json:"fact" jsonschema:"the fact in question"`
	Other     uint64 `json:"other" jsonschema:"the fact it may replace or contradict"`
	OtherText string `json:"other_text"`
	Relation  string `json:"relation" jsonschema:"the relation of which the two claim two values; empty for a decision's conflict"`
	Ask       string `json:"ask" jsonschema:"what to ask the user"`
}

func (x *srv) remember(ctx context.Context, in rememberIn) (rememberOut, error) {
	from, err := parseTime("event_from", in.EventFrom)
	if err != nil {
		return rememberOut{}, err
	}
	until, err := parseTime("event_until", in.EventUntil)
	if err != nil {
		return rememberOut{}, err
	}
	said, err := parseTime("said_at", in.SaidAt)
	if err != nil {
		return rememberOut{}, err
	}
	o, err := x.s.Remember(ctx, memory.Note{User: x.user, Text: in.Text, EventFrom: from, EventUntil: until, Origin: x.origin,
		Source: memory.Source{Kind: x.kind, Ref: in.SourceRef, Quote: in.SourceQuote, SaidAt: said}})
	refused := errors.Is(err, memory.ErrDecider)
	if err != nil && !refused {
		return rememberOut{}, err
	}
	out := rememberOut{Decision: decisionOf(o.Decision), Fact: factPtr(&o.Fact), Conflicts: []Question{}}
	if d := o.Decision; d.Fallback != "" {
		// As memctl says it: the whole cause, which the store does not keep.
		fb := d.Fallback
		if o.DeciderError != nil {
			fb = d.Decider + " decider failed: " + o.DeciderError.Error()
		}
		then := "the fact was added without the decider's judgement (fallback add)"
		if refused {
			then = "nothing was stored (fallback error)"
		}
		out.Fallback = fb + "; " + then
	}
	if refused {
		// A tool error that still carries the decision, as memctl prints
		// the decision before it fails.
		return out, refusal{err, out.Fallback}
	}
	if d := o.Decision; d.Target != 0 && (d.Action == memory.ActionUpdate || d.Action == memory.ActionInvalidate) {
		t, err := x.s.Get(ctx, x.user, d.Target)
		if err != nil && !errors.Is(err, memory.ErrNotFound) {
			return rememberOut{}, err
		}
		out.Replaced = factPtr(&t)
	}
	if added := o.Decision.Added; added != 0 {
		if out.Conflicts, err = x.questions(ctx, added, o.Fact.Text); err != nil {
			return rememberOut{}, err
		}
	}
	return out, nil
}

// refusal is Remember's refusal under the error fallback policy: a tool
// error whose result still holds the decision.
type refusal struct {
	err      error
	fallback string
}

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

// questions are the open conflicts of fact id, oldest first, each with
// the question it puts to the user.
func (x *srv) questions(ctx context.Context, id uint64, text string) ([]Question, error) {
	cs, err := x.s.Conflicts(ctx, x.user, nil)
	if err != nil {
		return nil, err
	}
	out := []Question{}
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		if c.New != id && c.Existing != id {
			continue
		}
		other := c.Existing
		if other == id {
			other = c.New
		}
		f, err := x.s.Get(ctx, x.user, other)
		if err != nil {
			return nil, err
		}
		q := Question{Conflict: c.ID, Fact: id, Other: other, OtherText: f.Text, Relation: string(c.Relation)}
		told := f.RecordedAt.UTC().Format("2006-01-02")
		switch {
		case c.Relation != "":
			q.Ask = fmt.Sprintf("%q and %q (told %s) give two values of %s: which is true now, or are both?", text, f.Text, told, c.Relation)
		case f.Pinned && other == c.Existing:
			q.Ask = fmt.Sprintf("%q contradicts %q (told %s), which is pinned: does it still hold, or does the new fact replace it?", text, f.Text, told)
		case other == c.Existing:
			q.Ask = fmt.Sprintf("Does %q replace %q (told %s), or are both true?", text, f.Text, told)
		default:
			q.Ask = fmt.Sprintf("Does %q (told %s) replace %q, or are both true?", f.Text, told, text)
		}
		out = append(out, q)
	}
	return out, nil
}

type recallIn struct {
	Query   string `json:"query" jsonschema:"the question or message, in the user's words"`
	K       int    `json:"k,omitempty" jsonschema:"how many facts at most, 1 to 100 (default 10)"`
	Event   string `json:"event,omitempty" jsonschema:"only facts true at this event time (YYYY-MM-DD or RFC 3339)"`
	Known   string `json:"known,omitempty" jsonschema:"as the store knew it at this record time (YYYY-MM-DD or RFC 3339)"`
	History bool   `json:"history,omitempty" jsonschema:"find versions no longer current too (superseded, retracted), and list each fact's versions, oldest first"`
}

type recallOut struct {
	Lookup   string   `json:"lookup" jsonschema:"the lookup mode of the text ranker: keywords4, stems, topics or semantic"`
	Fallback string   `json:"fallback" jsonschema:"why the search did less than its mode asks (an embedder unreachable); empty otherwise"`
	Entities []string `json:"entities" jsonschema:"the people, places and things of the user's graph the query names"`
	Facts    []Hit    `json:"facts"`
}

// Hit is a fact recall found, with why.
type Hit struct {
	Fact     Fact     `json:"fact"`
	Score    float64  `json:"score" jsonschema:"the fused score of the rankers that found it"`
	Terms    []string `json:"terms" jsonschema:"shared words, roots (pian…) and synonym sets (≈mother)"`
	Topics   []string `json:"topics"`
	Entities []string `json:"entities" jsonschema:"the entities the query names that the fact is about"`
	InPeriod bool     `json:"in_period" jsonschema:"the fact began, or was true, in the period the query names"`
	// Via is the current fact of the hit's line: the hit itself when it
	// is current, 0 when no version of its line is.
	Via      uint64 `json:"via" jsonschema:"the current fact of whose line this fact is a version (itself when current; 0 when none is)"`
	Versions []Fact `json:"versions,omitempty" jsonschema:"with history: every version of its line, oldest first"`
}

func (x *srv) recall(ctx context.Context, in recallIn) (recallOut, error) {
	event, err := parseTime("event", in.Event)
	if err != nil {
		return recallOut{}, err
	}
	known, err := parseTime("known", in.Known)
	if err != nil {
		return recallOut{}, err
	}
	r, err := x.s.Search(ctx, x.user, in.Query, &memory.SearchOptions{K: in.K, Event: event, Known: known, History: in.History})
	if err != nil {
		return recallOut{}, err
	}
	out := recallOut{Lookup: string(r.Mode), Fallback: r.Fallback, Entities: nonNil(r.Entities), Facts: []Hit{}}
	for _, h := range r.Hits {
		terms := make([]string, 0, len(h.Terms))
		for _, t := range h.Terms {
			terms = append(terms, t.String())
		}
		hit := Hit{Fact: factOf(h.Fact), Score: h.Score, Terms: terms, Topics: nonNil(h.Topics), Entities: nonNil(h.Entities),
			InPeriod: h.InPeriod, Via: h.Fact.ID}
		if !h.Current || in.History {
			line, err := x.s.History(ctx, x.user, h.Fact.ID)
			if err != nil {
				return recallOut{}, err
			}
			if !h.Current {
				hit.Via = 0
				if i := slices.IndexFunc(line, func(f memory.Fact) bool { return f.State() == memory.Current }); i >= 0 {
					hit.Via = line[i].ID
				}
			}
			if in.History {
				hit.Versions = factsOf(line)
			}
		}
		out.Facts = append(out.Facts, hit)
	}
	return out, nil
}

type contextIn struct {
	For     string `json:"for,omitempty" jsonschema:"the message being answered: facts it bears on rank first"`
	Budget  int    `json:"budget,omitempty" jsonschema:"the most characters the fact lines may take (0: no limit); pinned facts are always in"`
	NoNotes bool   `json:"no_notes,omitempty" jsonschema:"leave out the notes on facts in an open conflict"`
}

type contextOut struct {
	Prompt string `json:"prompt" jsonschema:"the block to put in the assistant's context"`
}

func (x *srv) context(ctx context.Context, in contextIn) (contextOut, error) {
	p, err := x.s.Prompt(ctx, x.user, &memory.PromptOptions{For: in.For, Budget: in.Budget, NoNotes: in.NoNotes})
	return contextOut{Prompt: p}, err
}

type getOut struct {
	Fact     Fact    `json:"fact"`
	Versions []Fact  `json:"versions" jsonschema:"every version of its line, oldest first, this one among them"`
	Events   []Event `json:"events" jsonschema:"its lifecycle log, oldest first"`
}

func (x *srv) get(ctx context.Context, in idIn) (getOut, error) {
	f, err := x.s.Get(ctx, x.user, in.ID)
	if err != nil {
		return getOut{}, err
	}
	h, err := x.s.History(ctx, x.user, in.ID)
	if err != nil {
		return getOut{}, err
	}
	evs, err := x.s.Events(ctx, x.user, in.ID)
	if err != nil {
		return getOut{}, err
	}
	return getOut{Fact: factOf(f), Versions: factsOf(h), Events: eventsOf(evs)}, nil
}

type atIn struct {
	Event string `json:"event,omitempty" jsonschema:"event time: when in the world (YYYY-MM-DD or RFC 3339; default now)"`
	Known string `json:"known,omitempty" jsonschema:"record time: as the store knew it then (default now)"`
}

func (x *srv) at(ctx context.Context, in atIn) (factsOut, error) {
	event, err := parseTime("event", in.Event)
	if err != nil {
		return factsOut{}, err
	}
	known, err := parseTime("known", in.Known)
	if err != nil {
		return factsOut{}, err
	}
	fs, err := x.s.At(ctx, x.user, event, known)
	return factsOut{Facts: factsOf(fs)}, err
}

type correctIn struct {
	ID         uint64 `json:"id" jsonschema:"the current fact that changed"`
	Text       string `json:"text" jsonschema:"what is true now, as one fact in the user's words"`
	EventFrom  string `json:"event_from,omitempty" jsonschema:"when the new fact became true (default: now); the old one ends there"`
	EventUntil string `json:"event_until,omitempty" jsonschema:"when the new fact stops being true, not included"`
	SourceRef  string `json:"source_ref,omitempty" jsonschema:"where it came from, e.g. a message id"`
}

type correctOut struct {
	Fact     Fact `json:"fact" jsonschema:"the new fact"`
	Replaced Fact `json:"replaced" jsonschema:"the fact it superseded, as it is now"`
}

func (x *srv) correct(ctx context.Context, in correctIn) (correctOut, error) {
	from, err := parseTime("event_from", in.EventFrom)
	if err != nil {
		return correctOut{}, err
	}
	until, err := parseTime("event_until", in.EventUntil)
	if err != nil {
		return correctOut{}, err
	}
	f, err := x.s.Supersede(ctx, x.user, in.ID, memory.Note{Text: in.Text, EventFrom: from, EventUntil: until,
		Origin: x.origin, Source: memory.Source{Kind: x.kind, Ref: in.SourceRef}})
	if err != nil {
		return correctOut{}, err
	}
	old, err := x.s.Get(ctx, x.user, in.ID)
	if err != nil {
		return correctOut{}, err
	}
	return correctOut{Fact: factOf(f), Replaced: factOf(old)}, nil
}

// change is a tool of a state change with a reason (retract, restore).
func (x *srv) change(op func(*memory.Store, context.Context, string, uint64, memory.Change) (memory.Fact, error)) func(context.Context, changeIn) (factOut, error) {
	return func(ctx context.Context, in changeIn) (factOut, error) {
		f, err := op(x.s, ctx, x.user, in.ID, memory.Change{Origin: x.origin, Reason: in.Reason})
		if err != nil {
			return factOut{}, err
		}
		return factOut{Fact: factOf(f)}, nil
	}
}

func (x *srv) pin(op func(*memory.Store, context.Context, string, uint64) (memory.Fact, error)) func(context.Context, idIn) (factOut, error) {
	return func(ctx context.Context, in idIn) (factOut, error) {
		f, err := op(x.s, ctx, x.user, in.ID)
		if err != nil {
			return factOut{}, err
		}
		return factOut{Fact: factOf(f)}, nil
	}
}

type forgetIn struct {
	ID      uint64 `json:"id" jsonschema:"the fact to erase"`
	Chain   bool   `json:"chain,omitempty" jsonschema:"erase every version of its line"`
	Confirm bool   `json:"confirm" jsonschema:"true: the user asked for the fact to be erased for good; anything else is refused"`
}

type forgetOut struct {
	Deleted []uint64 `json:"deleted" jsonschema:"the ids erased"`
}

// ErrNotConfirmed is forget's refusal without confirm: nothing is erased.
var ErrNotConfirmed = errors.New("forget erases for good and needs confirm: true")

func (x *srv) forget(ctx context.Context, in forgetIn) (forgetOut, error) {
	if !in.Confirm {
		return forgetOut{}, fmt.Errorf("fact %d: %w (nothing was erased; retract keeps it as history instead)", in.ID, ErrNotConfirmed)
	}
	ids, err := x.s.Delete(ctx, x.user, in.ID, &memory.DeleteOptions{Chain: in.Chain})
	if ids == nil {
		ids = []uint64{}
	}
	return forgetOut{Deleted: ids}, err
}

type decisionsIn struct {
	Limit int `json:"limit,omitempty" jsonschema:"at most this many, newest first (0: all)"`
}

type decisionsOut struct {
	Decisions []Decision `json:"decisions"`
}

func (x *srv) decisions(ctx context.Context, in decisionsIn) (decisionsOut, error) {
	if in.Limit < 0 {
		return decisionsOut{}, fmt.Errorf("limit %d: want 0 (all) or more", in.Limit)
	}
	ds, err := x.s.Decisions(ctx, x.user, in.Limit)
	out := decisionsOut{Decisions: make([]Decision, 0, len(ds))}
	for _, d := range ds {
		out.Decisions = append(out.Decisions, decisionOf(d))
	}
	return out, err
}

type undoIn struct {
	Decision uint64 `json:"decision" jsonschema:"the decision's id"`
}

type decisionOut struct {
	Decision Decision `json:"decision"`
}

func (x *srv) undo(ctx context.Context, in undoIn) (decisionOut, error) {
	d, err := x.s.Undo(ctx, x.user, in.Decision)
	return decisionOut{Decision: decisionOf(d)}, err
}

type conflictsIn struct {
	All bool `json:"all,omitempty" jsonschema:"add the resolved and moot conflicts"`
}

type conflictsOut struct {
	Conflicts []Conflict `json:"conflicts"`
}

// conflictOf is c with both its facts as they are now (nil for one gone).
func (x *srv) conflictOf(ctx context.Context, c memory.Conflict) (Conflict, error) {
	get := func(id uint64) (*Fact, error) {
		f, err := x.s.Get(ctx, c.User, id)
		if errors.Is(err, memory.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return factPtr(&f), nil
	}
	o := Conflict{Conflict: c}
	var err error
	if o.NewFact, err = get(c.New); err != nil {
		return Conflict{}, err
	}
	o.ExistingFact, err = get(c.Existing)
	return o, err
}

func (x *srv) conflicts(ctx context.Context, in conflictsIn) (conflictsOut, error) {
	cs, err := x.s.Conflicts(ctx, x.user, &memory.ConflictOptions{All: in.All})
	if err != nil {
		return conflictsOut{}, err
	}
	out := conflictsOut{Conflicts: make([]Conflict, 0, len(cs))}
	for _, c := range cs {
		o, err := x.conflictOf(ctx, c)
		if err != nil {
			return conflictsOut{}, err
		}
		out.Conflicts = append(out.Conflicts, o)
	}
	return out, nil
}

type resolveIn struct {
	Conflict uint64 `json:"conflict" jsonschema:"the conflict's id"`
	Keep     string `json:"keep" jsonschema:"new: the new fact replaces the existing one; existing: the new fact is retracted; both: both stay"`
}

type conflictOut struct {
	Conflict Conflict `json:"conflict"`
}

func (x *srv) resolve(ctx context.Context, in resolveIn) (conflictOut, error) {
	c, err := x.s.ResolveConflict(ctx, x.user, in.Conflict, memory.Keep(in.Keep))
	if err != nil {
		return conflictOut{}, err
	}
	o, err := x.conflictOf(ctx, c)
	return conflictOut{Conflict: o}, err
}

type edgesIn struct {
	Subject  string `json:"subject,omitempty" jsonschema:"the subject's name (empty: any, the user included)"`
	UserOnly bool   `json:"user_only,omitempty" jsonschema:"only the edges whose subject is the user"`
	Relation string `json:"relation,omitempty" jsonschema:"the relation (empty: any)"`
	Object   string `json:"object,omitempty" jsonschema:"the object's name (empty: any)"`
	Event    string `json:"event,omitempty" jsonschema:"event time (YYYY-MM-DD or RFC 3339; default now)"`
	Known    string `json:"known,omitempty" jsonschema:"record time: the graph as the store believed it then (default now)"`
	All      bool   `json:"all,omitempty" jsonschema:"add the ended, upcoming and retracted intervals"`
}

type edgesOut struct {
	Edges []Edge `json:"edges"`
}

func (x *srv) edges(ctx context.Context, in edgesIn) (edgesOut, error) {
	event, err := parseTime("event", in.Event)
	if err != nil {
		return edgesOut{}, err
	}
	known, err := parseTime("known", in.Known)
	if err != nil {
		return edgesOut{}, err
	}
	q := memory.EdgeQuery{Subject: in.Subject, Object: in.Object, Event: event, Known: known, All: in.All}
	if in.UserOnly {
		if in.Subject != "" {
			return edgesOut{}, errors.New("give subject or user_only, not both")
		}
		q.Subject = memory.UserSubject
	}
	if in.Relation != "" {
		if q.Relation, err = memory.ParseRelation(in.Relation); err != nil {
			return edgesOut{}, err
		}
	}
	es, err := x.s.Edges(ctx, x.user, &q)
	if err != nil {
		return edgesOut{}, err
	}
	return x.edgesOf(ctx, es, known)
}

func (x *srv) edgesOf(ctx context.Context, es []memory.Edge, known time.Time) (edgesOut, error) {
	ms, err := x.s.Merges(ctx, x.user)
	if err != nil {
		return edgesOut{}, err
	}
	aliases := aliasNames(ms, known)
	out := edgesOut{Edges: make([]Edge, 0, len(es))}
	for _, e := range es {
		out.Edges = append(out.Edges, edgeOf(e, aliases))
	}
	return out, nil
}

type entityIn struct {
	Name string `json:"name" jsonschema:"the entity's name, as a fact gives it or as merged"`
}

func (x *srv) entity(ctx context.Context, in entityIn) (edgesOut, error) {
	es, err := x.s.EntityTimeline(ctx, x.user, in.Name)
	if err != nil {
		return edgesOut{}, err
	}
	return x.edgesOf(ctx, es, time.Time{})
}

type mergeIn struct {
	From   string `json:"from" jsonschema:"the name that becomes an alias"`
	Into   string `json:"into" jsonschema:"the entity it is another name of"`
	Reason string `json:"reason,omitempty" jsonschema:"why, kept in the merge log"`
}

type mergeOut struct {
	Merge Merge `json:"merge"`
}

func (x *srv) merge(ctx context.Context, in mergeIn) (mergeOut, error) {
	m, err := x.s.MergeEntities(ctx, x.user, in.From, in.Into, in.Reason)
	return mergeOut{Merge: mergeOf(m)}, err
}

type unmergeIn struct {
	Merge  uint64 `json:"merge" jsonschema:"the merge's id"`
	Reason string `json:"reason,omitempty" jsonschema:"why, kept in the merge log"`
}

func (x *srv) unmerge(ctx context.Context, in unmergeIn) (mergeOut, error) {
	m, err := x.s.UndoMerge(ctx, x.user, in.Merge, in.Reason)
	return mergeOut{Merge: mergeOf(m)}, err
}

// nonNil makes an empty list a JSON [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
