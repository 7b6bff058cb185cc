package cluster_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/cluster"
)

// A store on nodes this process runs, used as another process would use
// it (through the URL, hard deletes proven by the nodes' agent): facts,
// Remember, a delete; the nodes restarted on their folders keep it all.
func TestStoreOnNodes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	nodes, err := cluster.Start(ctx, filepath.Join(dir, "nodes"), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cluster.Open(ctx, nodes.URL(), filepath.Join(dir, "client"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Path() != "" {
		t.Errorf("Path of a store on a cluster: %q", s.Path())
	}
	lyon, err := s.Add(ctx, memory.Note{User: "ada", Text: "I live in Lyon."})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Remember(ctx, memory.Note{User: "ada", Text: "I moved to Paris, I no longer live in Lyon."})
	if err != nil {
		t.Fatal(err)
	}
	if out.Decision.Action != memory.ActionUpdate || out.Decision.Target != lyon.ID {
		t.Fatalf("Remember on the cluster: %+v", out.Decision)
	}
	secret, err := s.Add(ctx, memory.Note{User: "ada", Text: "My passport number is X1234567."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delete(ctx, "ada", secret.ID, nil); err != nil {
		t.Fatalf("Delete through the nodes' agent: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := nodes.Close(); err != nil {
		t.Fatal(err)
	}

	nodes, err = cluster.Start(ctx, filepath.Join(dir, "nodes"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer nodes.Close()
	s, err = cluster.Open(ctx, nodes.URL(), filepath.Join(dir, "client"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	facts, err := s.List(ctx, "ada", nil)
	if err != nil || len(facts) != 1 || facts[0].ID != out.Fact.ID {
		t.Fatalf("after a restart of the nodes: %+v, %v", facts, err)
	}
	if _, err := s.Get(ctx, "ada", secret.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Fatalf("the deleted fact after a restart: %v", err)
	}
}

// A cluster that is not there, or not a cluster URL, is an error, and
// nothing is made.
func TestOpenRefuses(t *testing.T) {
	for _, url := range []string{"", "memory.db", "http://127.0.0.1:4222", "nats://127.0.0.1:1"} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		s, err := cluster.Open(ctx, url, t.TempDir(), nil)
		cancel()
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", url)
		}
	}
}
