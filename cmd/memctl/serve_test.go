package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// lineWriter hands each line written to it to a channel, which must have
// room for every line memctl writes: a full one would hold memctl up.
type lineWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	rest []byte
	line chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	w.rest = append(w.rest, p...)
	for {
		i := bytes.IndexByte(w.rest, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.line <- string(w.rest[:i])
		w.rest = w.rest[i+1:]
	}
}

func (w *lineWriter) String() string { w.mu.Lock(); defer w.mu.Unlock(); return w.buf.String() }

// nextLine is the next line w receives; the test fails if memctl, whose
// exit code comes on code, ends or says nothing for 10 s first.
func nextLine(t *testing.T, w *lineWriter, code chan int, errOut fmt.Stringer) string {
	t.Helper()
	select {
	case line := <-w.line:
		return line
	case c := <-code:
		t.Fatalf("memctl exited %d: %s", c, errOut)
	case <-time.After(10 * time.Second):
		t.Fatalf("memctl printed no address: %s", errOut)
	}
	return ""
}

// address is a server's URL and token as memctl tells them.
type address struct{ url, token string }

var inspectorLine = regexp.MustCompile(`^(?:memctl: )?inspector of .+ at (http://127\.0\.0\.1:\d+/)(?:\?token=([0-9a-f]{32}))?$`)

// told finds, in the lines memctl wrote, the inspector's address and the
// MCP server's.
func told(lines ...string) (inspector, mcp address) {
	for _, l := range lines {
		if m := inspectorLine.FindStringSubmatch(l); m != nil {
			inspector = address{m[1], m[2]}
		} else if m := mcpURL.FindStringSubmatch(l); m != nil {
			mcp = address{m[1], m[2]}
		}
	}
	return inspector, mcp
}

// inspectorPage opens the inspector at a as a browser opens the address
// memctl printed: with the token, which becomes a cookie.
func inspectorPage(t *testing.T, a address) (int, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u := a.url
	if a.token != "" {
		u += "?token=" + a.token
	}
	resp, err := (&http.Client{Jar: jar, Timeout: 10 * time.Second}).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// status is the answer's status to a request of u (following no
// redirect) with Host host and Authorization auth, when not "": for an
// MCP endpoint the first POST of a session, else a GET.
func status(t *testing.T, u, host, auth string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if strings.HasSuffix(u, "/mcp") {
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
		req, _ = http.NewRequest(http.MethodPost, u, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	if host != "" {
		req.Host = host
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	client := &http.Client{Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// exitsZero waits for memctl's exit code on code, and fails the test
// unless it comes within 20 s and is 0.
func exitsZero(t *testing.T, code chan int, errOut fmt.Stringer) {
	t.Helper()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("memctl ended with %d: %s", c, errOut)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("memctl did not end")
	}
}

// gone fails the test unless, memctl ended, each server of urls refuses
// connections and the store, closed, opens again and lists want.
func gone(t *testing.T, db, want string, urls ...string) {
	t.Helper()
	for _, u := range urls {
		refused(t, u)
	}
	if got := ok(t, "--db", db, "list"); !strings.Contains(got, want) {
		t.Errorf("after memctl: %q, want %q", got, want)
	}
}

// refused fails the test unless the server of u is gone: a connection to
// its port is refused.
func refused(t *testing.T, u string) {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.DialTimeout("tcp", p.Host, 5*time.Second)
	if err == nil {
		c.Close()
		t.Errorf("%s still takes connections after memctl ended", p.Host)
	} else if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("%s: %v, want connection refused", p.Host, err)
	}
}

func TestServe(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Lyon.")
	ctx, cancel := context.WithCancel(context.Background())
	out := &lineWriter{line: make(chan string, 1)}
	var errOut bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--db", db, "serve", "--addr", "127.0.0.1:0"}, strings.NewReader(""), out, &errOut)
	}()
	var line string
	select {
	case line = <-out.line:
	case c := <-code:
		t.Fatalf("serve exited %d: %s", c, errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatal("serve printed no address")
	}
	m := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/)\?token=([0-9a-f]{32})$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("address line %q", line)
	}
	base, token := m[1], m[2]
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 5 * time.Second}
	get := func(url string) (int, string) {
		t.Helper()
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if c, body := get(base); c != http.StatusForbidden || strings.Contains(body, "Lyon.") {
		t.Fatalf("without the token: %d", c)
	}
	if c, body := get(base + "?token=" + token); c != http.StatusOK || !strings.Contains(body, "I live in Lyon.") {
		t.Fatalf("with the token: %d", c)
	}
	// A rebound name is refused even with the token's cookie.
	req, _ := http.NewRequest("GET", base+"?token="+token, nil)
	req.Host = "evil.example"
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Fatalf("foreign Host: %d", resp.StatusCode)
	}
	cancel()
	exitsZero(t, code, &errOut)
}

// TestServeMCP: serve --mcp serves MCP over streamable HTTP beside the
// inspector, from one process on one open store: a fact remembered over
// MCP is recalled over MCP and shown by the inspector. Each server wants
// its own token (401 or 403 without it) and a loopback Host (421), and
// Ctrl-C, with an MCP session still open, stops both, exit 0, before the
// store closes.
func TestServeMCP(t *testing.T) {
	db := tempDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, errOut := &lineWriter{line: make(chan string, 2)}, &syncBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--db", db, "serve", "--addr", "127.0.0.1:0", "--mcp", "127.0.0.1:0", "--decider", "rules", "--fallback", "error"},
			strings.NewReader(""), out, errOut)
	}()
	l1, l2 := nextLine(t, out, code, errOut), nextLine(t, out, code, errOut)
	insp, at := told(l1, l2)
	if insp.url == "" || at.url == "" || insp.token == "" || len(at.token) != 32 || insp.token == at.token {
		t.Fatalf("serve --mcp printed %q and %q", l1, l2)
	}
	m := &mcpSession{t: t, cs: connectHTTP(t, ctx, at)}
	defer m.cs.Close()
	if b, res := m.call("remember", map[string]any{"text": "I live in Lyon."}); res.IsError || field(t, b, "decision", "action") != "add" {
		t.Fatalf("remember over HTTP: %s", b)
	}
	if b, _ := m.call("recall", map[string]any{"query": "Where do I live?"}); !strings.Contains(string(b), "I live in Lyon.") {
		t.Errorf("recall over HTTP: %s", b)
	}
	if c, body := inspectorPage(t, insp); c != http.StatusOK || !strings.Contains(body, "I live in Lyon.") {
		t.Errorf("the inspector, with its token: %d, without the fact remembered over MCP", c)
	}
	for _, tc := range []struct {
		name, url, host, auth string
		want                  int
	}{
		{"inspector, no token", insp.url, "", "", http.StatusForbidden},
		{"inspector, the MCP token", insp.url + "?token=" + at.token, "", "", http.StatusForbidden},
		{"inspector, foreign Host", insp.url + "?token=" + insp.token, "evil.example", "", http.StatusMisdirectedRequest},
		{"inspector, its token", insp.url + "?token=" + insp.token, "", "", http.StatusSeeOther},
		{"MCP, no token", at.url, "", "", http.StatusUnauthorized},
		{"MCP, a wrong token", at.url, "", "Bearer " + strings.Repeat("0", 32), http.StatusUnauthorized},
		{"MCP, the inspector's token", at.url, "", "Bearer " + insp.token, http.StatusUnauthorized},
		{"MCP, foreign Host", at.url, "evil.example:80", "Bearer " + at.token, http.StatusMisdirectedRequest},
		{"MCP, its token", at.url, "", "Bearer " + at.token, http.StatusOK},
	} {
		if got := status(t, tc.url, tc.host, tc.auth); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	cancel()
	exitsZero(t, code, errOut)
	gone(t, db, "I live in Lyon.", insp.url, at.url)
}

// TestServeReady: the ready callback gets, once every listener is bound
// and before anything is served, each server's URL without its token
// ("" for a server not asked for), and each takes connections then.
func TestServeReady(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		inspector, mcp, stdio bool
	}{
		{name: "inspector", inspector: true},
		{name: "inspector and MCP over HTTP", inspector: true, mcp: true},
		{name: "MCP over HTTP", mcp: true},
		{name: "MCP over stdio and the inspector", stdio: true, inspector: true},
		{name: "MCP over stdio", stdio: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := memory.Open(tempDB(t), 0, &memory.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			stdin, stdinW := io.Pipe()
			defer stdinW.Close()
			var lines bytes.Buffer
			a := &app{stdin: stdin, stdout: &lines, stderr: &lines, rawStdout: io.Discard, getenv: func(string) string { return "" }}
			sv := serving{lim: defaultServeLimits(), stdio: tc.stdio, tell: a.printf}
			if tc.inspector {
				sv.inspector = &endpoint{flag: "--addr", addr: "127.0.0.1:0", token: newToken()}
			}
			if tc.mcp {
				sv.mcp = &endpoint{flag: "--mcp", addr: "127.0.0.1:0", token: newToken()}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got []servingAt
			err = a.serve(ctx, s, sv, func(at servingAt) {
				got = append(got, at)
				for _, u := range []string{at.Inspector, at.MCP} {
					if u == "" {
						continue
					}
					p, _ := url.Parse(u)
					c, err := net.Dial("tcp", p.Host)
					if err != nil {
						t.Errorf("%s at ready: %v", u, err)
						continue
					}
					c.Close()
				}
				cancel() // serving stops at once, and serve returns
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("ready called %d times", len(got))
			}
			at := got[0]
			for _, c := range []struct {
				what, got, want string
				asked           bool
			}{
				{"Inspector", at.Inspector, `^http://127\.0\.0\.1:\d+/$`, tc.inspector},
				{"MCP", at.MCP, `^http://127\.0\.0\.1:\d+/mcp$`, tc.mcp},
			} {
				if c.asked && !regexp.MustCompile(c.want).MatchString(c.got) || !c.asked && c.got != "" {
					t.Errorf("%s %q (asked for: %v)", c.what, c.got, c.asked)
				}
			}
			if !strings.Contains(lines.String(), at.Inspector) || !strings.Contains(lines.String(), at.MCP) {
				t.Errorf("told %q, ready %+v", lines.String(), at)
			}
			for _, u := range []string{at.Inspector, at.MCP} {
				if u != "" {
					refused(t, u)
				}
			}
		})
	}
}

func TestServeRefuses(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Lyon.")
	if e := fails(t, exitUsage, "--db", db, "serve", "--addr", "0.0.0.0:7711"); !strings.Contains(e, "not a loopback address") {
		t.Errorf("stderr %q", e)
	}
	if e := fails(t, exitUsage, "--db", db, "serve", "--addr", "7711"); !strings.Contains(e, "HOST:PORT") {
		t.Errorf("stderr %q", e)
	}
	fails(t, exitUsage, "--db", db, "serve", "extra")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--addr", "127.0.0.1:0", "--mcp", "0.0.0.0:7712"}, "--mcp 0.0.0.0:7712 is not a loopback address"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--mcp", "7712"}, "--mcp \"7712\""},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--decider", "add"}, "--decider is for the remember of --mcp's server"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--mcp", "127.0.0.1:0", "--decider", "oracle"}, "unknown decider"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--mcp", "127.0.0.1:0", "--fallback", "maybe"}, "unknown fallback"},
		{[]string{"--user", "a\x01b", "serve", "--addr", "127.0.0.1:0", "--mcp", "127.0.0.1:0"}, "--user"},
	} {
		if e := fails(t, exitUsage, append([]string{"--db", db}, tc.args...)...); !strings.Contains(e, tc.want) {
			t.Errorf("memctl %q: stderr %q, want %q", tc.args, e, tc.want)
		}
	}
}

// A port taken is an error that names the flag, and serve ends with the
// listener it bound already closed: its port can be bound again.
func TestServePortTaken(t *testing.T) {
	db := tempDB(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := free.Addr().String()
	free.Close()
	if e := fails(t, exitError, "--db", db, "serve", "--addr", addr, "--mcp", taken.Addr().String()); !strings.Contains(e, "--mcp: listen tcp "+taken.Addr().String()) {
		t.Errorf("stderr %q", e)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("--addr %s still held after serve failed: %v", addr, err)
	}
	ln.Close()
}

func TestBoundLoopback(t *testing.T) {
	for _, tc := range []struct {
		a    net.Addr
		want bool
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7711}, true},
		{&net.TCPAddr{IP: net.IPv4(127, 3, 2, 1), Port: 7711}, true},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 7711}, true},
		{&net.TCPAddr{IP: net.IPv4(192, 0, 2, 2), Port: 7711}, false},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 7711}, false},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 7711}, false},
		{&net.TCPAddr{Port: 7711}, false},
		{&net.UnixAddr{Name: "/tmp/x", Net: "unix"}, false},
	} {
		if got := boundLoopback(tc.a) == nil; got != tc.want {
			t.Errorf("boundLoopback(%v) = %v, want %v", tc.a, got, tc.want)
		}
	}
}

// listen refuses, and closes, a socket bound on an interface other
// machines reach, as a name resolved by DNS could give.
func TestListenRefusesNonLoopback(t *testing.T) {
	ln, err := (&endpoint{flag: "--addr", addr: "127.0.0.1:0"}).listen()
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	ip := nonLoopbackIP(t)
	ln, err = (&endpoint{flag: "--addr", addr: net.JoinHostPort(ip, "0"), nonLoopback: true}).listen()
	if err != nil {
		t.Fatalf("with --allow-nonloopback: %v", err)
	}
	at := ln.Addr().String()
	ln.Close()
	if ln, err := (&endpoint{flag: "--addr", addr: at}).listen(); err == nil {
		ln.Close()
		t.Fatalf("listen on %s went through", at)
	} else if !strings.Contains(err.Error(), "not a loopback address") {
		t.Fatalf("error %q", err)
	}
	// The refused socket was closed: its port can be bound again.
	ln, err = net.Listen("tcp", at)
	if err != nil {
		t.Fatalf("%s still held after a refusal: %v", at, err)
	}
	ln.Close()
}

// nonLoopbackIP is an address of this machine off the loopback interface.
func nonLoopbackIP(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	t.Skip("no non-loopback IPv4 address to bind")
	return ""
}
