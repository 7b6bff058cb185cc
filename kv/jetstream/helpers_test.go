package jetstream

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/palimpsest-mem/memory/kv"
)

// testCluster is one 3-node cluster that a test's subtests share, each
// with backends of their own prefix.
type testCluster struct {
	*Cluster
	prefixes atomic.Int64
}

func startCluster(t testing.TB) *testCluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := StartCluster(ctx, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &testCluster{Cluster: c}
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// connect dials url (the whole cluster when empty), with reconnects.
func (c *testCluster) connect(t testing.TB, url string) *nats.Conn {
	t.Helper()
	if url == "" {
		url = c.ClientURL()
	}
	return connectTo(t, url)
}

// connectTo dials url (a list of nodes, to fail over), with reconnects.
func connectTo(t testing.TB, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url,
		nats.MaxReconnects(-1),
		nats.ReconnectWait(20*time.Millisecond),
		nats.ReconnectJitter(10*time.Millisecond, 10*time.Millisecond),
		nats.Timeout(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// open opens a backend on streams of a prefix no other backend of the
// test uses; opts may be nil.
func (c *testCluster) open(t testing.TB, nc *nats.Conn, opts *Options) *Backend {
	t.Helper()
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Prefix == "" {
		o.Prefix = fmt.Sprintf("t%d", c.prefixes.Add(1))
	}
	if o.Cluster == nil {
		o.Cluster = c.Cluster
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Second
	}
	b, err := Open(testCtx(t, 30*time.Second), nc, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// newBackend is a backend on streams of its own in c, as the
// conformance suite (conformance_test.go) and the other tests take one.
func (c *testCluster) newBackend(t testing.TB) kv.Backend {
	return c.open(t, c.connect(t, ""), nil)
}

// lastSeqs is the last sequence of stream on each node, as that node's
// replica holds it (0 when down).
func (c *testCluster) lastSeqs(t testing.TB, stream string) []uint64 {
	t.Helper()
	out := make([]uint64, c.Nodes())
	for i := range c.Nodes() {
		c.mu.Lock()
		s := c.nodes[i]
		c.mu.Unlock()
		if s == nil {
			continue
		}
		info, err := s.Jsz(&server.JSzOptions{Accounts: true, Streams: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range info.AccountDetails {
			for _, st := range a.Streams {
				if st.Name == stream {
					out[i] = st.State.LastSeq
				}
			}
		}
	}
	return out
}

func snapshot(t testing.TB, b kv.Backend, user string) kv.Snapshot {
	t.Helper()
	s, err := b.Snapshot(testCtx(t, 20*time.Second), user)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func commit(t testing.TB, b kv.Backend, user string, rev uint64, ops ...kv.Op) uint64 {
	t.Helper()
	r, err := b.Commit(testCtx(t, 20*time.Second), user, rev, ops)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func put(bucket, key, value string) kv.Op {
	return kv.Op{Bucket: bucket, Key: []byte(key), Value: []byte(value)}
}

func del(bucket, key string) kv.Op { return kv.Op{Bucket: bucket, Key: []byte(key), Delete: true} }

// scan lists key=value of bucket in [from, to).
func scan(t testing.TB, s kv.Snapshot, bucket string, from, to []byte, reverse bool) []string {
	t.Helper()
	var out []string
	err := s.Scan(bucket, from, to, reverse, func(k, v []byte) bool {
		out = append(out, string(k)+"="+string(v))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
