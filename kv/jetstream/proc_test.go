package jetstream

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// nodeEnv, set in the environment of the test binary, makes it run one
// node of a procCluster instead of the tests: the JSON of a nodeSpec.
const nodeEnv = "PALIMPSEST_NATS_NODE"

// nodeSpec is what a child process needs to run node Node of a cluster.
type nodeSpec struct {
	Dir   string
	Node  int
	Ports []int // client ports, then route ports (nodeOptions)
	HTTP  int   // the monitoring port: /jsz shows the node's own replicas
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(nodeEnv); spec != "" {
		if err := runNode(spec); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runNode runs the node of spec, with the options of the embedded
// cluster's nodes, until its stdin closes: the parent ended or let it go,
// so a crashed test leaves no server behind.
func runNode(spec string) error {
	var ns nodeSpec
	if err := json.Unmarshal([]byte(spec), &ns); err != nil {
		return fmt.Errorf("%s: %w", nodeEnv, err)
	}
	o := nodeOptions(ns.Dir, ns.Node, ns.Ports)
	o.HTTPHost, o.HTTPPort = "127.0.0.1", ns.HTTP
	s, err := server.NewServer(o)
	if err != nil {
		return fmt.Errorf("node %d: %w", ns.Node, err)
	}
	s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		return fmt.Errorf("node %d not ready", ns.Node)
	}
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// procCluster is a cluster of 3 nodes, each a child process (this test
// binary, run as a node), so that one can crash: Kill is a SIGKILL, no
// leader hand-off, no final flush. A node restarts on its store and ports.
type procCluster struct {
	dir   string
	ports []int // client ports, route ports, then monitoring ports
	n     int

	mu    sync.Mutex
	procs []*exec.Cmd // nil: down
}

func startProcCluster(t testing.TB) *procCluster {
	t.Helper()
	const n = 3
	ports, err := freePorts(3 * n)
	if err != nil {
		t.Fatal(err)
	}
	c := &procCluster{dir: t.TempDir(), ports: ports, n: n, procs: make([]*exec.Cmd, n)}
	t.Cleanup(c.close)
	ctx := testCtx(t, 60*time.Second)
	for i := range n {
		if err := c.start(ctx, i); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.waitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *procCluster) url(i int) string { return fmt.Sprintf("nats://127.0.0.1:%d", c.ports[i]) }

func (c *procCluster) urls() string {
	var u []string
	for i := range c.n {
		u = append(u, c.url(i))
	}
	return strings.Join(u, ",")
}

// start runs node i (again) and waits for its monitoring port to answer.
func (c *procCluster) start(ctx context.Context, i int) error {
	spec, err := json.Marshal(nodeSpec{Dir: c.dir, Node: i, Ports: c.ports[:2*c.n], HTTP: c.ports[2*c.n+i]})
	if err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(c.dir, nodeName(i)+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	// This test binary; -test.run matches nothing should the variable
	// not reach it.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), nodeEnv+"="+string(spec))
	cmd.Stdout, cmd.Stderr = log, log
	if _, err := cmd.StdinPipe(); err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("node %s: %w", nodeName(i), err)
	}
	c.mu.Lock()
	c.procs[i] = cmd
	c.mu.Unlock()
	if err := poll(ctx, func() bool { _, err := c.jsz(ctx, i); return err == nil }); err != nil {
		return fmt.Errorf("node %s not up: %w", nodeName(i), err)
	}
	return nil
}

// kill SIGKILLs node i and reaps it.
func (c *procCluster) kill(i int) {
	c.mu.Lock()
	cmd := c.procs[i]
	c.procs[i] = nil
	c.mu.Unlock()
	if cmd != nil {
		cmd.Process.Kill()
		cmd.Wait()
	}
}

func (c *procCluster) close() {
	for i := range c.n {
		c.kill(i)
	}
}

func (c *procCluster) up(i int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.procs[i] != nil
}

// jsz is node i's own view of JetStream: the meta group, and its
// replicas of every stream.
func (c *procCluster) jsz(ctx context.Context, i int) (*server.JSInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		fmt.Sprintf("http://127.0.0.1:%d/jsz?accounts=true&streams=true", c.ports[2*c.n+i]), nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var info server.JSInfo
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		return nil, fmt.Errorf("node %s: /jsz: %w", nodeName(i), err)
	}
	return &info, nil
}

// waitReady waits until a node leads the meta group and counts every
// other node as a current peer (until then an R3 stream is refused).
func (c *procCluster) waitReady(ctx context.Context) error {
	err := poll(ctx, func() bool {
		for i := range c.n {
			info, err := c.jsz(ctx, i)
			if err != nil || info.Meta == nil || info.Meta.Leader != nodeName(i) {
				continue
			}
			current := 0
			for _, p := range info.Meta.Replicas {
				if p.Current && !p.Offline {
					current++
				}
			}
			return current == c.n-1
		}
		return false
	})
	if err != nil {
		return fmt.Errorf("JetStream not ready: %w", err)
	}
	return nil
}

// replica is node i's replica of stream: its state and whether the node
// leads it; ok false when the node is down or holds none.
func (c *procCluster) replica(ctx context.Context, i int, stream string) (st server.StreamState, leads, ok bool) {
	if !c.up(i) {
		return st, false, false
	}
	info, err := c.jsz(ctx, i)
	if err != nil {
		return st, false, false
	}
	for _, a := range info.AccountDetails {
		for _, d := range a.Streams {
			if d.Name == stream {
				return d.State, d.Cluster != nil && d.Cluster.Leader == nodeName(i), true
			}
		}
	}
	return st, false, false
}

// waitStreamLeader waits for a live node other than not (-1: any) to lead
// stream, and returns it.
func (c *procCluster) waitStreamLeader(ctx context.Context, stream string, not int) (int, error) {
	leader := -1
	err := poll(ctx, func() bool {
		for i := range c.n {
			if _, leads, ok := c.replica(ctx, i, stream); ok && leads && i != not {
				leader = i
				return true
			}
		}
		return false
	})
	if err != nil {
		return -1, fmt.Errorf("no leader of stream %s: %w", stream, err)
	}
	return leader, nil
}

// waitStreamSame waits until every node's replica of stream holds the
// same messages (count, first, last, deleted), and returns that state.
func (c *procCluster) waitStreamSame(ctx context.Context, stream string) (server.StreamState, error) {
	var states []server.StreamState
	err := poll(ctx, func() bool {
		states = states[:0]
		for i := range c.n {
			st, _, ok := c.replica(ctx, i, stream)
			if !ok {
				return false
			}
			states = append(states, st)
		}
		for _, st := range states[1:] {
			if st.Msgs != states[0].Msgs || st.FirstSeq != states[0].FirstSeq || st.LastSeq != states[0].LastSeq || st.NumDeleted != states[0].NumDeleted {
				return false
			}
		}
		return true
	})
	if err != nil {
		return server.StreamState{}, fmt.Errorf("replicas of %s differ (%+v): %w", stream, states, err)
	}
	return states[0], nil
}
