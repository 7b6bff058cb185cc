package jetstream

import (
	"testing"
	"time"
)

const crashWriters = 8

// openOn opens a backend of prefix through url (one node, or all of them).
func openOn(t testing.TB, url, prefix string) *Backend {
	t.Helper()
	b, err := Open(testCtx(t, 30*time.Second), connectTo(t, url), &Options{Prefix: prefix, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// verifyEverywhere waits until the replicas agree, then checks the load
// through each node alone (a fresh backend, no cached views).
func verifyEverywhere(t *testing.T, c *procCluster, l *load, prefix, stream string) {
	t.Helper()
	st, err := c.waitStreamSame(testCtx(t, 30*time.Second), stream)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.n {
		applied := l.verify(t, openOn(t, c.url(i), prefix), nodeName(i))
		t.Logf("via %s: %d commits of unknown outcome applied, %d not", nodeName(i), applied, len(l.unknown)-applied)
	}
	t.Logf("every replica at %d messages, last sequence %d", st.Msgs, st.LastSeq)
	for _, err := range l.failures {
		t.Error(err)
	}
}

// The stream leader's process is SIGKILLed under 8 writers (own users and
// one they share): no acknowledged commit is lost, no snapshot ever shows
// half a commit, a commit of unknown outcome is whole or absent, through
// every node; and the history of snapshots and guarded commits across the
// crash is linearizable.
func TestCrashOfTheLeader(t *testing.T) {
	c := startProcCluster(t)
	const prefix = "crash"
	b := openOn(t, c.urls(), prefix)
	stream := b.l.stream(0)
	l := runLoad(t, b, crashWriters, true)
	ctx := testCtx(t, 60*time.Second)
	if err := l.waitAcks(ctx, 10*crashWriters); err != nil {
		t.Fatal(err)
	}
	leader, err := c.waitStreamLeader(ctx, stream, -1)
	if err != nil {
		t.Fatal(err)
	}
	// Mid-commit: the kill is to leave commits without an answer.
	if err := poll(ctx, func() bool { return l.committing.Load() > 0 }); err != nil {
		t.Fatal(err)
	}
	before := l.acks()
	killed, killedAt := time.Now(), l.now()
	c.kill(leader)
	next, err := c.waitStreamLeader(ctx, stream, leader)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("SIGKILL of leader %s after %d commits; %s leads after %v", nodeName(leader), before, nodeName(next), time.Since(killed).Round(time.Millisecond))
	// Past the commits in flight at the kill: acknowledged by the new leader.
	if err := l.waitAcks(ctx, 3*crashWriters); err != nil {
		t.Fatal(err)
	}
	t.Logf("commits acknowledged again %v after the kill", time.Since(killed).Round(time.Millisecond))
	if err := c.start(ctx, leader); err != nil {
		t.Fatal(err)
	}
	if err := l.waitAcks(ctx, 20*crashWriters); err != nil {
		t.Fatal(err)
	}
	l.finish()
	commits, acked := l.across(killedAt)
	t.Logf("%d commits in flight at the kill, %d of them acknowledged", commits, acked)
	verifyEverywhere(t, c, l, prefix, stream)
	l.check(t, 20*time.Second)
}

// A follower crashes (a minority of one): commits go on at the same
// guarantees, and the node, restarted on its store, catches up to the
// leader's last sequence and serves every acknowledged commit.
func TestFollowerCrashAndCatchUp(t *testing.T) {
	c := startProcCluster(t)
	const prefix = "minority"
	b := openOn(t, c.urls(), prefix)
	stream := b.l.stream(0)
	l := runLoad(t, b, crashWriters/2, false)
	ctx := testCtx(t, 60*time.Second)
	if err := l.waitAcks(ctx, 10*crashWriters); err != nil {
		t.Fatal(err)
	}
	leader, err := c.waitStreamLeader(ctx, stream, -1)
	if err != nil {
		t.Fatal(err)
	}
	follower := (leader + 1) % c.n
	behind, _, _ := c.replica(ctx, follower, stream)
	c.kill(follower)
	down := time.Now()
	if err := l.waitAcks(ctx, 20*crashWriters); err != nil {
		t.Fatal(err)
	}
	t.Logf("with %s down: %d commits in %v", nodeName(follower), 20*crashWriters, time.Since(down).Round(time.Millisecond))
	if err := c.start(ctx, follower); err != nil {
		t.Fatal(err)
	}
	if err := l.waitAcks(ctx, 5*crashWriters); err != nil {
		t.Fatal(err)
	}
	l.finish()
	lead, _, _ := c.replica(ctx, leader, stream)
	err = poll(ctx, func() bool {
		st, _, ok := c.replica(ctx, follower, stream)
		return ok && st.LastSeq == lead.LastSeq && st.Msgs == lead.Msgs
	})
	if err != nil {
		st, _, _ := c.replica(ctx, follower, stream)
		t.Fatalf("%s at %d, leader at %d: %v", nodeName(follower), st.LastSeq, lead.LastSeq, err)
	}
	t.Logf("%s caught up from sequence %d to %d", nodeName(follower), behind.LastSeq, lead.LastSeq)
	verifyEverywhere(t, c, l, prefix, stream)
	if l.stats.unknown > 0 || l.stats.conflicts > 0 {
		t.Errorf("a follower's crash left %d commits of unknown outcome and %d conflicts", l.stats.unknown, l.stats.conflicts)
	}
	l.check(t, 20*time.Second)
}
