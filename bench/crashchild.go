package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/palimpsest-mem/memory/internal/userkey"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/palimpsest-mem/memory"
)

// expect is the state a fact should have, as the child acknowledged it.
type expect struct {
	ID         uint64 `json:"id"`
	User       string `json:"user"`
	Text       string `json:"text"`
	State      string `json:"state"`
	By         uint64 `json:"by,omitempty"`
	Supersedes uint64 `json:"supersedes,omitempty"`
	Pinned     bool   `json:"pinned,omitempty"`
}

func expectOf(f memory.Fact) expect {
	f = keyed(f)
	return expect{ID: f.ID, User: f.User, Text: f.Text, State: f.State().String(), By: f.SupersededBy,
		Supersedes: f.Supersedes, Pinned: f.Pinned}
}

// The store's ids are each user's own; the crash test names a fact or a
// decision by a key that holds its user too (crashUsers.Key), so that one
// map holds every user's, and translates where it calls the store.

// keyed is f with its ids as the test names them.
func keyed(f memory.Fact) memory.Fact {
	f.ID, f.SupersededBy, f.Supersedes = crashUsers.Key(f.User, f.ID), crashUsers.Key(f.User, f.SupersededBy), crashUsers.Key(f.User, f.Supersedes)
	return f
}

// decisionOf is d as the test expects it, its ids keyed.
func decisionOf(d memory.Decision) decisionExpect {
	return decisionExpect{ID: crashUsers.Key(d.User, d.ID), Action: string(d.Action), Target: crashUsers.Key(d.User, d.Target), Added: crashUsers.Key(d.User, d.Added)}
}

// crashLine is one line the child writes: "ready" once the store is open,
// "intent" before a call, "ack" once it has returned without error.
type crashLine struct {
	Kind   string `json:"kind"`
	Seq    int    `json:"seq,omitempty"`
	Op     string `json:"op,omitempty"`
	User   string `json:"user"`
	ID     uint64 `json:"id,omitempty"` // the fact the call changes, if it names one
	Text   string `json:"text,omitempty"`
	Pinned bool   `json:"pinned,omitempty"`
	// Facts are the states the call left, for an ack.
	Facts []expect `json:"facts,omitempty"`
	// Decision is what Remember logged, for its ack.
	Decision *decisionExpect `json:"decision,omitempty"`
	// Chain says a delete erases the fact's whole history.
	Chain bool `json:"chain,omitempty"`
	// Deleted are the facts a delete erased, and Texts their texts, for
	// its ack (Facts are then the neighbours it changed).
	Deleted []uint64 `json:"deleted,omitempty"`
	Texts   []string `json:"texts,omitempty"`
	// Imported is how many facts an import copied, for its ack.
	Imported int `json:"imported,omitempty"`
	// Micros is how long an aimed phase took, for its "end" line.
	Micros int64 `json:"us,omitempty"`
}

// Files of the import the child makes: an export of the store, and a
// fresh store it is imported into.
const (
	crashExport = "export.jsonl"
	crashImport = "import.db"
)

type decisionExpect struct {
	ID     uint64 `json:"id"`
	Action string `json:"action"`
	Target uint64 `json:"target,omitempty"`
	Added  uint64 `json:"added,omitempty"`
}

// crashChildFromEnv runs the child and exits when the environment says this
// process is one; otherwise it returns at once.
func crashChildFromEnv() {
	db := os.Getenv(envCrashDB)
	if db == "" {
		return
	}
	seed, err1 := strconv.ParseUint(os.Getenv(envCrashSeed), 10, 64)
	run, err2 := strconv.ParseUint(os.Getenv(envCrashRun), 10, 64)
	err := errors.Join(err1, err2)
	if err == nil {
		err = runCrashChild(context.Background(), db, seed, run, os.Getenv(envCrashAim), os.Stdout)
	}
	fmt.Fprintln(os.Stderr, "crash child:", err)
	os.Exit(3)
}

// runCrashChild writes to the store at path until it is killed, reporting
// each call before it starts and after it returns; first, it does what aim
// names (an aimed moment, "" for none). It returns only on an error: every
// call it makes is valid, so any error is a failure.
func runCrashChild(ctx context.Context, path string, seed, run uint64, aim string, out io.Writer) error {
	s, err := memory.Open(path, 0, nil)
	if err != nil {
		return err
	}
	// No Close: the parent kills this process.
	w := newWorld()
	w.dir = filepath.Dir(path)
	for _, u := range crashUsers {
		fs, err := s.List(ctx, u, &memory.ListOptions{All: true})
		if err != nil {
			return err
		}
		for _, f := range fs {
			w.set(expectOf(f))
		}
	}
	// One Write per line: a line up to the pipe's atomic size reaches the
	// parent whole or not at all.
	emit := func(l crashLine) error {
		b, err := json.Marshal(l)
		if err != nil {
			return err
		}
		_, err = out.Write(append(b, '\n'))
		return err
	}
	if err := emit(crashLine{Kind: "ready"}); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, run))
	// phase reports the start and end of an aimed moment's work.
	phase := func(op string, fn func() (int, error)) error {
		if err := emit(crashLine{Kind: "begin", Op: op}); err != nil {
			return err
		}
		start := time.Now()
		n, err := fn()
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		return emit(crashLine{Kind: "end", Op: op, Imported: n, Micros: time.Since(start).Microseconds()})
	}
	switch aim {
	case "":
	case aimImport:
		// Removed first, as importCopy removes its own: the store the
		// import makes is new, so a kill must leave none, or an empty one.
		target := filepath.Join(w.dir, crashLargeImport)
		if err := errors.Join(os.Remove(target), os.RemoveAll(target+".index")); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err := phase(aimImport, func() (int, error) { return importLarge(ctx, w.dir) }); err != nil {
			return err
		}
	case aimCatchUp:
		// The first lookup opens the kept index and catches it up from
		// the commit its marker names.
		err := phase(aimCatchUp, func() (int, error) {
			_, err := s.Candidates(ctx, "", "warm the index", 1)
			return 0, err
		})
		if err != nil {
			return err
		}
	case aimMerge:
		return w.churn(ctx, s, rng, run, emit)
	default:
		return fmt.Errorf("unknown aim %q", aim)
	}
	for seq := 1; ; seq++ {
		in := w.next(rng, run, seq)
		if err := emit(in); err != nil {
			return err
		}
		ack, err := w.perform(ctx, s, in)
		if err != nil {
			return fmt.Errorf("%s %q fact %d: %w", in.Op, in.User, in.ID, err)
		}
		w.remove(ack.Deleted)
		w.apply(ack.Facts)
		if err := emit(ack); err != nil {
			return err
		}
	}
}

// world is the child's picture of the store, to pick valid calls.
type world struct {
	dir   string // where the store is
	facts map[uint64]*expect
	ids   map[string][]uint64 // per user, in id order
	succ  map[uint64][]uint64 // predecessor -> facts written as its successors
}

func newWorld() *world {
	return &world{facts: map[uint64]*expect{}, ids: map[string][]uint64{}, succ: map[uint64][]uint64{}}
}

func (w *world) set(e expect) {
	if old, ok := w.facts[e.ID]; ok {
		if old.Supersedes != e.Supersedes { // a delete relinked it
			w.succ[old.Supersedes] = slices.DeleteFunc(w.succ[old.Supersedes], func(x uint64) bool { return x == e.ID })
			if e.Supersedes != 0 {
				w.succ[e.Supersedes] = append(w.succ[e.Supersedes], e.ID)
			}
		}
		*old = e
		return
	}
	w.facts[e.ID] = &e
	w.ids[e.User] = append(w.ids[e.User], e.ID)
	if e.Supersedes != 0 {
		w.succ[e.Supersedes] = append(w.succ[e.Supersedes], e.ID)
	}
}

func (w *world) apply(es []expect) {
	for _, e := range es {
		w.set(e)
	}
}

// remove forgets deleted facts.
func (w *world) remove(ids []uint64) {
	for _, id := range ids {
		f := w.facts[id]
		if f == nil {
			continue
		}
		delete(w.facts, id)
		w.ids[f.User] = slices.DeleteFunc(w.ids[f.User], func(x uint64) bool { return x == id })
		delete(w.succ, id)
		if f.Supersedes != 0 {
			w.succ[f.Supersedes] = slices.DeleteFunc(w.succ[f.Supersedes], func(x uint64) bool { return x == id })
		}
	}
}

func (w *world) current(id uint64) bool { f := w.facts[id]; return f != nil && f.State == "current" }

// hasCurrentSucc says whether a successor of id is current.
func (w *world) hasCurrentSucc(id uint64) bool {
	return slices.ContainsFunc(w.succ[id], w.current)
}

// restorable says whether Restore of id keeps the workload's rule: no fact
// is current beside a current successor of its own, so no fact ever gets
// two current successors. (Restore leaves a superseded fact's successor
// current, so the API itself allows both; the workload stays clear of it
// so that the check can tell a crash's half-applied supersede.)
func (w *world) restorable(id uint64) bool {
	f := w.facts[id]
	if f.State == "current" || w.hasCurrentSucc(id) {
		return false
	}
	return f.Supersedes == 0 || (!w.current(f.Supersedes) && !w.hasCurrentSucc(f.Supersedes))
}

// deletable says whether a delete of id alone keeps the workload's rule.
// If id was the fact that last replaced p, p is linked to id's successor,
// which then must not be a second current successor of p; with no such
// successor p is restored, and must then be restorable: no current
// successor besides id, and a predecessor neither current nor with a
// current successor.
func (w *world) deletable(id uint64) bool {
	f := w.facts[id]
	p := w.facts[f.Supersedes]
	if p == nil || p.By != id {
		return true
	}
	others := slices.ContainsFunc(w.succ[p.ID], func(x uint64) bool { return x != id && x != f.By && w.current(x) })
	if f.By != 0 {
		return !others || !w.current(f.By)
	}
	return !others && (p.Supersedes == 0 || (!w.current(p.Supersedes) && !w.hasCurrentSucc(p.Supersedes)))
}

// pick returns a random fact of user that ok accepts, or 0.
func (w *world) pick(rng *rand.Rand, user string, ok func(uint64) bool) uint64 {
	var c []uint64
	for _, id := range w.ids[user] {
		if ok(id) {
			c = append(c, id)
		}
	}
	if len(c) == 0 {
		return 0
	}
	return c[rng.IntN(len(c))]
}

var (
	crashSubjects = []string{"bicycle", "guitar", "garden", "kitchen", "office", "passport", "laptop", "camera",
		"piano", "violin", "balcony", "library", "swimming", "running", "coffee", "painting", "tennis", "chess"}
	crashPlaces = []string{"Lisbon", "Porto", "Berlin", "Madrid", "Vienna", "Prague", "Oslo", "Dublin", "Tallinn"}
)

// tag is a word no other call of any run writes, so that a lookup of a
// fact's text finds that fact first.
func tag(run uint64, seq int) string {
	n := run<<24 | uint64(seq)
	b := []byte("qz")
	for n > 0 || len(b) < 4 {
		b = append(b, byte('a'+n%26))
		n /= 26
	}
	return string(b)
}

// next picks the next call: a valid one on the world as it is.
func (w *world) next(rng *rand.Rand, run uint64, seq int) crashLine {
	user := crashUsers[rng.IntN(len(crashUsers))]
	subj, place := crashSubjects[rng.IntN(len(crashSubjects))], crashPlaces[rng.IntN(len(crashPlaces))]
	plain := fmt.Sprintf("My %s is in %s, tag %s.", subj, place, tag(run, seq))
	in := crashLine{Kind: "intent", Seq: seq, User: user}
	isCurrent := func(id uint64) bool { return w.current(id) && !w.hasCurrentSucc(id) }
	switch r := rng.IntN(100); {
	case r < 30:
		// Remember: a plain fact (add), a change (update), a correction
		// (invalidate) or a restatement (noop), as the rules see them.
		in.Op, in.Text = "remember", plain
		switch rng.IntN(4) {
		case 1:
			in.Text = fmt.Sprintf("Now my %s is in %s, tag %s.", subj, place, tag(run, seq))
		case 2:
			in.Text = fmt.Sprintf("I was wrong, my %s is in %s, tag %s.", subj, place, tag(run, seq))
		case 3:
			if id := w.pick(rng, user, w.current); id != 0 {
				in.Text = w.facts[id].Text
			}
		}
		return in
	case r < 50:
		if id := w.pick(rng, user, isCurrent); id != 0 {
			in.Op, in.ID, in.Text = "supersede", id, plain
			return in
		}
	case r < 62:
		if id := w.pick(rng, user, w.current); id != 0 {
			in.Op, in.ID = "invalidate", id
			return in
		}
	case r < 77:
		if id := w.pick(rng, user, w.restorable); id != 0 {
			in.Op, in.ID = "restore", id
			return in
		}
	case r < 85:
		if id := w.pick(rng, user, func(id uint64) bool { return true }); id != 0 {
			in.Op, in.ID = "pin", id
			if w.facts[id].Pinned {
				in.Op = "unpin"
			}
			return in
		}
	case r < 90:
		// A hard delete of one version, or of its whole history.
		chain := r >= 88
		if id := w.pick(rng, user, func(id uint64) bool { return chain || w.deletable(id) }); id != 0 {
			in.Op, in.ID, in.Chain = "delete", id, chain
			return in
		}
	case r < 91:
		in.Op = "import"
		return in
	}
	in.Op, in.Text, in.Pinned = "add", plain, rng.IntN(8) == 0
	return in
}

// perform makes the call in and returns its acknowledgement.
func (w *world) perform(ctx context.Context, s *memory.Store, in crashLine) (crashLine, error) {
	ack := crashLine{Kind: "ack", Seq: in.Seq, Op: in.Op, User: in.User, ID: in.ID}
	var f memory.Fact
	var err error
	change := memory.Change{Reason: "crash test"}
	switch in.Op {
	case "add":
		f, err = s.Add(ctx, memory.Note{User: in.User, Text: in.Text, Pinned: in.Pinned})
	case "supersede":
		if f, err = s.Supersede(ctx, in.User, userkey.ID(in.ID), memory.Note{User: in.User, Text: in.Text}); err == nil {
			old := *w.facts[in.ID]
			old.State, old.By = "superseded", crashUsers.Key(f.User, f.ID)
			ack.Facts = append(ack.Facts, old)
		}
	case "invalidate":
		f, err = s.Invalidate(ctx, in.User, userkey.ID(in.ID), change)
	case "restore":
		f, err = s.Restore(ctx, in.User, userkey.ID(in.ID), change)
	case "pin":
		f, err = s.Pin(ctx, in.User, userkey.ID(in.ID))
	case "unpin":
		f, err = s.Unpin(ctx, in.User, userkey.ID(in.ID))
	case "remember":
		var out memory.Outcome
		if out, err = s.Remember(ctx, memory.Note{User: in.User, Text: in.Text}); err != nil {
			return ack, err
		}
		de := decisionOf(out.Decision)
		d := out.Decision
		d.ID, d.Target, d.Added = de.ID, de.Target, de.Added
		ack.Op = "remember:" + string(d.Action)
		ack.Decision = &de
		if d.Added == 0 {
			return ack, nil // a noop changes no fact
		}
		switch d.Action {
		case memory.ActionUpdate:
			old := *w.facts[d.Target]
			old.State, old.By = "superseded", d.Added
			ack.Facts = append(ack.Facts, old)
		case memory.ActionInvalidate:
			old := *w.facts[d.Target]
			old.State, old.By = "retracted", 0
			ack.Facts = append(ack.Facts, old)
		}
		f = out.Fact
	case "delete":
		return w.delete(ctx, s, in, ack)
	case "import":
		ack.Imported, err = w.importCopy(ctx, s)
		return ack, err
	default:
		return ack, fmt.Errorf("unknown operation %q", in.Op)
	}
	if err != nil {
		return ack, err
	}
	ack.Facts = append(ack.Facts, expectOf(f))
	return ack, nil
}

// delete erases fact in.ID (its history too with in.Chain) and
// acknowledges the facts erased, their texts and the neighbours whose
// state the delete changed.
func (w *world) delete(ctx context.Context, s *memory.Store, in crashLine, ack crashLine) (crashLine, error) {
	ids, err := s.Delete(ctx, in.User, userkey.ID(in.ID), &memory.DeleteOptions{Chain: in.Chain})
	if err != nil {
		return ack, err
	}
	for i := range ids {
		ids[i] = crashUsers.Key(in.User, ids[i])
	}
	ack.Chain, ack.Deleted = in.Chain, ids
	if in.Chain {
		ack.Op = "delete:chain"
	}
	gone := map[uint64]bool{}
	for _, id := range ids {
		gone[id] = true
		if f := w.facts[id]; f != nil {
			ack.Texts = append(ack.Texts, f.Text)
		}
	}
	fs, err := s.List(ctx, in.User, &memory.ListOptions{All: true})
	if err != nil {
		return ack, err
	}
	for _, f := range fs {
		if e := expectOf(f); w.facts[e.ID] == nil || *w.facts[e.ID] != e {
			ack.Facts = append(ack.Facts, e)
		}
	}
	return ack, nil
}

// importCopy exports the store to a file and imports that into a fresh
// store of its own, returning how many facts the copy holds.
func (w *world) importCopy(ctx context.Context, s *memory.Store) (int, error) {
	exp, imp := filepath.Join(w.dir, crashExport), filepath.Join(w.dir, crashImport)
	if err := os.Remove(imp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	f, err := os.OpenFile(exp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if err := s.Export(ctx, f); err != nil {
		return 0, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	d, err := memory.Open(imp, 0, nil)
	if err != nil {
		return 0, err
	}
	n, err := d.Import(ctx, f, nil)
	return n, errors.Join(err, d.Close())
}

// importLarge imports the large export into a fresh store of its own.
func importLarge(ctx context.Context, dir string) (int, error) {
	f, err := os.Open(filepath.Join(dir, crashLargeExport))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	d, err := memory.Open(filepath.Join(dir, crashLargeImport), 0, nil)
	if err != nil {
		return 0, err
	}
	n, err := d.Import(ctx, f, nil)
	return n, errors.Join(err, d.Close())
}

// churn adds small facts and looks each up at once, until killed: the
// lookup waits for the index to take the change, so every Add is a batch,
// and a segment, of its own, and scorch merges them as they pile up.
func (w *world) churn(ctx context.Context, s *memory.Store, rng *rand.Rand, run uint64, emit func(crashLine) error) error {
	for seq := 1; ; seq++ {
		in := crashLine{Kind: "intent", Seq: seq, Op: "add", User: crashUsers[rng.IntN(len(crashUsers))],
			Text: fmt.Sprintf("My %s is in %s, tag %s.", crashSubjects[rng.IntN(len(crashSubjects))],
				crashPlaces[rng.IntN(len(crashPlaces))], tag(run, seq))}
		if err := emit(in); err != nil {
			return err
		}
		ack, err := w.perform(ctx, s, in)
		if err != nil {
			return fmt.Errorf("add %q: %w", in.User, err)
		}
		w.apply(ack.Facts)
		if err := emit(ack); err != nil {
			return err
		}
		if _, err := s.Candidates(ctx, in.User, in.Text, 1); err != nil {
			return err
		}
	}
}
