package main

// Import measured in a fresh process: perf writes the export of a store to a
// file, and a child of its own imports it, ours through memory.Store.Import
// and SQLite's through one transaction of INSERTs, so that each child's peak
// RSS is the import's and not the bench's or the data's.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/palimpsest-mem/memory"
)

// importChildEnv, set in the environment of a re-executed bench binary,
// makes it import one export file (an importSpec in JSON) and report
// importFigures.
const importChildEnv = "PALIMPSEST_BENCH_IMPORT"

// bigUser is the name of the perf store's user with many facts.
const bigUser = "big"

// perfLayout spreads the perf store's facts over users: fact i (from 1) is
// user-0's among the first perUser, then big of them are bigUser's, then
// user-1's and on, perUser each. With big 0 it is the layout of the scale
// command's stores (fact i is user-(i-1)/perUser's).
type perfLayout struct{ perUser, big int }

// newPerfLayout is the layout of a perf store of n facts: users of 1,000
// facts (or one of n, if fewer) and, in a store of at least bigAt facts, a
// user of bigAt facts, or of all those past user-0's if fewer (99,000 at
// 100,000 facts), so that the 1,000-fact user's rows stay as they were.
func newPerfLayout(n, bigAt int) perfLayout {
	l := perfLayout{perUser: min(1000, n)}
	if bigAt > 0 && n >= bigAt {
		l.big = min(bigAt, n-l.perUser)
	}
	return l
}

func (l perfLayout) user(i int) string {
	switch {
	case i <= l.perUser:
		return "user-0"
	case i <= l.perUser+l.big:
		return bigUser
	}
	return "user-" + strconv.Itoa((i-l.big-1)/l.perUser)
}

// writeExportFile writes the export of n facts of the perf store to path,
// through a buffer: at a million facts the export is about 400 MB, which
// the bench need not hold.
func writeExportFile(path string, texts []string, n int, l perfLayout) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	writeExport(w, newCorpus(texts, 1).next, n, l.user)
	return errors.Join(w.Flush(), f.Close())
}

// importSpec is what an import child does: import the export file Export
// into a new store at Path, ours or, with SQLite, the original schema's.
type importSpec struct {
	Export string `json:"export"`
	Path   string `json:"path"`
	SQLite bool   `json:"sqlite,omitempty"`
}

// importFigures is what the import child reports.
type importFigures struct {
	Took    time.Duration `json:"took"` // the import alone, from the file on disk
	Facts   int           `json:"facts"`
	PeakRSS uint64        `json:"peak_rss"` // of the child, Open and Close included
	Heap    uint64        `json:"heap"`     // heap in use after a GC, once closed
	File    int64         `json:"file"`     // size of the store file
}

// importInChild runs the current executable as a child that imports the
// export file into a new store at path.
func importInChild(ctx context.Context, spec importSpec) (importFigures, error) {
	var o importFigures
	b, err := json.Marshal(spec)
	if err != nil {
		return o, err
	}
	if err := runChild(ctx, importChildEnv+"="+string(b), &o); err != nil {
		return o, fmt.Errorf("import %s: %w", spec.Path, err)
	}
	return o, nil
}

func measureImport(spec string) (importFigures, error) {
	var o importFigures
	var sp importSpec
	if err := json.Unmarshal([]byte(spec), &sp); err != nil {
		return o, fmt.Errorf("%s=%q: %w", importChildEnv, spec, err)
	}
	f, err := os.Open(sp.Export)
	if err != nil {
		return o, err
	}
	defer f.Close()
	if sp.SQLite {
		o.Took, o.Facts, err = importSQLite(sp.Path, f)
	} else {
		o.Took, o.Facts, err = importOurs(context.Background(), sp.Path, f)
	}
	if err != nil {
		return o, err
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	o.Heap = ms.HeapAlloc
	o.PeakRSS = procStatus()["VmHWM"]
	if st, err := os.Stat(sp.Path); err == nil {
		o.File = st.Size()
	}
	return o, nil
}

// importOurs imports r into a new store at path, opened as perf's store is
// (durable, the default options), and times the Import call.
func importOurs(ctx context.Context, path string, r *os.File) (time.Duration, int, error) {
	s, err := memory.Open(path, 0, nil)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	n, err := s.Import(ctx, bufio.NewReaderSize(r, 1<<20), nil)
	took := time.Since(start)
	return took, n, errors.Join(err, s.Close())
}

// importSQLite loads r into a new SQLite file of the original schema in one
// transaction, as sqliteStore.bulk does, and times the load.
func importSQLite(path string, r *os.File) (time.Duration, int, error) {
	b, err := openSQLite(path)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	n, err := b.bulkExport(bufio.NewReaderSize(r, 1<<20))
	took := time.Since(start)
	return took, n, errors.Join(err, b.Close())
}

// importOp is the op of the row of our import.
const importOp = "Import from a file, fresh process (batches into a new file, durable)"

// importRows are the rows of both imports, which took ours and sq, beside a
// raw bbolt bulk load of the same number of records, which took raw.
func importRows(ours, sq importFigures, raw time.Duration) []row {
	return []row{
		{Op: importOp, OpsS: float64(ours.Facts) / ours.Took.Seconds(),
			Ratio: raw.Seconds() / ours.Took.Seconds(),
			Note: fmt.Sprintf("ratio to a raw bbolt bulk load; peak RSS %.1f MB, heap once closed %.1f MB, file %.0f B/fact; the index is built at the first lookup",
				mb(ours.PeakRSS), mb(ours.Heap), float64(ours.File)/float64(ours.Facts))},
		{Op: "SQLite: import of the same file, fresh process (one transaction, FTS5)", OpsS: float64(sq.Facts) / sq.Took.Seconds(),
			Ratio: sq.Took.Seconds() / ours.Took.Seconds(),
			Note: fmt.Sprintf("ratio ours / SQLite; peak RSS %.1f MB (ours ÷ SQLite's %.2f), file %.0f B/fact",
				mb(sq.PeakRSS), float64(ours.PeakRSS)/float64(sq.PeakRSS), float64(sq.File)/float64(sq.Facts))},
	}
}
