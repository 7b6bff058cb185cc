package memory_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/kv/jetstream"
)

// A hard delete on a cluster keeps the promise of the file: once Delete
// returns, no file of any node holds the text. With a node down, the
// delete is done for every reader at once but its erase is pending: Delete
// and Check say so; once the node is back, Check completes it, and then no
// node's files hold the text either.
func TestClusterDeleteLeavesNoCopyOnAnyNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := jetstream.StartCluster(ctx, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	nc, err := nats.Connect(c.ClientURL(), nats.MaxReconnects(-1), nats.ReconnectWait(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	b, err := jetstream.Open(ctx, nc, &jetstream.Options{Cluster: c})
	if err != nil {
		t.Fatal(err)
	}
	s, err := memory.OpenBackend(b, filepath.Join(t.TempDir(), "index"), &memory.Options{Clock: newClock("2026-03-01").Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	grep := func(text string) []jetstream.Hit {
		t.Helper()
		hits, err := c.Grep([][]byte{[]byte(text)})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}

	const first = "My passport number is X1234567-first"
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "ada", Text: first}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "ada", Text: "I live in Lyon."}))
	if len(grep(first)) == 0 {
		t.Fatal("the text is in no node's files before the delete: the scan finds nothing")
	}
	if _, err := s.Delete(ctx, "ada", f.ID, nil); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if hits := grep(first); len(hits) > 0 {
		t.Fatalf("after Delete the text is still in %v", hits)
	}
	checkClean(t, s)

	const second = "My passport number is Y7654321-second"
	g := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: "ada", Text: second}))
	c.Stop(2)
	if _, err := s.Delete(ctx, "ada", g.ID, nil); !errors.Is(err, memory.ErrErasePending) {
		t.Fatalf("Delete with a node down: %v, want ErrErasePending", err)
	}
	if _, err := s.Get(ctx, "ada", g.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Fatalf("the deleted fact still reads: %v", err)
	}
	if err := s.Check(ctx); !errors.Is(err, memory.ErrErasePending) {
		t.Fatalf("Check with the erase pending: %v", err)
	}
	if err := c.Restart(ctx, 2); err != nil {
		t.Fatal(err)
	}
	// The node catches up, then the erase can be proven: polled until the
	// test's own deadline, however slow the machine.
	var checked error
	for {
		if checked = s.Check(ctx); checked == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if checked != nil {
		t.Fatalf("Check after the node is back: %v", checked)
	}
	if hits := grep(second); len(hits) > 0 {
		t.Fatalf("after the erase completed the text is still in %v", hits)
	}
	if got := allFacts(t, s, "ada"); len(got) != 1 || got[0].Text != "I live in Lyon." {
		t.Fatalf("ada's facts after both deletes: %+v", got)
	}
}
