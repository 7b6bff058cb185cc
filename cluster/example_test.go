package cluster_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/cluster"
)

// A cluster of three nodes in this process, and a store on it: the store
// API is the file's.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "cluster-example-")
	defer os.RemoveAll(dir)

	nodes, err := cluster.Start(ctx, filepath.Join(dir, "nodes"), nil)
	if err != nil {
		panic(err)
	}
	defer nodes.Close()
	s, err := cluster.Open(ctx, nodes.URL(), filepath.Join(dir, "index"), nil)
	if err != nil {
		panic(err)
	}
	defer s.Close()

	lyon, _ := s.Add(ctx, memory.Note{User: "ada", Text: "I live in Lyon."})
	out, _ := s.Remember(ctx, memory.Note{User: "ada", Text: "I moved to Paris, I no longer live in Lyon."})
	fmt.Println(out.Decision.Action, out.Decision.Target == lyon.ID)
	facts, _ := s.List(ctx, "ada", nil)
	fmt.Println(facts[0].Text)
	// Output:
	// update true
	// I moved to Paris, I no longer live in Lyon.
}
