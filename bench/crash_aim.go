package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/index"
)

// Aimed kill moments: the child is told (envCrashAim) to do one thing
// first, reports its start and end ("begin" and "end" lines), and the
// parent kills it in between.
const (
	// aimImport: the child imports the large export (crashLargeExport)
	// into a fresh store file (crashLargeImport).
	aimImport = "large import"
	// aimCatchUp: the parent has written many changes with no lookup, so
	// that the kept index is left that far behind the store's change log;
	// the child's first lookup catches it up.
	aimCatchUp = "catch-up"
	// aimMerge: the child writes a small change and looks it up, over and
	// over, so that each change is a batch, and so a segment, of its own
	// and scorch merges them; the parent kills it as a segment file appears.
	aimMerge = "merge"
)

// envCrashAim names the aimed moment the child is to start with, if any.
const envCrashAim = "PALIMPSEST_CRASH_AIM"

// Files of the large import: an export of generated facts, written once
// per run of the harness, and the store it is imported into.
const (
	crashLargeExport = "large.jsonl"
	crashLargeImport = "large.db"
)

// missed is the ByMoment key of a kill aimed at moment that came after
// the child had finished it.
func missed(moment string) string { return moment + " (missed)" }

// crashWatch collects the child's lines as they come, so that the kill
// can be aimed at what they report.
type crashWatch struct {
	mu    sync.Mutex
	lines [][]byte
	eof   bool
	tick  chan struct{} // poked after each line and at the end
}

func watchLines(r io.Reader) *crashWatch {
	w := &crashWatch{tick: make(chan struct{}, 1)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			w.mu.Lock()
			w.lines = append(w.lines, slices.Clone(sc.Bytes()))
			w.mu.Unlock()
			w.poke()
		}
		w.mu.Lock()
		w.eof = true
		w.mu.Unlock()
		w.poke()
	}()
	return w
}

func (w *crashWatch) poke() {
	select {
	case w.tick <- struct{}{}:
	default:
	}
}

// waitFor waits for a line that ok accepts, and says whether one came
// before the child's output ended or timeout passed.
func (w *crashWatch) waitFor(ok func(crashLine) bool, timeout time.Duration) bool {
	deadline := time.After(timeout)
	for seen := 0; ; {
		w.mu.Lock()
		lines, eof := w.lines[seen:], w.eof
		seen = len(w.lines)
		w.mu.Unlock()
		for _, b := range lines {
			var l crashLine
			if json.Unmarshal(b, &l) == nil && ok(l) {
				return true
			}
		}
		if eof {
			return false
		}
		select {
		case <-w.tick:
		case <-deadline:
			return false
		}
	}
}

// wait waits for the child's output to end and returns its lines.
func (w *crashWatch) wait() [][]byte {
	w.waitFor(func(crashLine) bool { return false }, time.Hour)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lines
}

// phaseEnd returns the child's "end" line of op, if it wrote one.
func phaseEnd(lines [][]byte, op string) (crashLine, bool) {
	for _, b := range lines {
		var l crashLine
		if json.Unmarshal(b, &l) == nil && l.Kind == "end" && l.Op == op {
			return l, true
		}
	}
	return crashLine{}, false
}

// aimAt kills the child during the phase op it reports: a random time
// after its "begin" line, up to how long the phase last took. It returns
// the moment to count: op, or missed(op) if the phase was over.
func (h *crashHarness) aimAt(w *crashWatch, op string, kill func()) string {
	if !w.waitFor(func(l crashLine) bool { return l.Kind == "begin" && l.Op == op }, time.Minute) {
		kill()
		return missed(op)
	}
	// Aimed within how long the phase is thought to take: a kill that
	// missed it says how long it took; one that landed, that it may take
	// longer, so that kills spread over all of it.
	d := h.phaseTook[op]
	if d <= 0 {
		d = 20 * time.Millisecond
	}
	time.Sleep(time.Duration(h.rng.Int64N(int64(d))))
	kill()
	lines := w.wait()
	if end, ok := phaseEnd(lines, op); ok {
		h.phaseTook[op] = max(time.Millisecond, time.Duration(end.Micros)*time.Microsecond*9/10)
		return missed(op)
	}
	h.phaseTook[op] = d * 3 / 2
	return op
}

// largeExport writes, once, an export of cfg.LargeImport generated facts
// for the child's large import. Its texts carry no workload tag: no
// delete ever names them.
func (h *crashHarness) largeExport(ctx context.Context) error {
	path := filepath.Join(h.dir, crashLargeExport)
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	src := filepath.Join(h.dir, "large-source.db")
	s, err := memory.Open(src, 0, &memory.Options{NoSync: true})
	if err != nil {
		return fmt.Errorf("making the large export: %w", err)
	}
	rng := rand.New(rand.NewPCG(h.cfg.Seed, 1<<40))
	for i := range h.cfg.LargeImport {
		n := memory.Note{User: crashUsers[i%len(crashUsers)], Text: fmt.Sprintf("My %s is in %s, item %d.",
			crashSubjects[rng.IntN(len(crashSubjects))], crashPlaces[rng.IntN(len(crashPlaces))], i)}
		if _, err := s.Add(ctx, n); err != nil {
			s.Close()
			return fmt.Errorf("making the large export: %w", err)
		}
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err == nil {
		err = s.Export(ctx, f)
		err = errors.Join(err, f.Close())
	}
	err = errors.Join(err, s.Close(), os.Remove(src), os.RemoveAll(src+".index"))
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("making the large export: %w", err)
	}
	return nil
}

// largeImportProblems checks the large import's store after a kill: an
// import is atomic (its new file takes the store's place in one rename),
// so the store holds every fact of the export, or,
// unless the child said it had finished, none (or is not there: the kill
// came before Open made it). It is removed afterwards, as the next
// import would remove it.
func (h *crashHarness) largeImportProblems(ctx context.Context, lines [][]byte) []string {
	path := filepath.Join(h.dir, crashLargeImport)
	defer os.Remove(path)
	defer os.RemoveAll(path + ".index")
	end, finished := phaseEnd(lines, aimImport)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		if finished {
			return []string{"the large import finished, and its store is missing"}
		}
		h.res.LargeImport["absent"]++
		return nil
	}
	n, problems := checkedCount(ctx, path, "the large import's store")
	if n < 0 {
		return problems
	}
	switch n {
	case 0:
		h.res.LargeImport["empty"]++
	case h.cfg.LargeImport:
		h.res.LargeImport["whole"]++
	}
	switch {
	case finished && n != end.Imported:
		problems = append(problems, fmt.Sprintf("the large import acknowledged %d facts, its store holds %d", end.Imported, n))
	case n != 0 && n != h.cfg.LargeImport:
		problems = append(problems, fmt.Sprintf("the large import killed midway left %d of its %d facts visible", n, h.cfg.LargeImport))
	}
	return problems
}

// leaveIndexBehind makes cfg.CatchUp changes to the store in this process,
// with no lookup: the store then never opens its kept index, which stays
// at the commit it was marked with, that many commits behind the change
// log. They are acknowledged like the child's: Add, and Supersede and
// Invalidate of facts added here (keeping the workload's rule: no fact
// current beside a current successor).
//
// It says whether there is a kept index to catch up: there is none before
// the first check has looked up, and the child then builds one.
func (h *crashHarness) leaveIndexBehind(ctx context.Context, run int) (bool, error) {
	kept := index.HasKept(h.path + ".index")
	s, err := memory.Open(h.path, 0, &memory.Options{NoSync: true})
	if err != nil {
		return false, fmt.Errorf("leaving the kept index behind: %w", err)
	}
	// Its own tags: no child run reaches 1<<20.
	tagRun := uint64(run+1) | 1<<20
	var added []memory.Fact
	for seq := 1; seq <= h.cfg.CatchUp; seq++ {
		user := crashUsers[h.rng.IntN(len(crashUsers))]
		n := memory.Note{User: user, Text: fmt.Sprintf("My %s is in %s, tag %s.", crashSubjects[h.rng.IntN(len(crashSubjects))],
			crashPlaces[h.rng.IntN(len(crashPlaces))], tag(tagRun, seq))}
		var f memory.Fact
		switch r := h.rng.IntN(10); {
		case r < 2 && len(added) > 0:
			i := h.rng.IntN(len(added))
			old := added[i]
			n.User = old.User
			f, err = s.Supersede(ctx, old.User, old.ID, n)
			added = slices.Delete(added, i, i+1)
		case r < 3 && len(added) > 0:
			i := h.rng.IntN(len(added))
			_, err = s.Invalidate(ctx, added[i].User, added[i].ID, memory.Change{Reason: "crash test"})
			added = slices.Delete(added, i, i+1)
		default:
			f, err = s.Add(ctx, n)
		}
		if err != nil {
			s.Close()
			return false, fmt.Errorf("leaving the kept index behind: %w", err)
		}
		if f.ID != 0 {
			added = append(added, f)
		}
	}
	ref := fmt.Sprintf("the changes before run %d", run+1)
	for _, u := range crashUsers {
		fs, err := s.List(ctx, u, &memory.ListOptions{All: true})
		if err != nil {
			s.Close()
			return false, fmt.Errorf("leaving the kept index behind: %w", err)
		}
		for _, f := range fs {
			if e := expectOf(f); h.facts[e.ID].expect != e {
				h.facts[e.ID] = modelFact{e, ref}
			}
		}
	}
	if err := s.Close(); err != nil {
		return false, fmt.Errorf("leaving the kept index behind: %w", err)
	}
	return kept, nil
}

// aimAtMerge kills the child as a segment file appears in the kept index
// once merges are seen running: a merge writes one segment of the
// documents of several, so a new file larger than any before or than
// twice another new one, or files going away (a merge's inputs, once
// replaced), show one has run.
// Scorch's persister writes segment files too, and from outside the two
// look alike: the kill lands as a merge or a persist writes, while merges
// run. It returns the moment to count: aimMerge, or missed(aimMerge) if no
// merge showed within two seconds of writing (the kill then lands among
// the writes all the same).
func (h *crashHarness) aimAtMerge(w *crashWatch, kill func()) string {
	defer kill()
	if !w.waitFor(func(l crashLine) bool { return l.Kind == "ready" }, time.Minute) {
		return missed(aimMerge)
	}
	dir := filepath.Join(h.path+".index", "kept", "bleve", "store")
	seen := segmentFiles(dir)
	before := maps.Clone(seen) // the files there when the child began
	var largest int64
	for _, size := range before {
		largest = max(largest, size)
	}
	merging := false
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		now := segmentFiles(dir)
		for name := range now {
			if _, old := seen[name]; !old && merging {
				return aimMerge
			}
		}
		// A file larger than any there before, or than twice the
		// smallest the child's writes made: a merge's output, not one
		// persist's. Files grow as they are written, so all are looked at.
		var smallest int64
		for name, size := range now {
			if _, old := before[name]; !old && size > 0 && (smallest == 0 || size < smallest) {
				smallest = size
			}
		}
		for name, size := range now {
			if _, old := before[name]; !old && ((len(before) > 0 && size > largest) || (smallest > 0 && size > 2*smallest)) {
				merging = true
			}
		}
		for name := range seen {
			if _, ok := now[name]; !ok {
				merging = true
			}
		}
		seen = now
		w.mu.Lock()
		eof := w.eof
		w.mu.Unlock()
		if eof {
			break
		}
	}
	return missed(aimMerge)
}

// segmentFiles returns the segment files in a kept index's store
// directory, with their sizes.
func segmentFiles(dir string) map[string]int64 {
	es, _ := os.ReadDir(dir)
	out := map[string]int64{}
	for _, e := range es {
		if filepath.Ext(e.Name()) != ".zap" {
			continue
		}
		if info, err := e.Info(); err == nil {
			out[e.Name()] = info.Size()
		}
	}
	return out
}
