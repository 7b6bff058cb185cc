package jetstream

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// One cluster for the tests of snapshots and commits; each subtest has
// streams of its own.
func TestBackend(t *testing.T) {
	c := startCluster(t)
	t.Run("RoundTrip", func(t *testing.T) { testRoundTrip(t, c) })
	t.Run("Scan", func(t *testing.T) { testScan(t, c) })
	t.Run("ReadYourCommitElsewhere", func(t *testing.T) { testFreshness(t, c) })
	t.Run("Users", func(t *testing.T) { testUsers(t, c) })
	t.Run("StaleRevConflicts", func(t *testing.T) { testStaleRev(t, c) })
	t.Run("Counter", func(t *testing.T) { testCounter(t, c) })
	t.Run("ShardsDoNotConflict", func(t *testing.T) { testShards(t, c) })
	t.Run("AllOrNothing", func(t *testing.T) { testAllOrNothing(t, c) })
	t.Run("BadInput", func(t *testing.T) { testBadInput(t, c) })
	t.Run("OpenRefuses", func(t *testing.T) { testOpenRefuses(t, c) })
	t.Run("ManyKeys", func(t *testing.T) { testManyKeys(t, c) })
	t.Run("LargestCommit", func(t *testing.T) { testLargestCommit(t, c) })
}

func testRoundTrip(t *testing.T, c *testCluster) {
	b := c.newBackend(t)
	s := snapshot(t, b, "ann")
	if s.Rev() != 0 || s.Get("facts", []byte("a")) != nil {
		t.Fatalf("a new user: rev %d, value %q", s.Rev(), s.Get("facts", []byte("a")))
	}
	r1 := commit(t, b, "ann", 0, put("facts", "a", "one"), put("facts", "b", "two"), put("logs", "a", "log"))
	if r1 == 0 {
		t.Fatal("revision 0 after a commit")
	}
	s = snapshot(t, b, "ann")
	if s.Rev() != r1 || string(s.Get("facts", []byte("a"))) != "one" || string(s.Get("logs", []byte("a"))) != "log" {
		t.Fatalf("after the first commit: rev %d (want %d), a=%q", s.Rev(), r1, s.Get("facts", []byte("a")))
	}
	// A later write of a key in one commit wins; a delete removes.
	r2 := commit(t, b, "ann", r1, put("facts", "a", "uno"), put("facts", "a", "eins"), del("facts", "b"))
	s = snapshot(t, b, "ann")
	if s.Rev() != r2 || r2 <= r1 {
		t.Fatalf("rev %d after %d, want %d", s.Rev(), r1, r2)
	}
	if got := scan(t, s, "facts", nil, nil, false); !slices.Equal(got, []string{"a=eins"}) {
		t.Errorf("facts: %q", got)
	}
	// The view derived from the commits is the one read afresh.
	fresh := c.open(t, c.connect(t, ""), &Options{Prefix: b.(*Backend).l.prefix})
	for _, bucket := range []string{"facts", "logs"} {
		if got, want := scan(t, s, bucket, nil, nil, false), scan(t, snapshot(t, fresh, "ann"), bucket, nil, nil, false); !slices.Equal(got, want) {
			t.Errorf("%s: the writer's view %q, read afresh %q", bucket, got, want)
		}
	}
	// An empty value is a value.
	r3 := commit(t, b, "ann", r2, put("facts", "empty", ""))
	for _, rd := range []kv.Backend{b, fresh} {
		if s := snapshot(t, rd, "ann"); s.Rev() != r3 || s.Get("facts", []byte("empty")) == nil {
			t.Errorf("empty value: rev %d (want %d), %v", s.Rev(), r3, s.Get("facts", []byte("empty")))
		}
	}
	// The empty name is the default user, and other users are apart.
	commit(t, b, "", 0, put("facts", "a", "default"))
	if got := snapshot(t, b, "").Get("facts", []byte("a")); string(got) != "default" {
		t.Errorf("default user: %q", got)
	}
	if got := snapshot(t, b, "bob"); got.Rev() != 0 {
		t.Errorf("bob at %d", got.Rev())
	}
}

func testScan(t *testing.T, c *testCluster) {
	b := c.newBackend(t)
	var ops []kv.Op
	for _, k := range []string{"d", "a", "c", "b", "e", "\x00", "\xff"} {
		ops = append(ops, put("b1", k, "v"+k))
	}
	ops = append(ops, put("b2", "a", "other"))
	commit(t, b, "ann", 0, ops...)
	s := snapshot(t, b, "ann")
	for _, tc := range []struct {
		name     string
		from, to []byte
		reverse  bool
		want     []string
	}{
		{"all", nil, nil, false, []string{"\x00=v\x00", "a=va", "b=vb", "c=vc", "d=vd", "e=ve", "\xff=v\xff"}},
		{"all reversed", nil, nil, true, []string{"\xff=v\xff", "e=ve", "d=vd", "c=vc", "b=vb", "a=va", "\x00=v\x00"}},
		{"from", []byte("c"), nil, false, []string{"c=vc", "d=vd", "e=ve", "\xff=v\xff"}},
		{"to", nil, []byte("c"), false, []string{"\x00=v\x00", "a=va", "b=vb"}},
		{"range", []byte("b"), []byte("d"), false, []string{"b=vb", "c=vc"}},
		{"range reversed", []byte("b"), []byte("d"), true, []string{"c=vc", "b=vb"}},
		{"between keys", []byte("bb"), []byte("cc"), false, []string{"c=vc"}},
		{"empty", []byte("c"), []byte("c"), false, nil},
		{"inverted", []byte("d"), []byte("b"), false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := scan(t, s, "b1", tc.from, tc.to, tc.reverse); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// fn returning false stops the scan.
	n := 0
	s.Scan("b1", nil, nil, false, func(k, v []byte) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("scan went on %d times after false", n)
	}
	if got := scan(t, s, "nobucket", nil, nil, false); got != nil {
		t.Errorf("unknown bucket: %q", got)
	}
}

// A commit acknowledged through one node is in a snapshot read at once
// through a connection to another node.
func testFreshness(t *testing.T, c *testCluster) {
	w := c.open(t, c.connect(t, c.NodeURL(0)), nil)
	r := c.open(t, c.connect(t, c.NodeURL(2)), &Options{Prefix: w.l.prefix})
	rev := uint64(0)
	for i := range 50 {
		rev = commit(t, w, "ann", rev, put("facts", "k", fmt.Sprint(i)))
		s := snapshot(t, r, "ann")
		if s.Rev() != rev || string(s.Get("facts", []byte("k"))) != fmt.Sprint(i) {
			t.Fatalf("commit %d at %d: read rev %d, value %q", i, rev, s.Rev(), s.Get("facts", []byte("k")))
		}
	}
}

func testUsers(t *testing.T, c *testCluster) {
	b := c.open(t, c.connect(t, ""), &Options{Shards: 3})
	want := []string{"", "ann", "bob", "zoë", "\x01ctl"}
	for _, u := range want {
		commit(t, b, u, 0, put("facts", "a", "x"))
	}
	got, err := b.Users(testCtx(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("users %q, want %q", got, want)
	}
}

func testStaleRev(t *testing.T, c *testCluster) {
	b := c.newBackend(t)
	r1 := commit(t, b, "ann", 0, put("facts", "a", "one"))
	commit(t, b, "ann", r1, put("facts", "a", "two"))
	for _, rev := range []uint64{0, r1, r1 + 100} {
		_, err := b.Commit(testCtx(t, 10*time.Second), "ann", rev, []kv.Op{put("facts", "a", "stale"), put("facts", "z", "new")})
		if !errors.Is(err, kv.ErrConflict) {
			t.Errorf("commit at %d: %v, want a conflict", rev, err)
		}
	}
	s := snapshot(t, b, "ann")
	if got := scan(t, s, "facts", nil, nil, false); !slices.Equal(got, []string{"a=two"}) {
		t.Errorf("after stale commits: %q", got)
	}
}

// Writers that retry on conflict lose no increment.
func testCounter(t *testing.T, c *testCluster) {
	b := c.newBackend(t)
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			ctx := testCtx(t, 60*time.Second)
			for range each {
				for {
					s, err := b.Snapshot(ctx, "ann")
					if err != nil {
						errs <- err
						return
					}
					n := 0
					fmt.Sscan(string(s.Get("c", []byte("n"))), &n)
					_, err = b.Commit(ctx, "ann", s.Rev(), []kv.Op{put("c", "n", fmt.Sprint(n+1))})
					if err == nil {
						break
					}
					if !errors.Is(err, kv.ErrConflict) {
						errs <- err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := string(snapshot(t, b, "ann").Get("c", []byte("n"))); got != fmt.Sprint(writers*each) {
		t.Errorf("counter %s, want %d", got, writers*each)
	}
}

// Users in different streams each commit at their own revisions; a
// commit of one never conflicts with another's.
func testShards(t *testing.T, c *testCluster) {
	b := c.open(t, c.connect(t, ""), &Options{Shards: 4})
	users := []string{}
	seen := map[int]bool{}
	for i := 0; len(seen) < 4; i++ {
		u := fmt.Sprint("user", i)
		if !seen[b.l.shard(u)] {
			seen[b.l.shard(u)] = true
			users = append(users, u)
		}
	}
	revs := make([]uint64, len(users))
	for round := range 3 {
		for i, u := range users {
			revs[i] = commit(t, b, u, revs[i], put("facts", "a", fmt.Sprint(round)))
		}
	}
	for i, u := range users {
		if s := snapshot(t, b, u); s.Rev() != revs[i] || string(s.Get("facts", []byte("a"))) != "2" {
			t.Errorf("%s: rev %d want %d", u, s.Rev(), revs[i])
		}
	}
}

// A batch whose head guard fails leaves none of its messages on any node.
func testAllOrNothing(t *testing.T, c *testCluster) {
	b := c.open(t, c.connect(t, ""), nil)
	stream := b.l.stream(0)
	r1 := commit(t, b, "ann", 0, put("facts", "a", "one"))
	commit(t, b, "ann", r1, put("facts", "a", "two"))
	if err := c.WaitStreamCurrent(testCtx(t, 10*time.Second), stream); err != nil {
		t.Fatal(err)
	}
	before := c.lastSeqs(t, stream)
	ops := []kv.Op{put("facts", "a", "stale"), put("facts", "b", "new"), put("facts", "c", "new")}
	if _, err := b.Commit(testCtx(t, 10*time.Second), "ann", r1, ops); !errors.Is(err, kv.ErrConflict) {
		t.Fatalf("stale commit: %v", err)
	}
	time.Sleep(100 * time.Millisecond) // a half batch would be applied by now
	if err := c.WaitStreamCurrent(testCtx(t, 10*time.Second), stream); err != nil {
		t.Fatal(err)
	}
	if after := c.lastSeqs(t, stream); !slices.Equal(before, after) {
		t.Errorf("last sequence per node %v, before the failed commit %v", after, before)
	}
	if got := scan(t, snapshot(t, b, "ann"), "facts", nil, nil, false); !slices.Equal(got, []string{"a=two"}) {
		t.Errorf("after the failed commit: %q", got)
	}
}

// Invalid input is refused before anything is published.
func testBadInput(t *testing.T, c *testCluster) {
	b := c.open(t, c.connect(t, ""), nil)
	stream := b.l.stream(0)
	commit(t, b, "ann", 0, put("facts", "a", "one"))
	if err := c.WaitStreamCurrent(testCtx(t, 10*time.Second), stream); err != nil {
		t.Fatal(err)
	}
	before := c.lastSeqs(t, stream)
	many := make([]kv.Op, kv.MaxOps+1)
	for i := range many {
		many[i] = put("facts", fmt.Sprint(i), "v")
	}
	for _, tc := range []struct {
		name string
		user string
		ops  []kv.Op
		want error
	}{
		{"user not UTF-8", "\xff\xfe", []kv.Op{put("facts", "a", "v")}, kv.ErrBadOp},
		{"long user", string(make([]byte, kv.MaxUser+1)), []kv.Op{put("facts", "a", "v")}, kv.ErrBadOp},
		{"too many writes", "ann", many, kv.ErrTooLarge},
		{"bad bucket", "ann", []kv.Op{put("facts", "a", "v"), put("Facts.x", "a", "v")}, kv.ErrBadOp},
		{"empty key", "ann", []kv.Op{put("facts", "", "v")}, kv.ErrBadOp},
		{"delete with a value", "ann", []kv.Op{{Bucket: "facts", Key: []byte("a"), Value: []byte("v"), Delete: true}}, kv.ErrBadOp},
		{"long value", "ann", []kv.Op{{Bucket: "facts", Key: []byte("a"), Value: make([]byte, kv.MaxValueLen+1)}}, kv.ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := b.Commit(testCtx(t, 5*time.Second), tc.user, 1, tc.ops); !errors.Is(err, tc.want) {
				t.Errorf("commit: %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := b.Snapshot(testCtx(t, 5*time.Second), "\xff"); !errors.Is(err, kv.ErrBadOp) {
		t.Errorf("snapshot of a bad user: %v", err)
	}
	if err := b.Erase(testCtx(t, 5*time.Second), "\xff"); !errors.Is(err, kv.ErrBadOp) {
		t.Errorf("erase of a bad user: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	if err := c.WaitStreamCurrent(testCtx(t, 10*time.Second), stream); err != nil {
		t.Fatal(err)
	}
	if after := c.lastSeqs(t, stream); !slices.Equal(before, after) {
		t.Errorf("last sequence per node %v, before the refused commits %v", after, before)
	}
}
