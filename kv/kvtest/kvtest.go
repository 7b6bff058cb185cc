// Package kvtest is the conformance suite of kv.Backend: what the memory
// layer relies on from storage, checked the same way on every backend
// (the bbolt file in package kv's tests, the JetStream cluster in package
// kv/jetstream's). It imports kv and the standard library only.
package kvtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/palimpsest-mem/memory/kv"
)

// Harness is what the suite needs of a backend.
type Harness struct {
	// Open returns a new, empty backend; the suite closes it.
	Open func(t *testing.T) kv.Backend
	// Files are the paths (files or directories, walked) where the
	// backend keeps its bytes, for the erase's check; nil skips it.
	Files func(t *testing.T) []string
}

// Run runs every case of the suite on h.
func Run(t *testing.T, h Harness) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := h.Open(t)
			t.Cleanup(func() { _ = b.Close() })
			c.run(t, &env{Backend: b, h: h})
		})
	}
}

type env struct {
	kv.Backend
	h Harness
}

var cases = []struct {
	name string
	run  func(t *testing.T, e *env)
}{
	{"EmptyUser", emptyUser},
	{"CommitThenSnapshot", commitThenSnapshot},
	{"ScanRangesAndOrder", scanRangesAndOrder},
	{"UsersAreApart", usersAreApart},
	{"StaleRevisionIsRefused", staleRevisionIsRefused},
	{"BadInputChangesNothing", badInputChangesNothing},
	{"DeleteAndLastWriteWins", deleteAndLastWriteWins},
	{"SnapshotStaysAsItWas", snapshotStaysAsItWas},
	{"GuardedIncrementsLoseNothing", guardedIncrementsLoseNothing},
	{"UsersListed", usersListed},
	{"EraseLeavesNoOldVersion", eraseLeavesNoOldVersion},
	{"RevIsTheSnapshots", revIsTheSnapshots},
}

var ctx = context.Background()

func snap(t *testing.T, b kv.Backend, user string) kv.Snapshot {
	t.Helper()
	s, err := b.Snapshot(ctx, user)
	if err != nil {
		t.Fatalf("Snapshot(%q): %v", user, err)
	}
	return s
}

func commit(t *testing.T, b kv.Backend, user string, rev uint64, ops ...kv.Op) uint64 {
	t.Helper()
	next, err := b.Commit(ctx, user, rev, ops)
	if err != nil {
		t.Fatalf("Commit(%q, %d): %v", user, rev, err)
	}
	if next <= rev {
		t.Fatalf("Commit(%q, %d) = revision %d, not above", user, rev, next)
	}
	return next
}

func put(bucket, key, value string) kv.Op {
	return kv.Op{Bucket: bucket, Key: []byte(key), Value: []byte(value)}
}

func del(bucket, key string) kv.Op { return kv.Op{Bucket: bucket, Key: []byte(key), Delete: true} }

// keys lists bucket's keys=values of s in Scan's order.
func keys(t *testing.T, s kv.Snapshot, bucket string, from, to string, reverse bool) []string {
	t.Helper()
	var f, u []byte
	if from != "" {
		f = []byte(from)
	}
	if to != "" {
		u = []byte(to)
	}
	var out []string
	if err := s.Scan(bucket, f, u, reverse, func(k, v []byte) bool {
		out = append(out, string(k)+"="+string(v))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func emptyUser(t *testing.T, e *env) {
	s := snap(t, e, "nobody")
	if s.Rev() != 0 || s.Get("facts", []byte("k")) != nil || len(keys(t, s, "facts", "", "", false)) != 0 {
		t.Fatalf("a user without data: rev %d, keys %q", s.Rev(), keys(t, s, "facts", "", "", false))
	}
}

func commitThenSnapshot(t *testing.T, e *env) {
	big := strings.Repeat("x", 200_000)
	r1 := commit(t, e, "ada", 0, put("facts", "1", "I live in Lyon."), put("meta", "n", "1"), put("facts", "2", big))
	s := snap(t, e, "ada")
	if s.Rev() != r1 {
		t.Fatalf("snapshot at %d, the commit said %d", s.Rev(), r1)
	}
	if got := string(s.Get("facts", []byte("1"))); got != "I live in Lyon." {
		t.Fatalf("facts/1 = %q", got)
	}
	if got := string(s.Get("facts", []byte("2"))); got != big {
		t.Fatalf("a value of %d bytes came back as %d", len(big), len(got))
	}
	if s.Get("meta", []byte("1")) != nil || s.Get("facts", []byte("n")) != nil {
		t.Fatal("a key shows in a bucket it was not written to")
	}
	r2 := commit(t, e, "ada", r1, put("facts", "1", "I live in Paris."))
	if s := snap(t, e, "ada"); s.Rev() != r2 || string(s.Get("facts", []byte("1"))) != "I live in Paris." {
		t.Fatalf("after the second commit: rev %d, facts/1 %q", s.Rev(), s.Get("facts", []byte("1")))
	}
}

func scanRangesAndOrder(t *testing.T, e *env) {
	var ops []kv.Op
	for _, k := range []string{"b", "a", "d", "c", "e", "\x00", "\xff"} {
		ops = append(ops, put("log", k, "v"+k))
	}
	commit(t, e, "ada", 0, ops...)
	s := snap(t, e, "ada")
	for _, c := range []struct {
		from, to string
		reverse  bool
		want     []string
	}{
		{"", "", false, []string{"\x00=v\x00", "a=va", "b=vb", "c=vc", "d=vd", "e=ve", "\xff=v\xff"}},
		{"b", "d", false, []string{"b=vb", "c=vc"}},
		{"b", "d", true, []string{"c=vc", "b=vb"}},
		{"bb", "", false, []string{"c=vc", "d=vd", "e=ve", "\xff=v\xff"}},
		{"", "a", true, []string{"\x00=v\x00"}},
		{"d", "b", false, nil},
		{"x", "y", false, nil},
	} {
		if got := keys(t, s, "log", c.from, c.to, c.reverse); !slices.Equal(got, c.want) {
			t.Errorf("Scan [%q, %q) reverse %v = %q, want %q", c.from, c.to, c.reverse, got, c.want)
		}
	}
	n := 0
	_ = s.Scan("log", nil, nil, false, func(_, _ []byte) bool { n++; return n < 3 })
	if n != 3 {
		t.Errorf("Scan went on after fn returned false: %d calls", n)
	}
}

func usersAreApart(t *testing.T, e *env) {
	commit(t, e, "ada", 0, put("facts", "1", "ada's"))
	commit(t, e, "", 0, put("facts", "1", "the default user's"))
	commit(t, e, "Ада", 0, put("facts", "1", "Ада's"))
	for user, want := range map[string]string{"ada": "ada's", "": "the default user's", "Ада": "Ада's"} {
		if got := string(snap(t, e, user).Get("facts", []byte("1"))); got != want {
			t.Errorf("user %q: %q, want %q", user, got, want)
		}
	}
	// A commit of one user does not move another's revision.
	before := snap(t, e, "ada").Rev()
	commit(t, e, "bob", 0, put("facts", "1", "bob's"))
	if after := snap(t, e, "ada").Rev(); after != before {
		t.Errorf("bob's commit moved ada from %d to %d", before, after)
	}
}

func staleRevisionIsRefused(t *testing.T, e *env) {
	r1 := commit(t, e, "ada", 0, put("facts", "1", "one"))
	commit(t, e, "ada", r1, put("facts", "1", "two"))
	for _, rev := range []uint64{0, r1} {
		_, err := e.Commit(ctx, "ada", rev, []kv.Op{put("facts", "1", "lost"), put("facts", "9", "lost")})
		if !errors.Is(err, kv.ErrConflict) {
			t.Fatalf("a commit at stale revision %d: %v, want ErrConflict", rev, err)
		}
	}
	s := snap(t, e, "ada")
	if string(s.Get("facts", []byte("1"))) != "two" || s.Get("facts", []byte("9")) != nil {
		t.Fatalf("a refused commit left writes: facts/1 %q, facts/9 %q", s.Get("facts", []byte("1")), s.Get("facts", []byte("9")))
	}
	if _, err := e.Commit(ctx, "new", 7, []kv.Op{put("facts", "1", "x")}); !errors.Is(err, kv.ErrConflict) {
		t.Fatalf("a new user's commit at revision 7: %v, want ErrConflict", err)
	}
}

func badInputChangesNothing(t *testing.T, e *env) {
	r := commit(t, e, "ada", 0, put("facts", "1", "kept"))
	many := make([]kv.Op, kv.MaxOps+1)
	for i := range many {
		many[i] = put("facts", fmt.Sprint(i), "x")
	}
	for _, c := range []struct {
		name string
		user string
		ops  []kv.Op
		want error
	}{
		{"invalid UTF-8 user", "\xff", []kv.Op{put("facts", "1", "x")}, kv.ErrBadOp},
		{"long user", strings.Repeat("u", kv.MaxUser+1), []kv.Op{put("facts", "1", "x")}, kv.ErrBadOp},
		{"bad bucket", "ada", []kv.Op{put("facts", "2", "x"), put("Facts!", "1", "x")}, kv.ErrBadOp},
		{"empty key", "ada", []kv.Op{put("facts", "2", "x"), put("facts", "", "x")}, kv.ErrBadOp},
		{"long key", "ada", []kv.Op{put("facts", "2", "x"), put("facts", strings.Repeat("k", kv.MaxKeyLen+1), "x")}, kv.ErrBadOp},
		{"value too large", "ada", []kv.Op{put("facts", "2", "x"), put("facts", "3", strings.Repeat("v", kv.MaxValueLen+1))}, kv.ErrTooLarge},
		{"too many writes", "ada", many, kv.ErrTooLarge},
	} {
		rev := r
		if c.user != "ada" {
			rev = 0
		}
		if _, err := e.Commit(ctx, c.user, rev, c.ops); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	s := snap(t, e, "ada")
	if s.Rev() != r || s.Get("facts", []byte("2")) != nil || string(s.Get("facts", []byte("1"))) != "kept" {
		t.Fatalf("bad input changed the user: rev %d → %d, facts/2 %q", r, s.Rev(), s.Get("facts", []byte("2")))
	}
	if _, err := e.Snapshot(ctx, "\xff"); !errors.Is(err, kv.ErrBadOp) {
		t.Errorf("Snapshot of an invalid user name: %v", err)
	}
	users, err := e.Users(ctx)
	if err != nil || !slices.Equal(users, []string{"ada"}) {
		t.Errorf("users after bad input: %q, %v", users, err)
	}
}

func deleteAndLastWriteWins(t *testing.T, e *env) {
	r := commit(t, e, "ada", 0, put("facts", "1", "a"), put("facts", "2", "b"))
	commit(t, e, "ada", r, del("facts", "1"), put("facts", "2", "first"), put("facts", "2", "second"), del("facts", "never-there"))
	s := snap(t, e, "ada")
	if s.Get("facts", []byte("1")) != nil || string(s.Get("facts", []byte("2"))) != "second" {
		t.Fatalf("facts/1 %q (deleted), facts/2 %q (want second)", s.Get("facts", []byte("1")), s.Get("facts", []byte("2")))
	}
	if got := keys(t, s, "facts", "", "", false); !slices.Equal(got, []string{"2=second"}) {
		t.Fatalf("Scan after a delete: %q", got)
	}
}

func snapshotStaysAsItWas(t *testing.T, e *env) {
	r := commit(t, e, "ada", 0, put("facts", "1", "old"))
	s := snap(t, e, "ada")
	commit(t, e, "ada", r, put("facts", "1", "new"), put("facts", "2", "added"))
	if string(s.Get("facts", []byte("1"))) != "old" || s.Get("facts", []byte("2")) != nil || s.Rev() != r {
		t.Fatalf("a snapshot changed under a later commit: facts/1 %q, facts/2 %q", s.Get("facts", []byte("1")), s.Get("facts", []byte("2")))
	}
}

// guardedIncrementsLoseNothing: writers read, add one and commit, taking a
// fresh snapshot on ErrConflict; none of their increments is lost, and a
// half commit (the counter without its log key) is never seen.
func guardedIncrementsLoseNothing(t *testing.T, e *env) {
	const writers, each = 4, 8
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				for {
					s, err := e.Snapshot(ctx, "ada")
					if err != nil {
						errs <- err
						return
					}
					n := 0
					if v := s.Get("c", []byte("n")); v != nil {
						fmt.Sscan(string(v), &n)
					}
					if n > 0 && s.Get("log", fmt.Appendf(nil, "%04d", n)) == nil {
						errs <- fmt.Errorf("counter %d without its log key: half a commit", n)
						return
					}
					_, err = e.Commit(ctx, "ada", s.Rev(), []kv.Op{put("c", "n", fmt.Sprint(n+1)), put("log", fmt.Sprintf("%04d", n+1), fmt.Sprintf("w%d.%d", w, i))})
					if errors.Is(err, kv.ErrConflict) {
						continue
					}
					if err != nil {
						errs <- err
						return
					}
					break
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s := snap(t, e, "ada")
	if got := string(s.Get("c", []byte("n"))); got != fmt.Sprint(writers*each) {
		t.Fatalf("counter %s after %d increments", got, writers*each)
	}
	if got := keys(t, s, "log", "", "", false); len(got) != writers*each {
		t.Fatalf("%d log keys after %d increments", len(got), writers*each)
	}
}

func usersListed(t *testing.T, e *env) {
	for _, u := range []string{"zoe", "", "ada", "Ада"} {
		commit(t, e, u, 0, put("facts", "1", "x"))
	}
	got, err := e.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "ada", "zoe", "Ада"}
	if !slices.Equal(got, want) {
		t.Fatalf("Users = %q, want %q", got, want)
	}
}

// revIsTheSnapshots: a backend that reads a revision alone
// (kv.RevReader) reads the one a snapshot taken then would hold, 0 for a
// user without data, and a user's revisions grow with each commit.
func revIsTheSnapshots(t *testing.T, e *env) {
	r, ok := e.Backend.(kv.RevReader)
	if !ok {
		t.Skip("the backend reads no revision alone")
	}
	rev := func(user string) uint64 {
		t.Helper()
		n, err := r.Rev(ctx, user)
		if err != nil {
			t.Fatalf("Rev(%q): %v", user, err)
		}
		return n
	}
	if n := rev("nobody"); n != 0 {
		t.Fatalf("Rev of a user without data: %d", n)
	}
	var last uint64
	for i := range 3 {
		next := commit(t, e, "ada", last, put("facts", "1", fmt.Sprint("value ", i)))
		commit(t, e, "bob", snap(t, e, "bob").Rev(), put("facts", "1", "x")) // another user's commit between
		if next <= last {
			t.Fatalf("commit %d took ada from revision %d to %d", i, last, next)
		}
		if n, s := rev("ada"), snap(t, e, "ada").Rev(); n != next || s != next {
			t.Fatalf("after commit %d at %d: Rev %d, the snapshot's %d", i, next, n, s)
		}
		last = next
	}
	if _, err := r.Rev(ctx, string([]byte{0xff})); !errors.Is(err, kv.ErrBadOp) {
		t.Fatalf("Rev of a name that is not UTF-8: %v, want ErrBadOp", err)
	}
}

// eraseLeavesNoOldVersion writes a text, overwrites one copy and deletes
// the other; after Erase no file of the backend holds it, while the text
// that replaced it is still there to read.
func eraseLeavesNoOldVersion(t *testing.T, e *env) {
	const secret = "my-secret-recovery-phrase-7f3a9c2e"
	// The deleted copy spans pages (a page left free keeps its bytes).
	r := commit(t, e, "ada", 0, put("facts", "1", "I said "+secret), put("facts", "2", secret+strings.Repeat(" again", 5000)), put("facts", "3", "kept"))
	r = commit(t, e, "ada", r, put("facts", "1", "I said nothing"))
	commit(t, e, "ada", r, del("facts", "2"))
	if err := e.Erase(ctx, "ada"); err != nil {
		t.Fatalf("Erase: %v", err)
	}
	s := snap(t, e, "ada")
	if string(s.Get("facts", []byte("1"))) != "I said nothing" || string(s.Get("facts", []byte("3"))) != "kept" || s.Get("facts", []byte("2")) != nil {
		t.Fatalf("Erase changed the latest versions: %q, %q, %q", s.Get("facts", []byte("1")), s.Get("facts", []byte("2")), s.Get("facts", []byte("3")))
	}
	if e.h.Files == nil {
		t.Log("no files to check: the harness names none")
		return
	}
	for _, f := range Holding(t, e.h.Files(t), secret) {
		t.Errorf("%s still holds the erased text", f)
	}
}

// Holding returns the files under paths (walked) whose bytes contain
// text.
func Holding(t *testing.T, paths []string, text string) []string {
	t.Helper()
	var out []string
	for _, p := range paths {
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil // removed while walking: a WAL let go
				}
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			if bytes.Contains(b, []byte(text)) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
