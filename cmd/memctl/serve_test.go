package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineWriter hands the first line written to it to a channel.
type lineWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	line chan string
	sent bool
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if s := w.buf.String(); !w.sent && strings.Contains(s, "\n") {
		w.sent = true
		w.line <- s[:strings.Index(s, "\n")]
	}
	return len(p), nil
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
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit %d after cancel: %s", c, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
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
