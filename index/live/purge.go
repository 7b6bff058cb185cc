package live

import (
	"context"

	"github.com/palimpsest-mem/memory/index"
)

// Purge removes the words of the records keys, deleted by a commit that
// Sync was given, from the index's files and from the analyses kept of
// lookups' hits. Without a rebuild where it can: the index's own Purge
// rewrites the segment files that hold them (an index of fewer than
// purgeFromDefault facts is dropped instead). When that fails, or a lookup
// meets the index's files damaged, the index is dropped, its files with
// it, and the next lookup builds it again; either way, once Purge returns,
// no file of the index holds a word of them. A private index not built
// yet has no files to purge, nor a kept one that is not there; the kept one
// is opened (and caught up) first.
// It returns the error that made it drop the index, for the caller to
// report or not: the promise holds regardless.
func (l *Index) Purge(ctx context.Context, keys []index.DocKey) error {
	l.seen.forget()
	if len(keys) == 0 || (!l.built() && (!l.keep || !index.HasKept(l.root))) {
		return nil // no files hold them
	}
	// Wait for every change that deleted a record, and build or open the
	// index if it must.
	small := false
	err := l.use(ctx, l.q.waitDeleted, func(ix *index.Index) error {
		n, err := ix.Count()
		if small = err == nil && n < l.purgeFrom; small {
			return nil
		}
		return ix.Purge(ctx, keys)
	})
	if err != nil || small {
		l.Drop()
	}
	return err
}

// purgeFromDefault is the size of index, in facts, from which a Delete
// purges it rather than dropping it: below, building it again at the next
// lookup costs less than the purge's waits for scorch's persists and
// merges (half a second or more however small the index), and every
// process of a small store would pay that for each Delete.
const purgeFromDefault = 20000
