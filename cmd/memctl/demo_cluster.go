package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/cluster"
)

// onCluster tells a short story again on a cluster of three JetStream
// nodes in this process: the same store API, one user's facts apart from
// another's (each user's ids start at 1), a Remember, and a hard delete
// that returns only once no node's files hold the text.
func (d *demo) onCluster() (err error) {
	d.printf("\n19. The same memory on a cluster: three NATS JetStream nodes (memctl cluster)\n")
	dir, err := os.MkdirTemp("", "memctl-demo-cluster-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(d.ctx, time.Minute)
	defer cancel()
	nodes, err := cluster.Start(ctx, filepath.Join(dir, "nodes"), nil)
	if err != nil {
		return err
	}
	defer nodes.Close()
	clock := func() time.Time { return d.now }
	s, err := cluster.Open(ctx, nodes.URL(), filepath.Join(dir, "index"), &cluster.Options{Memory: &memory.Options{Clock: clock}})
	if err != nil {
		return err
	}
	defer s.Close()
	d.printf("    nodes at %s (R3 file streams, fsync on every write)\n", nodes.URL())
	ada, err := s.Add(ctx, memory.Note{User: "ada", Text: "I live in Lyon."})
	if err != nil {
		return err
	}
	bob, err := s.Add(ctx, memory.Note{User: "bob", Text: "I live in Oslo."})
	if err != nil {
		return err
	}
	d.printf("    Add for ada → #%d, for bob → #%d: each user's ids and counters are their own, so users never wait on one another\n", ada.ID, bob.ID)
	out, err := s.Remember(ctx, memory.Note{User: "ada", Text: "I moved to Paris, I no longer live in Lyon."})
	if err != nil {
		return err
	}
	if out.Decision.Target != ada.ID {
		return fmt.Errorf("demo: Remember on the cluster decided %s of #%d, want an update of #%d", out.Decision.Action, out.Decision.Target, ada.ID)
	}
	d.printf("    Remember for ada → %s #%d, in one atomic batch guarded by ada's head\n", out.Decision.Action, out.Decision.Target)
	secret, err := s.Add(ctx, memory.Note{User: "ada", Text: "My passport number is X1234567."})
	if err != nil {
		return err
	}
	if _, err := s.Delete(ctx, "ada", secret.ID, nil); err != nil {
		return err
	}
	d.printf("    Delete #%d → every version secure-deleted, a raft snapshot on every node, and no node's files hold the text\n", secret.ID)
	return nil
}
