package memory

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/palimpsest-mem/memory/index"
	"github.com/palimpsest-mem/memory/kv"
)

// DeleteOptions select what Delete erases.
type DeleteOptions struct {
	// Chain deletes every version in the fact's history, not only the one.
	Chain bool
}

// Delete erases fact id of user for good: the record, its lifecycle log and
// its index entries, then overwrites the file's free pages with zeros so
// that no byte of its text is left where bbolt freed it. It returns the
// ids erased.
//
// A merge of entities (MergeEntities) that names a name no remaining
// claim of the user names is erased with them.
//
// Neighbours stay consistent: a fact the deleted one had superseded is
// restored (the statement that replaced it is gone), and a successor no
// longer names it. Ids are never reused.
//
// The scrub works in place: it reads the live pages once and writes the
// freed ones, so a Delete costs a walk of the file, not a rewrite of it,
// and a second name of the file (a hard link) sees the same bytes.
func (s *Store) Delete(ctx context.Context, user string, id uint64, opts *DeleteOptions) ([]uint64, error) {
	s.deleting.RLock()
	defer s.deleting.RUnlock()
	var ids []uint64
	var keys []index.DocKey // the index's names of ids
	err := s.update(ctx, user, func(tx *kv.Tx) error {
		r, err := getUser(tx, id, user)
		if err != nil {
			return err
		}
		doomed := []kv.Record{r}
		if opts != nil && opts.Chain {
			if doomed, err = chain(tx, id); err != nil {
				return err
			}
		}
		gone := make(map[uint64]bool, len(doomed))
		texts := make([]string, 0, len(doomed))
		for _, d := range doomed {
			gone[d.ID] = true
			texts = append(texts, quotable(&d))
		}
		now := s.now()
		for i := range doomed {
			if err := unlink(tx, &doomed[i], gone, now); err != nil {
				return err
			}
		}
		if err := scrubLogs(tx, user, gone, texts); err != nil {
			return err
		}
		if err := tx.MarkScrubPending(); err != nil {
			return err
		}
		ids, keys = ids[:0], keys[:0]
		for _, d := range doomed {
			if err := tx.Delete(d.ID); err != nil {
				return err
			}
			ids = append(ids, d.ID)
			keys = append(keys, index.DocKey{User: d.User, ID: d.ID})
		}
		// A merge naming a name only the deleted facts gave goes with them.
		return eraseMerges(tx, user)
	})
	if err != nil {
		return nil, err
	}
	// Bleve keeps a deleted document's terms in its segments until they
	// merge: the purge has the segment files holding the facts rewritten
	// without them, and forgets the analyses lookups kept of their hits
	// (where it cannot, it drops the index, files and all, and the next
	// lookup rebuilds it: its error changes nothing of the promise). It
	// happens after the commit, not in the closure, which may run more
	// than once and must have no effect outside its transaction; meanwhile
	// a lookup finds no deleted fact (the commit's removals reach the index
	// first, and hits are read back from the store), and a Check waits for
	// the whole Delete. A crash before it ends leaves the words to the next
	// open, whose catch-up purges what the change log says was deleted.
	_ = s.live.Purge(ctx, keys)
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	if s.hookBeforeScrub != nil {
		s.hookBeforeScrub()
	}
	if s.be != nil {
		return ids, nil // the commit's erase ran in update
	}
	if err := s.db.Scrub(); err != nil {
		return ids, fmt.Errorf("facts %v deleted, but scrubbing the file's free pages failed, so their bytes may remain in it: %w", ids, err)
	}
	return ids, nil
}

// unlink cuts the links between d and the facts that survive its deletion.
// If d had been replaced by c, each predecessor d replaced is linked
// straight to c, so a chain a→d→c becomes a→c; otherwise a predecessor
// that d replaced is restored, because the statement that replaced it is
// gone.
func unlink(tx *kv.Tx, d *kv.Record, gone map[uint64]bool, now int64) error {
	heir := d.SupersededBy
	if gone[heir] {
		heir = 0
	}
	var relinked []uint64
	for _, p := range predecessors(d) {
		if gone[p] {
			continue
		}
		pr, err := tx.Get(p)
		if err != nil {
			return err
		}
		active := pr.SupersededBy == d.ID
		evs, err := tx.Events(p)
		if err != nil {
			return err
		}
		for i := range evs {
			if evs[i].Kind == kv.Superseded && evs[i].By == d.ID {
				evs[i].By = 0
				if active && heir != 0 && i == lastSuperseded(evs) {
					evs[i].By = heir
				}
			}
		}
		if err := tx.ReplaceEvents(p, evs); err != nil {
			return err
		}
		// The rewritten log says where the predecessor stands now: replaced
		// by the heir, or ended by no one.
		st, err := replay(evs)
		if err != nil {
			return fmt.Errorf("fact %d: %w: %v", p, ErrCorrupt, err)
		}
		st.mark(&pr)
		switch {
		case active && heir != 0:
			relinked = append(relinked, p)
			err = tx.Put(&pr)
		case active:
			// A hard delete is not refused for a clock set back: the
			// restore is recorded no earlier than the log's last step.
			err = step(tx, &pr, max(now, st.last), &kv.Event{Kind: kv.Restored, Cause: "successor deleted"})
		}
		if err != nil {
			return err
		}
	}
	evs, err := tx.Events(d.ID)
	if err != nil {
		return err
	}
	for _, e := range evs {
		if e.Kind != kv.Superseded || e.By == 0 || gone[e.By] || !tx.Has(e.By) {
			continue
		}
		succ, err := tx.Get(e.By)
		if err != nil {
			return err
		}
		ps := predecessors(&succ)
		if !slices.Contains(ps, d.ID) {
			continue
		}
		ps = slices.DeleteFunc(slices.Clone(ps), func(id uint64) bool { return id == d.ID })
		if succ.ID == heir {
			for _, p := range relinked {
				if !slices.Contains(ps, p) {
					ps = append(ps, p)
				}
			}
		}
		setPredecessors(&succ, ps)
		if err := tx.Put(&succ); err != nil {
			return err
		}
	}
	return nil
}

// setPredecessors makes ps the facts r replaced, the first as the one it
// was written to replace.
func setPredecessors(r *kv.Record, ps []uint64) {
	r.Supersedes, r.AlsoSupersedes = 0, nil
	if len(ps) > 0 {
		r.Supersedes = ps[0]
		if len(ps) > 1 {
			r.AlsoSupersedes = slices.Clone(ps[1:])
		}
	}
}

func lastSuperseded(evs []kv.Event) int {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Kind == kv.Superseded {
			return i
		}
	}
	return -1
}

// quotable is what of a fact a decider's words may quote: its text, the
// words it came from and the names its claims give.
func quotable(r *kv.Record) string {
	parts := []string{r.Text, r.Source.Quote, r.Source.Ref}
	for _, c := range r.Claims {
		parts = append(parts, c.Subject, c.Object)
	}
	return strings.Join(parts, "\n")
}

// deletedText stands in the decision log for the text of a deleted fact.
const deletedText = "[deleted]"

// scrubLogs removes the deleted facts from the decision log and the
// conflicts: conflicts involving one are dropped; a decision that added or
// targeted one loses its text, the model's answer and its reason (any may
// quote the fact); ids of deleted facts and of the dropped conflicts are
// cut from every decision, and of a decision that showed one as a
// candidate, what may quote it (quote.go) is removed. texts are the
// deleted facts' texts, all of them user's.
//
// Both logs are read whole, every user's entries, and filtered by owner:
// the decisions have no per-user index (a later file format gives each
// user a log of their own), so a Delete costs a read of every user's
// decisions. Links never cross users, so another user's entry that names
// a deleted fact is damage, refused rather than left quoting it.
func scrubLogs(tx *kv.Tx, user string, gone map[uint64]bool, texts []string) error {
	dropped := map[uint64]bool{}
	var conflicts []uint64
	err := forEachLog(tx, kv.BucketConflicts, "conflict", false, func(id uint64, c Conflict) error {
		if gone[c.New] || gone[c.Existing] {
			if c.User != user {
				return fmt.Errorf("%w: conflict %d of user %q names a fact of user %q", ErrCorrupt, id, c.User, user)
			}
			conflicts = append(conflicts, id)
			dropped[id] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	type scrubbed struct {
		id uint64
		d  Decision
	}
	var decisions []scrubbed
	q := newQuotes(texts)
	err = forEachLog(tx, kv.BucketDecisions, "decision", false, func(id uint64, d Decision) error {
		touched := gone[d.Added] || gone[d.Target]
		kept := d.Candidates[:0]
		for _, c := range d.Candidates {
			if gone[c] {
				touched = true
			} else {
				kept = append(kept, c)
			}
		}
		if !touched {
			return nil
		}
		if d.User != user {
			return fmt.Errorf("%w: decision %d of user %q names a fact of user %q", ErrCorrupt, id, d.User, user)
		}
		d.Candidates = kept
		if gone[d.Added] || gone[d.Target] {
			// The model's answer, the reason, the fallback message and the
			// claims note may all quote the fact it was about.
			d.Text, d.Raw, d.Reason = deletedText, "", deletedText
			if d.Fallback != "" {
				d.Fallback = "[fallback reason removed with a deleted fact it may quote]"
			}
			if d.ClaimsNote != "" {
				d.ClaimsNote = "[claims note removed with a deleted fact it may quote]"
			}
		} else {
			// Only a candidate went: each text goes if it may quote it,
			// and the conflicts with it, gone, are named no more.
			if q.may(d.Reason, d.Text) {
				d.Reason = "[reason removed with a deleted fact it may quote]"
			}
			if q.may(d.Raw, d.Text) {
				d.Raw = ""
			}
			if q.may(d.Fallback, d.Text) {
				d.Fallback = "[fallback reason removed with a deleted fact it may quote]"
			}
			if q.may(d.ClaimsNote, d.Text) {
				d.ClaimsNote = "[claims note removed with a deleted fact it may quote]"
			}
			ids := slices.DeleteFunc(d.conflictIDs(), func(id uint64) bool { return dropped[id] })
			d.Conflict, d.AlsoConflicts = 0, nil
			if len(ids) > 0 {
				d.Conflict = ids[0]
				if len(ids) > 1 {
					d.AlsoConflicts = ids[1:]
				}
			}
		}
		if gone[d.Added] {
			d.Added = 0
		}
		if gone[d.Target] {
			d.Target = 0
		}
		decisions = append(decisions, scrubbed{id, d})
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range decisions {
		if err := putDecision(tx, &c.d); err != nil {
			return err
		}
	}
	for _, id := range conflicts {
		if err := tx.DeleteBlob(kv.BucketConflicts, id); err != nil {
			return err
		}
	}
	return nil
}
