package memory

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/internal/clip"
	"github.com/palimpsest-mem/memory/kv"
)

// The conflict upkeep keeps every conflict true at every commit. It runs
// in the transaction of every write, after the write's own changes
// (commitTx), so that no path — a supersede, a retraction, an undo, a
// restore, a delete, a resolution, an import, a merge — can leave behind
// a conflict that no longer holds, or two current facts that contradict
// each other with no conflict to say so:
//
//   - an open conflict one of whose facts is no longer current becomes
//     moot, with the cause;
//   - a current fact that claims, for a subject, an object of a
//     single-valued relation that another current fact of its user
//     claims differently, over event intervals that overlap, stands in a
//     conflict with one such fact: an open one, one the user kept both
//     sides of, or else a new derived one (Conflict.Relation) with the
//     newest of them;
//   - a derived conflict whose objects a merge made one entity is moot.
//
// The conflicts of a fact are found through the store's log index by
// fact (kv.LogFacts), the peers of a claim through the user's graph
// when one is cached: a write costs what its own facts' conflicts and
// peers cost, not what the user's others do.

// pair is two facts, lower id first.
type pair struct{ a, b uint64 }

func pairOf(x, y uint64) pair {
	if x > y {
		x, y = y, x
	}
	return pair{x, y}
}

// svClaim is a claim of a single-valued relation, its names resolved.
type svClaim struct {
	fact            uint64
	subject, object string // normalized, resolved by the user's merges
	relation        Relation
	name            string // the object as the claim spells it
	span            span
}

// svKey groups the claims a subject can hold one of.
type svKey struct {
	subject  string
	relation Relation
}

func (c svClaim) key() svKey { return svKey{c.subject, c.relation} }

// svClaims are the claims of single-valued relations of a current record,
// resolved by res.
func svClaims(r *kv.Record, res *aliases) []svClaim {
	if !r.Current() {
		return nil
	}
	var out []svClaim
	var sp span
	for _, c := range r.Claims {
		rel := Relation(c.Relation)
		if !rel.SingleValued() {
			continue
		}
		if out == nil {
			sp = spanAt(r, nil, math.MaxInt64)
		}
		out = append(out, svClaim{fact: r.ID, subject: res.root(claims.Normalize(c.Subject)),
			object: res.root(claims.Normalize(c.Object)), relation: rel, name: c.Object, span: sp})
	}
	return out
}

// contradicts reports whether two claims of one key say two things at
// once: different objects, over event intervals that overlap.
func (c svClaim) contradicts(d svClaim) bool {
	if c.fact == d.fact || c.object == d.object {
		return false
	}
	before := func(p, q span) bool { return p.hasEnd && p.end <= q.start } // p ends before q starts
	return !before(c.span, d.span) && !before(d.span, c.span)
}

// standing reports whether a conflict still asks, or settles, anything of
// its facts: open, or resolved keeping both (the user said they agree).
func (c *Conflict) standing() bool { return c.Open() || c.Resolution == KeepBoth }

// conflictFacts tells the store's log index by fact which facts a
// conflict is found by: both of a standing one, none of another (nor of
// a merge, or a value that does not decode).
func conflictFacts(bucket, value []byte) []uint64 {
	if !bytes.Equal(bucket, kv.BucketConflicts) {
		return nil
	}
	var c Conflict
	if json.Unmarshal(value, &c) != nil || !c.standing() {
		return nil
	}
	if c.New == c.Existing {
		return []uint64{c.New}
	}
	return []uint64{c.New, c.Existing}
}

// factConflicts are the standing conflicts naming fact id.
func factConflicts(tx *kv.Tx, id uint64) ([]Conflict, error) {
	var out []Conflict
	err := tx.ForEachFactBlob(kv.BucketConflicts, id, func(cid uint64, b []byte) error {
		c, err := decodeLog[Conflict]("conflict", cid, b)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if c.standing() && (c.New == id || c.Existing == id) {
			out = append(out, c)
		}
		return nil
	})
	return out, err
}

// mootCause says why conflict c no longer holds, "" if it does: a fact
// that is gone or not current, or, for a derived one, no two claims of
// its relation that still contradict under res.
func mootCause(tx *kv.Tx, c *Conflict, res *aliases) (string, error) {
	var recs [2]kv.Record
	for i, id := range []uint64{c.New, c.Existing} {
		r, err := tx.Get(id)
		if err != nil {
			return fmt.Sprintf("fact %d was deleted", id), nil
		}
		if !r.Current() {
			return stateChange(tx, &r)
		}
		recs[i] = r
	}
	if c.Relation != "" && !claimsContradict(&recs[0], &recs[1], c.Relation, res) {
		return fmt.Sprintf("facts %d and %d no longer name two values of %s: their names are one entity", c.New, c.Existing, c.Relation), nil
	}
	return "", nil
}

// claimsContradict reports whether a and b claim contradicting objects of
// rel for one subject.
func claimsContradict(a, b *kv.Record, rel Relation, res *aliases) bool {
	for _, c := range svClaims(a, res) {
		for _, d := range svClaims(b, res) {
			if c.relation == rel && d.relation == rel && c.subject == d.subject && c.contradicts(d) {
				return true
			}
		}
	}
	return false
}

// stateChange says, in the store's words, how fact r stopped being
// current: its last superseding or retracting step, and that step's
// cause, clipped.
func stateChange(tx *kv.Tx, r *kv.Record) (string, error) {
	evs, err := tx.Events(r.ID)
	if err != nil {
		return "", err
	}
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if e.Kind != kv.Superseded && e.Kind != kv.Retracted {
			continue
		}
		what := fmt.Sprintf("fact %d was retracted", r.ID)
		if e.Kind == kv.Superseded && e.By != 0 {
			what = fmt.Sprintf("fact %d was superseded by fact %d", r.ID, e.By)
		}
		switch {
		case e.Undoes != 0:
			what += fmt.Sprintf(" (undo of decision %d)", e.Undoes)
		case e.Decision != 0:
			what += fmt.Sprintf(" (decision %d)", e.Decision)
		case e.Cause != "":
			what += " (" + clip.Bytes(e.Cause, 160) + ")"
		}
		return what, nil
	}
	return fmt.Sprintf("fact %d is no longer current", r.ID), nil
}

// upkeep is one run of the conflict upkeep: the record time it marks
// conflicts at, and the source of users' graphs of committed facts (nil:
// none, every peer is read from the transaction).
type upkeep struct {
	now   int64
	graph func(user string) (g *userGraph, changed map[uint64]bool, ok bool)
	// built holds the graphs read from the transaction where none was
	// cached (nil: none are kept).
	built map[string]*userGraph
}

// keepConflicts is the upkeep of every user tx changed. It is
// idempotent: run twice on one transaction, the second run finds nothing
// to do. It returns the graphs it read from tx, each the graph of its
// user's facts once tx commits.
func (s *Store) keepConflicts(tx *kv.Tx) (map[string]*userGraph, error) {
	u := upkeep{now: s.now(), graph: s.lists.graphSince, built: map[string]*userGraph{}}
	return u.built, u.run(tx)
}

// upgradeConflicts is the upkeep of every user of a file of an earlier
// format, in the commit that makes it current: from then on its open
// conflicts hold and its contradictions have conflicts.
func upgradeConflicts(clock func() time.Time) func(tx *kv.Tx, from uint64) error {
	if clock == nil {
		clock = time.Now
	}
	return func(tx *kv.Tx, from uint64) error {
		if from >= 5 {
			return nil // its conflicts are kept as every write keeps them
		}
		return keepEveryConflict(tx, max(clock().UTC().UnixNano(), 1))
	}
}

// keepEveryConflict is the upkeep of every user of tx, at time now, in
// the commit that upgrades a file.
func keepEveryConflict(tx *kv.Tx, now int64) error {
	users, err := tx.Users()
	if err != nil {
		return err
	}
	return keepConflictsOf(tx, users, now)
}

// keepConflictsOf is the upkeep of each of users in tx, at time now: the
// whole of their conflicts, whatever the transaction touched. Users are
// independent, so an import runs it a batch of users per transaction.
func keepConflictsOf(tx *kv.Tx, users []string, now int64) error {
	u := upkeep{now: now}
	for _, user := range users {
		// Scoped like a write of the user (runWrite): one user's upkeep
		// never reaches another's data.
		if err := runWrite(tx, user, func(tx *kv.Tx) error { return u.user(tx, user, nil, true) }); err != nil {
			return err
		}
	}
	return nil
}

func (u upkeep) run(tx *kv.Tx) error {
	type touched struct {
		user string
		ids  []uint64
	}
	var users []touched
	tx.TouchedUsers(func(user string, ids []uint64) { users = append(users, touched{user, ids}) })
	slices.SortFunc(users, func(a, b touched) int { return cmp.Compare(a.user, b.user) })
	for _, c := range users {
		// Each user's upkeep is a write of that user alone, scoped as the
		// writes it follows are (runWrite).
		if err := runWrite(tx, c.user, func(tx *kv.Tx) error { return u.user(tx, c.user, c.ids, false) }); err != nil {
			return err
		}
	}
	return nil
}

// A transaction that changes more than fullScanMin of a user's facts, and
// more than a fullScanShare-th of them, has the upkeep read them all
// rather than look each one's conflicts and peers up (an import, a large
// batch). Below fullScanMin the user's facts are not even counted.
const (
	fullScanMin   = 64
	fullScanShare = 4
)

// user keeps user's conflicts after a change of the facts ids; all of
// them when all, or when the change may have settled or unsettled any
// pair (a merge, a hard delete, a change of many facts).
func (u upkeep) user(tx *kv.Tx, user string, ids []uint64, all bool) error {
	all = all || tx.DataTouched(user)
	var ended, fresh []kv.Record
	for _, id := range ids {
		r, err := tx.Get(id)
		switch {
		case err != nil:
			// Deleted: Delete erased its conflicts, and the facts they
			// named may stand in none now.
			all = true
		case !r.Current():
			ended = append(ended, r)
		case singleValued(fromKVClaims(r.Claims)):
			fresh = append(fresh, r)
		}
	}
	if !all && len(ended) == 0 && len(fresh) == 0 {
		return nil
	}
	ms, err := userMergesTx(tx, user)
	if err != nil {
		return err
	}
	res := currentAliases(ms)
	if all || len(ids) > fullScanMin && len(ids) > tx.CountCurrent(user, false)/fullScanShare {
		return u.whole(tx, user, res)
	}
	// A fact that ended makes its open conflicts moot; their other sides
	// may stand in none now.
	for i := range ended {
		cs, err := factConflicts(tx, ended[i].ID)
		if err != nil {
			return err
		}
		for j := range cs {
			if err := u.moot(tx, &cs[j], res); err != nil {
				return err
			}
			other := cs[j].New
			if other == ended[i].ID {
				other = cs[j].Existing
			}
			if r, err := tx.Get(other); err == nil && r.Current() && singleValued(fromKVClaims(r.Claims)) {
				fresh = append(fresh, r)
			}
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	want := map[svKey]bool{}
	for i := range fresh {
		for _, c := range svClaims(&fresh[i], res) {
			want[c.key()] = true
		}
	}
	groups, err := u.peers(tx, user, res, want)
	if err != nil {
		return err
	}
	isFresh := map[uint64]bool{}
	for i := range fresh {
		isFresh[fresh[i].ID] = true
	}
	covered := map[uint64]bool{}
	for i := range fresh {
		f := &fresh[i]
		if covered[f.ID] {
			continue
		}
		covered[f.ID] = true
		for _, kc := range byKey(svClaims(f, res)) {
			if err := u.coverFresh(tx, user, f.ID, kc, groups, isFresh); err != nil {
				return err
			}
		}
	}
	return nil
}

// coverFresh covers fact id, of claims kc (one key), a fact this
// transaction changed, and each fact it contradicts that contradicted no
// other before (it stood in no conflict then, and needs one now). A fact
// that contradicts one the transaction did not change stands in a
// conflict already: the upkeep kept every commit before this one.
func (u upkeep) coverFresh(tx *kv.Tx, user string, id uint64, kc []svClaim, groups map[svKey][]svClaim, isFresh map[uint64]bool) error {
	cs, err := factConflicts(tx, id)
	if err != nil {
		return err
	}
	if _, err := u.cover(tx, user, id, kc, cs, groups); err != nil {
		return err
	}
	g := groups[kc[0].key()]
	for _, ds := range byFactOf(g) {
		d := ds[0].fact
		if isFresh[d] || !slices.ContainsFunc(ds, func(c svClaim) bool { return contradicting(kc, c) }) {
			continue
		}
		before := slices.ContainsFunc(g, func(e svClaim) bool {
			return e.fact != d && !isFresh[e.fact] && contradicting(ds, e)
		})
		if before {
			continue
		}
		dcs, err := factConflicts(tx, d)
		if err != nil {
			return err
		}
		if _, err := u.cover(tx, user, d, ds, dcs, groups); err != nil {
			return err
		}
	}
	return nil
}

// moot marks the open conflict c moot if it no longer holds.
func (u upkeep) moot(tx *kv.Tx, c *Conflict, res *aliases) error {
	if !c.Open() {
		return nil
	}
	why, err := mootCause(tx, c, res)
	if err != nil || why == "" {
		return err
	}
	at := time.Unix(0, u.now).UTC()
	c.MootAt, c.Moot = &at, logText(why)
	return putConflict(tx, c)
}

// cover makes sure fact id, of claims cs (all of one key), stands in a
// conflict with a fact it contradicts under that key, if it contradicts
// any: one of its standing conflicts, else a new one with the newest such
// fact, which it returns. groups hold the current claims of each key,
// newest first.
func (u upkeep) cover(tx *kv.Tx, user string, id uint64, cs []svClaim, standing []Conflict, groups map[svKey][]svClaim) (*Conflict, error) {
	others := map[uint64]bool{}
	for _, c := range standing {
		others[c.New], others[c.Existing] = true, true
	}
	var best, bestOf svClaim
	for _, d := range groups[cs[0].key()] {
		i := slices.IndexFunc(cs, func(c svClaim) bool { return c.contradicts(d) })
		if i < 0 {
			continue
		}
		if others[d.fact] {
			return nil, nil // settled, or asked, already
		}
		if best.fact == 0 || d.fact > best.fact {
			best, bestOf = d, cs[i]
		}
	}
	if best.fact == 0 {
		return nil, nil
	}
	return u.derive(tx, user, bestOf, best)
}

// derive records a derived conflict between the contradicting claims c
// and d, the newer fact as the new one.
func (u upkeep) derive(tx *kv.Tx, user string, c, d svClaim) (*Conflict, error) {
	if c.fact < d.fact {
		c, d = d, c
	}
	subject := "the user"
	if c.subject != "" {
		subject = fmt.Sprintf("%q", c.subject)
	}
	id, err := tx.NextBlobID(kv.BucketConflicts)
	if err != nil {
		return nil, err
	}
	k := Conflict{ID: id, At: time.Unix(0, u.now).UTC(), User: user, New: c.fact, Existing: d.fact, Relation: c.relation,
		Reason: logText(fmt.Sprintf("fact %d and fact %d claim two values of %s for %s, which holds one: %q and %q",
			c.fact, d.fact, c.relation, subject, c.name, d.name))}
	return &k, putConflict(tx, &k)
}

// peers are the current claims of user under the keys want, newest fact
// first: from a graph of the committed facts, with the facts changed
// since read from tx, when one is cached under the same merges; else from
// every current fact of the user.
func (u upkeep) peers(tx *kv.Tx, user string, res *aliases, want map[svKey]bool) (map[svKey][]svClaim, error) {
	var g *userGraph
	var changed map[uint64]bool
	ok := false
	if u.graph != nil {
		g, changed, ok = u.graph(user)
	}
	if ok && !g.res.same(res) {
		ok = false
	}
	if !ok && u.built != nil {
		// None cached: read the user's graph from tx, which the commit
		// hands to the cache, so that the next write starts from it.
		tl, err := timelineTx(tx, user)
		if err != nil {
			return nil, err
		}
		g, changed, ok = buildGraph(tl, res), nil, true
		u.built[user] = g
	}
	if !ok {
		groups, err := allSVGroups(tx, user, res)
		for k := range groups {
			if !want[k] {
				delete(groups, k)
			}
		}
		return groups, err
	}
	// This transaction's own facts are read as it leaves them.
	reread := map[uint64]bool{}
	for id := range changed {
		reread[id] = true
	}
	tx.Touched(func(u string, id uint64, _ *kv.Record) {
		if u == user {
			reread[id] = true
		}
	})
	groups := map[svKey][]svClaim{}
	add := func(r *kv.Record) {
		for _, c := range svClaims(r, res) {
			if want[c.key()] {
				groups[c.key()] = append(groups[c.key()], c)
			}
		}
	}
	for k := range want {
		for _, ek := range g.byEntity[k.subject] {
			if ek.subject != k.subject || ek.relation != k.relation {
				continue
			}
			for _, ref := range g.support[ek] {
				if r := &g.tl[ref.fact].rec; !reread[r.ID] {
					add(r)
				}
			}
		}
	}
	for id := range reread {
		r, err := tx.Get(id)
		if err != nil || r.User != user {
			continue // deleted, or another user's
		}
		add(&r)
	}
	for k, cs := range groups {
		slices.SortFunc(cs, func(a, b svClaim) int { return cmp.Compare(b.fact, a.fact) })
		groups[k] = slices.CompactFunc(cs, func(a, b svClaim) bool { return a.fact == b.fact && a.object == b.object })
	}
	return groups, nil
}

// allSVGroups groups the single-valued claims of every current fact of
// user by subject and relation, newest fact first.
func allSVGroups(tx *kv.Tx, user string, res *aliases) (map[svKey][]svClaim, error) {
	groups := map[svKey][]svClaim{}
	var ids []uint64
	if err := tx.UserIDs(user, true, func(id uint64, _ bool) error { ids = append(ids, id); return nil }); err != nil {
		return nil, err
	}
	slices.Reverse(ids)
	for _, id := range ids {
		r, err := tx.Get(id)
		if err != nil {
			return nil, err
		}
		for _, c := range svClaims(&r, res) {
			groups[c.key()] = append(groups[c.key()], c)
		}
	}
	return groups, nil
}

// whole keeps every conflict of user: the open ones that no longer hold
// become moot, and every current fact that contradicts another stands in
// a conflict.
func (u upkeep) whole(tx *kv.Tx, user string, res *aliases) error {
	var all []Conflict
	if err := forEachUserLog(tx, kv.BucketConflicts, "conflict", user, false, func(_ uint64, c Conflict) error {
		all = append(all, c)
		return nil
	}); err != nil {
		return err
	}
	byFact := map[uint64][]Conflict{}
	for i := range all {
		c := &all[i]
		if err := u.moot(tx, c, res); err != nil {
			return err
		}
		if c.standing() {
			byFact[c.New] = append(byFact[c.New], *c)
			byFact[c.Existing] = append(byFact[c.Existing], *c)
		}
	}
	groups, err := allSVGroups(tx, user, res)
	if err != nil {
		return err
	}
	keys := slices.SortedFunc(func(yield func(svKey) bool) {
		for k := range groups {
			if !yield(k) {
				return
			}
		}
	}, func(a, b svKey) int {
		return cmp.Or(cmp.Compare(a.subject, b.subject), cmp.Compare(a.relation, b.relation))
	})
	for _, k := range keys {
		fs := byFactOf(groups[k])
		for i := len(fs) - 1; i >= 0; i-- { // oldest first
			f := fs[i]
			made, err := u.cover(tx, user, f[0].fact, f, byFact[f[0].fact], groups)
			if err != nil {
				return err
			}
			if made != nil {
				byFact[made.New] = append(byFact[made.New], *made)
				byFact[made.Existing] = append(byFact[made.Existing], *made)
			}
		}
	}
	return nil
}

// byKey splits one fact's claims by key, in order of first appearance.
func byKey(cs []svClaim) [][]svClaim {
	var out [][]svClaim
	for _, c := range cs {
		i := slices.IndexFunc(out, func(g []svClaim) bool { return g[0].key() == c.key() })
		if i < 0 {
			out = append(out, []svClaim{c})
		} else {
			out[i] = append(out[i], c)
		}
	}
	return out
}

// byFactOf splits one key's claims, newest fact first, by fact.
func byFactOf(g []svClaim) [][]svClaim {
	var out [][]svClaim
	for _, c := range g {
		if n := len(out); n > 0 && out[n-1][0].fact == c.fact {
			out[n-1] = append(out[n-1], c)
		} else {
			out = append(out, []svClaim{c})
		}
	}
	return out
}

// contradicting reports whether any of the claims cs (one fact's, of one
// key) contradicts d.
func contradicting(cs []svClaim, d svClaim) bool {
	return slices.ContainsFunc(cs, func(c svClaim) bool { return c.contradicts(d) })
}

// checkConflicts is Check's part for the conflicts the upkeep keeps: an
// open conflict joins two different current facts of its user that, for
// a derived one, still contradict; and every current fact that
// contradicts another stands in a conflict with one it contradicts.
func checkConflicts(tx *kv.Tx) []error {
	users, err := tx.Users()
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, user := range users {
		ms, err := userMergesTx(tx, user)
		if err != nil {
			return append(errs, err)
		}
		res := currentAliases(ms)
		standing := map[uint64]map[uint64]bool{}
		err = forEachUserLog(tx, kv.BucketConflicts, "conflict", user, false, func(_ uint64, c Conflict) error {
			switch {
			case !c.standing():
				return nil
			case c.New == c.Existing:
				errs = append(errs, fmt.Errorf("conflict %d names fact %d on both sides", c.ID, c.New))
			case c.Open():
				if why, err := mootCause(tx, &c, res); err != nil || why != "" {
					errs = append(errs, fmt.Errorf("conflict %d is open, but %s", c.ID, cmp.Or(why, fmt.Sprint(err))))
				}
			}
			for _, p := range [][2]uint64{{c.New, c.Existing}, {c.Existing, c.New}} {
				if standing[p[0]] == nil {
					standing[p[0]] = map[uint64]bool{}
				}
				standing[p[0]][p[1]] = true
			}
			return nil
		})
		if err != nil {
			return append(errs, err)
		}
		groups, err := allSVGroups(tx, user, res)
		if err != nil {
			return append(errs, err)
		}
		for k, g := range groups {
			for _, cs := range byFactOf(g) {
				var first uint64
				covered := false
				for _, d := range g {
					if contradicting(cs, d) {
						first = cmp.Or(first, d.fact)
						if standing[cs[0].fact][d.fact] {
							covered = true
							break
						}
					}
				}
				if first != 0 && !covered {
					errs = append(errs, fmt.Errorf("fact %d claims %s of %q against fact %d, and stands in no conflict with a fact it contradicts",
						cs[0].fact, k.relation, k.subject, first))
				}
			}
		}
	}
	return errs
}
