package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	segment "github.com/blevesearch/scorch_segment_api/v2"
	zapv11 "github.com/blevesearch/zapx/v11"
	zapv12 "github.com/blevesearch/zapx/v12"
	zapv13 "github.com/blevesearch/zapx/v13"
	zapv14 "github.com/blevesearch/zapx/v14"
	zapv15 "github.com/blevesearch/zapx/v15"
	zapv16 "github.com/blevesearch/zapx/v16"
	zapv17 "github.com/blevesearch/zapx/v17"
)

// segmentOpeners are the segment formats scorch writes or reads, newest
// first: ListTerms tries each on a segment file.
var segmentOpeners = []func(string) (segment.Segment, error){
	(&zapv17.ZapPlugin{}).Open, (&zapv16.ZapPlugin{}).Open, (&zapv15.ZapPlugin{}).Open,
	(&zapv14.ZapPlugin{}).Open, (&zapv13.ZapPlugin{}).Open, (&zapv12.ZapPlugin{}).Open,
	(&zapv11.ZapPlugin{}).Open,
}

// ListTerms returns every term of every field in every segment file under
// dir (an index's own directory, or a root holding several), sorted,
// without repeats. It is for tests and checks that a deleted fact left no
// term behind, so it reads the segment files themselves rather than an
// index's view of them: a segment that a killed process wrote but never
// recorded in its index's root, and the terms of documents deleted from a
// segment but not yet merged away, are listed too. A segment file that
// cannot be read as any format (one cut short by a kill while it was being
// written) holds nothing any reader can find; it is skipped, and the
// raw-byte scans of the same tests cover its bytes. An index still open
// elsewhere can be read: segment files are immutable once written.
func ListTerms(dir string) ([]string, error) {
	seen := map[string]bool{}
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
		return segmentTerms(p, seen)
	})
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	slices.Sort(out)
	return out, nil
}

func segmentTerms(path string, seen map[string]bool) (err error) {
	var seg segment.Segment
	for _, open := range segmentOpeners {
		if seg, err = open(path); err == nil {
			break
		}
	}
	if seg == nil {
		if _, statErr := os.Lstat(path); errors.Is(statErr, fs.ErrNotExist) {
			return nil
		}
		return nil // unreadable as any format: see ListTerms
	}
	defer func() {
		if cerr := seg.Close(); err == nil {
			err = cerr
		}
	}()
	for _, f := range seg.Fields() {
		dict, err := seg.Dictionary(f)
		if err != nil {
			return fmt.Errorf("%s: field %q: %w", path, f, err)
		}
		it := dict.AutomatonIterator(nil, nil, nil)
		for {
			e, err := it.Next()
			if err != nil {
				return fmt.Errorf("%s: field %q: %w", path, f, err)
			}
			if e == nil {
				break
			}
			seen[e.Term] = true
		}
	}
	return nil
}
