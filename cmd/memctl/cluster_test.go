package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/cluster"
)

// memctl --db nats://… works on a cluster as on a file: add, remember,
// list, search, delete, check; a bad URL or a cluster that is not there
// fails plainly; cluster refuses ports it cannot use.
func TestMemctlOnACluster(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nodes, err := cluster.Start(ctx, filepath.Join(t.TempDir(), "nodes"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer nodes.Close()
	db := strings.Split(nodes.URL(), ",")[0]
	ok(t, "--db", db, "add", "I live in Lyon.")
	if out := ok(t, "--db", db, "remember", "I moved to Paris, I no longer live in Lyon."); !strings.Contains(out, "update fact 1") {
		t.Fatalf("remember on the cluster:\n%s", out)
	}
	ok(t, "--db", db, "add", "My passport number is X1234567.")
	if out := ok(t, "--db", db, "list"); !strings.Contains(out, "Paris") || strings.Contains(out, "I live in Lyon.") {
		t.Fatalf("list:\n%s", out)
	}
	if out := ok(t, "--db", db, "delete", "3"); !strings.Contains(out, "deleted fact 3") {
		t.Fatalf("delete:\n%s", out)
	}
	if out := ok(t, "--db", db, "check"); strings.TrimSpace(out) != "ok" {
		t.Fatalf("check: %q", out)
	}
	if out := ok(t, "--db", db, "list", "--all"); strings.Contains(out, "passport") {
		t.Fatalf("the deleted fact is listed:\n%s", out)
	}
	fails(t, 1, "--db", "nats://127.0.0.1:1", "list")
	fails(t, 2, "cluster", "--ports", "1,2")
}
