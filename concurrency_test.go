package memory_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/palimpsest-mem/memory"
)

// Many goroutines doing mixed operations on a few users: run under -race.
// Expected errors are the ones a racing caller can meet; anything else
// fails. Afterwards Check must be clean (logs replay to their markers,
// links agree both ways, indexes match) and no list crosses users.
func TestConcurrentMixedOperations(t *testing.T) {
	s, _ := open(t, nil, nil)
	const workers, steps = 16, 60
	users := []string{"", "alice", "bob"}
	var wg sync.WaitGroup
	errc := make(chan error, workers)
	deadline := time.Now().Add(60 * time.Second)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			user := users[w%len(users)]
			var mine []uint64
			for i := range steps {
				if time.Now().After(deadline) {
					errc <- errors.New("deadline passed: likely deadlock")
					return
				}
				pick := func() uint64 {
					if len(mine) == 0 {
						return 1
					}
					return mine[rng.IntN(len(mine))]
				}
				var err error
				switch op := rng.IntN(10); {
				case op < 3 || len(mine) == 0:
					var f memory.Fact
					f, err = s.Add(ctx, memory.Note{User: user, Text: fmt.Sprintf("w%d fact %d", w, i)})
					mine = append(mine, f.ID)
				case op == 3:
					var f memory.Fact
					f, err = s.Supersede(ctx, user, pick(), memory.Note{User: user, Text: fmt.Sprintf("w%d new %d", w, i)})
					if err == nil {
						mine = append(mine, f.ID)
					}
				case op == 4:
					_, err = s.Invalidate(ctx, user, pick(), memory.Change{})
				case op == 5:
					_, err = s.Restore(ctx, user, pick(), memory.Change{})
				case op == 6:
					_, err = s.Pin(ctx, user, pick())
				case op == 7:
					_, err = s.At(ctx, user, time.Time{}, time.Time{})
				case op == 8 && i%2 == 0:
					_, err = s.Prompt(ctx, user, nil)
				case op == 8:
					_, err = s.Candidates(ctx, user, fmt.Sprintf("w%d fact %d", w, i-1), 12)
				default:
					_, err = s.List(ctx, user, &memory.ListOptions{All: true})
				}
				if err != nil && !errors.Is(err, memory.ErrNotCurrent) && !errors.Is(err, memory.ErrAlreadyCurrent) &&
					!errors.Is(err, memory.ErrNotFound) {
					errc <- err
					return
				}
			}
		}()
	}
	// A reader and a deleter alongside, so compaction races with everything.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 3 {
			f, err := s.Add(ctx, memory.Note{User: "carol", Text: "short-lived"})
			if err == nil {
				_, err = s.Delete(ctx, "carol", f.ID, nil)
			}
			if err != nil {
				errc <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		all := must[[]memory.Fact](t)(s.List(ctx, u, &memory.ListOptions{All: true}))
		for _, f := range all {
			if f.User != u {
				t.Fatalf("user %q listed a fact of %q", u, f.User)
			}
		}
	}
}

// stress64 is the shared state of the 64-goroutine test: each user's pool
// of fact ids (shared by that user's workers, so that they race on the same
// facts), the facts each write acknowledged, and the ids about to be or
// already deleted.
type stress64 struct {
	s     *memory.Store
	users []string

	mu     sync.Mutex
	pools  map[string][]uint64
	acked  map[factRef]bool // every acknowledged new fact
	doomed map[factRef]bool

	ops    sync.Map // operation → *opStat
	export []byte   // an export taken in the middle of the run
}

// opStat counts an operation and the time spent in it.
type opStat struct{ n, nanos atomic.Int64 }

func (st *stress64) count(op string, start time.Time) {
	v, _ := st.ops.LoadOrStore(op, new(opStat))
	v.(*opStat).n.Add(1)
	v.(*opStat).nanos.Add(int64(time.Since(start)))
}

// factRef names a fact: ids are each user's own.
type factRef struct {
	user string
	id   uint64
}

func (st *stress64) ack(user string, id uint64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.acked[factRef{user, id}] = true
	st.pools[user] = append(st.pools[user], id)
}

// pick returns one of user's facts, 0 if there is none yet.
func (st *stress64) pick(rng *rand.Rand, user string) uint64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	p := st.pools[user]
	if len(p) == 0 {
		return 0
	}
	return p[rng.IntN(len(p))]
}

func (st *stress64) doom(user string, id uint64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.doomed[factRef{user, id}] = true
}

func (st *stress64) isDoomed(user string, id uint64) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.doomed[factRef{user, id}]
}

// tagOf marks every text with its user, so that a prompt line can be told
// apart: "[u2] ...".
func tagOf(users []string, user string) string {
	return fmt.Sprintf("[u%d]", slices.Index(users, user))
}

// workerWord is a letters-only word of four or more letters proper to one
// worker.
func workerWord(w int) string { return "topic" + string(rune('a'+w/26)) + string(rune('a'+w%26)) }

var drinks = []string{"coffee", "tea", "juice", "water", "kefir"}

// step runs one random operation of worker w as user and returns an error
// for anything a racing caller should not see.
func (st *stress64) step(ctx context.Context, rng *rand.Rand, w, i int, user string) error {
	// Each worker writes about three subjects of its own, so that the rules
	// decider often finds one clear target.
	s, tag, word, start := st.s, tagOf(st.users, user), workerWord(w)+string(rune('a'+rng.IntN(3))), time.Now()
	drink := drinks[rng.IntN(len(drinks))]
	// own checks an error on a fact of user: ErrNotFound only once the
	// fact was doomed, and the states a racing caller can meet.
	own := func(op string, id uint64, err error, allowed ...error) error {
		st.count(op, start)
		if err == nil {
			return nil
		}
		if errors.Is(err, memory.ErrNotFound) && st.isDoomed(user, id) {
			return nil
		}
		for _, a := range allowed {
			if errors.Is(err, a) {
				return nil
			}
		}
		return fmt.Errorf("%s fact %d of %q: %w", op, id, user, err)
	}
	op := rng.IntN(20)
	if st.pick(rng, user) == 0 {
		op = 0 // nothing to work on yet
	}
	switch {
	case op < 3:
		f, err := s.Add(ctx, memory.Note{User: user, Text: fmt.Sprintf("%s %s drinks %s (w%d/%d)", tag, word, drink, w, i),
			Origin: memory.Origin(rng.IntN(2))})
		if err != nil {
			return fmt.Errorf("Add: %w", err)
		}
		st.count("Add", start)
		st.ack(user, f.ID)
	case op < 6:
		// The rules decider: a change ("now"), a correction ("I was
		// wrong"), a restatement or a new fact, against the worker's facts
		// and everyone else's.
		var text string
		switch rng.IntN(4) {
		case 0:
			text = fmt.Sprintf("%s %s drinks %s now", tag, word, drink)
		case 1:
			text = fmt.Sprintf("%s I was wrong, %s drinks %s", tag, word, drink)
		case 2:
			text = fmt.Sprintf("%s %s drinks %s", tag, word, drink)
		default:
			text = fmt.Sprintf("%s %s plays %s", tag, word, []string{"chess", "piano", "tennis"}[rng.IntN(3)])
		}
		out, err := s.Remember(ctx, memory.Note{User: user, Text: text})
		if err != nil {
			return fmt.Errorf("Remember %q: %w", text, err)
		}
		label := "Remember " + string(out.Decision.Action)
		if out.Decision.Conflict != 0 {
			label += " with a conflict"
		}
		st.count(label, start)
		if out.Decision.Added != 0 {
			st.ack(user, out.Decision.Added)
		}
		if out.Fact.ID != 0 && out.Fact.User != user {
			return fmt.Errorf("Remember of %q returned fact %d of %q", user, out.Fact.ID, out.Fact.User)
		}
	case op == 6:
		id := st.pick(rng, user)
		f, err := s.Supersede(ctx, user, id, memory.Note{User: user, Text: fmt.Sprintf("%s %s drinks %s since spring (w%d/%d)", tag, word, drink, w, i)})
		if err == nil {
			st.ack(user, f.ID)
		}
		return own("Supersede", id, err, memory.ErrNotCurrent)
	case op == 7:
		id := st.pick(rng, user)
		_, err := s.Invalidate(ctx, user, id, memory.Change{Origin: memory.Origin(rng.IntN(2))})
		return own("Invalidate", id, err, memory.ErrNotCurrent, memory.ErrPinned)
	case op == 8:
		id := st.pick(rng, user)
		_, err := s.Restore(ctx, user, id, memory.Change{})
		return own("Restore", id, err, memory.ErrAlreadyCurrent)
	case op == 9:
		id := st.pick(rng, user)
		var err error
		if rng.IntN(2) == 0 {
			_, err = s.Pin(ctx, user, id)
		} else {
			_, err = s.Unpin(ctx, user, id)
		}
		return own("Pin/Unpin", id, err)
	case op == 10:
		// Another user's fact is out of reach: ids are each user's, so
		// another's id names the caller's own fact of that id, or none.
		other := st.users[(slices.Index(st.users, user)+1+rng.IntN(len(st.users)-1))%len(st.users)]
		id := st.pick(rng, other)
		if id == 0 {
			return nil
		}
		h, err := s.History(ctx, user, id)
		if err != nil && !errors.Is(err, memory.ErrNotFound) {
			return fmt.Errorf("History by %q of id %d, a fact of %q: %v", user, id, other, err)
		}
		if err := mine("History of another's id", user, h, nil); err != nil {
			return err
		}
		st.count("other user's fact", start)
	case op == 11:
		facts, err := s.At(ctx, user, time.Now().Add(time.Duration(rng.IntN(7200)-3600)*time.Second), time.Time{})
		st.count("At", start)
		return mine("At", user, facts, err)
	case op == 12:
		p, err := s.Prompt(ctx, user, nil)
		if err != nil {
			return fmt.Errorf("Prompt: %w", err)
		}
		for _, l := range strings.Split(p, "\n") {
			if strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "- "+tag+" ") {
				return fmt.Errorf("Prompt of %q holds %q", user, l)
			}
		}
		st.count("Prompt", start)
	case op == 13:
		look, err := s.Candidates(ctx, user, fmt.Sprintf("%s drinks %s", word, drink), memory.DefaultCandidates)
		if err != nil {
			return fmt.Errorf("Candidates: %w", err)
		}
		for _, c := range look.Candidates {
			if c.Fact.User != user {
				return fmt.Errorf("Candidates of %q hold fact %d of %q", user, c.Fact.ID, c.Fact.User)
			}
		}
		st.count("Candidates", start)
	case op == 14:
		facts, err := s.List(ctx, user, &memory.ListOptions{All: rng.IntN(2) == 0})
		st.count("List", start)
		return mine("List", user, facts, err)
	case op == 15:
		id := st.pick(rng, user)
		facts, err := s.History(ctx, user, id)
		if err != nil {
			return own("History", id, err)
		}
		st.count("History", start)
		return mine("History", user, facts, nil)
	case op == 16 && i%2 == 0:
		if err := s.Check(ctx); err != nil {
			return fmt.Errorf("Check during writes: %w", err)
		}
		st.count("Check", start)
	case op == 16:
		var b bytes.Buffer
		if err := s.Export(ctx, &b); err != nil {
			return fmt.Errorf("Export: %w", err)
		}
		st.mu.Lock()
		st.export = b.Bytes()
		st.mu.Unlock()
		st.count("Export", start)
	case op == 17 && i%4 == 0:
		// A few hard deletes: each compacts the file under everyone's feet.
		id := st.pick(rng, user)
		st.doom(user, id)
		_, err := s.Delete(ctx, user, id, nil)
		return own("Delete", id, err)
	default:
		ds, err := s.Decisions(ctx, user, 1)
		if err != nil {
			return fmt.Errorf("Decisions: %w", err)
		}
		st.count("Decisions", start)
		if len(ds) == 1 && ds[0].User != user {
			return fmt.Errorf("Decisions of %q hold decision %d of %q", user, ds[0].ID, ds[0].User)
		}
		if len(ds) == 1 && rng.IntN(4) == 0 {
			_, err := s.Undo(ctx, user, ds[0].ID)
			if err != nil && !errors.Is(err, memory.ErrUndoStale) && !errors.Is(err, memory.ErrAlreadyUndone) &&
				!errors.Is(err, memory.ErrNotFound) {
				return fmt.Errorf("Undo decision %d: %w", ds[0].ID, err)
			}
			st.count("Undo", start)
		}
	}
	return nil
}

// mine fails when a read of user's facts holds another user's fact.
func mine(op, user string, facts []memory.Fact, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	for _, f := range facts {
		if f.User != user {
			return fmt.Errorf("%s of %q holds fact %d of %q", op, user, f.ID, f.User)
		}
	}
	return nil
}

// 64 goroutines (16 per user) racing on shared facts with every kind of
// operation, Remember with the rules decider, Check and Export among them.
// The run must end before a deadline (else it is a deadlock: the stacks are
// printed); afterwards Check is clean, links agree both ways through the
// public API, no fact has two current successors unless it was restored in
// between, every acknowledged fact is still there unless deleted, an export
// taken mid-run imports into a clean store, and once the store is closed no
// goroutine of it is left.
func TestConcurrent64Workers(t *testing.T) {
	ignore := goleak.IgnoreCurrent() // other tests' leftovers are theirs to answer for
	const workers, steps = 64, 40
	dir := t.TempDir()
	s, err := memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	st := &stress64{s: s, users: []string{"", "alice", "bob", "мила"},
		pools: map[string][]uint64{}, acked: map[factRef]bool{}, doomed: map[factRef]bool{}}

	start := time.Now()
	done := make(chan struct{})
	errc := make(chan error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 64))
			user := st.users[w%len(st.users)]
			for i := range steps {
				if err := st.step(ctx, rng, w, i, user); err != nil {
					errc <- fmt.Errorf("worker %d step %d: %w", w, i, err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		var b bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&b, 2)
		// The store is left open: closing it could hang on the same lock.
		t.Fatalf("64 workers still running after 2 minutes: deadlock?\n%s", b.String())
	}
	elapsed := time.Since(start)
	close(errc)
	for err := range errc {
		t.Error(err)
	}

	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check: %v", err)
	}
	total := 0
	for _, u := range st.users {
		all := must[[]memory.Fact](t)(s.List(ctx, u, &memory.ListOptions{All: true}))
		total += len(all)
		linksAgree(t, s, u, all)
	}
	for ref := range st.acked {
		if st.doomed[ref] {
			continue
		}
		if f, err := s.Get(ctx, ref.user, ref.id); err != nil || f.User != ref.user {
			t.Errorf("acknowledged fact %d of %q: %+v, %v", ref.id, ref.user, f, err)
		}
	}
	var counts []string
	st.ops.Range(func(k, v any) bool {
		o := v.(*opStat)
		counts = append(counts, fmt.Sprintf("%s=%d (%v)", k, o.n.Load(), (time.Duration(o.nanos.Load())/time.Duration(o.n.Load())).Round(time.Microsecond)))
		return true
	})
	slices.Sort(counts)
	t.Logf("%d workers × %d steps in %v; %d facts, %d acknowledged, %d doomed; %s", workers, steps,
		elapsed.Round(time.Millisecond), total, len(st.acked), len(st.doomed), strings.Join(counts, " "))

	if st.export != nil {
		imp, err := memory.Open(filepath.Join(t.TempDir(), "imported.db"), 0, &memory.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		n, err := imp.Import(ctx, bytes.NewReader(st.export), nil)
		if err != nil {
			t.Errorf("import of an export taken mid-run: %v", err)
		} else if err := imp.Check(ctx); err != nil {
			t.Errorf("the imported mid-run export: %v", err)
		}
		t.Logf("the mid-run export held %d facts", n)
		if err := imp.Close(); err != nil {
			t.Error(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 2 {
		t.Errorf("Close left %d entries beside the store file, want only the kept index", len(left)-1)
	}
	wantOnlyKept(t, "after Close", filepath.Join(dir, "memory.db.index"))
	goleak.VerifyNone(t, ignore)
}

// linksAgree checks through the public API that the links between
// versions agree both ways and that no fact has two current successors
// unless it was restored between their supersedes.
func linksAgree(t *testing.T, s *memory.Store, user string, all []memory.Fact) {
	t.Helper()
	byID := map[uint64]memory.Fact{}
	for _, f := range all {
		if f.User != user {
			t.Fatalf("List of %q holds fact %d of %q", user, f.ID, f.User)
		}
		byID[f.ID] = f
	}
	logs := map[uint64][]memory.Event{}
	for _, f := range all {
		logs[f.ID] = must[[]memory.Event](t)(s.Events(ctx, user, f.ID))
	}
	for _, f := range all {
		evs := logs[f.ID]
		var lastBy uint64
		for _, e := range evs {
			if e.Kind == memory.EventSuperseded {
				lastBy = e.By
				if e.By != 0 && byID[e.By].Supersedes != f.ID {
					t.Errorf("fact %d was superseded by %d, which names %d as its predecessor", f.ID, e.By, byID[e.By].Supersedes)
				}
			}
		}
		if f.SupersededBy != 0 && (f.SupersededBy != lastBy || f.State() != memory.Superseded) {
			t.Errorf("fact %d: superseded by %d, its log's last supersede names %d", f.ID, f.SupersededBy, lastBy)
		}
		if p := f.Supersedes; p != 0 {
			pred, ok := byID[p]
			if !ok || !slices.ContainsFunc(logs[p], func(e memory.Event) bool { return e.Kind == memory.EventSuperseded && e.By == f.ID }) {
				t.Errorf("fact %d names %d as its predecessor, whose log does not name it (%+v)", f.ID, p, pred)
			}
		}
	}
	// Two current successors of one fact: only if it was restored between
	// the two supersedes, as a user may do.
	for _, p := range all {
		var steps []int // positions in p's log of supersedes by a current successor
		for i, e := range logs[p.ID] {
			if e.Kind == memory.EventSuperseded && e.By != 0 && byID[e.By].State() == memory.Current {
				steps = append(steps, i)
			}
		}
		for j := 1; j < len(steps); j++ {
			between := logs[p.ID][steps[j-1]:steps[j]]
			if !slices.ContainsFunc(between, func(e memory.Event) bool { return e.Kind == memory.EventRestored }) {
				t.Errorf("fact %d has two current successors with no restore between: %+v", p.ID, logs[p.ID])
			}
		}
	}
}
