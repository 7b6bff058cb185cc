package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPTypeScriptClient runs the built memctl under the official
// TypeScript SDK's client (testdata/mcpclient, installed by npm install
// there; .ci/run does it): it lists the tools, calls each, has the SDK
// validate every structured result against the tool's output schema, and
// tells the story of remember, an update, recall, context, undo and forget.
func TestMCPTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds memctl and runs node")
	}
	dir := filepath.Join("testdata", "mcpclient")
	skip := func(why string) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatal(why) // .ci/run installs it: a skip there would hide a broken install
		}
		t.Skip(why)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("no node in PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		skip("no TypeScript SDK: run npm ci in cmd/memctl/testdata/mcpclient")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		skip("no go in PATH to build memctl")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "memctl")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := filepath.Join(tmp, "memory.db")
	cmd := exec.CommandContext(ctx, node, "client.mjs", bin, db)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	t.Logf("node client.mjs:\n%s", out)
	if err != nil || !strings.Contains(string(out), " 0 failed") {
		t.Fatalf("the TypeScript client failed: %v", err)
	}
	ok(t, "--db", db, "check")
}
