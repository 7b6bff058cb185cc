// Package indextest reads the candidate index's segment files for tests and
// the crash bench, which check that a deleted fact left no term behind. It
// reads the one segment format package index forces when it makes an index
// (zap, the version imported here), and fails on a file it cannot read
// rather than skip it: a check that skipped what it could not read could
// pass while checking nothing.
package indextest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"
)

// ErrUnreadable says that a segment file could not be read as the format
// package index writes: it is of another format, damaged, or cut short
// (by a kill while it was being written).
var ErrUnreadable = errors.New("indextest: a segment file cannot be read")

// ListTerms returns every term of every field in every segment file under
// dir (an index's own directory, or a root holding several), sorted,
// without repeats. It reads the segment files themselves rather than an
// index's view of them: a segment that a killed process wrote but never
// recorded in its index's root, and the terms of documents deleted from a
// segment but not yet merged away, are listed too. An index still open
// elsewhere can be read: segment files are immutable once written, and one
// removed meanwhile (by a merge, a sweep or a Close) is no longer there to
// hold anything.
//
// A segment file it cannot read makes the error wrap ErrUnreadable, naming
// the file; the terms of the files it could read are returned beside it,
// for a caller that knows why a file may be cut short (the crash bench).
func ListTerms(dir string) ([]string, error) {
	seen := map[string]bool{}
	var unreadable []error
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed meanwhile by a sweep or a Close
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".zap") {
			return nil
		}
		err = segmentTerms(p, seen)
		if errors.Is(err, ErrUnreadable) {
			unreadable = append(unreadable, err)
			return nil
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("indextest: %w", err)
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	slices.Sort(out)
	return out, errors.Join(unreadable...)
}

// segmentTerms adds the terms of the segment file at path to seen. zap
// trusts the offsets in a file's footer, so a damaged one can make it
// index out of range: that panic is the file's fault and becomes
// ErrUnreadable.
func segmentTerms(path string, seen map[string]bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %s: %v", ErrUnreadable, path, r)
		}
	}()
	var seg segment.Segment
	if seg, err = (&zap.ZapPlugin{}).Open(path); err != nil {
		if _, statErr := os.Lstat(path); errors.Is(statErr, fs.ErrNotExist) {
			return nil // removed meanwhile by a merge
		}
		return fmt.Errorf("%w: %s: %w", ErrUnreadable, path, err)
	}
	defer func() {
		if cerr := seg.Close(); err == nil {
			err = cerr
		}
	}()
	for _, f := range seg.Fields() {
		dict, err := seg.Dictionary(f)
		if err != nil {
			return fmt.Errorf("%w: %s: field %q: %w", ErrUnreadable, path, f, err)
		}
		it := dict.AutomatonIterator(nil, nil, nil)
		for {
			e, err := it.Next()
			if err != nil {
				return fmt.Errorf("%w: %s: field %q: %w", ErrUnreadable, path, f, err)
			}
			if e == nil {
				break
			}
			seen[e.Term] = true
		}
	}
	return nil
}
