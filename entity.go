package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/kv"
)

// An entity is a name the claims of a user's facts give, matched by
// NormalizeName. A merge — a person's or the embedding program's explicit
// act, never automation's — makes one entity an alias of another, so that
// the claims naming either join the same edges. Merges are a log, like the
// decisions: a merge is undone by marking it, never erased, except by a
// hard delete of the facts that name it. They are record-time events: the
// graph as known at record time K applies the merges made by K and not
// undone by K.

// Merge is one entry of the merge log: From became an alias of Into.
type Merge struct {
	ID   uint64    `json:"id"`
	At   time.Time `json:"at"`
	User string    `json:"user"`
	// From and Into are the names as given; they are matched normalized.
	From   string `json:"from"`
	Into   string `json:"into"`
	Reason string `json:"reason,omitempty"`
	// UndoneAt is when the merge was undone, nil while it holds.
	UndoneAt   *time.Time `json:"undone_at,omitempty"`
	UndoReason string     `json:"undo_reason,omitempty"`
}

func (m Merge) owner() string { return m.User }

// Entity is one entity of a user's graph as the merges stand now.
type Entity struct {
	// Name is the entity's name as the latest claim naming it spells it.
	Name string
	// Kind is the latest kind a claim gives it or an alias, "" if none.
	Kind EntityKind
	// Aliases are the names merged into it, directly or by a chain,
	// spelled as Name is, in order of their keys.
	Aliases []string
	// Edges is the number of edges with it as subject or object.
	Edges int
}

// aliases is the resolution of names a graph applies: the merges of one
// user, and those of them applied.
type aliases struct {
	merges []Merge             // every merge of the user, by id
	active []uint64            // the applied ones' ids, ascending
	to     map[string]string   // applied: normalized From → normalized Into
	into   map[string]string   // a root's name as the latest merge into it gives it
	has    map[string][]string // a root → its aliases' keys, sorted
}

func aliasesOf(ms []Merge, applied func(*Merge) bool) *aliases {
	a := &aliases{merges: ms, to: map[string]string{}, into: map[string]string{}, has: map[string][]string{}}
	for i := range ms {
		if applied(&ms[i]) {
			a.active = append(a.active, ms[i].ID)
			a.to[claims.Normalize(ms[i].From)] = claims.Normalize(ms[i].Into)
		}
	}
	for from := range a.to {
		r := a.root(from)
		a.has[r] = append(a.has[r], from)
	}
	for _, ks := range a.has {
		slices.Sort(ks)
	}
	for i := range ms {
		if applied(&ms[i]) {
			k := claims.Normalize(ms[i].Into)
			if _, alias := a.to[k]; !alias {
				a.into[k] = ms[i].Into
			}
		}
	}
	return a
}

// currentAliases applies the merges not undone.
func currentAliases(ms []Merge) *aliases {
	return aliasesOf(ms, func(m *Merge) bool { return m.UndoneAt == nil })
}

// at applies the merges made by record time k and not undone by then.
// putMerge writes m to the merge log. The user's graph is derived from it
// too, so the commit makes that user's cached reads stale.
func putMerge(tx *kv.Tx, m *Merge) error {
	tx.TouchUser(m.User)
	return putJSON(tx, kv.BucketMerges, m.ID, m)
}

// same reports whether a and b come from the same log with the same merges
// applied: a graph under one serves for the other.
func (a *aliases) same(b *aliases) bool {
	if a == nil || b == nil {
		return a == b
	}
	return len(a.merges) == len(b.merges) && slices.Equal(a.active, b.active)
}

func (a *aliases) at(k int64) *aliases {
	return aliasesOf(a.merges, func(m *Merge) bool { return m.appliedAt(k) })
}

func (m *Merge) appliedAt(k int64) bool {
	return m.At.UnixNano() <= k && (m.UndoneAt == nil || m.UndoneAt.UnixNano() > k)
}

// root is the entity a normalized name resolves to: the name itself, else
// the end of its chain of merges (A→B, B→C gives C).
func (a *aliases) root(key string) string {
	if a == nil {
		return key
	}
	// Bounded, so that a damaged log cannot loop.
	for range len(a.to) {
		next, ok := a.to[key]
		if !ok {
			return key
		}
		key = next
	}
	return key
}

// nameInfo is what a user's claims say of one normalized name.
type nameInfo struct {
	kind     EntityKind // the latest non-empty kind a claim gives it
	kindFact uint64     // the fact that gave it
}

// userFacts is every fact of user, in any state, by record time.
func userFacts(tx *kv.Tx, user string) (mergeFacts, error) {
	var out []*kv.Record
	err := tx.UserIDs(user, false, func(id uint64, _ bool) error {
		r, err := tx.Get(id)
		if err != nil {
			return err
		}
		out = append(out, &r)
		return nil
	})
	return sortedByRecordTime(out), err
}

func addNames(names map[string]nameInfo, r *kv.Record) {
	for _, c := range r.Claims {
		if c.Subject != "" {
			k := claims.Normalize(c.Subject)
			names[k] = names[k]
		}
		k := claims.Normalize(c.Object)
		n := names[k]
		if c.Kind != "" && r.ID >= n.kindFact {
			n.kind, n.kindFact = EntityKind(c.Kind), r.ID
		}
		names[k] = n
	}
}

// checkMerge says whether from can become an alias of into, for user,
// under the merges a applies and the names the user's claims give. The
// kinds are those kinds gives, nil for none: they are the judgement of the
// moment of the merge (the claims recorded by then), and later claims may
// give a kind the names did not have then.
func checkMerge(a *aliases, names, kinds map[string]nameInfo, from, into string) error {
	for _, n := range []struct{ what, name string }{{"from", from}, {"into", into}} {
		if n.name == UserSubject {
			return fmt.Errorf("%w: %s is the user, not an entity to merge", ErrInvalidMerge, n.what)
		}
		if err := validName(n.what, n.name); err != nil {
			return err
		}
	}
	fk, ik := claims.Normalize(from), claims.Normalize(into)
	for _, k := range []struct{ name, key string }{{from, fk}, {into, ik}} {
		if _, ok := names[k.key]; !ok {
			return fmt.Errorf("entity %q: no claim of the user names it: %w", k.name, ErrNotFound)
		}
	}
	if fk == ik {
		return fmt.Errorf("%w: %q and %q are the same entity", ErrInvalidMerge, from, into)
	}
	fr, ir := a.root(fk), a.root(ik)
	switch {
	case ir == fk:
		return fmt.Errorf("%w: %q is already merged into %q", ErrMergeCycle, into, from)
	case fr == ir:
		return fmt.Errorf("%w: %q is already an alias of %q", ErrInvalidMerge, from, into)
	case fr != fk:
		return fmt.Errorf("%w: %q is already an alias of %q; undo that merge first", ErrInvalidMerge, from, fr)
	}
	if kinds != nil {
		fkind, ikind := groupKind(a, kinds, fr), groupKind(a, kinds, ir)
		if fkind != "" && ikind != "" && fkind != ikind {
			return fmt.Errorf("%w: %q is a %s, %q a %s", ErrKindMismatch, from, fkind, into, ikind)
		}
	}
	return nil
}

// groupKind is the kind of root r and its aliases: the latest a claim gives.
func groupKind(a *aliases, names map[string]nameInfo, r string) EntityKind {
	best := names[r]
	for _, k := range a.has[r] {
		if n := names[k]; n.kind != "" && n.kindFact > best.kindFact {
			best = n
		}
	}
	return best.kind
}

// validName checks a name given to a merge (what: from or into) as a
// claim's name is checked.
func validName(what, n string) error {
	switch {
	case len(n) > MaxNameLen:
		return fmt.Errorf("%w: %s: a name of %d bytes, at most %d", ErrInvalidMerge, what, len(n), MaxNameLen)
	case !utf8.ValidString(n):
		return fmt.Errorf("%w: %s: a name that is not valid UTF-8", ErrInvalidMerge, what)
	case strings.IndexFunc(n, unicode.IsControl) >= 0:
		return fmt.Errorf("%w: %s: a name holding a control character", ErrInvalidMerge, what)
	case claims.Normalize(n) == "":
		return fmt.Errorf("%w: %s: an empty name %q", ErrInvalidMerge, what, n)
	}
	return nil
}

// userMergesTx is user's merges, by id.
func userMergesTx(tx *kv.Tx, user string) ([]Merge, error) {
	var out []Merge
	err := forEachUserLog(tx, kv.BucketMerges, "merge", user, false, func(_ uint64, m Merge) error {
		out = append(out, m)
		return nil
	})
	return out, err
}

func (s *Store) userMerges(ctx context.Context, user string) ([]Merge, error) {
	var out []Merge
	err := s.view(ctx, user, func(tx *kv.Tx) error {
		var err error
		out, err = userMergesTx(tx, user)
		return err
	})
	return out, err
}

// nextMergeTime is the record time of a new step of user's merge log: now,
// or just after the log's last step, so that the log never goes back in
// time (a clock set back or standing still) and the merges applied at any
// record time are the ones that held then.
func nextMergeTime(ms []Merge, now int64) time.Time {
	for _, m := range ms {
		last := m.At.UnixNano()
		if m.UndoneAt != nil {
			last = m.UndoneAt.UnixNano()
		}
		now = max(now, last+1)
	}
	return time.Unix(0, now).UTC()
}

// MergeEntities makes entity from an alias of entity into for user: the
// claims naming from, as subject or object, join into's edges, which show
// into's name. It is logged (Merges) and UndoMerge reverses it. It is
// refused, writing nothing, when a name is the user (UserSubject) or
// empty (ErrInvalidMerge), when no claim of the user names it
// (ErrNotFound), when both names are one entity already or from is
// already an alias (ErrInvalidMerge), when into is merged into from
// (ErrMergeCycle), and when both have known kinds that differ
// (ErrKindMismatch). Chains resolve: A into B, then B into C, makes A
// an alias of C.
func (s *Store) MergeEntities(ctx context.Context, user, from, into, reason string) (Merge, error) {
	var m Merge
	if err := validUser(user); err != nil {
		return m, err
	}
	reason, err := s.validText("reason", reason, true)
	if err != nil {
		return m, err
	}
	err = s.update(ctx, user, func(tx *kv.Tx) error {
		ms, err := userMergesTx(tx, user)
		if err != nil {
			return err
		}
		fs, err := userFacts(tx, user)
		if err != nil {
			return err
		}
		// Judged as replayMerges judges it: the kinds as of its time.
		at := nextMergeTime(ms, s.now())
		names, kinds := fs.names(), map[string]nameInfo{}
		fs.namesAt(kinds, new(int), at.UnixNano())
		if err := checkMerge(currentAliases(ms), names, kinds, from, into); err != nil {
			return fmt.Errorf("merge %q into %q: %w", from, into, err)
		}
		id, err := tx.NextBlobID(kv.BucketMerges)
		if err != nil {
			return err
		}
		m = Merge{ID: id, At: at, User: user, From: from, Into: into, Reason: reason}
		return putMerge(tx, &m)
	})
	if err != nil {
		return Merge{}, err
	}
	return m, nil
}

// UndoMerge undoes merge id of user: from is its own entity again, as
// known from now on; the merge stays in the log, marked undone. Undoing
// it twice gives ErrMergeUndone.
func (s *Store) UndoMerge(ctx context.Context, user string, id uint64, reason string) (Merge, error) {
	var m Merge
	reason, err := s.validText("reason", reason, true)
	if err != nil {
		return m, err
	}
	err = s.update(ctx, user, func(tx *kv.Tx) error {
		var err error
		if m, err = getLog[Merge](tx, kv.BucketMerges, "merge", user, id); err != nil {
			return err
		}
		if m.UndoneAt != nil {
			return fmt.Errorf("merge %d: %w", id, ErrMergeUndone)
		}
		ms, err := userMergesTx(tx, user)
		if err != nil {
			return err
		}
		at := nextMergeTime(ms, s.now())
		m.UndoneAt, m.UndoReason = &at, reason
		return putMerge(tx, &m)
	})
	if err != nil {
		return Merge{}, err
	}
	return m, nil
}

// Merges returns user's merges, oldest first, undone ones with their
// UndoneAt.
func (s *Store) Merges(ctx context.Context, user string) ([]Merge, error) {
	return s.userMerges(ctx, user)
}

// Entities returns user's entities as the merges stand now, the user
// (the subject "") aside, ordered by normalized name: each with its kind,
// its aliases and its number of edges.
func (s *Store) Entities(ctx context.Context, user string) ([]Entity, error) {
	g, err := s.graph(ctx, user)
	if err != nil {
		return nil, err
	}
	spelled := map[string]string{} // a key → its latest spelling in a claim
	kinds := map[string]claimRef{} // a root → the latest claim giving it a kind
	for i := range g.tl {
		for j, c := range g.tl[i].rec.Claims {
			if c.Subject != "" {
				spelled[claims.Normalize(c.Subject)] = c.Subject
			}
			k := claims.Normalize(c.Object)
			spelled[k] = c.Object
			if c.Kind != "" {
				kinds[g.res.root(k)] = claimRef{i, j}
			}
		}
	}
	var out []Entity
	for _, key := range slices.Sorted(maps.Keys(g.byEntity)) {
		if key == "" {
			continue
		}
		e := Entity{Name: g.display(key, spelled[key]), Edges: len(g.byEntity[key])}
		if r, ok := kinds[key]; ok {
			e.Kind = EntityKind(g.tl[r.fact].rec.Claims[r.claim].Kind)
		}
		for _, a := range g.res.has[key] {
			name := spelled[a]
			if name == "" {
				name = a
			}
			e.Aliases = append(e.Aliases, name)
		}
		out = append(out, e)
	}
	return out, nil
}

// mergeProblem is a broken invariant of one merge, so that Import can name
// the line the merge came from.
type mergeProblem struct {
	user string
	id   uint64
	err  error
}

func (p *mergeProblem) Error() string { return fmt.Sprintf("merge %d: %v", p.id, p.err) }
func (p *mergeProblem) Unwrap() error { return p.err }

// mergeFacts are the facts of a user as replayMerges reads them, in order
// of record time.
type mergeFacts []*kv.Record

// names are the names the claims of the facts give, and the kinds as
// known at record time k (the facts recorded by then): both grow, a fact
// at a time, as k moves forward (next is the first fact not yet read).
func (fs mergeFacts) namesAt(names map[string]nameInfo, next *int, k int64) {
	for ; *next < len(fs) && fs[*next].RecordedAt <= k; *next++ {
		addNames(names, fs[*next])
	}
}

// names are the names the claims of every fact give, in any state.
func (fs mergeFacts) names() map[string]nameInfo {
	ns := map[string]nameInfo{}
	for _, f := range fs {
		addNames(ns, f)
	}
	return ns
}

func sortedByRecordTime(fs []*kv.Record) mergeFacts {
	slices.SortStableFunc(fs, func(a, b *kv.Record) int { return cmp.Compare(a.RecordedAt, b.RecordedAt) })
	return fs
}

// replayMerges checks a log of merges as each was judged when made: in
// order of their steps (which never go back in time), each merge names two
// entities the claims of its user name, is no cycle and no second alias of
// its From under the merges applied then, and joins no entities whose
// kinds, as the claims recorded by then give them, differ; each undo comes
// after its merge. facts gives a user's facts.
func replayMerges(ms []Merge, facts func(user string) mergeFacts) []error {
	byUser := map[string][]Merge{}
	for _, m := range ms {
		byUser[m.User] = append(byUser[m.User], m)
	}
	var errs []error
	for _, user := range slices.Sorted(maps.Keys(byUser)) {
		um := byUser[user]
		slices.SortFunc(um, func(a, b Merge) int { return cmp.Compare(a.ID, b.ID) })
		type step struct {
			at   int64
			undo bool
			m    int
		}
		var steps []step
		bad := map[int]bool{}
		for i, m := range um {
			steps = append(steps, step{m.At.UnixNano(), false, i})
			if m.UndoneAt != nil {
				if !m.UndoneAt.After(m.At) {
					errs = append(errs, &mergeProblem{user, m.ID, fmt.Errorf("undone at %s, not after it was made at %s",
						stamp(m.UndoneAt.UnixNano()), stamp(m.At.UnixNano()))})
					bad[i] = true
				}
				steps = append(steps, step{m.UndoneAt.UnixNano(), true, i})
			}
			if i > 0 && !m.At.After(um[i-1].At) {
				errs = append(errs, &mergeProblem{user, m.ID, fmt.Errorf("made at %s, not after merge %d", stamp(m.At.UnixNano()), um[i-1].ID)})
				bad[i] = true
			}
		}
		slices.SortStableFunc(steps, func(a, b step) int { return cmp.Compare(a.at, b.at) })
		for i := 1; i < len(steps); i++ {
			if steps[i].at == steps[i-1].at && !bad[steps[i].m] {
				errs = append(errs, &mergeProblem{user, um[steps[i].m].ID, fmt.Errorf("a step at %s, the time of another step of the log",
					stamp(steps[i].at))})
				bad[steps[i].m] = true
			}
		}
		fs := facts(user)
		ns := fs.names()
		kinds, read := map[string]nameInfo{}, 0
		applied := map[int]bool{}
		for _, st := range steps {
			if bad[st.m] {
				continue
			}
			if st.undo {
				delete(applied, st.m)
				continue
			}
			var cur []Merge
			for i := range applied {
				cur = append(cur, um[i])
			}
			m := um[st.m]
			fs.namesAt(kinds, &read, st.at)
			if err := checkMerge(aliasesOf(cur, func(*Merge) bool { return true }), ns, kinds, m.From, m.Into); err != nil {
				errs = append(errs, &mergeProblem{user, m.ID, fmt.Errorf("%q into %q: %v", m.From, m.Into, err)})
				bad[st.m] = true
				continue
			}
			applied[st.m] = true
		}
	}
	return errs
}

// checkMerges is Check's part for the merge log: every entry decodes, is
// within the log's sequence, and replays (replayMerges).
func checkMerges(tx *kv.Tx) []error {
	var errs []error
	if err := checkCounter(tx, kv.BucketMerges, "merge"); err != nil {
		errs = append(errs, err)
	}
	var ms []Merge
	seq := tx.BlobSeq(kv.BucketMerges)
	err := tx.ForEachBlob(kv.BucketMerges, false, func(id uint64, b []byte) error {
		m, err := decodeLog[Merge]("merge", id, b)
		switch {
		case err != nil:
			errs = append(errs, err)
		case m.ID != id:
			errs = append(errs, fmt.Errorf("merge %d is stored under id %d", m.ID, id))
		case id > seq:
			errs = append(errs, fmt.Errorf("merge %d is after the log's last id %d", id, seq))
		default:
			ms = append(ms, m)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, replayMerges(ms, func(user string) mergeFacts {
		fs, err := userFacts(tx, user)
		if err != nil {
			errs = append(errs, err)
		}
		return fs
	})...)
	return errs
}

// eraseMerges removes, after a hard delete of user's facts, every merge
// of user that no longer replays (replayMerges) on the facts that remain:
// one that names a name no remaining claim names (a name is the user's
// text, and goes with the last fact that gave it), or whose kinds, once
// the deleted claims that made them agree are gone, differ. Erasing one
// may change how a later one replays, so it goes on until all replay.
func eraseMerges(tx *kv.Tx, user string) error {
	ms, err := userMergesTx(tx, user)
	if err != nil || len(ms) == 0 {
		return err
	}
	fs, err := userFacts(tx, user)
	if err != nil {
		return err
	}
	for len(ms) > 0 {
		var gone []uint64
		for _, err := range replayMerges(ms, func(string) mergeFacts { return fs }) {
			if p, ok := errors.AsType[*mergeProblem](err); ok {
				gone = append(gone, p.id)
			}
		}
		if len(gone) == 0 {
			return nil
		}
		tx.TouchUser(user)
		for _, id := range gone {
			if err := tx.DeleteBlob(kv.BucketMerges, id); err != nil {
				return err
			}
		}
		ms = slices.DeleteFunc(ms, func(m Merge) bool { return slices.Contains(gone, m.ID) })
	}
	return nil
}

// sameEntity maps each normalized name to one name of its class under
// every merge of ms, applied or undone: the names an edge may have shown
// at some record time (Why matches an edge's claims by it).
func sameEntity(ms []Merge) func(string) string {
	parent := map[string]string{}
	var find func(string) string
	find = func(k string) string {
		for {
			p, ok := parent[k]
			if !ok || p == k {
				return k
			}
			k = p
		}
	}
	for _, m := range ms {
		a, b := find(claims.Normalize(m.From)), find(claims.Normalize(m.Into))
		if a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	return find
}

// display is how key shows: a merged entity by its own name, whichever
// alias the claim used; else the claim's name.
func (g *userGraph) display(key, name string) string {
	if n, ok := g.names[key]; ok {
		return n
	}
	return name
}

// asOf is g with the merges applied at record time k: g itself when they
// are the ones it applies (the current ones), else a graph built for
// them, not cached.
func (g *userGraph) asOf(k int64) *userGraph {
	if len(g.res.merges) == 0 {
		return g
	}
	if a := g.res.at(k); !slices.Equal(a.active, g.res.active) {
		return buildGraph(g.tl, a)
	}
	return g
}
