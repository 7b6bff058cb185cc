package jetstream

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// A whole cluster stopped and started again on the same directories (new
// ports) serves what it held.
func TestClusterRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := testCtx(t, 60*time.Second)
	c, err := StartCluster(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tc := &testCluster{Cluster: c}
	b := tc.open(t, tc.connect(t, ""), &Options{Prefix: "mem"})
	rev := commit(t, b, "ann", 0, put("facts", "a", "kept across a restart"))
	stop := time.Now()
	c.Close()
	t.Logf("stopped in %v", time.Since(stop))

	ports, err := freePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	c2, err := StartCluster(ctx, dir, &ClusterOptions{ClientPorts: ports[:3], RoutePorts: ports[3:]})
	t.Logf("restarted in %v", time.Since(start))
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if want := fmt.Sprintf("nats://127.0.0.1:%d", ports[1]); c2.NodeURL(1) != want {
		t.Errorf("node 1 at %s, want %s", c2.NodeURL(1), want)
	}
	tc2 := &testCluster{Cluster: c2}
	b2 := tc2.open(t, tc2.connect(t, ""), &Options{Prefix: "mem"})
	s := snapshot(t, b2, "ann")
	t.Logf("first snapshot %v after the start", time.Since(start))
	if s.Rev() != rev || string(s.Get("facts", []byte("a"))) != "kept across a restart" {
		t.Errorf("after the restart: rev %d (want %d), %q", s.Rev(), rev, s.Get("facts", []byte("a")))
	}
}

// The largest commit the limits allow goes through as one batch.
func testLargestCommit(t *testing.T, c *testCluster) {
	b := c.newBackend(t)
	var ops []kv.Op
	for i := range kv.MaxCommit / kv.MaxValueLen {
		ops = append(ops, kv.Op{Bucket: "blobs", Key: []byte(fmt.Sprint(i)), Value: bytes.Repeat([]byte{byte('a' + i)}, kv.MaxValueLen)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	rev, err := b.Commit(ctx, "ann", 0, ops)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a commit of %d MiB: %v", kv.MaxCommit>>20, time.Since(start))
	// Read afresh, not from the writer's view.
	s := snapshot(t, c.open(t, c.connect(t, ""), &Options{Prefix: b.(*Backend).l.prefix}), "ann")
	if s.Rev() != rev || !bytes.Equal(s.Get("blobs", []byte("3")), ops[3].Value) {
		t.Errorf("rev %d (want %d), value 3 of %d bytes", s.Rev(), rev, len(s.Get("blobs", []byte("3"))))
	}
}
