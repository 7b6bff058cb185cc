package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory/inspect"
	"github.com/spf13/pflag"
)

// servingAt is where a process's HTTP servers listen once every one of
// them is bound: the inspector's address and the MCP endpoint's, without
// their tokens; "" for a server the process does not run. serve and mcp
// hand it to their ready callback, which is how the process can announce
// to others where the store it holds is served.
type servingAt struct{ Inspector, MCP string }

// guardFlags are the flags that protect every HTTP server of a command
// (the inspector and MCP over HTTP alike).
type guardFlags struct {
	noToken     bool     // --no-token
	nonLoopback bool     // --allow-nonloopback
	hosts       []string // --allow-host: Host names answered besides the loopback ones
}

func (g *guardFlags) register(f *pflag.FlagSet) {
	f.BoolVar(&g.noToken, "no-token", false, "ask for no per-run token (any local program could then use the store)")
	f.BoolVar(&g.nonLoopback, "allow-nonloopback", false, "allow an address that other machines can reach")
	f.StringArrayVar(&g.hosts, "allow-host", nil, "a Host name to answer besides the loopback ones (repeatable)")
}

// endpoint is one HTTP server of a process: where it listens, the Host
// names it answers besides the loopback ones, and its per-run token.
type endpoint struct {
	flag        string // the flag that gave addr (--addr, --mcp, --http, --inspect), for messages
	addr        string // HOST:PORT; port 0 picks a free one
	nonLoopback bool
	hosts       []string
	token       string // "" asks for none (--no-token)
}

// endpoint checks addr, given by flag, and refuses as a usage error an
// address the store would be open to other machines at, unless
// --allow-nonloopback; a host that is not a loopback name is answered
// too. Unless --no-token it draws the endpoint's token.
func (g *guardFlags) endpoint(flag, addr string) (*endpoint, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, usagef("%s %q: %v (give HOST:PORT, e.g. 127.0.0.1:7711)", flag, addr, err)
	}
	loopback := inspect.IsLoopbackName(host)
	if !loopback && !g.nonLoopback {
		return nil, usagef("%s %s is not a loopback address: the store would be open to other machines (give --allow-nonloopback to mean it)", flag, addr)
	}
	e := &endpoint{flag: flag, addr: addr, nonLoopback: g.nonLoopback, hosts: slices.Clone(g.hosts)}
	if !loopback && host != "" {
		e.hosts = append(e.hosts, host)
	}
	if !g.noToken {
		e.token = newToken()
	}
	return e, nil
}

// newToken is a per-run token: 128 random bits in hex.
func newToken() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// listen binds e's address and, unless nonLoopback, refuses (closing it) a
// socket bound elsewhere than the loopback interface: the name check
// before it cannot tell where DNS sends a name (foo.localhost may be asked
// of DNS).
func (e *endpoint) listen() (net.Listener, error) {
	ln, err := net.Listen("tcp", e.addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.flag, err)
	}
	if !e.nonLoopback {
		if err := boundLoopback(ln.Addr()); err != nil {
			ln.Close()
			return nil, usagef("%s %s: %w: the store would be open to other machines (give --allow-nonloopback to mean it)", e.flag, e.addr, err)
		}
	}
	return ln, nil
}

// boundLoopback says, as an error, when a is not a TCP address on the
// loopback interface.
func boundLoopback(a net.Addr) error {
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsLoopback() {
		return nil
	}
	return fmt.Errorf("bound to %s, not a loopback address", a)
}

// serveLimits bound every phase of a request, so that a client that
// sends slowly or not at all (a stalled tab, a hostile local program)
// holds no connection or handler for long. The inspector's pages answer
// in milliseconds, but the first lookup may build the candidate index
// (seconds at 100,000 facts), which write has room for.
type serveLimits struct {
	readHeader time.Duration // the request line and headers
	read       time.Duration // the whole request, body included
	write      time.Duration // from the end of the headers to the end of the answer
	idle       time.Duration // a kept-alive connection between requests
	headerSize int           // bytes of request line and headers
}

func defaultServeLimits() serveLimits {
	return serveLimits{readHeader: 5 * time.Second, read: 10 * time.Second, write: time.Minute,
		idle: 30 * time.Second, headerSize: 64 << 10}
}

// serveHTTP serves h on ln with the bounds lim until ctx ends, then shuts
// down and returns: in-flight requests have 5 s to finish (their context
// ends with ctx), and the connections still open then are closed. The
// stop was asked for (Ctrl-C, SIGTERM), so a request cut short then is
// not an error of the command; a loaded machine took more than 5 s to
// end a streamable-HTTP session's stream.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, lim serveLimits) error {
	srv := &http.Server{Handler: h, BaseContext: func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: lim.readHeader, ReadTimeout: lim.read, WriteTimeout: lim.write,
		IdleTimeout: lim.idle, MaxHeaderBytes: lim.headerSize}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); errors.Is(err, context.DeadlineExceeded) {
		_ = srv.Close()
	} else if err != nil {
		return fmt.Errorf("shutting down %s: %w", ln.Addr(), err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// together runs each of fns with a context that ends when ctx does or as
// soon as one of them returns, so that the end of one (stdin closed, a
// server that failed) stops the others; it returns when all have, with
// their errors joined.
func together(ctx context.Context, fns ...func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Go(func() {
			defer cancel()
			errs[i] = fn(ctx)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
