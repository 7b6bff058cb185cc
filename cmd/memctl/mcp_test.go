package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// mcpSession runs memctl mcp in-process over pipes, as a desktop client
// runs it over stdin and stdout, and connects the Go SDK's client to it.
type mcpSession struct {
	t      *testing.T
	cs     *mcp.ClientSession
	stdin  io.WriteCloser
	code   chan int
	stderr *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func startMCP(t *testing.T, ctx context.Context, args ...string) *mcpSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	m := &mcpSession{t: t, stdin: inW, code: make(chan int, 1), stderr: &syncBuffer{}}
	go func() {
		code := run(ctx, args, inR, outW, m.stderr)
		outW.Close()
		inR.Close()
		m.code <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "memctl-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect to memctl %q: %v (stderr %q)", args, err, m.stderr.String())
	}
	m.cs = cs
	return m
}

// call calls a tool and returns its structured result as JSON.
func (m *mcpSession) call(name string, args map[string]any) (json.RawMessage, *mcp.CallToolResult) {
	m.t.Helper()
	res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		m.t.Fatalf("%s: %v", name, err)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		m.t.Fatal(err)
	}
	return b, res
}

// close closes stdin, as a client that quits does, and waits for memctl.
func (m *mcpSession) close() int {
	m.t.Helper()
	m.stdin.Close()
	select {
	case code := <-m.code:
		return code
	case <-time.After(20 * time.Second):
		m.t.Fatal("memctl mcp did not end when stdin closed")
	}
	return -1
}

func field(t *testing.T, b json.RawMessage, path ...string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: no %v", b, path)
		}
		v = m[p]
	}
	return v
}

// TestMCPStdioShapes: the objects the tools answer are memctl --json's,
// key for key, and stdout carries nothing but protocol.
func TestMCPStdioShapes(t *testing.T) {
	db := tempDB(t)
	ctx := context.Background()
	m := startMCP(t, ctx, "--db", db, "--now", "2026-03-10", "mcp")
	m.call("remember", map[string]any{"text": "I work at Яндекс.", "source_ref": "msg-1"})
	upd, _ := m.call("remember", map[string]any{"text": "I now work at Yandex; I moved from Яндекс.", "event_from": "2026-02-01"})
	if field(t, upd, "decision", "action") != "update" {
		t.Fatalf("update: %s", upd)
	}
	mg, _ := m.call("merge", map[string]any{"from": "Яндекс", "into": "Yandex"})
	gets, _ := m.call("get", map[string]any{"id": 1})
	ds, _ := m.call("decisions", map[string]any{})
	cs, _ := m.call("conflicts", map[string]any{"all": true})
	es, _ := m.call("edges", map[string]any{"all": true})
	at, _ := m.call("at", map[string]any{"event": "2026-01-15"})
	if code := m.close(); code != 0 {
		t.Fatalf("memctl mcp ended with %d, stderr %q", code, m.stderr.String())
	}
	if s := m.stderr.String(); !strings.HasPrefix(s, "memctl: MCP server of "+db+" over stdio") {
		t.Errorf("stderr %q", s)
	}
	same := func(what string, got any, cli string) {
		t.Helper()
		var want any
		if err := json.Unmarshal([]byte(cli), &want); err != nil {
			t.Fatalf("%s: memctl printed %q", what, cli)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: mcp answers\n%v\nmemctl --json prints\n%v", what, got, want)
		}
	}
	same("the fact stored", field(t, upd, "fact"), ok(t, "--db", db, "--json", "get", "2"))
	same("the fact replaced", field(t, upd, "replaced"), ok(t, "--db", db, "--json", "get", "1"))
	same("the fact of get", field(t, gets, "fact"), ok(t, "--db", db, "--json", "get", "1"))
	same("the versions", field(t, gets, "versions"), ok(t, "--db", db, "--json", "history", "1"))
	same("the decisions", field(t, ds, "decisions"), ok(t, "--db", db, "--json", "decisions"))
	same("the conflicts", field(t, cs, "conflicts"), ok(t, "--db", db, "--json", "conflicts", "--all"))
	same("the edges", field(t, es, "edges"), ok(t, "--db", db, "--json", "graph", "--all"))
	same("the merge", []any{field(t, mg, "merge")}, ok(t, "--db", db, "--json", "graph", "merges"))
	same("at", field(t, at, "facts"), ok(t, "--db", db, "--json", "at", "--event", "2026-01-15"))
	ok(t, "--db", db, "check")
}

// TestMCPStdioEnds: Ctrl-C (the context) ends the server as stdin's end
// does, with the store closed.
func TestMCPStdioEnds(t *testing.T) {
	db := tempDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	m := startMCP(t, ctx, "--db", db, "mcp")
	m.call("remember", map[string]any{"text": "I live in Lyon."})
	cancel()
	select {
	case code := <-m.code:
		if code != 0 {
			t.Errorf("after Ctrl-C: exit %d, stderr %q", code, m.stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("memctl mcp did not end on Ctrl-C")
	}
	m.stdin.Close()
	if out := ok(t, "--db", db, "list"); !strings.Contains(out, "Lyon") {
		t.Errorf("after the server: %q", out)
	}
}

// TestMCPModelFailure: a decider that fails is reported as memctl
// reports it: a decision naming its fallback, or under --fallback error a
// tool error that stores nothing.
func TestMCPModelFailure(t *testing.T) {
	srv := ollamatest.New(t)
	srv.SetFault(ollamatest.Error500)
	t.Setenv("OLLAMA_HOST", srv.URL)
	db := tempDB(t)
	m := startMCP(t, context.Background(), "--db", db, "mcp", "--decider", "ollama", "--model", "m")
	b, res := m.call("remember", map[string]any{"text": "I live in Lyon."})
	if res.IsError || field(t, b, "decision", "action") != "add" ||
		!strings.Contains(field(t, b, "fallback").(string), "ollama decider failed: ") ||
		!strings.Contains(field(t, b, "fallback").(string), "fallback add") || field(t, b, "decision", "fallback") == "" {
		t.Errorf("--fallback add: %s", b)
	}
	m.close()
	m = startMCP(t, context.Background(), "--db", db, "mcp", "--decider", "ollama", "--model", "m", "--fallback", "error")
	b, res = m.call("remember", map[string]any{"text": "I live in Paris."})
	if !res.IsError || field(t, b, "decision", "action") != "refused" || field(t, b, "fact") != nil {
		t.Errorf("--fallback error: %s %+v", b, res)
	}
	if txt := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(txt, "decider failed") || !strings.Contains(txt, "nothing was stored") {
		t.Errorf("--fallback error: text %q", txt)
	}
	m.close()
	if out := ok(t, "--db", db, "list"); strings.Contains(out, "Paris") {
		t.Errorf("a refused fact was stored: %q", out)
	}
}

func TestMCPUsage(t *testing.T) {
	db := tempDB(t)
	fails(t, exitUsage, "--db", db, "mcp", "--http", "10.1.2.3:7712")
	fails(t, exitUsage, "--db", db, "mcp", "--http", "nonsense")
	fails(t, exitUsage, "--db", db, "mcp", "--decider", "oracle")
	fails(t, exitUsage, "--db", db, "mcp", "extra")
	fails(t, exitUsage, "--db", db, "--user", "a\x01b", "mcp")
	fails(t, exitUsage, "--db", db, "mcp", "--inspect", "10.1.2.3:7711")
	fails(t, exitUsage, "--db", db, "mcp", "--inspect", "nonsense")
	fails(t, exitUsage, "--db", db, "mcp", "--http", "127.0.0.1:0", "--inspect", "0.0.0.0:7711")
}

var mcpURL = regexp.MustCompile(`at (http://\S+/mcp) .*?(?:Bearer ([0-9a-f]+))?$`)

// startHTTP runs memctl mcp --http on a free port and returns its address
// and token, read from stderr.
func startHTTP(t *testing.T, ctx context.Context, args ...string) (url, token string, done chan int) {
	t.Helper()
	errR, errW := io.Pipe()
	done = make(chan int, 1)
	go func() { code := run(ctx, args, strings.NewReader(""), io.Discard, errW); errW.Close(); done <- code }()
	line, err := bufio.NewReader(errR).ReadString('\n')
	if err != nil {
		t.Fatalf("memctl %q: %v", args, err)
	}
	go io.Copy(io.Discard, errR)
	sm := mcpURL.FindStringSubmatch(strings.TrimSpace(line))
	if sm == nil {
		t.Fatalf("memctl %q printed %q", args, line)
	}
	return sm[1], sm[2], done
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects the Go SDK's client to the MCP server at a, with
// its token as the bearer.
func connectHTTP(t *testing.T, ctx context.Context, a address) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "memctl-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: a.url,
		HTTPClient: &http.Client{Transport: bearer{a.token}}}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", a.url, err)
	}
	return cs
}

// TestMCPHTTP: streamable HTTP with the per-run token, refused without it,
// with another token or from another Host, and shut down by the context.
func TestMCPHTTP(t *testing.T) {
	db := tempDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, token, done := startHTTP(t, ctx, "--db", db, "mcp", "--http", "127.0.0.1:0")
	if len(token) != 32 {
		t.Fatalf("token %q", token)
	}
	post := func(host, auth string) int { return status(t, url, host, auth) }
	for _, c := range []struct {
		host, auth string
		want       int
	}{
		{"", "", http.StatusUnauthorized},
		{"", "Bearer " + strings.Repeat("0", 32), http.StatusUnauthorized},
		{"", token, http.StatusUnauthorized}, // not as a bearer
		{"evil.example:80", "Bearer " + token, http.StatusMisdirectedRequest},
		{"", "Bearer " + token, http.StatusOK},
	} {
		if got := post(c.host, c.auth); got != c.want {
			t.Errorf("Host %q, Authorization %q: %d, want %d", c.host, c.auth, got, c.want)
		}
	}
	cs := connectHTTP(t, ctx, address{url, token})
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "remember", Arguments: map[string]any{"text": "I live in Lyon."}})
	if err != nil || res.IsError {
		t.Fatalf("remember over HTTP: %v %+v", err, res)
	}
	cs.Close()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("after Ctrl-C: exit %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("memctl mcp --http did not end on Ctrl-C")
	}
	if out := ok(t, "--db", db, "list"); !strings.Contains(out, "Lyon") {
		t.Errorf("after the server: %q", out)
	}

	// --no-token asks for none; --allow-host answers that name too.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	url, token, done = startHTTP(t, ctx2, "--db", db, "mcp", "--http", "127.0.0.1:0", "--no-token", "--allow-host", "memory.test")
	if token != "" {
		t.Errorf("--no-token printed a token %q", token)
	}
	if got := post("", ""); got != http.StatusOK {
		t.Errorf("--no-token: %d", got)
	}
	if got := post("memory.test:7712", ""); got != http.StatusOK {
		t.Errorf("--allow-host memory.test: %d", got)
	}
	if got := post("other.test", ""); got != http.StatusMisdirectedRequest {
		t.Errorf("a Host not allowed: %d", got)
	}
	cancel2()
	<-done
}

// TestMCPInspect: mcp --inspect serves the inspector from the MCP server's
// process, on its open store. On stdio its address, with its token, goes to
// stderr; the inspector shows what the session remembered; and when stdin
// closes the process ends with exit 0, the inspector stopped with it and
// the store closed.
func TestMCPInspect(t *testing.T) {
	db := tempDB(t)
	m := startMCP(t, context.Background(), "--db", db, "mcp", "--inspect", "127.0.0.1:0")
	// The address is told before the server answers initialize.
	insp, _ := told(strings.Split(strings.TrimSpace(m.stderr.String()), "\n")...)
	if insp.url == "" || len(insp.token) != 32 {
		t.Fatalf("stderr %q", m.stderr.String())
	}
	if b, res := m.call("remember", map[string]any{"text": "I live in Lyon."}); res.IsError {
		t.Fatalf("remember: %s", b)
	}
	if c, body := inspectorPage(t, insp); c != http.StatusOK || !strings.Contains(body, "I live in Lyon.") {
		t.Errorf("the inspector, with its token: %d, without the fact remembered over MCP", c)
	}
	if c := status(t, insp.url, "", ""); c != http.StatusForbidden {
		t.Errorf("the inspector without its token: %d", c)
	}
	if c := status(t, insp.url+"?token="+insp.token, "evil.example", ""); c != http.StatusMisdirectedRequest {
		t.Errorf("the inspector from a foreign Host: %d", c)
	}
	if code := m.close(); code != 0 {
		t.Fatalf("memctl mcp --inspect ended with %d, stderr %q", code, m.stderr.String())
	}
	gone(t, db, "I live in Lyon.", insp.url)
}

// TestMCPHTTPInspect: mcp --http --inspect serves both over HTTP from one
// process, each with its own token or, with --no-token, none; Ctrl-C stops
// both, exit 0.
func TestMCPHTTPInspect(t *testing.T) {
	for _, tc := range []struct {
		name    string
		noToken bool
	}{{"tokens", false}, {"--no-token", true}} {
		t.Run(tc.name, func(t *testing.T) {
			db := tempDB(t)
			args := []string{"--db", db, "mcp", "--http", "127.0.0.1:0", "--inspect", "127.0.0.1:0"}
			if tc.noToken {
				args = append(args, "--no-token")
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			errOut := &lineWriter{line: make(chan string, 2)}
			code := make(chan int, 1)
			go func() { code <- run(ctx, args, strings.NewReader(""), io.Discard, errOut) }()
			insp, at := told(nextLine(t, errOut, code, errOut), nextLine(t, errOut, code, errOut))
			if insp.url == "" || at.url == "" || (insp.token == "") != tc.noToken || (at.token == "") != tc.noToken {
				t.Fatalf("stderr %q", errOut)
			}
			cs := connectHTTP(t, ctx, at)
			if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "remember", Arguments: map[string]any{"text": "I live in Lyon."}}); err != nil || res.IsError {
				t.Fatalf("remember over HTTP: %v %+v", err, res)
			}
			cs.Close()
			if c, body := inspectorPage(t, insp); c != http.StatusOK || !strings.Contains(body, "I live in Lyon.") {
				t.Errorf("the inspector: %d, without the fact remembered over MCP", c)
			}
			want := http.StatusUnauthorized
			if tc.noToken {
				want = http.StatusOK
			}
			if c := status(t, at.url, "", ""); c != want {
				t.Errorf("MCP without a token: %d, want %d", c, want)
			}
			cancel()
			exitsZero(t, code, errOut)
			gone(t, db, "I live in Lyon.", insp.url, at.url)
		})
	}
}
