package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/mcpserver"
)

// TestStdioMalformed sends raw bytes a client should never send between
// real calls: each gets an error answer, the calls after it are answered,
// and the end of stdin ends the server cleanly.
func TestStdioMalformed(t *testing.T) {
	s, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), 0o600, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	server, err := mcpserver.New(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeStdio(context.Background(), server, inR, outW); outW.Close() }()
	lines := make(chan map[string]any, 100)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("stdout holds a line that is not JSON: %q", sc.Text())
				continue
			}
			lines <- m
		}
		close(lines)
	}()
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatalf("write %q: %v", s, err)
		}
	}
	next := func(what string) map[string]any {
		t.Helper()
		select {
		case m, ok := <-lines:
			if !ok {
				t.Fatalf("%s: stdout ended", what)
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no answer", what)
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := next("initialize"); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, c := range []struct {
		line string
		code float64
		id   any
	}{
		{"not json", -32700, nil},
		{"{", -32700, nil},
		{"\xff\xfe\x00\x01", -32700, nil},
		{`{"a":1} {"b":2}`, -32700, nil},
		{strings.Repeat("x", mcpserver.MaxLineBytes+10), -32700, nil},
		{`[]`, -32600, nil},
		{`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, -32600, nil},
		{`{"foo":1}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":7,"method":5}`, -32600, float64(7)},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, -32600, nil},
		{`"just a string"`, -32600, nil},
	} {
		send(c.line)
		m := next(c.line[:min(len(c.line), 30)])
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != c.code || m["id"] != c.id {
			t.Errorf("%.30q: answer %v, want error %v with id %v", c.line, m, c.code, c.id)
		}
	}
	// Well-formed frames the SDK answers itself, without ending the session.
	send(`{"jsonrpc":"2.0","id":99,"result":{}}`) // a response to nothing
	send(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"x"}`)
	if m := next("params not an object"); m["error"] == nil || m["id"] != float64(8) {
		t.Errorf("params not an object: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":9,"method":"no/such/method"}`)
	if m := next("unknown method"); m["error"] == nil || m["id"] != float64(9) {
		t.Errorf("unknown method: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"remember","arguments":{"text":"I live in Lyon."}}}`)
	m := next("remember")
	res, _ := m["result"].(map[string]any)
	if m["id"] != float64(10) || res == nil || res["isError"] == true {
		t.Fatalf("remember after the bad lines: %v", m)
	}
	if fs, err := s.List(context.Background(), "", nil); err != nil || len(fs) != 1 {
		t.Errorf("after remember: %v facts (%v)", len(fs), err)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio after stdin closed: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return when stdin closed")
	}
}
