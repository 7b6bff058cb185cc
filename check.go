package memory

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
)

// Check runs bbolt's page-level check of the file and then the store's own
// invariants: every record decodes, its claims are valid, its log replays
// through the transition table (transition.go) to its markers, links
// between versions agree in both directions, the per-user indexes hold
// exactly the keys the records imply, decisions and conflicts name only
// facts that exist, and each merge of entities names entities the user's
// claims name and makes no cycle. It returns nil when all hold, else an
// error wrapping ErrCorrupt that lists every problem. A store without
// damage gives ErrStale while it answers from an older commit (until
// Repair), and then ErrScrubPending while
// a hard delete's bytes may still be in the file: none is ok. On a
// cluster (OpenBackend) it tries again each hard delete's erase that a
// node being down left pending, and gives ErrErasePending while one is. Last comes
// ErrIndexDir, when the candidate index cannot live in its folder beside
// the store, or when a writable store cannot remove from it the indexes
// that processes now gone left (they may hold words of deleted facts).
// Once Close has begun it returns ErrClosed.
func (s *Store) Check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// A Delete in progress finishes its compaction first. Writes wait for
	// the whole check: bbolt's page check is not safe beside a writer, and
	// the records and the candidate index are compared at one moment.
	s.deleting.Lock()
	defer s.deleting.Unlock()
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.be != nil { // a cluster's commits do not take writeMu
		s.beAll.Lock()
		defer s.beAll.Unlock()
	}
	// A Close begun before the lock was ours is dropping the index: the
	// comparison would find it short (Close waits for a Check that holds
	// the lock first).
	if s.live.Closed() {
		return ErrClosed
	}
	var stale error
	if s.db != nil {
		if stale = s.db.Check(); stale != nil && !errors.Is(stale, kv.ErrStale) {
			return stale
		}
	}
	var errs []error
	current := map[index.DocKey]bool{}
	check := func(tx *kv.Tx) error {
		errs = append(errs, checkTx(tx)...)
		if s.db == nil || s.db.Current() { // an older file's conflicts are kept from its upgrade on
			errs = append(errs, checkConflicts(tx)...)
		}
		return tx.ForEachCurrent(func(r kv.Record) error { current[index.DocKey{User: r.User, ID: r.ID}] = true; return nil })
	}
	var err error
	if s.be != nil {
		// On a cluster each user's data is checked in their own snapshot.
		err = s.checkEachUser(ctx, check)
	} else {
		// Check is of the whole file: every user's facts, logs and indexes,
		// each user's apart as they are kept.
		err = s.viewAll(ctx, func(tx *kv.Tx) error {
			return tx.EachUser(func(user string) error {
				if err := check(tx); err != nil {
					return fmt.Errorf("user %q: %w", user, err)
				}
				return nil
			})
		})
	}
	if err != nil {
		return err
	}
	// The candidate index, if built, against the current facts; and what
	// keeps it from its folder, told last.
	ixDiffs, ixDir := s.live.Check(ctx, current)
	errs = append(errs, ixDiffs...)
	errs = append(errs, s.checkCaches(ctx)...)
	if len(errs) > 0 && stale != nil {
		errs = append(errs, errors.New(stale.Error())) // told, but only ErrCorrupt is wrapped
	}
	if len(errs) > 0 && ixDir != nil {
		errs = append(errs, errors.New(ixDir.Error()))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrCorrupt, errors.Join(errs...))
	}
	if stale != nil {
		return stale
	}
	if s.db != nil && s.db.ScrubPending() {
		return ErrScrubPending
	}
	if err := s.finishErases(ctx); err != nil {
		return err
	}
	return ixDir
}

// checkCaches compares every cached timeline and graph, which commits
// patch rather than rebuild (see patchGraph), with one read and built
// from the facts now. A difference is reported and the caches emptied, so
// that the next read is right. Called with writeMu held.
func (s *Store) checkCaches(ctx context.Context) []error {
	tls, gs := s.lists.cached()
	users := slices.Sorted(maps.Keys(tls))
	for u := range gs {
		if _, ok := tls[u]; !ok {
			users = append(users, u)
		}
	}
	var errs []error
	for _, user := range users {
		fresh, err := s.readTimeline(ctx, user)
		if err != nil {
			return append(errs, err)
		}
		if tl, ok := tls[user]; ok && !sameTimeline(tl, fresh) {
			errs = append(errs, fmt.Errorf("the cached timeline of user %q differs from its facts", user))
		}
		g, ok := gs[user]
		if !ok {
			continue
		}
		ms, err := s.userMerges(ctx, user)
		if err != nil {
			return append(errs, err)
		}
		if !sameTimeline(g.tl, fresh) || !g.sameEdges(buildGraph(fresh, currentAliases(ms))) {
			errs = append(errs, fmt.Errorf("the cached graph of user %q differs from one built from its facts", user))
		}
	}
	cached := s.lists.cachedConflicts()
	for _, user := range slices.Sorted(maps.Keys(cached)) {
		cs := cached[user]
		fresh, err := s.readConflicts(ctx, user, false)
		if err != nil {
			return append(errs, err)
		}
		if !reflect.DeepEqual(cs, fresh) && (len(cs) > 0 || len(fresh) > 0) {
			errs = append(errs, fmt.Errorf("the cached open conflicts of user %q differ from the log", user))
		}
	}
	if len(errs) > 0 {
		s.lists.invalidate(nil)
	}
	return errs
}

// factProblem is a broken invariant of one fact, so that Import can name
// the line the fact came from.
type factProblem struct {
	id  uint64
	err error
}

func (p *factProblem) Error() string { return fmt.Sprintf("fact %d: %v", p.id, p.err) }
func (p *factProblem) Unwrap() error { return p.err }

func checkTx(tx *kv.Tx) []error {
	errs := tx.CheckIndexes()
	next := tx.PeekNextID()
	// links is the supersession graph, predecessor to successors, from
	// every kind of link: a cycle in it is a chain with no first version
	// (and often no current one), which no sequence of writes makes.
	links := map[uint64][]uint64{}
	link := func(pred, succ uint64) {
		if pred != 0 && succ != 0 && !slices.Contains(links[pred], succ) {
			links[pred] = append(links[pred], succ)
		}
	}
	err := tx.ForEachWithLog(func(r kv.Record, evs []kv.Event) error {
		bad := func(format string, args ...any) {
			errs = append(errs, &factProblem{r.ID, fmt.Errorf(format, args...)})
		}
		for _, p := range predecessors(&r) {
			link(p, r.ID)
		}
		link(r.ID, r.SupersededBy)
		if r.ID >= next {
			bad("id not below the next id %d", next)
		}
		// A successor is a later fact: Supersede adds it, a resolve keeps a
		// conflict's newer fact. So no chain can close into a cycle.
		if r.Supersedes >= r.ID {
			bad("replaces fact %d, which is not older", r.Supersedes)
		}
		if !utf8.ValidString(r.Text) || r.Text == "" {
			bad("empty or invalid text")
		}
		if r.HasFrom && r.HasUntil && r.EventUntil <= r.EventFrom {
			bad("event interval ends before it starts")
		}
		// The graph is derived from the claims at every query: valid
		// claims are all it needs.
		if err := validClaims(fromKVClaims(r.Claims)); err != nil {
			bad("%v", err)
		}
		if err := replayMatches(&r, evs); err != nil {
			bad("%v", err)
		}
		// Every link joins two facts of one user and is known at both ends:
		// a successor names this fact as its predecessor, and a predecessor's
		// log holds the step in which this fact replaced it.
		for _, e := range evs {
			if e.Kind == kv.Unconfirmed {
				// Only the undo of this fact's restatement cancels its confirmation.
				d, err := getDecision(tx, r.User, e.Undoes)
				if err != nil || d.Action != ActionNoop || d.Target != r.ID || d.UndoneAt == nil {
					bad("a step cancels the confirmation of decision %d, which is no undone restatement of it", e.Undoes)
				}
			}
			if e.Kind != kv.Superseded {
				continue
			}
			// A step that ends the interval before an explicit start is
			// refused by every write now, but earlier versions wrote it
			// (a plan superseded before it began), and their exports must
			// stay importable: such a version was simply never true.
			if e.By == 0 {
				continue
			}
			link(r.ID, e.By)
			succ, err := tx.Get(e.By)
			switch {
			case err != nil:
				bad("successor %d missing", e.By)
			case succ.User != r.User:
				bad("successor %d belongs to another user", e.By)
			case !slices.Contains(predecessors(&succ), r.ID):
				bad("successor %d names %v as its predecessors", e.By, predecessors(&succ))
			}
		}
		ps := predecessors(&r)
		if r.Supersedes == 0 && len(r.AlsoSupersedes) > 0 || slices.Contains(r.AlsoSupersedes, 0) {
			bad("further predecessors %v with no first", r.AlsoSupersedes)
		} else if len(slices.Compact(slices.Sorted(slices.Values(ps)))) != len(ps) {
			bad("names a predecessor twice")
		}
		for _, p := range ps {
			pred, err := tx.Get(p)
			if err != nil {
				bad("predecessor %d missing", p)
			} else if pred.User != r.User {
				bad("predecessor %d belongs to another user", p)
			} else if pevs, err := tx.Events(p); err != nil || !supersededBy(pevs, r.ID) {
				bad("predecessor %d has no log step naming it as successor", p)
			}
		}
		return nil
	})
	if next < 1 || next > kv.MaxID+1 {
		errs = append(errs, fmt.Errorf("the next fact id %d is outside 1..%d", next, uint64(kv.MaxID+1)))
	}
	if err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, supersessionCycles(links)...)
	errs = append(errs, checkLogs(tx)...)
	return append(errs, checkMerges(tx)...)
}

func stamp(n int64) string { return time.Unix(0, n).UTC().Format(time.RFC3339Nano) }

// supersessionCycles reports each cycle of the graph once, as a problem of
// its lowest id (the first of its lines in an export).
func supersessionCycles(links map[uint64][]uint64) []error {
	const (
		unseen = iota
		open
		done
	)
	state := make(map[uint64]int, len(links))
	var errs []error
	// An explicit stack, not recursion: a chain can be as long as the store.
	type frame struct {
		id   uint64
		next int
	}
	roots := slices.Sorted(maps.Keys(links))
	for _, root := range roots {
		if state[root] != unseen {
			continue
		}
		stack := []frame{{id: root}}
		state[root] = open
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == len(links[top.id]) {
				state[top.id] = done
				stack = stack[:len(stack)-1]
				continue
			}
			succ := links[top.id][top.next]
			top.next++
			switch state[succ] {
			case unseen:
				state[succ] = open
				stack = append(stack, frame{id: succ})
			case open:
				var cycle []uint64
				for i := len(stack) - 1; i >= 0; i-- {
					cycle = append(cycle, stack[i].id)
					if stack[i].id == succ {
						break
					}
				}
				slices.Reverse(cycle)
				lowest := slices.Index(cycle, slices.Min(cycle))
				cycle = append(cycle[lowest:], cycle[:lowest]...)
				path := make([]string, 0, len(cycle)+1)
				for _, id := range append(cycle, cycle[0]) {
					path = append(path, fmt.Sprint(id))
				}
				errs = append(errs, &factProblem{cycle[0], fmt.Errorf("supersession cycle %s", strings.Join(path, " → "))})
			}
		}
	}
	return errs
}

func supersededBy(evs []kv.Event, id uint64) bool {
	for _, e := range evs {
		if e.Kind == kv.Superseded && e.By == id {
			return true
		}
	}
	return false
}

// refsExist reports whether every non-zero fact id exists and is user's.
func refsExist(tx *kv.Tx, user string, ids ...uint64) bool {
	for _, id := range ids {
		if id == 0 {
			continue
		}
		if _, err := getUser(tx, id, user); err != nil {
			return false
		}
	}
	return true
}
