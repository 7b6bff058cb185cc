package jetstream

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Dial refuses what is not a cluster URL before it dials, fails within
// its context on a cluster that does not answer, and never repeats a
// password in its errors.
func TestDialRefuses(t *testing.T) {
	for _, c := range []struct{ name, addr, want string }{
		{"empty", "", "no cluster URL"},
		{"a path", "/var/lib/memory.db", "not a cluster URL"},
		{"http", "http://127.0.0.1:4222", "not a cluster URL"},
		{"no host", "nats://", "not a cluster URL"},
		{"one bad of two", "nats://127.0.0.1:4222,ftp://x", "not a cluster URL"},
		{"nobody there", "nats://ada:s3cret@127.0.0.1:1", "connecting to"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			b, err := Dial(ctx, c.addr, nil)
			if err == nil {
				b.Close()
				t.Fatal("Dial succeeded")
			}
			if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "s3cret") {
				t.Fatalf("Dial(%q): %v, want %q and no password", c.addr, err, c.want)
			}
		})
	}
}

// Dial's Backend works and closes its own connection.
func TestDialOpensAndCloses(t *testing.T) {
	c := startCluster(t)
	ctx := testCtx(t, 30*time.Second)
	b, err := Dial(ctx, c.ClientURL(), &Options{Prefix: "dial", Cluster: c.Cluster})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commit(ctx, "ada", 0, nil); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if !b.nc.IsClosed() {
		t.Fatal("Close left Dial's connection open")
	}
}
