package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"

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
	return expect{ID: f.ID, User: f.User, Text: f.Text, State: f.State().String(), By: f.SupersededBy,
		Supersedes: f.Supersedes, Pinned: f.Pinned}
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
}

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
		err = runCrashChild(context.Background(), db, seed, run, os.Stdout)
	}
	fmt.Fprintln(os.Stderr, "crash child:", err)
	os.Exit(3)
}

// runCrashChild writes to the store at path until it is killed, reporting
// each call before it starts and after it returns. It returns only on an
// error: every call it makes is valid, so any error is a failure.
func runCrashChild(ctx context.Context, path string, seed, run uint64, out io.Writer) error {
	s, err := memory.Open(path, 0, nil)
	if err != nil {
		return err
	}
	// No Close: the parent kills this process.
	w := newWorld()
	for _, u := range crashUsers {
		fs, err := s.List(ctx, u, memory.ListOptions{All: true})
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
	for seq := 1; ; seq++ {
		in := w.next(rng, run, seq)
		if err := emit(in); err != nil {
			return err
		}
		ack, err := w.perform(ctx, s, in)
		if err != nil {
			return fmt.Errorf("%s %q fact %d: %w", in.Op, in.User, in.ID, err)
		}
		w.apply(ack.Facts)
		if err := emit(ack); err != nil {
			return err
		}
	}
}

// world is the child's picture of the store, to pick valid calls.
type world struct {
	facts map[uint64]*expect
	ids   map[string][]uint64 // per user, in id order
	succ  map[uint64][]uint64 // predecessor -> facts written as its successors
}

func newWorld() *world {
	return &world{facts: map[uint64]*expect{}, ids: map[string][]uint64{}, succ: map[uint64][]uint64{}}
}

func (w *world) set(e expect) {
	if old, ok := w.facts[e.ID]; ok {
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
		if f, err = s.Supersede(ctx, in.ID, memory.Note{User: in.User, Text: in.Text}); err == nil {
			old := *w.facts[in.ID]
			old.State, old.By = "superseded", f.ID
			ack.Facts = append(ack.Facts, old)
		}
	case "invalidate":
		f, err = s.Invalidate(ctx, in.User, in.ID, change)
	case "restore":
		f, err = s.Restore(ctx, in.User, in.ID, change)
	case "pin":
		f, err = s.Pin(ctx, in.User, in.ID)
	case "unpin":
		f, err = s.Unpin(ctx, in.User, in.ID)
	case "remember":
		var out memory.Outcome
		if out, err = s.Remember(ctx, memory.Note{User: in.User, Text: in.Text}); err != nil {
			return ack, err
		}
		d := out.Decision
		ack.Op = "remember:" + string(d.Action)
		ack.Decision = &decisionExpect{ID: d.ID, Action: string(d.Action), Target: d.Target, Added: d.Added}
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
	default:
		return ack, fmt.Errorf("unknown operation %q", in.Op)
	}
	if err != nil {
		return ack, err
	}
	ack.Facts = append(ack.Facts, expectOf(f))
	return ack, nil
}
