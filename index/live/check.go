package live

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/palimpsest-mem/memory/index"
)

// Check compares the index, if one is built, with current, the keys of
// the store's current facts, once every change synced before the call is in:
// diffs holds one error for each fact one has and the other lacks (or the
// error that kept it from looking). An index whose files faulted is
// dropped instead: it is derived data, not the store's, and the next
// lookup builds it again. Of a store of per-user revisions only the users
// the index holds are compared (the caller catches each up to its read
// first: Follow). dir reports what keeps the index from its
// folder beside the store or, for a writable store, what the sweep of that
// folder could not remove. Called with the write lock held, so that
// nothing commits meanwhile and no index of the store but this one is
// being made; the caller tells a Close that overtook it by Closed.
func (l *Index) Check(ctx context.Context, current map[index.DocKey]bool) (diffs []error, dir error) {
	docs, built, err := l.keys(ctx)
	switch {
	case err != nil:
		diffs = []error{err}
	case built:
		if l.src.User != nil {
			current = l.q.held(current) // the users it follows (follow.go)
		}
		for k := range current {
			if !docs[k] {
				diffs = append(diffs, fmt.Errorf("index lacks current fact %s", factName(k)))
			}
		}
		for k := range docs {
			if !current[k] {
				diffs = append(diffs, fmt.Errorf("index holds fact %s, which is not current", factName(k)))
			}
		}
	}
	return diffs, l.checkDir()
}

// factName names a fact in a report: by its id, and its user's but the
// default one's.
func factName(k index.DocKey) string {
	if k.User == "" {
		return strconv.FormatUint(k.ID, 10)
	}
	return fmt.Sprintf("%d of user %q", k.ID, k.User)
}

// keys returns the documents the index holds once every change queued
// before the call is in, or ok false when no index is built (or it
// faulted, and is dropped).
func (l *Index) keys(ctx context.Context) (docs map[index.DocKey]bool, ok bool, err error) {
	l.mu.RLock()
	ix := l.ix
	l.mu.RUnlock()
	if ix == nil {
		return nil, false, nil
	}
	if err := l.q.wait(ctx); err != nil {
		return nil, false, err
	}
	docs, err = ix.DocKeys(ctx)
	switch {
	case errors.Is(err, index.ErrClosed):
		return nil, false, nil // dropped meanwhile: nothing to compare
	case errors.Is(err, index.ErrFault):
		l.Drop()
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return docs, true, nil
}

// checkDir sweeps the folder again for a writable store (held alone by the
// caller, with this index, if any, locked: only what processes now gone
// left is removed). A read-only store does not report another user's
// leftovers, which are not its own: it only asks whether the folder is
// the store's.
func (l *Index) checkDir() error {
	if l.readOnly {
		return index.Foreign(l.root)
	}
	return index.Sweep(l.root, false)
}
