package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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

// TestMCPSubprocessEnds: memctl mcp in a process of its own, as a client
// starts it, ends cleanly when stdin closes, on SIGTERM and on SIGINT:
// exit 0, the candidate index removed, the store checked; stdout held
// protocol alone.
func TestMCPSubprocessEnds(t *testing.T) {
	for _, end := range []string{"stdin", "SIGTERM", "SIGINT"} {
		t.Run(end, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "memory.db")
			cmd := child(t, "--db", db, "mcp")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			out := bufio.NewReader(stdout)
			for i, line := range []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"remember","arguments":{"text":"I live in Lyon."}}}`,
			} {
				if _, err := io.WriteString(stdin, line+"\n"); err != nil {
					t.Fatal(err)
				}
				if i == 1 {
					continue // a notification has no answer
				}
				got, err := out.ReadString('\n')
				if err != nil || !json.Valid([]byte(got)) || !strings.Contains(got, `"result"`) {
					t.Fatalf("answer %q (%v), stderr %q", got, err, stderr.String())
				}
			}
			if _, err := os.Stat(db + ".index"); err != nil {
				t.Fatalf("no candidate index while serving: %v", err)
			}
			switch end {
			case "stdin":
				stdin.Close()
			case "SIGTERM":
				cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				cmd.Process.Signal(os.Interrupt)
			}
			done := make(chan error, 1)
			go func() { rest, _ := io.ReadAll(out); done <- cmd.Wait(); _ = rest }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("after %s: %v, stderr %q", end, err, stderr.String())
				}
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("memctl mcp did not end after %s", end)
			}
			// The store closed: only the kept index stays beside it.
			if left, _ := filepath.Glob(filepath.Join(db+".index", "h-*")); len(left) > 0 {
				t.Errorf("after %s a private candidate index is still there: %v", end, left)
			}
			if s := stderr.String(); strings.Count(s, "\n") != 1 || !strings.HasPrefix(s, "memctl: MCP server of ") {
				t.Errorf("stderr %q, want the one line saying what is served", s)
			}
			ok(t, "--db", db, "check")
		})
	}
}
