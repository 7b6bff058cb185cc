package live

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/palimpsest-mem/memory/index"
)

// users is a store of per-user revisions in memory, as a cluster is: each
// user's facts and revision apart, written by several processes, each
// with an index of its own.
type users struct {
	mu    sync.Mutex
	revs  map[string]uint64
	facts map[string]map[uint64]Change
	next  uint64 // revisions grow across users, as a stream's sequence
	// reads counts the reads of a user's facts (Source.User) by process.
	reads map[*process]int
}

// process is one process on users: its index and the locks a store's
// commits take (the write lock shared, the user's held).
type process struct {
	u      *users
	l      *Index
	all    sync.RWMutex
	userMu sync.Mutex // one for every user: a stripe
}

type userLock struct {
	all  *sync.RWMutex
	user *sync.Mutex
}

func (l userLock) Lock()   { l.all.RLock(); l.user.Lock() }
func (l userLock) Unlock() { l.user.Unlock(); l.all.RUnlock() }

type exclusive struct{ mu *sync.RWMutex }

func (e exclusive) Lock()   { e.mu.Lock() }
func (e exclusive) Unlock() { e.mu.Unlock() }

func newUsers() *users {
	return &users{revs: map[string]uint64{}, facts: map[string]map[uint64]Change{}, reads: map[*process]int{}}
}

// open opens a process's index on u.
func (u *users) open(t testing.TB) *process {
	t.Helper()
	p := &process{u: u}
	l, err := Open("", Options{Mode: index.Keywords4, Root: filepath.Join(t.TempDir(), "index"), Writes: exclusive{&p.all},
		UserWrites: func(string) sync.Locker { return userLock{&p.all, &p.userMu} },
		Source: Source{Vectors: func([]index.Doc) error { return nil },
			User: func(_ context.Context, user string, held []uint64) (UserFacts, error) {
				return u.read(p, user, held), nil
			}}})
	if err != nil {
		t.Fatal(err)
	}
	p.l = l
	t.Cleanup(l.Close)
	return p
}

func (u *users) read(p *process, user string, held []uint64) UserFacts {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.reads[p]++
	f := UserFacts{Rev: u.revs[user]}
	for _, id := range slices.Sorted(maps.Keys(u.facts[user])) {
		if c := u.facts[user][id]; c.Current {
			f.Docs = append(f.Docs, index.Doc{ID: id, User: user, Text: c.Text})
		}
	}
	for _, id := range held {
		if _, ok := u.facts[user][id]; !ok {
			f.Gone = append(f.Gone, id)
		}
	}
	return f
}

func (u *users) rev(user string) uint64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.revs[user]
}

func (u *users) readsOf(p *process) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.reads[p]
}

// commit writes cs, all of user, in one commit of p, and syncs p's index
// as a store's commit does.
func (p *process) commit(user string, cs ...Change) {
	p.all.RLock()
	defer p.all.RUnlock()
	p.userMu.Lock()
	defer p.userMu.Unlock()
	u := p.u
	u.mu.Lock()
	from := u.revs[user]
	u.next++
	to := u.next
	u.revs[user] = to
	if u.facts[user] == nil {
		u.facts[user] = map[uint64]Change{}
	}
	for i := range cs {
		cs[i].User = user
		if cs[i].Deleted {
			delete(u.facts[user], cs[i].ID)
		} else {
			u.facts[user][cs[i].ID] = cs[i]
		}
	}
	u.mu.Unlock()
	p.l.SyncUser(slices.Values(cs), user, from, to)
}

// found returns the ids p's lookup of user finds for text, at the user's
// revision now.
func (p *process) found(t *testing.T, user, text string) []uint64 {
	t.Helper()
	var hits []index.Hit
	err := p.l.SearchAt(context.Background(), user, p.u.rev(user), nil, func(ix *index.Index) (err error) {
		hits, err = ix.Search(context.Background(), user, ix.Analyzer().Analyze(text), 1000)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	out := []uint64{}
	for _, h := range hits {
		out = append(out, h.ID)
	}
	slices.Sort(out)
	return out
}

func fact(id uint64, text string) Change { return Change{ID: id, Text: text, Current: true} }

// Another process's commits are seen at the next lookup, one read of the
// user each; this process's own cost none, even interleaved with them.
func TestFollowOtherProcesses(t *testing.T) {
	u := newUsers()
	a, b := u.open(t), u.open(t)
	a.commit("ada", fact(1, "zzpiano sunday"))
	if got := a.found(t, "ada", "zzpiano"); !slices.Equal(got, []uint64{1}) {
		t.Fatalf("a's own fact: %v", got)
	}
	reads := u.readsOf(a) // the user's first lookup reads the user
	a.commit("ada", fact(2, "zzpiano monday"))
	if got := a.found(t, "ada", "zzpiano"); !slices.Equal(got, []uint64{1, 2}) || u.readsOf(a) != reads {
		t.Fatalf("after a's own commit: %v, %d reads (%d before)", got, u.readsOf(a), reads)
	}

	b.commit("ada", fact(3, "zzpiano tuesday"))
	if got := a.found(t, "ada", "zzpiano"); !slices.Equal(got, []uint64{1, 2, 3}) || u.readsOf(a) != reads+1 {
		t.Fatalf("after b's commit: %v, %d reads (%d before)", got, u.readsOf(a), reads)
	}
	reads = u.readsOf(a)
	// Supersede and hard delete, by b.
	b.commit("ada", Change{ID: 1, Text: "zzpiano sunday"}, fact(4, "zzpiano wednesday"))
	b.commit("ada", Change{ID: 2, Deleted: true})
	if got := a.found(t, "ada", "zzpiano"); !slices.Equal(got, []uint64{3, 4}) {
		t.Fatalf("after b's supersede and delete: %v", got)
	}
	// a's commit on top of b's: a's index cannot name the revision it
	// holds, and reads the user again.
	b.commit("ada", fact(5, "zzpiano thursday"))
	a.commit("ada", fact(6, "zzpiano friday"))
	if got := a.found(t, "ada", "zzpiano"); !slices.Equal(got, []uint64{3, 4, 5, 6}) {
		t.Fatalf("after a's commit on top of b's: %v", got)
	}
	if r, _ := a.l.q.rev("ada"); !r.known || r.rev != u.rev("ada") {
		t.Fatalf("a's index holds revision %+v, the user is at %d", r, u.rev("ada"))
	}
	// The caller's own read of the user, when it gives one, is the one
	// caught up from.
	b.commit("ada", fact(7, "zzpiano saturday"))
	reads = u.readsOf(a)
	given := 0
	read := func(_ context.Context, held []uint64) (UserFacts, error) { given++; return u.read(b, "ada", held), nil }
	err := a.l.SearchAt(context.Background(), "ada", u.rev("ada"), read, func(*index.Index) error { return nil })
	if err != nil || given != 1 || u.readsOf(a) != reads {
		t.Fatalf("SearchAt with the caller's read: %v, read %d times, Source.User %d times", err, given, u.readsOf(a)-reads)
	}
	if got := a.found(t, "ada", "zzpiano"); !slices.Equal(got, []uint64{3, 4, 5, 6, 7}) || u.readsOf(a) != reads {
		t.Fatalf("after the caller's read: %v", got)
	}
	// A user a never looked up, and a user without data.
	b.commit("bob", fact(1, "zzbees garden"))
	if got := a.found(t, "bob", "zzbees"); !slices.Equal(got, []uint64{1}) {
		t.Fatalf("bob, whom only b wrote: %v", got)
	}
	if got := a.found(t, "nobody", "zzbees"); len(got) != 0 {
		t.Fatalf("a user without data: %v", got)
	}
	reads = u.readsOf(a)
	for range 3 {
		a.found(t, "ada", "zzpiano")
		a.found(t, "bob", "zzbees")
	}
	if u.readsOf(a) != reads {
		t.Fatalf("lookups with nobody writing read users %d times", u.readsOf(a)-reads)
	}
}

// A commit of a user a does not hold is not put in a's index, and a check
// compares only the users the index holds, each caught up to the check's
// read first.
func TestFollowCheck(t *testing.T) {
	u := newUsers()
	a, b := u.open(t), u.open(t)
	a.commit("ada", fact(1, "zzpiano"))
	a.found(t, "ada", "zzpiano") // builds the index, holding ada
	a.commit("bob", fact(1, "zzbees"))
	b.commit("ada", fact(2, "zzviolin"))
	check := func(current map[index.DocKey]bool) []error {
		t.Helper()
		a.all.Lock()
		defer a.all.Unlock()
		for _, user := range []string{"ada", "bob"} {
			f := u.read(a, user, nil)
			err := a.l.Follow(context.Background(), user, f.Rev, func(_ context.Context, held []uint64) (UserFacts, error) { return u.read(a, user, held), nil })
			if err != nil {
				t.Fatal(err)
			}
		}
		diffs, dir := a.l.Check(context.Background(), current)
		if dir != nil {
			t.Fatal(dir)
		}
		return diffs
	}
	all := map[index.DocKey]bool{{User: "ada", ID: 1}: true, {User: "ada", ID: 2}: true, {User: "bob", ID: 1}: true}
	if diffs := check(all); len(diffs) != 0 {
		t.Fatalf("check: %v", diffs)
	}
	// The check is a check: a fact the index lacks of a user it holds is
	// told.
	all[index.DocKey{User: "ada", ID: 9}] = true
	if diffs := check(all); len(diffs) != 1 {
		t.Fatalf("check with a fact the index lacks: %v", diffs)
	}
}

// Lookups beside both processes' commits of one user: once the writers
// are done, a's index holds every fact, and its revision is the user's.
func TestFollowConcurrent(t *testing.T) {
	u := newUsers()
	a, b := u.open(t), u.open(t)
	const per = 40
	var wg sync.WaitGroup
	for w, p := range []*process{a, b} {
		wg.Go(func() {
			for i := range per {
				p.commit("ada", fact(uint64(w*per+i+1), fmt.Sprintf("zzmark w%d", w)))
			}
		})
	}
	stop := make(chan struct{})
	var lookups sync.WaitGroup
	for range 4 {
		lookups.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				err := a.l.SearchAt(context.Background(), "ada", u.rev("ada"), nil, func(*index.Index) error { return nil })
				if err != nil && !errors.Is(err, ErrClosed) {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	lookups.Wait()
	if got := a.found(t, "ada", "zzmark"); len(got) != 2*per {
		t.Fatalf("a finds %d facts of %d", len(got), 2*per)
	}
	if r, _ := a.l.q.rev("ada"); !r.known || r.rev != u.rev("ada") {
		t.Fatalf("a's index holds revision %+v, the user is at %d", r, u.rev("ada"))
	}
}

// What a lookup of a user of 1,000 facts pays for the check that the
// index holds the revision it names, while nobody else writes: SearchAt
// beside Search on a store of one change log, fn doing nothing.
func BenchmarkSearchAtHeld(b *testing.B) {
	ctx := context.Background()
	var cs []Change
	for i := range 1000 {
		cs = append(cs, fact(uint64(i+1), fmt.Sprintf("zzfact %d", i)))
	}
	none := func(*index.Index) error { return nil }
	b.Run("Search", func(b *testing.B) {
		s := newStore(b)
		for i := range cs {
			cs[i].User = "ada"
		}
		s.commit(cs...)
		for b.Loop() {
			if err := s.l.Search(ctx, "ada", none); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("SearchAt", func(b *testing.B) {
		u := newUsers()
		p := u.open(b)
		p.commit("ada", cs...)
		rev := u.rev("ada")
		for b.Loop() {
			if err := p.l.SearchAt(ctx, "ada", rev, nil, none); err != nil {
				b.Fatal(err)
			}
		}
	})
}
