package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"time"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// ErrPurge says that Purge could not prove the words of deleted documents
// gone from the index's files; its owner removes the index instead.
var ErrPurge = errors.New("index: the words of deleted facts could not be purged from the index's files")

// purgeWait bounds each wait of Purge for scorch's background work: a
// persist, a merge, the removal of a file no snapshot uses.
const purgeWait = 30 * time.Second

// Purge removes from the index's files every term of the documents keys,
// deleted already (Delete or Apply), without a rebuild: a deleted document
// stays in its segment, marked deleted, until a merge rewrites the
// segment. Purge waits until the batch that deleted them is in a file,
// has scorch rewrite each segment file that holds one of them (and, since
// scorch plans by segment, each other one with deletions), and returns once
// the old files are gone from disk. An error wraps ErrPurge (or the
// context's error).
func (ix *Index) Purge(ctx context.Context, keys []DocKey) (err error) {
	if len(keys) == 0 {
		return nil
	}
	defer func() {
		if err != nil && !errors.Is(err, ErrPurge) && ctx.Err() == nil {
			err = fmt.Errorf("%w: %w", ErrPurge, err)
		}
	}()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.bleve == nil {
		return ErrClosed
	}
	s, err := ix.scorch()
	if err != nil {
		return err
	}
	// A merge scorch began in the background before the deletion writes a
	// segment that holds the documents still, marked deleted, and removes
	// the files purged here: look again until no file holds them.
	for range purgeRounds {
		clean, err := ix.purgeRound(ctx, s, keys)
		if clean || err != nil {
			return err
		}
	}
	return fmt.Errorf("%w: a file still held them after %d merges", ErrPurge, purgeRounds)
}

// purgeRounds bounds the merges of one Purge.
const purgeRounds = 5

// purgeRound merges the segment files that hold keys, and waits for the
// old files to go; clean says that no file held them.
func (ix *Index) purgeRound(ctx context.Context, s *scorch.Scorch, keys []DocKey) (clean bool, err error) {
	// 1. Every segment that holds the documents is in a file: a segment
	// persisted whole keeps its deleted documents' terms, to be merged away.
	var files []string
	var single bool
	var readErr error
	if err := waitFor(ctx, "the deletion to reach the files", func() bool {
		if !persistedAll(s) {
			return false
		}
		// 2. The files that hold them (none may be in memory still).
		var inMemory bool
		files, inMemory, single, readErr = ix.filesHolding(s, keys)
		return readErr != nil || !inMemory
	}); err != nil {
		return false, err
	}
	if readErr != nil {
		return false, readErr
	}
	if len(files) == 0 {
		// No segment of the newest snapshot holds them, but a file that an
		// older one used, which a merge replaced, may be on disk still:
		// scorch removes it after a later persist, which a batch brings
		// about. Then another round looks again.
		replaced, err := ix.replacedFiles(s)
		if err != nil || len(replaced) == 0 {
			return err == nil, err
		}
		return false, ix.persistUntilGone(ctx, replaced)
	}
	// scorch plans no merge of an index of one segment: a document of no
	// user in a segment of its own makes it two, and goes again in the
	// batch of step 4 (its segment, all deleted then, with it).
	if single {
		b := ix.bleve.NewBatch()
		if err := b.IndexAdvanced(document.NewDocument(sentinelID)); err != nil {
			return false, fmt.Errorf("%w: %w", ErrPurge, err)
		}
		if err := ix.bleve.Batch(b); err != nil {
			return false, fmt.Errorf("%w: %w", ErrPurge, err)
		}
		if err := waitFor(ctx, "a second segment", func() bool { return persistedAll(s) }); err != nil {
			return false, err
		}
	}
	// 3. Rewrite each segment with deletions on its own, to a segment of its
	// live documents: a deleted document's postings are not copied, and a
	// term left without any is not written.
	// scorch tells a merge's outcome only on a channel under this key; a
	// failed one never returns from ForceMerge, which Close then ends.
	merged := make(chan error, 2)
	mctx := context.WithValue(ctx, "mergeDone", merged) //nolint:staticcheck // scorch's own key
	go func() {
		if err := s.ForceMerge(mctx, purgePlan()); err != nil {
			merged <- err
		}
	}()
	t := time.NewTimer(purgeWait)
	defer t.Stop()
	select {
	case err := <-merged:
		if err != nil {
			return false, fmt.Errorf("%w: merging: %w", ErrPurge, err)
		}
	case <-ctx.Done():
		return false, ctx.Err()
	case <-t.C:
		return false, fmt.Errorf("%w: no merge within %v", ErrPurge, purgeWait)
	}
	// 4. The old files go once a snapshot without them is persisted.
	return false, ix.persistUntilGone(ctx, files)
}

// persistUntilGone has scorch persist a snapshot, by a batch (which also
// deletes the sentinel of step 2), and waits for files to be removed.
func (ix *Index) persistUntilGone(ctx context.Context, files []string) error {
	b := ix.bleve.NewBatch()
	b.Delete(sentinelID)
	b.SetInternal(purgeKey, []byte(time.Now().UTC().Format(time.RFC3339Nano)))
	if err := ix.bleve.Batch(b); err != nil {
		return fmt.Errorf("%w: %w", ErrPurge, err)
	}
	return waitFor(ctx, "the old segment files to go", func() bool {
		for _, f := range files {
			if _, err := os.Lstat(f); !errors.Is(err, fs.ErrNotExist) {
				return false
			}
		}
		return true
	})
}

// persistedAll says whether scorch has persisted its newest snapshot.
func persistedAll(s *scorch.Scorch) bool {
	st := s.StatsMap()
	cur, _ := st["CurRootEpoch"].(uint64)
	persisted, _ := st["LastPersistedEpoch"].(uint64)
	return persisted >= cur
}

// persisted waits until scorch has persisted its newest snapshot. Called
// with ix.mu held.
func (ix *Index) persisted(ctx context.Context) error {
	s, err := ix.scorch()
	if err != nil {
		return err
	}
	return waitFor(ctx, "the index to reach its files", func() bool { return persistedAll(s) })
}

// purgePlan makes a merge task of each segment file with deletions on its
// own: tiers of one segment, tasks of one, no budget of segments to keep.
func purgePlan() *mergeplan.MergePlanOptions {
	return &mergeplan.MergePlanOptions{
		MaxSegmentSize:       mergeplan.MaxSegmentSizeLimit,
		SegmentsPerMergeTask: 1,
		MaxSegmentsPerTier:   1,
		TierGrowth:           1,
		CalcBudget:           func(int64, int64, *mergeplan.MergePlanOptions) int { return 0 },
	}
}

// sentinelID is the document Purge adds to an index of one segment, and
// deletes again; DocKeys does not count it. It has no slash, so it is no
// key's (docID).
const sentinelID = "palimpsest.purge"

// purgeKey is an internal key each Purge writes, so that a snapshot is
// persisted after its merge.
var purgeKey = []byte("palimpsest.purge")

// scorch returns the index's scorch engine.
func (ix *Index) scorch() (*scorch.Scorch, error) {
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil, fmt.Errorf("index: %w: the engine is %T, not scorch", ErrPurge, adv)
	}
	return s, nil
}

// filesHolding returns the segment files that hold any of the documents
// keys, deleted or not, whether a segment in memory holds one, and whether
// the index is a single segment.
func (ix *Index) filesHolding(s *scorch.Scorch, keys []DocKey) (files []string, inMemory, single bool, err error) {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = docID(k)
	}
	err = snapshotSegments(s, func(segs []*scorch.SegmentSnapshot) error {
		single = len(segs) == 1
		for _, ss := range segs {
			seg := ss.Segment()
			nums, err := seg.DocNumbers(names)
			if err != nil {
				return fmt.Errorf("index: %w", err)
			}
			if nums.IsEmpty() {
				continue
			}
			if p, ok := seg.(segment.PersistedSegment); ok {
				files = append(files, p.Path())
			} else {
				inMemory = true
			}
		}
		return nil
	})
	return files, inMemory, single, err
}

// snapshotSegments calls fn with the segments of scorch's newest snapshot, held
// for the call; a fault reading their files is an error.
func snapshotSegments(s *scorch.Scorch, fn func([]*scorch.SegmentSnapshot) error) (err error) {
	defer guard(&err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	r, err := s.Reader()
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return fmt.Errorf("index: a reader of type %T, not scorch's snapshot", r)
	}
	return fn(snap.Segments())
}

// waitFor polls done until it holds, the context ends or purgeWait passes.
func waitFor(ctx context.Context, what string, done func() bool) error {
	deadline := time.Now().Add(purgeWait)
	for pause := time.Millisecond; !done(); pause = min(2*pause, 50*time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("index: waited %v for %s", purgeWait, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
	}
	return nil
}
