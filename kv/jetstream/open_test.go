package jetstream

import (
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Open refuses a stream it did not make, or one of another format, and
// writes nothing to it.
func testOpenRefuses(t *testing.T, c *testCluster) {
	nc := c.connect(t, "")
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(*jetstream.StreamConfig)
		marker string // written before Open, when set
		want   string
	}{
		{name: "compression", change: func(c *jetstream.StreamConfig) { c.Compression = jetstream.S2Compression }, want: "compression"},
		{name: "one replica", change: func(c *jetstream.StreamConfig) { c.Replicas = 1 }, want: "replicas"},
		{name: "history limit", change: func(c *jetstream.StreamConfig) { c.MaxMsgsPerSubject = 1 }, want: "limits"},
		{name: "memory storage", change: func(c *jetstream.StreamConfig) { c.Storage = jetstream.MemoryStorage }, want: "storage"},
		{name: "no atomic publish", change: func(c *jetstream.StreamConfig) { c.AllowAtomicPublish = false }, want: "atomic"},
		{name: "another format", marker: "palimpsest-kv-jetstream 99", want: "format"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := "r" + strings.ReplaceAll(tc.name, " ", "")
			b := &Backend{l: layout{prefix: prefix, shards: 1}}
			cfg := b.streamConfig(0, 3)
			if tc.change != nil {
				tc.change(&cfg)
			}
			ctx := testCtx(t, 20*time.Second)
			st, err := js.CreateStream(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if tc.marker != "" {
				if _, err := js.Publish(ctx, b.l.format(0), []byte(tc.marker)); err != nil {
					t.Fatal(err)
				}
			}
			before, err := st.Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Open(ctx, nc, &Options{Prefix: prefix, Cluster: c.Cluster})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open: %v, want an error about %s", err, tc.want)
			}
			after, err := st.Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if after.State.Msgs != before.State.Msgs || after.State.LastSeq != before.State.LastSeq {
				t.Errorf("a refused Open wrote: %d messages, last %d; before %d, %d",
					after.State.Msgs, after.State.LastSeq, before.State.Msgs, before.State.LastSeq)
			}
		})
	}
	// More replicas than nodes: refused, not waited for.
	start := time.Now()
	if _, err := Open(testCtx(t, 30*time.Second), nc, &Options{Prefix: "rfive", Replicas: 5, Timeout: 500 * time.Millisecond}); err == nil {
		t.Error("Open of 5 replicas on 3 nodes")
	} else if time.Since(start) > 10*time.Second {
		t.Errorf("Open of 5 replicas on 3 nodes refused after %v", time.Since(start))
	}
	// A second Open of a store it made is fine; with another number of
	// shards, refused.
	b := c.open(t, nc, nil)
	if _, err := Open(testCtx(t, 10*time.Second), nc, &Options{Prefix: b.l.prefix}); err != nil {
		t.Errorf("reopen: %v", err)
	}
	if _, err := Open(testCtx(t, 10*time.Second), nc, &Options{Prefix: b.l.prefix, Shards: 2}); err == nil || !strings.Contains(err.Error(), "1 shards") {
		t.Errorf("reopen with 2 shards: %v", err)
	}
}
