package memory

import (
	"errors"
	"fmt"
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
	logLines  map[string]map[uint64]int
	merges    []exportLog
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
			w.factLines.add(it.rec.ID, it.line)
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
	noun, id, bucket := "decision", uint64(0), kv.BucketDecisions
	switch {
	case l.Decision != nil:
		id = l.Decision.ID
	case l.Conflict != nil:
		noun, id, bucket = "conflict", l.Conflict.ID, kv.BucketConflicts
	default:
		w.merges = append(w.merges, l)
		return nil
	}
	// A store holds one entry per id, and the last line would silently win.
	if tx.HasBlob(bucket, id) {
		return fmt.Errorf("%w: line %d: %s id %d is duplicated", ErrBadImport, l.line, noun, id)
	}
	w.logLines[noun][id] = l.line
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
			if err := putMerge(tx, l.Merge); err != nil {
				return err
			}
		}
		if err := tx.SetNextID(w.hdr.NextID); err != nil {
			return err
		}
		// A successful import leaves a store, of no fact too.
		if err := tx.MarkImported(); err != nil {
			return err
		}
		for _, c := range []struct {
			bucket []byte
			seq    uint64
		}{{kv.BucketDecisions, w.hdr.LastDecision}, {kv.BucketConflicts, w.hdr.LastConflict}, {kv.BucketMerges, w.hdr.LastMerge}} {
			if err := tx.SetBlobSeq(c.bucket, c.seq); err != nil {
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
		problems = append(checkTx(tx), checkConflicts(tx)...)
		return nil
	}); err != nil {
		return wrap(err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %w", ErrBadImport, errors.Join(onLines(problems, &w.factLines, w.logLines)...))
	}
	return nil
}

// factLines maps the facts of an import to the lines they were read from,
// in 12 bytes a fact: the ids come in nearly any order, and are sorted
// only if a problem must be placed.
type factLines struct {
	ids    []uint64
	lines  []int32
	sorted bool
}

func (f *factLines) add(id uint64, line int) {
	f.ids = append(f.ids, id)
	f.lines = append(f.lines, int32(min(line, 1<<31-1)))
	f.sorted = false
}

// line is the line fact id was read from, 0 if none.
func (f *factLines) line(id uint64) int {
	if !f.sorted {
		idx := make([]int, len(f.ids))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			switch {
			case f.ids[a] < f.ids[b]:
				return -1
			case f.ids[a] > f.ids[b]:
				return 1
			}
			return 0
		})
		ids, lines := make([]uint64, len(idx)), make([]int32, len(idx))
		for i, j := range idx {
			ids[i], lines[i] = f.ids[j], f.lines[j]
		}
		f.ids, f.lines, f.sorted = ids, lines, true
	}
	if i, ok := slices.BinarySearch(f.ids, id); ok {
		return int(f.lines[i])
	}
	return 0
}
