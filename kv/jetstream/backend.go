package jetstream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/palimpsest-mem/memory/kv"
)

// Defaults of Options.
const (
	defaultPrefix  = "mem"
	defaultTimeout = 5 * time.Second
)

// Options of a Backend. The zero value of a field is its default.
type Options struct {
	// Prefix names the streams (PREFIX-0, PREFIX-1, …) and begins their
	// subjects: 1 to 32 of [a-z0-9]. Default "mem".
	Prefix string
	// Shards is the number of streams users are spread over by a hash of
	// their name: for throughput (one leader per stream), not atomicity,
	// which is per user. Default 1. Changing it moves users: a store keeps
	// the number it was made with.
	Shards int
	// Replicas of each stream. Default 3.
	Replicas int
	// Timeout bounds one request to the cluster; a call retries within its
	// context. Default 5 s.
	Timeout time.Duration
	// Cluster, when the nodes are embedded in this process, lets Erase
	// force raft snapshots and check every node's files. Without it Erase
	// asks the agent of the process that runs them (Cluster.ServeAgent);
	// with neither, it returns an error wrapping kv.ErrErasePending.
	Cluster *Cluster
	// Credentials is a NATS credentials file, for Dial.
	Credentials string
}

// Backend is kv.Backend on JetStream streams (see subjects.go for the
// layout). It holds no lock across calls: users never wait on each other.
type Backend struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	l       layout
	timeout time.Duration
	// nodes are what an erase asks of the nodes: cluster's, or the agent's
	// of the process that runs them.
	nodes nodesOf
	// publish sends a commit's batch: publishBatch, or in tests one that
	// loses acks.
	publish func(ctx context.Context, nc *nats.Conn, writes []write) (uint64, error)

	views viewCache
	// walkBatch is how many messages a walk asks for at once: maxBatch,
	// fewer in tests.
	walkBatch int
	// ownConn: Dial made nc, and Close closes it.
	ownConn bool

	mu sync.Mutex
	// pending holds, per user, the values an Erase deleted but could not
	// yet prove gone from every file, for the next Erase to look for.
	pending map[string][][]byte
}

var (
	_ kv.Backend   = (*Backend)(nil)
	_ kv.RevReader = (*Backend)(nil)
)

// Open checks, or on first use creates, the streams and their format
// markers. A stream whose settings or format differ is refused, and then
// nothing is written. The connection stays the caller's: Close leaves it
// open.
func Open(ctx context.Context, nc *nats.Conn, opts *Options) (*Backend, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Prefix == "" {
		o.Prefix = defaultPrefix
	}
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Replicas == 0 {
		o.Replicas = 3
	}
	if o.Timeout == 0 {
		o.Timeout = defaultTimeout
	}
	if !validPrefix(o.Prefix) {
		return nil, fmt.Errorf("jetstream: prefix %q is not 1 to 32 of [a-z0-9]", o.Prefix)
	}
	if o.Shards < 1 || o.Shards > 1024 || o.Replicas < 1 || o.Replicas > 5 || o.Timeout < 0 {
		return nil, fmt.Errorf("jetstream: %d shards, %d replicas, timeout %v", o.Shards, o.Replicas, o.Timeout)
	}
	// A value of kv.MaxValueLen goes in one message with its headers.
	if mp := nc.MaxPayload(); mp < kv.MaxValueLen+64<<10 {
		return nil, fmt.Errorf("jetstream: the server's max_payload is %d bytes, a value needs %d", mp, kv.MaxValueLen+64<<10)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	b := &Backend{nc: nc, js: js, l: layout{prefix: o.Prefix, shards: o.Shards},
		timeout: o.Timeout, publish: publishBatch, pending: map[string][][]byte{}, walkBatch: maxBatch,
		nodes: agentNodes{nc: nc, subject: agentSubject(o.Prefix), timeout: o.Timeout},
		views: viewCache{max: 1024, views: map[string]kv.Snapshot{}}}
	if o.Cluster != nil {
		b.nodes = localNodes{c: o.Cluster, timeout: o.Timeout}
	}
	// Every existing stream is checked before anything is created or
	// written, so a refused store is left as it was.
	exists := make([]bool, o.Shards)
	for s := range o.Shards {
		ok, err := b.checkStream(ctx, s, o.Replicas)
		if err != nil {
			return nil, err
		}
		exists[s] = ok
	}
	for s := range o.Shards {
		if !exists[s] {
			if err := b.createStream(ctx, s, o.Replicas); err != nil {
				return nil, err
			}
		}
		if err := b.markFormat(ctx, s); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func validPrefix(p string) bool {
	if len(p) == 0 || len(p) > 32 {
		return false
	}
	for i := range len(p) {
		if c := p[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// streamConfig is the only configuration the backend uses: file storage,
// atomic batches, Direct Get for reads, every version of every subject
// kept (so that each can be found and securely erased), no limits that
// would drop a message, no compression (a scan must see the bytes).
func (b *Backend) streamConfig(shard, replicas int) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:               b.l.stream(shard),
		Subjects:           []string{b.l.shardSubjects(shard)},
		Storage:            jetstream.FileStorage,
		Replicas:           replicas,
		Retention:          jetstream.LimitsPolicy,
		Discard:            jetstream.DiscardNew,
		MaxMsgs:            -1,
		MaxBytes:           -1,
		MaxMsgsPerSubject:  -1,
		MaxMsgSize:         -1,
		AllowAtomicPublish: true,
		AllowDirect:        true,
		Compression:        jetstream.NoCompression,
	}
}

// checkStream reports whether shard's stream exists, and refuses one whose
// settings are not the backend's or whose marker names another format.
func (b *Backend) checkStream(ctx context.Context, shard, replicas int) (bool, error) {
	name := b.l.stream(shard)
	var info *jetstream.StreamInfo
	err := b.retry(ctx, func(ctx context.Context) error {
		st, err := b.js.Stream(ctx, name)
		if err != nil {
			return err
		}
		info = st.CachedInfo()
		return nil
	}, jetstream.ErrStreamNotFound)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("jetstream: stream %s: %w", name, err)
	}
	want, got := b.streamConfig(shard, replicas), info.Config
	var bad []string
	check := func(ok bool, what string, v any) {
		if !ok {
			bad = append(bad, fmt.Sprintf("%s %v", what, v))
		}
	}
	check(slices.Equal(got.Subjects, want.Subjects), "subjects", got.Subjects)
	check(got.Storage == jetstream.FileStorage, "storage", got.Storage)
	check(got.Replicas == replicas, "replicas", got.Replicas)
	check(got.Retention == jetstream.LimitsPolicy, "retention", got.Retention)
	check(got.MaxMsgs <= 0 && got.MaxBytes <= 0 && got.MaxAge == 0 && got.MaxMsgsPerSubject <= 0, "limits",
		fmt.Sprintf("(msgs %d, bytes %d, age %v, per subject %d)", got.MaxMsgs, got.MaxBytes, got.MaxAge, got.MaxMsgsPerSubject))
	check(got.AllowAtomicPublish, "atomic publish", got.AllowAtomicPublish)
	check(got.AllowDirect, "direct get", got.AllowDirect)
	check(got.Compression == jetstream.NoCompression, "compression", got.Compression)
	check(!got.DenyDelete, "deny delete", got.DenyDelete)
	check(!got.Sealed, "sealed", got.Sealed)
	if len(bad) > 0 {
		return true, fmt.Errorf("jetstream: stream %s is not one this backend made: %s", name, strings.Join(bad, ", "))
	}
	m, err := b.leaderGet(ctx, name, msgGetRequest{LastFor: b.l.format(shard)})
	if errors.Is(err, errNoMsg) {
		return true, nil // made by an Open that stopped before its marker
	}
	if err != nil {
		return true, fmt.Errorf("jetstream: format of %s: %w", name, err)
	}
	if string(m.data) != b.marker() {
		return true, fmt.Errorf("jetstream: stream %s holds format %q, this backend reads %q", name, m.data, b.marker())
	}
	return true, nil
}

func (b *Backend) createStream(ctx context.Context, shard, replicas int) error {
	cfg := b.streamConfig(shard, replicas)
	// A cluster starting, or a node down: not enough peers yet, so a
	// refused placement is tried again for a while; a cluster smaller
	// than the replicas asked for is refused for good.
	giveUp := time.Now().Add(4 * b.timeout)
	err := b.retry(ctx, func(ctx context.Context) error {
		_, err := b.js.CreateStream(ctx, cfg)
		var jerr jetstream.JetStreamError
		if errors.As(err, &jerr) && jerr.APIError() != nil && jerr.APIError().ErrorCode == errCodeNoPeers && time.Now().Before(giveUp) {
			return fmt.Errorf("placement: %s", err) // not an API error: retried
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("jetstream: create stream %s: %w", cfg.Name, err)
	}
	return nil
}

// markFormat writes the format marker once (guarded: no marker yet), or
// checks the one another Open wrote first.
func (b *Backend) markFormat(ctx context.Context, shard int) error {
	name, subj := b.l.stream(shard), b.l.format(shard)
	m, err := b.leaderGet(ctx, name, msgGetRequest{LastFor: subj})
	if err == nil {
		if string(m.data) != b.marker() {
			return fmt.Errorf("jetstream: stream %s holds format %q, this backend reads %q", name, m.data, b.marker())
		}
		return nil
	}
	if !errors.Is(err, errNoMsg) {
		return fmt.Errorf("jetstream: format of %s: %w", name, err)
	}
	zero := uint64(0)
	err = b.retry(ctx, func(ctx context.Context) error {
		_, err := publishBatch(ctx, b.nc, []write{{subject: subj, data: []byte(b.marker()), guard: &zero}})
		return err
	})
	if err != nil && !IsConflict(err) {
		return fmt.Errorf("jetstream: write the format of %s: %w", name, err)
	}
	// Written, by this Open or a concurrent one: read back what stands.
	m, err = b.leaderGet(ctx, name, msgGetRequest{LastFor: subj})
	if err != nil {
		return fmt.Errorf("jetstream: format of %s: %w", name, err)
	}
	if string(m.data) != b.marker() {
		return fmt.Errorf("jetstream: stream %s holds format %q, this backend reads %q", name, m.data, b.marker())
	}
	return nil
}

// marker is what the format marker of each stream holds: the format and
// the number of shards, which users are hashed over (another number would
// look for them in other streams).
func (b *Backend) marker() string { return fmt.Sprintf("%s, %d shards", formatVersion, b.l.shards) }

// retry calls f until it succeeds, fails definitely (an API error, or one
// of final), or ctx ends. Transport errors (a timeout, no responders
// while a leader is elected) are retried: every call given to it is safe
// to repeat. The first tries are bounded by a short timeout, growing to
// the request timeout: a request sent to a leader that just stopped gets
// no answer, and waiting the whole timeout for it would stall a failover.
func (b *Backend) retry(ctx context.Context, f func(context.Context) error, final ...error) error {
	wait := 10 * time.Millisecond
	timeout := min(b.timeout, 250*time.Millisecond)
	for {
		rctx, cancel := context.WithTimeout(ctx, timeout)
		err := f(rctx)
		cancel()
		if err == nil || definite(err) || ctx.Err() != nil {
			return err
		}
		for _, f := range final {
			if errors.Is(err, f) {
				return err
			}
		}
		var jerr jetstream.JetStreamError
		if errors.As(err, &jerr) && jerr.APIError() != nil && jerr.APIError().Code != 503 {
			return err
		}
		if serr := sleep(ctx, wait); serr != nil {
			return fmt.Errorf("%w (last error: %v)", serr, err)
		}
		wait = min(2*wait, 500*time.Millisecond)
		timeout = min(2*timeout, b.timeout)
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// leaderGet is leaderGet retried through transport errors.
func (b *Backend) leaderGet(ctx context.Context, stream string, req msgGetRequest) (*stored, error) {
	var m *stored
	err := b.retry(ctx, func(ctx context.Context) error {
		var err error
		m, err = leaderGet(ctx, b.nc, stream, req)
		return err
	}, errNoMsg)
	return m, err
}

// head reads user's head from the stream leader; nil when the user has
// none.
func (b *Backend) head(ctx context.Context, user string) (*stored, error) {
	m, err := b.leaderGet(ctx, b.l.stream(b.l.shard(user)), msgGetRequest{LastFor: b.l.head(user)})
	if errors.Is(err, errNoMsg) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("jetstream: head of user %q: %w", user, err)
	}
	return m, nil
}

// Snapshot reads the head from the stream leader (so it holds every
// commit acknowledged before), then every key's last message as of the
// head's sequence with one multi_last, which a replica may answer: the
// answer is taken only if it holds the head at that sequence, the proof
// that the replica had applied the whole commit; a stale one is asked
// again. A user with more subjects than one multi_last returns (1024) is
// read by walking the user's messages instead: every version, 1000 a
// request, so its cost grows with the user's history, not only its keys
// (1200 keys of one version: 30 ms).
//
// A read costs about 30 µs per key on top of the head's read (measured,
// 100 keys: 3 ms), so the Backend keeps the last view of recently read
// users, and derives the view a commit of its own makes: while the head
// is where that view is, the snapshot is the head's read alone. Erase
// changes no latest value, so it leaves the views valid.
func (b *Backend) Snapshot(ctx context.Context, user string) (kv.Snapshot, error) {
	if err := kv.CheckUser(user); err != nil {
		return nil, err
	}
	h, err := b.head(ctx, user)
	if err != nil {
		return nil, err
	}
	if h == nil {
		v := kv.NewSnapshot(0, nil)
		b.views.put(user, v)
		return v, nil
	}
	if v := b.views.get(user, h.seq); v != nil {
		return v, nil
	}
	msgs, err := b.keysAt(ctx, user, h.seq)
	if err != nil {
		return nil, err
	}
	var entries []kv.Entry
	for _, m := range msgs {
		if m.subject == b.l.head(user) || tombstone(m) {
			continue
		}
		bucket, key, err := b.l.parseKey(user, m.subject)
		if err != nil {
			return nil, fmt.Errorf("jetstream: user %q: %w", user, err)
		}
		entries = append(entries, kv.Entry{Bucket: bucket, Key: key, Value: m.data})
	}
	v := kv.NewSnapshot(h.seq, entries)
	b.views.put(user, v)
	return v, nil
}

// Rev reads user's head from the stream leader, as Snapshot does first
// (kv.RevReader): one request, the whole cost of a snapshot whose view is
// kept, without looking for the view.
func (b *Backend) Rev(ctx context.Context, user string) (uint64, error) {
	if err := kv.CheckUser(user); err != nil {
		return 0, err
	}
	h, err := b.head(ctx, user)
	if err != nil || h == nil {
		return 0, err
	}
	return h.seq, nil
}

func tombstone(m stored) bool { return m.header.Get(hdrTombstone) != "" }

// keysAt returns the last message of each of user's subjects (keys and
// head) as of stream sequence rev, the sequence of the user's head.
func (b *Backend) keysAt(ctx context.Context, user string, rev uint64) ([]stored, error) {
	stream := b.l.stream(b.l.shard(user))
	filter := b.l.userPrefix(user) + ".>"
	wait := time.Millisecond
	for {
		var msgs []stored
		err := b.retry(ctx, func(ctx context.Context) error {
			var err error
			msgs, err = multiLast(ctx, b.nc, stream, []string{filter}, rev)
			return err
		}, errTooMany)
		if errors.Is(err, errTooMany) {
			msgs, err = b.walkKeys(ctx, stream, filter, rev)
		}
		if err != nil {
			return nil, fmt.Errorf("jetstream: keys of user %q at %d: %w", user, rev, err)
		}
		if slices.ContainsFunc(msgs, func(m stored) bool { return m.subject == b.l.head(user) && m.seq == rev }) {
			return msgs, nil
		}
		// The replica that answered had not applied the head yet.
		if err := sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("jetstream: keys of user %q at %d: no replica caught up: %w", user, rev, err)
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// walkKeys keeps the last message of each subject that walk returns.
func (b *Backend) walkKeys(ctx context.Context, stream, filter string, rev uint64) ([]stored, error) {
	last := map[string]stored{}
	if err := b.walk(ctx, stream, filter, rev, func(m stored) { last[m.subject] = m }); err != nil {
		return nil, err
	}
	out := make([]stored, 0, len(last))
	for _, m := range last {
		out = append(out, m)
	}
	return out, nil
}

// walk calls fn for every message on filter up to rev, in sequence order,
// a batch at a time through Direct Get. Each batch is a request retried
// on its own, so that a long history is read in steps that each fit in a
// request's time, and a failed step resumes where the walk was: retried
// whole, a walk longer than the timeout would never end. Batches may come
// from different replicas; each holds a prefix of the stream, so one that
// has nothing from where the walk is lags behind it, and is asked again.
// The walk is complete once it has seen the message at rev, which the
// caller checks.
func (b *Backend) walk(ctx context.Context, stream, filter string, rev uint64, fn func(stored)) error {
	wait := time.Millisecond
	for seq := uint64(1); seq <= rev; {
		var batch []stored
		err := b.retry(ctx, func(ctx context.Context) error {
			var err error
			batch, err = directNext(ctx, b.nc, stream, seq, b.walkBatch, filter)
			return err
		})
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			if err := sleep(ctx, wait); err != nil {
				return fmt.Errorf("no replica holds sequence %d to %d: %w", seq, rev, err)
			}
			wait = min(2*wait, 100*time.Millisecond)
			continue
		}
		for _, m := range batch {
			if m.seq <= rev {
				fn(m)
			}
			seq = m.seq + 1
		}
	}
	return nil
}

// Commit publishes one message per key written (a later write of a key in
// ops wins; a delete is a tombstone) and then user's head, all in one
// atomic batch, the head guarded by rev: the stream applies the batch only
// if the head's last sequence is still rev (0: no head), and the batch's
// sequence, the head's, is the new revision.
//
// When the transport leaves the outcome unknown, the head is read from
// the leader: the first head after rev names the commit that won, by the
// random commit id it carries. Ours: the commit landed. Another's: a
// conflict. None: nothing landed, and the same batch is sent again with
// the same guard, so at most one of the sends can apply.
func (b *Backend) Commit(ctx context.Context, user string, rev uint64, ops []kv.Op) (uint64, error) {
	if err := kv.CheckUser(user); err != nil {
		return 0, err
	}
	if err := kv.CheckOps(ops); err != nil {
		return 0, err
	}
	id := nuid.Next()
	writes := b.commitWrites(user, rev, id, ops)
	stream := b.l.stream(b.l.shard(user))
	uncertain := false // a send whose outcome is unknown may still apply
	var last error
	wait := 10 * time.Millisecond
	// A send to a leader that just stopped gets no answer: the first sends
	// wait briefly (longer for more bytes), later ones up to the request
	// timeout. An unanswered send is resolved by the head, so a short wait
	// costs a read, never a double write.
	size := 0
	for _, w := range writes {
		size += len(w.data)
	}
	timeout := min(b.timeout, 250*time.Millisecond+time.Duration(size)*time.Second/(8<<20))
	for {
		if ctx.Err() != nil {
			break
		}
		pctx, cancel := context.WithTimeout(ctx, timeout)
		timeout = min(2*timeout, b.timeout)
		seq, err := b.publish(pctx, b.nc, writes)
		cancel()
		if err == nil {
			b.views.committed(user, rev, seq, ops)
			return seq, nil
		}
		last = err
		var ae *APIError
		switch {
		case !definite(err):
			uncertain = true
		case IsConflict(err) && !uncertain:
			return 0, fmt.Errorf("jetstream: user %q at %d: %w: %v", user, rev, kv.ErrConflict, err)
		case errors.As(err, &ae) && (ae.ErrCode == errCodeBatchIncomplete || ae.ErrCode == errCodeBatchBusy):
			// The leader lost the staged messages (a new leader), or has
			// too many batches open: nothing of this send applied; send
			// again until ctx ends.
		case !uncertain:
			return 0, fmt.Errorf("jetstream: commit of user %q: %w", user, err)
		}
		if uncertain {
			seq, landed, err := b.resolve(ctx, stream, user, rev, id)
			switch {
			case err != nil:
				last = err // the leader unreachable: send again, guarded
			case landed && seq > 0:
				b.views.committed(user, rev, seq, ops)
				return seq, nil
			case landed:
				return 0, fmt.Errorf("jetstream: user %q at %d: %w: another commit came first", user, rev, kv.ErrConflict)
			}
		}
		if sleep(ctx, wait) != nil {
			break
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
	if uncertain {
		return 0, fmt.Errorf("jetstream: commit of user %q: %w: %v", user, kv.ErrUnknownOutcome, last)
	}
	// Every send was refused or never made: nothing applied.
	return 0, fmt.Errorf("jetstream: commit of user %q not applied: %w (last error: %v)", user, ctx.Err(), last)
}

// commitWrites is the batch of a commit: the last write of each key, in
// the order of ops, then the head.
func (b *Backend) commitWrites(user string, rev uint64, id string, ops []kv.Op) []write {
	lastOf := make(map[string]int, len(ops))
	for i, op := range ops {
		lastOf[b.l.key(user, op.Bucket, op.Key)] = i
	}
	writes := make([]write, 0, len(lastOf)+1)
	for i, op := range ops {
		subj := b.l.key(user, op.Bucket, op.Key)
		if lastOf[subj] != i {
			continue
		}
		w := write{subject: subj, data: op.Value}
		if op.Delete {
			w.header = nats.Header{hdrTombstone: []string{"1"}}
			w.data = nil
		}
		writes = append(writes, w)
	}
	return append(writes, write{subject: b.l.head(user), data: []byte(id), guard: &rev})
}

// resolve reads, from the leader, the first head of user after rev.
// landed false: none yet, so no send applied (one in flight still may,
// and a new send with the same guard excludes the other). landed true:
// seq is ours if the head carries our id, 0 if another commit's.
func (b *Backend) resolve(ctx context.Context, stream, user string, rev uint64, id string) (uint64, bool, error) {
	m, err := b.leaderGet(ctx, stream, msgGetRequest{Seq: rev + 1, NextFor: b.l.head(user)})
	if errors.Is(err, errNoMsg) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if string(m.data) == id {
		return m.seq, true, nil
	}
	return 0, true, nil
}

// Users lists the users with a head in any stream, in byte order.
func (b *Backend) Users(ctx context.Context) ([]string, error) {
	var users []string
	for s := range b.l.shards {
		name := b.l.stream(s)
		var subjects map[string]uint64
		err := b.retry(ctx, func(ctx context.Context) error {
			st, err := b.js.Stream(ctx, name)
			if err != nil {
				return err
			}
			info, err := st.Info(ctx, jetstream.WithSubjectFilter(b.l.heads(s)))
			if err != nil {
				return err
			}
			subjects = info.State.Subjects
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("jetstream: users of %s: %w", name, err)
		}
		for subj := range subjects {
			parts := strings.Split(subj, ".")
			if len(parts) != 4 {
				return nil, fmt.Errorf("jetstream: head subject %q", subj)
			}
			u, err := tokenUser(parts[2])
			if err != nil {
				return nil, fmt.Errorf("jetstream: %w", err)
			}
			users = append(users, u)
		}
	}
	slices.Sort(users)
	return users, nil
}

// Close releases nothing of the connection, which is the caller's.
func (b *Backend) Close() error {
	if b.ownConn {
		b.nc.Close()
	}
	return nil
}
