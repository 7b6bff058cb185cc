// Package cluster keeps a memory store on a NATS JetStream cluster, for a
// server-side deployment that outgrows one machine: Open a store on a
// cluster by its URL, or Start the nodes of one (three embedded
// nats-server nodes, R3 file streams, fsync on every write) in this
// process, with the agent that lets other processes' hard deletes prove
// themselves on the nodes.
//
// It is the only public way to a cluster; it composes package memory
// (OpenBackend) and kv/jetstream, and nothing else of the module. The
// embedded bbolt file (memory.Open) stays the default and does not link
// NATS at all.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/kv/jetstream"
)

// Options configure Open; nil means defaults.
type Options struct {
	// Memory are the store's options (memory.Open's; see OpenBackend for
	// those a cluster ignores or refuses).
	Memory *memory.Options
	// Credentials is a NATS credentials file (a user JWT and its seed, as
	// nsc writes them); a user and password go in the URL.
	Credentials string
	// Prefix names the store's streams, 1 to 32 of [a-z0-9]: several
	// stores can share a cluster. Default "mem".
	Prefix string
	// Shards spreads users over this many streams (one leader each); a
	// store keeps the number it was made with. Default 1.
	Shards int
	// Timeout bounds one request to the cluster. Default 5 s.
	Timeout time.Duration
	// Nodes, when the cluster runs in this process (Start), lets hard
	// deletes prove themselves on the nodes directly rather than through
	// their agent.
	Nodes *Nodes
}

// Open opens the store on the cluster at url (nats://host:port, several
// comma-separated for failover). dir is this process's private folder for
// the candidate index it derives (see memory.OpenBackend). A cluster that
// does not answer, lost its quorum, or holds streams of another format or
// settings gives an error, and nothing is written.
func Open(ctx context.Context, url, dir string, o *Options) (*memory.Store, error) {
	var opts Options
	if o != nil {
		opts = *o
	}
	jo := &jetstream.Options{Prefix: opts.Prefix, Shards: opts.Shards, Timeout: opts.Timeout, Credentials: opts.Credentials}
	if opts.Nodes != nil {
		jo.Cluster = opts.Nodes.c
	}
	b, err := jetstream.Dial(ctx, url, jo)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	s, err := memory.OpenBackend(b, dir, opts.Memory)
	if err != nil {
		b.Close()
		return nil, err
	}
	return s, nil
}

// Name is url as messages may show it: passwords masked.
func Name(url string) string { return jetstream.Redact(url) }

// NodesOptions configure Start; nil means defaults.
type NodesOptions struct {
	// Nodes is the number of servers; default 3 (the streams are R3).
	Nodes int
	// Ports are the client ports of the nodes, one each; nil picks free
	// ones on loopback.
	Ports []int
	// Prefix is the store's (Options.Prefix) whose hard deletes the agent
	// serves; default "mem".
	Prefix string
}

// Nodes are the servers of a cluster running in this process.
type Nodes struct {
	c         *jetstream.Cluster
	stopAgent func()
}

// Start runs the nodes of a cluster in this process, each storing under
// dir/<node>, and the agent for hard deletes of the store of
// NodesOptions.Prefix. Nodes that stored there before restart on their
// data. The cluster listens on loopback only.
func Start(ctx context.Context, dir string, o *NodesOptions) (*Nodes, error) {
	var opts NodesOptions
	if o != nil {
		opts = *o
	}
	if opts.Nodes == 0 {
		opts.Nodes = 3
	}
	if opts.Ports != nil && len(opts.Ports) != opts.Nodes {
		return nil, fmt.Errorf("cluster: %d ports for %d nodes", len(opts.Ports), opts.Nodes)
	}
	c, err := jetstream.StartCluster(ctx, dir, &jetstream.ClusterOptions{Nodes: opts.Nodes, ClientPorts: opts.Ports})
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	stop, err := c.ServeAgent(opts.Prefix, 0)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("cluster: %w", err)
	}
	return &Nodes{c: c, stopAgent: stop}, nil
}

// URL is the cluster's client URL, every node's, for Open.
func (n *Nodes) URL() string { return n.c.ClientURL() }

// Down names the nodes that are not running.
func (n *Nodes) Down() []string { return n.c.Down() }

// Close stops the agent and the nodes; their data stays in their folders.
func (n *Nodes) Close() error {
	if n == nil {
		return errors.New("cluster: Close of no nodes")
	}
	n.stopAgent()
	n.c.Close()
	return nil
}
