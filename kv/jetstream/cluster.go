package jetstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Cluster is N nats-server nodes embedded in this process, routed to each
// other on loopback, each with its JetStream file store in a directory of
// its own that outlives a Stop, so a node restarts with its data.
//
// Every node fsyncs each write before it acknowledges it (SyncAlways), as
// the bbolt backend does. Encryption at rest and compression are never
// enabled: the first skips the secure erase of a deleted message, the
// second defeats the scan that proves an erase.
type Cluster struct {
	dir  string
	opts []*server.Options

	mu    sync.Mutex
	nodes []*server.Server // nil: the node is down
}

// maxPayload is the nodes' largest message: a value of kv.MaxValueLen and
// its headers.
const maxPayload = 2 << 20

// ClusterOptions of StartCluster; nil or a zero field is the default.
type ClusterOptions struct {
	// Nodes is the number of nodes. Default 3, the replicas of a stream.
	Nodes int
	// ClientPorts and RoutePorts are the nodes' loopback ports, one per
	// node, for clients and for the routes between nodes. Default: free
	// ports picked at each start (a client then finds them by ClientURL).
	ClientPorts, RoutePorts []int
}

// StartCluster starts the nodes (named n0, n1, …) with their stores under
// dir/n0, dir/n1, …, and waits until they are ready (WaitReady). A
// directory of an earlier cluster is taken up with its data.
func StartCluster(ctx context.Context, dir string, opts *ClusterOptions) (*Cluster, error) {
	var o ClusterOptions
	if opts != nil {
		o = *opts
	}
	n := o.Nodes
	if n == 0 {
		n = 3
	}
	if n < 1 || n > 9 {
		return nil, fmt.Errorf("a cluster of %d nodes, 1 to 9", n)
	}
	ports, err := freePorts(2 * n)
	if err != nil {
		return nil, fmt.Errorf("free ports: %w", err)
	}
	for what, given := range map[int][]int{0: o.ClientPorts, n: o.RoutePorts} {
		if given == nil {
			continue
		}
		if len(given) != n {
			return nil, fmt.Errorf("%d ports given for %d nodes", len(given), n)
		}
		copy(ports[what:], given)
	}
	c := &Cluster{dir: dir, nodes: make([]*server.Server, n)}
	for i := range n {
		c.opts = append(c.opts, nodeOptions(dir, i, ports))
	}
	for i := range n {
		if err := c.Start(ctx, i); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := c.WaitReady(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// nodeOptions are the options of node i of the len(ports)/2 nodes whose
// client ports, then route ports, are ports, with its store under dir.
// The test cluster of child processes (proc_test.go) runs its nodes with
// them too.
func nodeOptions(dir string, i int, ports []int) *server.Options {
	n := len(ports) / 2
	o := &server.Options{
		ServerName:         nodeName(i),
		Host:               "127.0.0.1",
		Port:               ports[i],
		NoLog:              true,
		NoSigs:             true,
		MaxPayload:         maxPayload,
		JetStream:          true,
		StoreDir:           filepath.Join(dir, nodeName(i)),
		JetStreamMaxMemory: 64 << 20,
		JetStreamMaxStore:  64 << 30,
		SyncAlways:         true,
		Cluster: server.ClusterOpts{
			Name: "palimpsest",
			Host: "127.0.0.1",
			Port: ports[n+i],
		},
	}
	if n > 1 {
		for j := range n {
			o.Routes = append(o.Routes, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", ports[n+j])})
		}
	}
	return o
}

func nodeName(i int) string { return fmt.Sprintf("n%d", i) }

// freePorts asks the kernel for n free loopback ports.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Nodes is the number of nodes, up or down.
func (c *Cluster) Nodes() int { return len(c.opts) }

// NodeName is node i's server name.
func (c *Cluster) NodeName(i int) string { return c.opts[i].ServerName }

// NodeDir is node i's store directory.
func (c *Cluster) NodeDir(i int) string { return c.opts[i].StoreDir }

// ClientURL lists every node's client URL, so a client fails over.
func (c *Cluster) ClientURL() string {
	urls := make([]string, len(c.opts))
	for i := range c.opts {
		urls[i] = c.NodeURL(i)
	}
	return strings.Join(urls, ",")
}

// NodeURL is node i's client URL alone.
func (c *Cluster) NodeURL(i int) string {
	return fmt.Sprintf("nats://127.0.0.1:%d", c.opts[i].Port)
}

// Start starts node i (again) with its options and store directory; a node
// already up is left as it is.
func (c *Cluster) Start(ctx context.Context, i int) error {
	c.mu.Lock()
	up := c.nodes[i] != nil
	c.mu.Unlock()
	if up {
		return nil
	}
	s, err := server.NewServer(c.opts[i].Clone())
	if err != nil {
		return fmt.Errorf("node %s: %w", c.NodeName(i), err)
	}
	s.Start()
	for !s.ReadyForConnections(50 * time.Millisecond) {
		if ctx.Err() != nil {
			s.Shutdown()
			s.WaitForShutdown()
			return fmt.Errorf("node %s not ready: %w", c.NodeName(i), ctx.Err())
		}
	}
	c.mu.Lock()
	c.nodes[i] = s
	c.mu.Unlock()
	return nil
}

// Stop shuts node i down (gracefully: a leader hands off) and keeps its
// store directory.
func (c *Cluster) Stop(i int) {
	c.mu.Lock()
	s := c.nodes[i]
	c.nodes[i] = nil
	c.mu.Unlock()
	if s != nil {
		s.Shutdown()
		s.WaitForShutdown()
	}
}

// Restart stops node i and starts it again on the same store.
func (c *Cluster) Restart(ctx context.Context, i int) error {
	c.Stop(i)
	return c.Start(ctx, i)
}

// Close stops every node.
func (c *Cluster) Close() {
	for i := range c.opts {
		c.Stop(i)
	}
}

// Down names the nodes that are not running.
func (c *Cluster) Down() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for i, s := range c.nodes {
		if s == nil {
			out = append(out, c.NodeName(i))
		}
	}
	return out
}

func (c *Cluster) live() []*server.Server {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*server.Server
	for _, s := range c.nodes {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}

// poll calls ok every few milliseconds until it holds or ctx ends.
func poll(ctx context.Context, ok func() bool) error {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for !ok() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// WaitReady waits until one live node leads the JetStream meta group,
// every live node is current with it, and the leader counts every live
// node as a peer it can place a stream on (until then a new R3 stream is
// refused: "no suitable peers for placement").
func (c *Cluster) WaitReady(ctx context.Context) error {
	err := poll(ctx, func() bool {
		live := c.live()
		leaders, current, peers := 0, true, 0
		for _, s := range live {
			if s.JetStreamIsLeader() {
				leaders++
				peers = len(s.JetStreamClusterPeers())
			}
			current = current && s.JetStreamIsCurrent()
		}
		return leaders == 1 && current && peers >= len(live)
	})
	if err != nil {
		return fmt.Errorf("JetStream not ready: %w", err)
	}
	return nil
}

// StreamLeader returns the index of the node leading stream, -1 when no
// live node does.
func (c *Cluster) StreamLeader(stream string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, s := range c.nodes {
		if s != nil && s.JetStreamIsStreamLeader(server.DEFAULT_GLOBAL_ACCOUNT, stream) {
			return i
		}
	}
	return -1
}

// WaitStreamLeader waits for a live node other than not (-1: any) to lead
// stream, and returns it.
func (c *Cluster) WaitStreamLeader(ctx context.Context, stream string, not int) (int, error) {
	leader := -1
	err := poll(ctx, func() bool {
		leader = c.StreamLeader(stream)
		return leader >= 0 && leader != not
	})
	if err != nil {
		return -1, fmt.Errorf("no leader of stream %s: %w", stream, err)
	}
	return leader, nil
}

// WaitStreamCurrent waits until the replica of stream on every live node
// is current with its leader and holds the same messages (count, first,
// last, deleted): being current alone may still leave entries to apply.
func (c *Cluster) WaitStreamCurrent(ctx context.Context, stream string) error {
	var behind []string
	err := poll(ctx, func() bool {
		behind = behind[:0]
		var states []server.StreamState
		for _, s := range c.live() {
			st, ok := streamState(s, stream)
			if !ok || !s.JetStreamIsStreamCurrent(server.DEFAULT_GLOBAL_ACCOUNT, stream) {
				behind = append(behind, s.Name())
				continue
			}
			states = append(states, st)
		}
		for _, st := range states[min(1, len(states)):] {
			if st.Msgs != states[0].Msgs || st.FirstSeq != states[0].FirstSeq || st.LastSeq != states[0].LastSeq || st.NumDeleted != states[0].NumDeleted {
				behind = append(behind, "some")
				break
			}
		}
		return len(behind) == 0
	})
	if err != nil {
		return fmt.Errorf("stream %s not current on %v: %w", stream, behind, err)
	}
	return nil
}

// streamState is the state of node s's replica of stream.
func streamState(s *server.Server, stream string) (server.StreamState, bool) {
	info, err := s.Jsz(&server.JSzOptions{Accounts: true, Streams: true})
	if err != nil {
		return server.StreamState{}, false
	}
	for _, a := range info.AccountDetails {
		for _, st := range a.Streams {
			if st.Name == stream {
				return st.State, true
			}
		}
	}
	return server.StreamState{}, false
}

// SnapshotStream forces a raft snapshot of stream on every live node (an
// API of the embedded server only): the raft log up to it is compacted
// away, and with it the entries of messages deleted since. Nodes that are
// down are named in the error.
func (c *Cluster) SnapshotStream(stream string) error {
	var errs []error
	for _, s := range c.live() {
		// "no snapshot available": nothing applied since the last one, so
		// the log holds nothing to compact (the server's error is not
		// exported; the files are scanned after anyway).
		err := s.JetStreamSnapshotStream(server.DEFAULT_GLOBAL_ACCOUNT, stream)
		if err != nil && !strings.Contains(err.Error(), "no snapshot available") {
			errs = append(errs, fmt.Errorf("node %s: snapshot of %s: %w", s.Name(), stream, err))
		}
	}
	if down := c.Down(); len(down) > 0 {
		errs = append(errs, fmt.Errorf("nodes %v are down", down))
	}
	return errors.Join(errs...)
}

// WaitWALPurged waits until no node's store holds a raft log directory
// being removed: a log compacted to its end is renamed __msgs__ and
// deleted in the background, and its files hold the entries until then.
func (c *Cluster) WaitWALPurged(ctx context.Context) error {
	var left string
	err := poll(ctx, func() bool {
		left = ""
		filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == "__msgs__" {
				left = p
				return filepath.SkipAll
			}
			return nil
		})
		return left == ""
	})
	if err != nil {
		return fmt.Errorf("raft log %s not yet removed: %w", left, err)
	}
	return nil
}

// Hit is a file of a node's store that holds a searched text.
type Hit struct {
	Node string // the node's name
	Path string // the file, relative to the node's store directory
}

func (h Hit) String() string { return h.Node + ":" + h.Path }

// GrepStream is Grep over the files that hold stream's messages on each
// node: the stream's own folder and the folder of its raft group (its
// log and snapshots). Another stream's files may hold the same bytes
// (another store's identical values) without holding this one's.
func (c *Cluster) GrepStream(stream string, needles [][]byte) ([]Hit, error) {
	var hits []Hit
	for i := range c.opts {
		c.mu.Lock()
		s := c.nodes[i]
		c.mu.Unlock()
		if s == nil {
			continue // down: Erase refuses before it scans
		}
		info, err := s.Jsz(&server.JSzOptions{Accounts: true, Streams: true, RaftGroups: true})
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", c.NodeName(i), err)
		}
		var dirs []string
		for _, a := range info.AccountDetails {
			for _, st := range a.Streams {
				if st.Name != stream {
					continue
				}
				dirs = append(dirs, filepath.Join(c.NodeDir(i), "jetstream", a.Id, "streams", stream))
				if st.RaftGroup != "" {
					dirs = append(dirs, filepath.Join(c.NodeDir(i), "jetstream", server.DEFAULT_SYSTEM_ACCOUNT, "_js_", st.RaftGroup))
				}
			}
		}
		if len(dirs) == 0 {
			return nil, fmt.Errorf("node %s holds no replica of stream %s", c.NodeName(i), stream)
		}
		for _, d := range dirs {
			h, err := grepDir(c.NodeDir(i), c.NodeName(i), d, needles)
			if err != nil {
				return nil, err
			}
			hits = append(hits, h...)
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int { return strings.Compare(a.String(), b.String()) })
	return hits, nil
}

// Grep lists every file of every node's store (stream blocks, indexes,
// raft logs and snapshots, the meta group) that holds one of needles, in
// node and path order. A node that is down is read too: its files are
// what it will serve when it comes back.
func (c *Cluster) Grep(needles [][]byte) ([]Hit, error) {
	var hits []Hit
	for i := range c.opts {
		h, err := grepDir(c.NodeDir(i), c.NodeName(i), c.NodeDir(i), needles)
		if err != nil {
			return nil, err
		}
		hits = append(hits, h...)
	}
	slices.SortFunc(hits, func(a, b Hit) int { return strings.Compare(a.String(), b.String()) })
	return hits, nil
}

// grepDir returns the files under dir, of the node whose store is root,
// that hold one of needles.
func grepDir(root, node, dir string, needles [][]byte) ([]Hit, error) {
	var hits []Hit
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking: a compacted log
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		for _, n := range needles {
			if len(n) > 0 && bytes.Contains(b, n) {
				rel, _ := filepath.Rel(root, p)
				hits = append(hits, Hit{Node: node, Path: rel})
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", node, err)
	}
	return hits, nil
}

// RebuildStream replaces node i's replica of stream by a copy of the
// others': the node is stopped, its store of the stream (message blocks
// and raft group) removed, and the node started again, to catch up from
// the leader, which sends only the messages it holds. The way to clear a
// node that kept the bytes of erased messages (it was down during an
// erase and caught up from a raft snapshot). The stream must have a
// leader among the other nodes.
func (c *Cluster) RebuildStream(ctx context.Context, i int, stream string) error {
	group := ""
	for _, s := range c.live() {
		info, err := s.Jsz(&server.JSzOptions{Accounts: true, Streams: true, RaftGroups: true})
		if err != nil {
			continue
		}
		for _, a := range info.AccountDetails {
			for _, st := range a.Streams {
				if st.Name == stream && st.RaftGroup != "" {
					group = st.RaftGroup
				}
			}
		}
	}
	if group == "" {
		return fmt.Errorf("rebuild of %s on %s: no live node knows the stream's raft group", stream, c.NodeName(i))
	}
	c.Stop(i)
	if leader := c.StreamLeader(stream); leader < 0 {
		return fmt.Errorf("rebuild of %s on %s: no other node leads it: %w", stream, c.NodeName(i), errors.Join(c.Start(ctx, i)))
	}
	js := filepath.Join(c.NodeDir(i), "jetstream")
	for _, dir := range []string{
		filepath.Join(js, server.DEFAULT_GLOBAL_ACCOUNT, "streams", stream),
		filepath.Join(js, "$SYS", "_js_", group),
	} {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("rebuild of %s on %s: %w", stream, c.NodeName(i), err)
		}
	}
	if err := c.Start(ctx, i); err != nil {
		return err
	}
	return c.WaitStreamCurrent(ctx, stream)
}
