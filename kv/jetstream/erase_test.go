package jetstream

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// grep lists the files of every node (up or down) that hold text.
func grep(t *testing.T, c *testCluster, text string) []Hit {
	t.Helper()
	hits, err := c.Grep([][]byte{[]byte(text)})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

// An erase leaves no file of any node holding an overwritten or deleted
// value, and keeps the latest values; with a node down it is pending, and
// completes once the node is back.
func TestErase(t *testing.T) {
	c := startCluster(t)
	b := c.open(t, c.connect(t, ""), nil)
	const (
		old     = "zz-secret-overwritten-5417"
		deleted = "zz-secret-deleted-8830"
		latest  = "zz-kept-latest-value-2291"
	)
	r := commit(t, b, "ann", 0, put("facts", "a", old), put("facts", "b", deleted), put("facts", "c", "short"))
	r = commit(t, b, "ann", r, put("facts", "a", latest), put("facts", "c", "short2"))
	r = commit(t, b, "ann", r, del("facts", "b"))
	commit(t, b, "bob", 0, put("facts", "a", "bob's-own-value-1234"))
	if err := c.WaitStreamCurrent(testCtx(t, 10*time.Second), b.l.stream(0)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{old, deleted, latest} {
		if len(grep(t, c, s)) == 0 {
			t.Fatalf("%s is in no file before the erase: the scan proves nothing", s)
		}
	}
	start := time.Now()
	if err := b.Erase(testCtx(t, 30*time.Second), "ann"); err != nil {
		t.Fatal(err)
	}
	t.Logf("erase took %v", time.Since(start))
	for _, s := range []string{old, deleted} {
		if hits := grep(t, c, s); len(hits) > 0 {
			t.Errorf("%s still in %v", s, hits)
		}
	}
	s := snapshot(t, b, "ann")
	if got := scan(t, s, "facts", nil, nil, false); !slices.Equal(got, []string{"a=" + latest, "c=short2"}) || s.Rev() != r {
		t.Errorf("after the erase: rev %d (want %d), %q", s.Rev(), r, got)
	}
	if got := snapshot(t, b, "bob").Get("facts", []byte("a")); string(got) != "bob's-own-value-1234" {
		t.Errorf("bob after ann's erase: %q", got)
	}
	// Commits go on at the same revision.
	r = commit(t, b, "ann", r, put("facts", "d", "after"))

	t.Run("NodeDown", func(t *testing.T) {
		const secret = "zz-secret-while-down-6612"
		r2 := commit(t, b, "ann", r, put("facts", "e", secret))
		commit(t, b, "ann", r2, put("facts", "e", "replaced"))
		if err := c.WaitStreamCurrent(testCtx(t, 10*time.Second), b.l.stream(0)); err != nil {
			t.Fatal(err)
		}
		down := (c.StreamLeader(b.l.stream(0)) + 1) % c.Nodes()
		c.Stop(down)
		err := b.Erase(testCtx(t, 10*time.Second), "ann")
		if !errors.Is(err, kv.ErrErasePending) || !strings.Contains(err.Error(), c.NodeName(down)) {
			t.Fatalf("erase with %s down: %v, want pending naming it", c.NodeName(down), err)
		}
		if len(grep(t, c, secret)) == 0 {
			t.Fatal("the value is gone though the erase was refused")
		}
		if err := c.Start(testCtx(t, 20*time.Second), down); err != nil {
			t.Fatal(err)
		}
		if err := c.WaitStreamCurrent(testCtx(t, 20*time.Second), b.l.stream(0)); err != nil {
			t.Fatal(err)
		}
		if err := b.Erase(testCtx(t, 30*time.Second), "ann"); err != nil {
			t.Fatal(err)
		}
		if hits := grep(t, c, secret); len(hits) > 0 {
			t.Errorf("%s still in %v", secret, hits)
		}
	})

	// The known gap: a node down while the deletes happen (it went down
	// after Erase checked), and the leader's log compacted meanwhile,
	// catches up from a raft snapshot and keeps the deleted bytes. Erase
	// finds them while this Backend remembers the values, and stays
	// pending: the node must be rebuilt, which is not automated yet.
	t.Run("RejoinedFromSnapshot", func(t *testing.T) {
		const secret = "zz-secret-rejoined-3307"
		stream := b.l.stream(0)
		h, err := b.head(testCtx(t, 5*time.Second), "ann")
		if err != nil {
			t.Fatal(err)
		}
		r3 := commit(t, b, "ann", h.seq, put("facts", "f", secret))
		r3 = commit(t, b, "ann", r3, put("facts", "f", "replaced"))
		if err := c.WaitStreamCurrent(testCtx(t, 10*time.Second), stream); err != nil {
			t.Fatal(err)
		}
		down := (c.StreamLeader(stream) + 1) % c.Nodes()
		c.Stop(down)
		// What Erase does once past its check, with the node gone.
		last, err := b.keysAt(testCtx(t, 10*time.Second), "ann", r3)
		if err != nil {
			t.Fatal(err)
		}
		keep := map[string]uint64{}
		for _, m := range last {
			if m.subject != b.l.head("ann") && !tombstone(m) {
				keep[m.subject] = m.seq
			}
		}
		gone, err := b.deleteOld(testCtx(t, 10*time.Second), stream, "ann", r3, keep)
		if err != nil {
			t.Fatal(err)
		}
		b.remember("ann", gone)
		c.SnapshotStream(stream) // the live nodes compact their logs; the down one is named
		if err := c.Start(testCtx(t, 20*time.Second), down); err != nil {
			t.Fatal(err)
		}
		if err := c.WaitStreamCurrent(testCtx(t, 20*time.Second), stream); err != nil {
			t.Fatal(err)
		}
		err = b.Erase(testCtx(t, 30*time.Second), "ann")
		hits := grep(t, c, secret)
		t.Logf("after the rejoin: erase %v; %s in %v", err, secret, hits)
		onDown := slices.ContainsFunc(hits, func(h Hit) bool { return h.Node == c.NodeName(down) })
		onOthers := slices.ContainsFunc(hits, func(h Hit) bool { return h.Node != c.NodeName(down) })
		switch {
		case onOthers:
			t.Errorf("the value is on nodes that were up: %v", hits)
		case onDown && !errors.Is(err, kv.ErrErasePending):
			t.Errorf("the rejoined node holds the value but Erase says %v", err)
		case !onDown && err != nil:
			t.Errorf("no node holds the value but Erase says %v", err)
		case !onDown:
			t.Log("the rejoined node no longer holds the value: the known gap did not show")
		}
		if !onDown {
			return
		}
		// Rebuilt from the others, the node holds the value no more, and
		// the erase completes.
		if err := c.RebuildStream(testCtx(t, 30*time.Second), down, stream); err != nil {
			t.Fatal(err)
		}
		if err := b.Erase(testCtx(t, 30*time.Second), "ann"); err != nil {
			t.Errorf("erase after the rebuild: %v", err)
		}
		if hits := grep(t, c, secret); len(hits) > 0 {
			t.Errorf("after the rebuild %s is still in %v", secret, hits)
		}
		if s := snapshot(t, b, "ann"); s.Rev() != r3 || string(s.Get("facts", []byte("f"))) != "replaced" {
			t.Errorf("after the rebuild: rev %d (want %d), f=%q", s.Rev(), r3, s.Get("facts", []byte("f")))
		}
		c.Stop((down + 1) % c.Nodes()) // the rebuilt node serves with one other
		defer c.Start(testCtx(t, 20*time.Second), (down+1)%c.Nodes())
		if _, err := c.WaitStreamLeader(testCtx(t, 20*time.Second), stream, -1); err != nil {
			t.Fatal(err)
		}
		if s := snapshot(t, b, "ann"); s.Rev() != r3 || string(s.Get("facts", []byte("a"))) != latest {
			t.Errorf("served with the rebuilt node: rev %d (want %d), a=%q", s.Rev(), r3, s.Get("facts", []byte("a")))
		}
	})

	t.Run("NoCluster", func(t *testing.T) {
		nb, err := Open(testCtx(t, 10*time.Second), c.connect(t, ""), &Options{Prefix: b.l.prefix})
		if err != nil {
			t.Fatal(err)
		}
		if err := nb.Erase(testCtx(t, 10*time.Second), "ann"); !errors.Is(err, kv.ErrErasePending) {
			t.Errorf("erase without the nodes: %v", err)
		}
	})
}
