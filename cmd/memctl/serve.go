package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/inspect"
	"github.com/spf13/cobra"
)

// serveCmd is "memctl serve": the inspector over the store at --db.
func (a *app) serveCmd() *cobra.Command {
	var (
		addr        string
		noToken     bool
		nonLoopback bool
		hosts       []string
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Open the memory inspector: a web page over the store, on this machine only",
		Long: `serve runs the memory inspector for the store at --db and prints its address.
It shows the current, upcoming and past facts of each user, a fact's versions
and lifecycle with provenance, the bi-temporal timeline, the decision log with
Undo and the conflict queue with Resolve; stop it with Ctrl-C (or SIGTERM), which
closes the store and removes its candidate index.

It listens on a loopback address only (unless --allow-nonloopback), answers
only requests whose Host is a loopback name (or one of --allow-host), refuses
changes from other sites, and wants the per-run token in the address it
prints (unless --no-token) before it shows anything. Each request is bounded: 5 s
for its headers (64 KiB at most), 10 s to read it whole, a minute to answer, and
a connection idle for 30 s is closed; a form of more than 64 KiB is refused.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return usagef("--addr %q: %v (give HOST:PORT, e.g. 127.0.0.1:7711)", addr, err)
			}
			if !inspect.IsLoopbackName(host) && !nonLoopback {
				return usagef("--addr %s is not a loopback address: the store would be open to other machines (give --allow-nonloopback to mean it)", addr)
			}
			opts := &inspect.Options{Hosts: hosts}
			if !inspect.IsLoopbackName(host) && host != "" {
				opts.Hosts = append(opts.Hosts, host)
			}
			if !noToken {
				b := make([]byte, 16)
				rand.Read(b) // never fails (crypto/rand)
				opts.Token = hex.EncodeToString(b)
			}
			return a.withStore(false, func(s *memory.Store) error {
				return a.serve(cmd.Context(), s, addr, nonLoopback, opts, defaultServeLimits())
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:7711", "address to listen on (HOST:PORT; port 0 picks a free one)")
	f.BoolVar(&noToken, "no-token", false, "do not ask for the per-run token (any local program could then read the store)")
	f.BoolVar(&nonLoopback, "allow-nonloopback", false, "allow an --addr that other machines can reach")
	f.StringArrayVar(&hosts, "allow-host", nil, "a Host name to answer besides the loopback ones (repeatable)")
	return cmd
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

// serve listens, prints the address to open, and serves until ctx ends
// (Ctrl-C, or SIGTERM: see main), then shuts down and returns, so that the
// store's Close removes the candidate index.
func (a *app) serve(ctx context.Context, s *memory.Store, addr string, nonLoopback bool, opts *inspect.Options, lim serveLimits) error {
	h, err := inspect.New(s, opts)
	if err != nil {
		return err
	}
	ln, err := listen(addr, nonLoopback)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/"
	owner, stop := a.own(ctx, s, "memctl serve")
	defer stop()
	owner.serving(url, "")
	if opts.Token != "" {
		url += "?token=" + opts.Token
	}
	fmt.Fprintf(a.stdout, "inspector of %s at %s\n", s.Path(), url)
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
	if err := srv.Shutdown(shut); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listen binds addr and, unless nonLoopback, refuses (closing it) a socket
// bound elsewhere than the loopback interface: the name check before it
// cannot tell where DNS sends a name (foo.localhost may be asked of DNS).
func listen(addr string, nonLoopback bool) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if !nonLoopback {
		if err := boundLoopback(ln.Addr()); err != nil {
			ln.Close()
			return nil, usagef("--addr %s: %v: the store would be open to other machines (give --allow-nonloopback to mean it)", addr, err)
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
