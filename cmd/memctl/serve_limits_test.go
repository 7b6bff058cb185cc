package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// serveWith runs the inspector on a store of one fact with lim, and
// returns its address.
func serveWith(t *testing.T, lim serveLimits) string {
	t.Helper()
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Lyon.")
	s, err := memory.Open(db, 0, &memory.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := &lineWriter{line: make(chan string, 1)}
	a := &app{stdout: out, stderr: io.Discard, getenv: os.Getenv}
	done := make(chan error, 1)
	sv := serving{inspector: &endpoint{flag: "--addr", addr: "127.0.0.1:0"}, lim: lim, tell: a.printf}
	go func() { done <- a.serve(ctx, s, sv, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		s.Close()
	})
	select {
	case line := <-out.line:
		m := regexp.MustCompile(`at http://(127\.0\.0\.1:\d+)/$`).FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("address line %q", line)
		}
		return m[1]
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve printed no address")
	}
	return ""
}

// closedWithin reads c until the server closes it, and fails the test
// unless that takes less than bound. A server that closes a connection
// whose data it has not read makes the kernel reset it rather than end
// it (a body still being dripped): that is a close too.
func closedWithin(t *testing.T, c net.Conn, start time.Time, bound time.Duration) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(bound + 10*time.Second))
	_, err := io.Copy(io.Discard, c)
	if errors.Is(err, syscall.ECONNRESET) {
		err = nil
	}
	if took := time.Since(start); err != nil || took > bound {
		t.Errorf("the server closed the connection after %s (%v), want within %s", took.Round(time.Millisecond), err, bound)
	}
}

// Every phase of a request is bounded: a connection that sends nothing, a
// kept-alive one left idle, a body dripped a byte at a time and a header
// past the size bound all end within their bound. Only ReadHeaderTimeout
// was set: an idle connection stayed open, and a slow body held a handler.
func TestServeBoundsEveryPhase(t *testing.T) {
	t.Parallel()
	lim := serveLimits{readHeader: 300 * time.Millisecond, read: 600 * time.Millisecond, write: 2 * time.Second,
		idle: 300 * time.Millisecond, headerSize: 4 << 10}
	addr := serveWith(t, lim)
	// Room for a loaded 2-core machine: an unbounded phase would take
	// tens of seconds (the slow body's drip, 50 s), far past any bound here.
	const slack = 5 * time.Second
	dial := func(t *testing.T) net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	t.Run("silent connection", func(t *testing.T) {
		c := dial(t)
		closedWithin(t, c, time.Now(), lim.readHeader+slack)
	})
	t.Run("idle kept-alive connection", func(t *testing.T) {
		c := dial(t)
		fmt.Fprintf(c, "GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Close {
			t.Fatalf("GET /style.css: %d, close %v", resp.StatusCode, resp.Close)
		}
		start := time.Now()
		c.SetReadDeadline(start.Add(lim.idle + slack + 10*time.Second))
		_, err = io.Copy(io.Discard, br)
		if took := time.Since(start); err != nil || took > lim.idle+slack {
			t.Errorf("an idle connection was closed after %s (%v), want within %s", took.Round(time.Millisecond), err, lim.idle+slack)
		}
	})
	t.Run("slow body", func(t *testing.T) {
		c := dial(t)
		start := time.Now()
		fmt.Fprintf(c, "POST /facts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntext=")
		go func() { // a byte every 50 ms would take 50 s
			for i := 0; i < 1000; i++ {
				if _, err := c.Write([]byte("a")); err != nil {
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
		closedWithin(t, c, start, lim.read+slack)
	})
	t.Run("header too large", func(t *testing.T) {
		c := dial(t)
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: %s\r\n\r\n", strings.Repeat("b", 16<<10))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("a 16 KiB header: %d, want 431", resp.StatusCode)
		}
	})
}

// The defaults bound every phase too.
func TestServeDefaultLimits(t *testing.T) {
	lim := defaultServeLimits()
	if lim.readHeader <= 0 || lim.read <= 0 || lim.write <= 0 || lim.idle <= 0 || lim.headerSize <= 0 ||
		lim.read > 30*time.Second || lim.idle > time.Minute {
		t.Errorf("default limits %+v", lim)
	}
}

// SIGTERM ends a real memctl serve as Ctrl-C does: it shuts down and
// closes the store, which keeps its candidate index for the next process
// and leaves no other (it once left <db>.index/h-*, every word of every
// fact, until the next writable Open).
func TestServeSIGTERMClosesTheStore(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "My locker code is QXZ7731.")
	cmd := child(t, "--db", db, "serve", "--addr", "127.0.0.1:0", "--no-token")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	m := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("address line %q (%v)", line, err)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get(m[1] + "facts/1/why") // a lookup builds the index
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("why: %d", resp.StatusCode)
	}
	indexes := func() []string {
		got, err := filepath.Glob(filepath.Join(db+".index", "*", "bleve"))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if len(indexes()) == 0 {
		t.Fatal("test is void: the lookup made no index")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- cmd.Wait() }()
	select {
	case err = <-errc:
	case <-time.After(20 * time.Second):
		t.Fatal("memctl serve did not end on SIGTERM")
	}
	if err != nil {
		t.Errorf("memctl serve ended on SIGTERM with %v, want exit 0", err)
	}
	if left := indexes(); len(left) != 1 || filepath.Base(filepath.Dir(left[0])) != "kept" {
		t.Errorf("SIGTERM left %v, want only the kept index", left)
	}
	if _, err := os.Stat(db); err != nil {
		t.Error(err)
	}
}
