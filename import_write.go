package memory

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// importBatchLines is about how many lines an import writes per
// transaction of the file it fills: enough that the commits cost little
// beside the decoding, few enough that a transaction's pages stay small.
const importBatchLines = 16 * importChunkLines

// importWriter writes the decoded chunks of an import, in file order, to
// the file beside the store that will take its place (dst), a batch of
// chunks per transaction, and keeps what the checks at the end need: the
// line of each fact and log, and the merges.
type importWriter struct {
	s     *Store
	dst   *kv.DB
	hdr   exportHeader
	batch []*importChunk
	lines int
	facts int
	// factLines, logLines: where each fact, decision and conflict was read.
	factLines factLines
	logLines  map[string]map[lineKey]int
	merges    []exportLog
	// counters are each user's, from version 10, as their lines came.
	counters map[string]exportCounters
}

// lineKey names a fact, decision, conflict or merge of an import: ids
// are each user's.
type lineKey struct {
	user string
	id   uint64
}

// bounds are the counters user's lines are held to: the header's up to
// version 9, from 10 the user's own line, which must come first.
func (w *importWriter) bounds(user string, line int) (exportHeader, error) {
	if w.hdr.Version <= exportShared {
		return w.hdr, nil
	}
	c, ok := w.counters[user]
	if !ok {
		return exportHeader{}, fmt.Errorf("%w: line %d: a line of user %q before the user's counters line", ErrBadImport, line, user)
	}
	return c.header(w.hdr.Version), nil
}

// write takes the next chunk, and writes the batch once it is full or the
// chunk holds a bad line (the lines before it are written first, so that a
// duplicate among them is the one reported).
func (w *importWriter) write(c *importChunk) error {
	w.batch = append(w.batch, c)
	w.lines += len(c.items) + len(c.logs)
	if w.lines < importBatchLines && c.err == nil {
		return nil
	}
	return w.flush()
}

func (w *importWriter) flush() error {
	if len(w.batch) == 0 {
		return nil
	}
	batch := w.batch
	w.batch, w.lines = nil, 0
	var bad error
	// On the file the import builds beside the store, not through
	// Store.update: a batch holds the lines of any users, in the export's
	// order, and the file takes the store's place whole (Replace).
	err := w.dst.Update(func(tx *kv.Tx) error {
		for _, c := range batch {
			if err := w.put(tx, c); err != nil {
				return err
			}
			if c.err != nil {
				bad = c.err
				return c.err
			}
		}
		// What the batch read of the file need not stay resident.
		tx.ReleaseMapped()
		return nil
	})
	if err != nil && err != bad && !errors.Is(err, ErrBadImport) {
		return fmt.Errorf("import: %w", err)
	}
	return err
}

// put writes one chunk's facts and logs, refusing an id seen before.
func (w *importWriter) put(tx *kv.Tx, c *importChunk) error {
	// A chunk's facts and logs are each in line order; they are checked
	// in line order across the two, so that the first duplicate is the
	// one reported.
	fi, li := 0, 0
	for fi < len(c.items) || li < len(c.logs) {
		if li == len(c.logs) || (fi < len(c.items) && c.items[fi].line < c.logs[li].line) {
			it := &c.items[fi]
			fi++
			hdr, err := w.bounds(it.rec.User, it.line)
			if err != nil {
				return err
			}
			if err := factInBounds(&it.rec, it.evs, hdr); err != nil {
				return fmt.Errorf("%w: line %d: %v", ErrBadImport, it.line, err)
			}
			tx.Use(it.rec.User)
			if tx.Has(it.rec.ID) {
				return fmt.Errorf("%w: line %d: fact id %d is duplicated", ErrBadImport, it.line, it.rec.ID)
			}
			if err := tx.Put(&it.rec); err != nil {
				return err
			}
			for j := range it.evs {
				if err := tx.Append(it.rec.ID, &it.evs[j]); err != nil {
					return err
				}
			}
			w.factLines.add(it.rec.User, it.rec.ID, it.line)
			w.facts++
			continue
		}
		l := c.logs[li]
		li++
		if err := w.putLog(tx, l); err != nil {
			return err
		}
	}
	return nil
}

// putLog writes a decision or conflict line, and keeps a merge for the
// end, where it is checked against every fact of its user.
func (w *importWriter) putLog(tx *kv.Tx, l exportLog) error {
	if c := l.Counters; c != nil {
		if _, dup := w.counters[c.User]; dup {
			return fmt.Errorf("%w: line %d: a second counters line of user %q", ErrBadImport, l.line, c.User)
		}
		w.counters[c.User] = *c
		return nil
	}
	noun, id, bucket, user := "decision", uint64(0), kv.BucketDecisions, ""
	switch {
	case l.Decision != nil:
		id, user = l.Decision.ID, l.Decision.User
	case l.Conflict != nil:
		noun, id, bucket, user = "conflict", l.Conflict.ID, kv.BucketConflicts, l.Conflict.User
	default:
		hdr, err := w.bounds(l.Merge.User, l.line)
		if err != nil {
			return err
		}
		if l.Merge.ID > hdr.LastMerge {
			return fmt.Errorf("%w: line %d: merge %d: id outside 1..%d", ErrBadImport, l.line, l.Merge.ID, hdr.LastMerge)
		}
		w.merges = append(w.merges, l)
		return nil
	}
	hdr, err := w.bounds(user, l.line)
	if err != nil {
		return err
	}
	last := hdr.LastDecision
	if l.Conflict != nil {
		last = hdr.LastConflict
	}
	if id > last {
		return fmt.Errorf("%w: line %d: %s %d: id outside 1..%d", ErrBadImport, l.line, noun, id, last)
	}
	// Each in its user's data, where a write of the user keeps it.
	tx.Use(user)
	// A store holds one entry per id, and the last line would silently win.
	if tx.HasBlob(bucket, id) {
		return fmt.Errorf("%w: line %d: %s id %d is duplicated", ErrBadImport, l.line, noun, id)
	}
	w.logLines[noun][lineKey{user, id}] = l.line
	if l.Decision != nil {
		return putDecision(tx, l.Decision)
	}
	return putConflict(tx, l.Conflict)
}

// importUpkeepUsers is how many users' conflicts an import keeps per
// transaction at the end: each user's are independent of the others', and
// one transaction for all would hold every conflict written in memory.
const importUpkeepUsers = 64

// finish writes what is left; then the merges and the counters; then each
// user's conflicts, a batch of users per transaction; and checks the whole
// file as Check would.
func (w *importWriter) finish() error {
	if err := w.flush(); err != nil {
		return err
	}
	wrap := func(err error) error {
		if err != nil && !errors.Is(err, ErrBadImport) {
			return fmt.Errorf("import: %w", err)
		}
		return err
	}
	var users []string
	// The file's counters and marks, and the list of its users: the
	// whole file's, no one user's.
	err := w.dst.Update(func(tx *kv.Tx) error {
		if err := importMerges(tx, w.merges); err != nil {
			return err
		}
		for _, l := range w.merges {
			tx.Use(l.Merge.User)
			if err := putMerge(tx, l.Merge); err != nil {
				return err
			}
		}
		// A successful import leaves a store, of no fact too.
		if err := tx.MarkImported(); err != nil {
			return err
		}
		// Each user's counters: their own line's from version 10, else
		// the store's, which every user of the file keeps (ids were
		// unique in it, and none is given again).
		set := func(c exportCounters) error {
			tx.Use(c.User)
			if err := tx.SetNextID(c.NextID); err != nil {
				return err
			}
			for _, b := range []struct {
				bucket []byte
				seq    uint64
			}{{kv.BucketDecisions, c.LastDecision}, {kv.BucketConflicts, c.LastConflict}, {kv.BucketMerges, c.LastMerge}} {
				if err := tx.SetBlobSeq(b.bucket, b.seq); err != nil {
					return err
				}
			}
			return nil
		}
		if w.hdr.Version > exportShared {
			for _, u := range slices.Sorted(maps.Keys(w.counters)) {
				if err := set(w.counters[u]); err != nil {
					return err
				}
			}
		} else {
			shared := exportCounters{NextID: w.hdr.NextID, LastDecision: w.hdr.LastDecision,
				LastConflict: w.hdr.LastConflict, LastMerge: w.hdr.LastMerge}
			err := tx.EachUser(func(u string) error {
				c := shared
				c.User = u
				return set(c)
			})
			if err != nil {
				return err
			}
		}
		var err error
		users, err = tx.Users()
		return err
	})
	if err != nil {
		return wrap(err)
	}
	// The conflicts are kept as every write keeps them: an older file's
	// stale ones become moot, its contradictions conflicts.
	now := w.s.now()
	for i := 0; i < len(users); i += importUpkeepUsers {
		batch := users[i:min(i+importUpkeepUsers, len(users))]
		if err := w.dst.Update(func(tx *kv.Tx) error {
			defer tx.ReleaseMapped()
			return keepConflictsOf(tx, batch, now)
		}); err != nil {
			if errors.Is(err, errCrossUser) {
				// The file's links join two users' data: the import's
				// fault, which the checks before could not see.
				return fmt.Errorf("%w: %v", ErrBadImport, err)
			}
			return wrap(err)
		}
	}
	// checkTx refuses a log line that names a missing fact.
	var problems []error
	if err := w.dst.View(func(tx *kv.Tx) error {
		// The checks read the whole file, which need not all stay resident.
		defer tx.ReleaseMappedEvery(50 * time.Millisecond)()
		return tx.EachUser(func(u string) error {
			problems = append(problems, onLines(append(checkTx(tx), checkConflicts(tx)...), u, &w.factLines, w.logLines)...)
			return nil
		})
	}); err != nil {
		return wrap(err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %w", ErrBadImport, errors.Join(problems...))
	}
	return nil
}

// factInBounds checks a fact's id and the decisions its log names against
// the counters of its user (decodeChunk checked them against the store's
// bounds alone, in version 10).
func factInBounds(r *kv.Record, evs []kv.Event, hdr exportHeader) error {
	if r.ID == 0 || r.ID >= hdr.NextID {
		return fmt.Errorf("fact id %d is not below next_id %d", r.ID, hdr.NextID)
	}
	for _, e := range evs {
		if max(e.Decision, e.Undoes) > hdr.LastDecision {
			return fmt.Errorf("fact %d: a log step names decision %d, after last_decision %d", r.ID, max(e.Decision, e.Undoes), hdr.LastDecision)
		}
	}
	return nil
}

// factLines maps the facts of an import to the lines they were read from,
// in 16 bytes a fact: the ids come in nearly any order, and are sorted
// only if a problem must be placed. Users are numbered as they come.
type factLines struct {
	userNo map[string]uint32
	facts  []lineOfFact
	sorted bool
}

type lineOfFact struct {
	user uint32
	line int32
	id   uint64
}

func (f *factLines) add(user string, id uint64, line int) {
	if f.userNo == nil {
		f.userNo = map[string]uint32{}
	}
	n, ok := f.userNo[user]
	if !ok {
		n = uint32(len(f.userNo))
		f.userNo[user] = n
	}
	f.facts = append(f.facts, lineOfFact{n, int32(min(line, 1<<31-1)), id})
	f.sorted = false
}

func (a lineOfFact) cmp(b lineOfFact) int {
	return cmp.Or(cmp.Compare(a.user, b.user), cmp.Compare(a.id, b.id))
}

// line is the line fact id of user was read from, 0 if none.
func (f *factLines) line(user string, id uint64) int {
	n, ok := f.userNo[user]
	if !ok {
		return 0
	}
	if !f.sorted {
		slices.SortFunc(f.facts, lineOfFact.cmp)
		f.sorted = true
	}
	if i, ok := slices.BinarySearchFunc(f.facts, lineOfFact{user: n, id: id}, lineOfFact.cmp); ok {
		return int(f.facts[i].line)
	}
	return 0
}
