package jetstream

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/palimpsest-mem/memory/kv"
)

// A commit whose ack is lost is resolved by reading the head, never by
// applying twice.
func TestCommitUnknownOutcome(t *testing.T) {
	c := startCluster(t)
	nc := c.connect(t, "")
	other := c.open(t, nc, nil)
	for _, tc := range []struct {
		name string
		// first stands for the first send: it may publish, and then
		// reports a timeout.
		first   func(ctx context.Context, nc *nats.Conn, writes []write, rev uint64) error
		wantErr error
		want    string // the value of facts/a after the commit
	}{
		{name: "applied, ack lost", want: "mine",
			first: func(ctx context.Context, nc *nats.Conn, writes []write, _ uint64) error {
				_, err := publishBatch(ctx, nc, writes)
				return err
			}},
		{name: "never arrived", want: "mine",
			first: func(context.Context, *nats.Conn, []write, uint64) error { return nil }},
		{name: "applied, then another commit on top", want: "theirs",
			first: func(ctx context.Context, nc *nats.Conn, writes []write, _ uint64) error {
				seq, err := publishBatch(ctx, nc, writes)
				if err != nil {
					return err
				}
				_, err = other.Commit(ctx, "ann", seq, []kv.Op{put("facts", "a", "theirs")})
				return err
			}},
		{name: "another commit came first", wantErr: kv.ErrConflict, want: "theirs",
			first: func(ctx context.Context, nc *nats.Conn, _ []write, rev uint64) error {
				_, err := other.Commit(ctx, "ann", rev, []kv.Op{put("facts", "a", "theirs")})
				return err
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := c.open(t, nc, &Options{Prefix: other.l.prefix})
			rev := snapshot(t, b, "ann").Rev()
			sends := 0
			b.publish = func(ctx context.Context, nc *nats.Conn, writes []write) (uint64, error) {
				sends++
				if sends > 1 {
					return publishBatch(ctx, nc, writes)
				}
				if err := tc.first(ctx, nc, writes, rev); err != nil {
					return 0, fmt.Errorf("the first send: %v", err)
				}
				return 0, nats.ErrTimeout
			}
			got, err := b.Commit(testCtx(t, 20*time.Second), "ann", rev, []kv.Op{put("facts", "a", "mine"), put("facts", "n", fmt.Sprint(rev))})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("commit: %v, want %v", err, tc.wantErr)
			}
			s := snapshot(t, b, "ann")
			if v := string(s.Get("facts", []byte("a"))); v != tc.want {
				t.Errorf("facts/a = %q, want %q", v, tc.want)
			}
			if tc.wantErr == nil && got <= rev {
				t.Errorf("revision %d after %d", got, rev)
			}
			// Applied once at most: the head moved by one commit of ours.
			heads := headsAfter(t, b, "ann", rev)
			mine := 0
			for _, h := range heads {
				if h.seq == got {
					mine++
				}
			}
			if tc.wantErr == nil && mine != 1 {
				t.Errorf("commit at %d, heads after %d: %v", got, rev, heads)
			}
		})
	}
	// Sends that never get an answer, until the context ends: the head
	// still at rev says nothing landed yet, but one in flight still may,
	// so the outcome is unknown.
	b := c.open(t, nc, &Options{Prefix: other.l.prefix, Timeout: 100 * time.Millisecond})
	b.publish = func(ctx context.Context, nc *nats.Conn, writes []write) (uint64, error) {
		<-ctx.Done()
		return 0, nats.ErrTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := b.Commit(ctx, "bob", 0, []kv.Op{put("facts", "a", "x")}); !errors.Is(err, kv.ErrUnknownOutcome) {
		t.Errorf("unresolved commit: %v, want unknown outcome", err)
	}
}

// headsAfter lists the head messages of user after rev, from the leader.
func headsAfter(t *testing.T, b *Backend, user string, rev uint64) []stored {
	t.Helper()
	var out []stored
	stream := b.l.stream(b.l.shard(user))
	for seq := rev + 1; ; {
		m, err := b.leaderGet(testCtx(t, 5*time.Second), stream, msgGetRequest{Seq: seq, NextFor: b.l.head(user)})
		if errors.Is(err, errNoMsg) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, *m)
		seq = m.seq + 1
	}
}
