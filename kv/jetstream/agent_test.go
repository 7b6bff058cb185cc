package jetstream

import (
	"errors"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// A Backend of another process than the nodes' erases through the agent
// that process serves, and the text is then in no file of any node; with
// no agent, the erase is pending and says why.
func TestEraseThroughTheAgent(t *testing.T) {
	c := startCluster(t)
	ctx := testCtx(t, time.Minute)
	stop, err := c.ServeAgent("agt", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	b := c.open(t, c.connect(t, ""), &Options{Prefix: "agt", Cluster: nil})
	b.nodes = agentNodes{nc: b.nc, subject: agentSubject("agt"), timeout: b.timeout} // as in a process without the nodes
	const secret = "my-passport-number-X1234567-through-the-agent"
	rev, err := b.Commit(ctx, "ada", 0, []kv.Op{{Bucket: "facts", Key: []byte("1"), Value: []byte(secret)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commit(ctx, "ada", rev, []kv.Op{{Bucket: "facts", Key: []byte("1"), Delete: true}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Erase(ctx, "ada"); err != nil {
		t.Fatalf("Erase through the agent: %v", err)
	}
	if hits, err := c.Grep([][]byte{[]byte(secret)}); err != nil || len(hits) > 0 {
		t.Fatalf("after the erase the text is in %v (%v)", hits, err)
	}

	lone := c.open(t, c.connect(t, ""), &Options{Prefix: "lone"})
	lone.nodes = agentNodes{nc: lone.nc, subject: agentSubject("lone"), timeout: lone.timeout}
	if err := lone.Erase(ctx, "ada"); !errors.Is(err, kv.ErrErasePending) {
		t.Fatalf("Erase with no agent: %v, want ErrErasePending", err)
	}
	if got := lone.PendingErases(); len(got) != 1 || got[0] != "ada" {
		t.Fatalf("PendingErases = %q", got)
	}
}
