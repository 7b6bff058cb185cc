package jetstream

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// minNeedle is the shortest value Erase looks for in the nodes' files: a
// shorter one is found by chance in any file. The memory layer's values
// that hold text (records, logs, decisions) are longer; the shorter ones
// are counters and flags, the same bytes for every user (an 8-byte
// counter at 1 is in every block).
const minNeedle = 16

// Erase makes every version of user's keys that is not the latest
// unrecoverable, and deleted keys altogether (their tombstones too):
//
//  1. every node must be up, or nothing is done: a node that misses the
//     deletes and later catches up from a raft snapshot keeps the bytes
//     (measured), so deleting with a node down would make the erase
//     unprovable on it;
//  2. each such message is deleted with a secure delete (its bytes in the
//     stream's blocks overwritten on every replica);
//  3. every replica must be current, a raft snapshot is forced on every
//     node (the raft log still holds each message as written), and the
//     compacted log directories must be gone;
//  4. every node's files are scanned for the deleted values (those of
//     minNeedle bytes or more, and not also a value the user still has):
//     found anywhere, the snapshot is retried (writes that keep coming
//     keep the log's last block, which holds them, measured), three
//     times, and then the erase is pending.
//
// The scan reads every file of every node, so its cost grows with the
// store; a deleted value that another user also holds is found and keeps
// the erase pending (a false alarm, never a false all-clear).
//
// Each step that cannot be done returns an error wrapping
// kv.ErrErasePending; a later Erase completes it. The values still to be
// looked for are kept in the Backend only: a new Backend (a restart) only
// scans for what its own Erase deletes.
//
// Not automated: a node that went down after step 1 and rejoins from a
// raft snapshot (the leader compacted its log meanwhile, which JetStream
// also does by itself after a while) keeps the deleted bytes in its
// blocks. The scan finds them while this Backend remembers the values and
// the erase stays pending, naming the node's file; Cluster.RebuildStream
// then replaces the node's replica by a copy of the others', and the next
// Erase completes. A node that rejoined after the values were forgotten
// (another Backend) is not detected: verify or rebuild every node that
// was down during an erase.
func (b *Backend) Erase(ctx context.Context, user string) error {
	if err := kv.CheckUser(user); err != nil {
		return err
	}
	// Pending from now until proven, whatever stops it below.
	b.remember(user, nil)
	if down, err := b.nodes.down(ctx); err != nil || len(down) > 0 {
		if err == nil {
			err = fmt.Errorf("nodes %v are down", down)
		}
		return fmt.Errorf("jetstream: erase of user %q: %w: %v", user, kv.ErrErasePending, err)
	}
	stream := b.l.stream(b.l.shard(user))
	h, err := b.head(ctx, user)
	if err != nil {
		return err
	}
	var gone [][]byte
	var kept [][]byte
	if h != nil {
		latest, err := b.keysAt(ctx, user, h.seq)
		if err != nil {
			return err
		}
		keep := map[string]uint64{}
		for _, m := range latest {
			if m.subject != b.l.head(user) && !tombstone(m) {
				keep[m.subject] = m.seq
				kept = append(kept, m.data)
			}
		}
		if gone, err = b.deleteOld(ctx, stream, user, h.seq, keep); err != nil {
			b.remember(user, gone)
			return err
		}
	}
	needles := b.remember(user, gone)
	needles = slices.DeleteFunc(needles, func(n []byte) bool {
		return slices.ContainsFunc(kept, func(k []byte) bool { return bytes.Equal(k, n) })
	})
	if err := b.provable(ctx, user, stream, needles); err != nil {
		return err
	}
	b.mu.Lock()
	delete(b.pending, user)
	b.mu.Unlock()
	return nil
}

// deleteOld securely deletes every message of user's keys up to rev that
// keep does not name, and returns the values it deleted. The messages are
// listed by a walk through Direct Get, taken only when it reaches the
// head at rev (so it saw every message up to it); a replica that lags on
// deletes may list a message already gone, whose delete is then a no-op.
func (b *Backend) deleteOld(ctx context.Context, stream, user string, rev uint64, keep map[string]uint64) ([][]byte, error) {
	var all []stored
	wait := time.Millisecond
	for {
		all = all[:0]
		err := b.walk(ctx, stream, b.l.userPrefix(user)+".>", rev, func(m stored) { all = append(all, m) })
		if err != nil {
			return nil, fmt.Errorf("jetstream: erase of user %q: %w", user, err)
		}
		if slices.ContainsFunc(all, func(m stored) bool { return m.subject == b.l.head(user) && m.seq == rev }) {
			break
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("jetstream: erase of user %q: no replica caught up: %w", user, err)
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
	var gone [][]byte
	for _, m := range all {
		if m.subject == b.l.head(user) || keep[m.subject] == m.seq {
			continue
		}
		err := b.retry(ctx, func(ctx context.Context) error { return secureDelete(ctx, b.nc, stream, m.seq) })
		if err != nil {
			return gone, fmt.Errorf("jetstream: erase of user %q: %w", user, err)
		}
		if len(m.data) >= minNeedle {
			gone = append(gone, m.data)
		}
	}
	return gone, nil
}

// remember adds values to those pending for user and returns them all.
func (b *Backend) remember(user string, values [][]byte) [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending[user] = append(b.pending[user], values...)
	return slices.Clone(b.pending[user])
}

// provable does steps 3 and 4 of Erase, on the nodes.
func (b *Backend) provable(ctx context.Context, user, stream string, needles [][]byte) error {
	if err := b.nodes.prove(ctx, stream, needles); err != nil {
		return fmt.Errorf("jetstream: erase of user %q: %w: %v", user, kv.ErrErasePending, err)
	}
	return nil
}

// Prove does what an erase needs of the nodes once the deleted messages
// are securely deleted: every replica current, a raft snapshot forced on
// every node, the compacted logs gone, and no file of the stream on any
// node holding one of needles. Writes after the snapshot keep a log block
// alive, so it tries three times. It is the nodes' side of Erase: a
// Backend of this process calls it, one of another through the agent
// (ServeAgent).
func (c *Cluster) Prove(ctx context.Context, stream string, needles [][]byte, timeout time.Duration) error {
	var hits []Hit
	for range 3 {
		if down := c.Down(); len(down) > 0 {
			return fmt.Errorf("nodes %v are down", down)
		}
		wctx, cancel := context.WithTimeout(ctx, 4*timeout)
		err := c.WaitStreamCurrent(wctx, stream)
		cancel()
		if err != nil {
			return err
		}
		if err := c.SnapshotStream(stream); err != nil {
			return err
		}
		wctx, cancel = context.WithTimeout(ctx, 4*timeout)
		err = c.WaitWALPurged(wctx)
		cancel()
		if err != nil {
			return err
		}
		if len(needles) == 0 {
			return nil
		}
		if hits, err = c.GrepStream(stream, needles); err != nil {
			return fmt.Errorf("scan of the nodes' files: %w", err)
		}
		if len(hits) == 0 {
			return nil
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("deleted values still in %v", hits)
}

// PendingErases lists the users whose erase this Backend could not prove
// yet (kv.PendingEraser), in byte order: a later Erase of each completes
// it.
func (b *Backend) PendingErases() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Sorted(maps.Keys(b.pending))
}
