package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
)

// An erase needs the nodes themselves: a raft snapshot is forced through
// the embedded server's own API, and the proof is a scan of the nodes'
// files. A Backend in the process that runs the nodes (Options.Cluster)
// asks them directly; one in another process (memctl serve beside a
// memctl cluster) asks the agent that process serves (ServeAgent) over
// the cluster itself, on the subject <prefix>.agent.

// nodesOf is how a Backend reaches the nodes for an erase.
type nodesOf interface {
	down(ctx context.Context) ([]string, error)
	prove(ctx context.Context, stream string, needles [][]byte) error
}

// localNodes are nodes of this process.
type localNodes struct {
	c       *Cluster
	timeout time.Duration
}

func (l localNodes) down(context.Context) ([]string, error) { return l.c.Down(), nil }

func (l localNodes) prove(ctx context.Context, stream string, needles [][]byte) error {
	return l.c.Prove(ctx, stream, needles, l.timeout)
}

// agentNodes are nodes another process runs, through its agent.
type agentNodes struct {
	nc      *nats.Conn
	subject string
	timeout time.Duration
}

// agentRequest and agentReply are the agent's protocol, JSON.
type agentRequest struct {
	Op      string   `json:"op"` // "down" or "prove"
	Stream  string   `json:"stream,omitempty"`
	Needles [][]byte `json:"needles,omitempty"`
}

type agentReply struct {
	Down  []string `json:"down,omitempty"`
	Error string   `json:"error,omitempty"`
}

func (a agentNodes) ask(ctx context.Context, req agentRequest, wait time.Duration) (agentReply, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return agentReply{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	msg, err := a.nc.RequestWithContext(rctx, a.subject, body)
	if errors.Is(err, nats.ErrNoResponders) {
		return agentReply{}, fmt.Errorf("no agent of the nodes answers on %s (the nodes' process serves one: memctl cluster)", a.subject)
	}
	if err != nil {
		return agentReply{}, fmt.Errorf("the nodes' agent: %w", err)
	}
	var r agentReply
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return agentReply{}, fmt.Errorf("the nodes' agent answered %q: %w", msg.Data, err)
	}
	if r.Error != "" {
		return r, errors.New(r.Error)
	}
	return r, nil
}

func (a agentNodes) down(ctx context.Context) ([]string, error) {
	r, err := a.ask(ctx, agentRequest{Op: "down"}, a.timeout)
	return r.Down, err
}

func (a agentNodes) prove(ctx context.Context, stream string, needles [][]byte) error {
	// The proof waits for replicas and snapshots: as long as the nodes'
	// own waits (Prove), three times.
	_, err := a.ask(ctx, agentRequest{Op: "prove", Stream: stream, Needles: needles}, 3*9*a.timeout)
	return err
}

// ServeAgent answers, on the subject <prefix>.agent of the cluster, the
// erase requests of Backends of other processes on streams of that prefix
// (Options.Prefix, "" for the default), until stop is called. timeout is
// a Backend's request timeout (0: 5 s).
func (c *Cluster) ServeAgent(prefix string, timeout time.Duration) (stop func(), err error) {
	nc, err := nats.Connect(c.ClientURL(), nats.Name("palimpsest-agent"), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("jetstream: agent: %w", err)
	}
	if prefix == "" {
		prefix = defaultPrefix
	}
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	ctx, cancel := context.WithCancel(context.Background())
	sub, err := nc.Subscribe(agentSubject(prefix), func(m *nats.Msg) {
		var req agentRequest
		var r agentReply
		if err := json.Unmarshal(m.Data, &req); err != nil {
			r.Error = "a request that is not JSON"
		} else {
			switch req.Op {
			case "down":
				r.Down = c.Down()
			case "prove":
				if err := c.Prove(ctx, req.Stream, req.Needles, timeout); err != nil {
					r.Error = err.Error()
				}
			default:
				r.Error = fmt.Sprintf("unknown op %q", req.Op)
			}
		}
		body, _ := json.Marshal(r)
		_ = m.Respond(body)
	})
	if err != nil {
		cancel()
		nc.Close()
		return nil, fmt.Errorf("jetstream: agent: %w", err)
	}
	return func() { _ = sub.Unsubscribe(); cancel(); nc.Close() }, nil
}

func agentSubject(prefix string) string { return prefix + ".agent" }
