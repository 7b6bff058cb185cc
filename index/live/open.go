package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/palimpsest-mem/memory/index"
)

// open returns the index a build puts in use, filled to the store's
// current facts: a private one built from them, or the kept one, brought
// up to date from the commit its marker names, or built again when the
// marker proves nothing. Called by build, holding the write lock, so that
// the store stands still meanwhile.
func (l *Index) open(ctx context.Context, an *index.Analyzer) (*index.Index, error) {
	if !l.keep {
		ix, err := index.New(an, l.root)
		if err != nil {
			return nil, err
		}
		if l.src.User != nil {
			return ix, nil // filled a user at a time, at each one's first lookup
		}
		if err := l.fill(ctx, ix); err != nil {
			return nil, errors.Join(err, ix.Close())
		}
		return ix, nil
	}
	ix, fresh, err := index.OpenKept(an, l.root)
	if err != nil {
		return nil, err
	}
	if !fresh {
		caught, err := l.catchUp(ctx, ix)
		if caught {
			return ix, nil
		}
		if err != nil && ctx.Err() != nil {
			return nil, errors.Join(err, ix.Remove())
		}
		// What it holds cannot be told, or it could not be brought up to
		// date (the store's read failed, or the purge): build it again,
		// in new files.
		if err := ix.Remove(); err != nil {
			return nil, err
		}
		if ix, _, err = index.OpenKept(an, l.root); err != nil {
			return nil, err
		}
	}
	head, known, err := l.src.Head(ctx)
	if err == nil {
		err = l.fill(ctx, ix)
	}
	if err == nil {
		if !known {
			head = nil // the next open rebuilds, unless a commit marks it first
		}
		err = ix.Mark(l.marker(head))
	}
	if err != nil {
		return nil, errors.Join(err, ix.Remove())
	}
	return ix, nil
}

// fill adds every current fact of the store to ix, which is empty; on an
// error the caller closes or removes ix.
func (l *Index) fill(ctx context.Context, ix *index.Index) error {
	// Batches come from short read transactions, one at a time as the
	// index takes them; the write lock keeps the store still in between.
	// Of the sizes tried (500 to 12,500), batches of 1,000 built a 100k
	// index fastest, with nearly the least memory: larger ones leave bleve
	// more and bigger unpersisted segments to merge.
	const batch = 1000
	var after []byte
	done := false
	return ix.Bulk(func() ([]index.Doc, error) {
		if done {
			return nil, nil
		}
		if after == nil && l.hookBuildPage != nil {
			l.hookBuildPage()
		}
		if l.life.Err() != nil {
			return nil, ErrClosed
		}
		var docs []index.Doc
		var err error
		docs, after, err = l.src.Page(ctx, after, batch)
		done = after == nil
		return docs, err
	})
}

// catchUp brings the kept index ix from the commit its marker names to the
// store's newest, and purges the words of the facts deleted meanwhile from
// its files. caught false says the marker proves nothing: missing, of
// another format (index.Format: the mode, the lexicons, how documents are
// keyed), or naming a commit the store cannot tell the changes since.
func (l *Index) catchUp(ctx context.Context, ix *index.Index) (caught bool, err error) {
	m, err := ix.Marked()
	if err != nil {
		return false, nil
	}
	commit, ok := l.commitOf(m)
	if !ok || len(commit) == 0 {
		return false, nil
	}
	changes, head, ok, err := l.src.Since(ctx, commit)
	if err != nil || !ok {
		return false, err
	}
	put, del, gone, err := split(ix, changes)
	if err != nil {
		return false, fmt.Errorf("catching up from the store's change log: %w", err)
	}
	if len(changes) > 0 || !bytes.Equal(head, commit) {
		if err := ix.Apply(put, del, l.marker(head)); err != nil {
			return false, fmt.Errorf("catching up from the store's change log: %w", err)
		}
	}
	// A Delete the process before did not see through: its words may be
	// in the files still.
	if err := ix.Purge(ctx, gone); err != nil {
		return false, err
	}
	return true, nil
}

// marker is what the kept index is marked with for a commit of the store:
// what its documents are (the analysis that made their terms, the lookup
// mode and this build's lexicons, and how they are keyed: index.Format),
// then the commit.
func (l *Index) marker(commit []byte) []byte {
	return append(append([]byte(l.format), 0), commit...)
}

// commitOf reads the commit a marker names, ok false if the documents are
// not of this format: another mode, another version's lexicons or keys.
func (l *Index) commitOf(m []byte) ([]byte, bool) {
	format, commit, found := bytes.Cut(m, []byte{0})
	return commit, found && string(format) == l.format
}
