package main

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/inspect"
	"github.com/palimpsest-mem/memory/mcpserver"
	"github.com/spf13/cobra"
)

// serveCmd is "memctl serve": the inspector over the store at --db, and
// with --mcp the MCP server beside it.
func (a *app) serveCmd() *cobra.Command {
	var (
		addr, mcpAddr string
		g             guardFlags
	)
	var rf rememberFlags
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
a connection idle for 30 s is closed; a form of more than 64 KiB is refused.

--mcp HOST:PORT serves too, from the same process and the same open store, what
memctl mcp --http serves, for --user: streamable HTTP at HOST:PORT/mcp with the
same protections and bounds (but for the answer: a minute, or two model timeouts
and 30 s when that is longer) and a per-run token of its own, printed on stdout
after the inspector's address, for an "Authorization: Bearer TOKEN" header. Its
remember decides with --decider, --model and --fallback, which need --mcp (and
--lookup, --embedder, --timeout), as memctl mcp's does. Ctrl-C or SIGTERM stops
both servers, then closes the store.

While it runs, the other memctl commands on this store (list, remember, export…)
run inside it, through a socket in $XDG_RUNTIME_DIR/palimpsest: see the README's
"One process owns the store".`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			sv := serving{tell: a.printf, lim: defaultServeLimits(), holder: "memctl serve"}
			var err error
			if sv.inspector, err = g.endpoint("--addr", addr); err != nil {
				return err
			}
			var tune func(*memory.Options)
			if mcpAddr == "" {
				for _, name := range []string{"decider", "model", "fallback"} {
					if cmd.Flags().Changed(name) {
						return usagef("--%s is for the remember of --mcp's server: give --mcp HOST:PORT too", name)
					}
				}
			} else {
				if tune, err = a.rememberOptions(&rf); err != nil {
					return err
				}
				if err := memory.ValidUser(a.user); err != nil {
					return usagef("--user: %v", err)
				}
				if sv.mcp, err = g.endpoint("--mcp", mcpAddr); err != nil {
					return err
				}
			}
			return a.withTunedStore(false, tune, func(s *memory.Store) error {
				return a.serve(cmd.Context(), s, sv, nil)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:7711", "address to listen on (HOST:PORT; port 0 picks a free one)")
	f.StringVar(&mcpAddr, "mcp", "", "serve MCP over streamable HTTP at HOST:PORT/mcp too (port 0 picks a free one)")
	g.register(f)
	rf.registerDecider(f)
	return cmd
}

// printf writes a line on stdout.
func (a *app) printf(format string, args ...any) {
	fmt.Fprintf(a.stdout, format+"\n", args...)
}

// serving is what one process serves of the store it holds open: the
// inspector, the MCP server over streamable HTTP or over stdio, or several
// of them, all on the one open store.
type serving struct {
	inspector *endpoint   // the inspector; nil: none
	lim       serveLimits // the inspector's bounds
	mcp       *endpoint   // MCP over streamable HTTP at /mcp; nil: none
	stdio     bool        // MCP over stdin and stdout, until stdin closes
	// tell writes a line that says where a server is: on stdout for
	// serve, on stderr for mcp, whose stdout may be protocol only.
	tell func(format string, args ...any)
	// holder is the command this process owns the store as, for the
	// others' messages (see own); "" owns it as "memctl".
	holder string
}

// serve binds the listener of every server sv asks for, tells their
// addresses (the inspector's first), calls ready (unless nil) once all are
// bound, and serves until ctx ends (Ctrl-C, or SIGTERM: see main) or,
// with stdio, until stdin closes or a server fails. Then it stops every
// server and returns once all have stopped, so that the caller's Close of
// s (which removes the candidate index) comes after them.
func (a *app) serve(ctx context.Context, s *memory.Store, sv serving, ready func(servingAt)) error {
	var server *mcp.Server
	if sv.mcp != nil || sv.stdio {
		var err error
		if server, err = a.mcpServer(s); err != nil {
			return usageError{err}
		}
	}
	var at servingAt
	type site struct {
		e    *endpoint
		h    http.Handler
		lim  serveLimits
		path string  // what to open: "/", or "/mcp"
		url  *string // its URL in at
		ln   net.Listener
	}
	var sites []*site
	if sv.inspector != nil {
		h, err := inspect.New(s, &inspect.Options{Token: sv.inspector.token, Hosts: sv.inspector.hosts})
		if err != nil {
			return err
		}
		sites = append(sites, &site{e: sv.inspector, h: h, lim: sv.lim, path: "/", url: &at.Inspector})
	}
	if sv.mcp != nil {
		sites = append(sites, &site{e: sv.mcp, h: mcpHandler(server, sv.mcp), lim: a.mcpLimits(), path: "/mcp", url: &at.MCP})
	}
	for i, st := range sites {
		ln, err := st.e.listen()
		if err != nil {
			for _, bound := range sites[:i] {
				bound.ln.Close()
			}
			return err
		}
		st.ln = ln
	}
	runs := make([]func(context.Context) error, 0, len(sites)+1)
	for _, st := range sites {
		*st.url = "http://" + st.ln.Addr().String() + st.path
		runs = append(runs, func(ctx context.Context) error { return serveHTTP(ctx, st.ln, st.h, st.lim) })
	}
	// The other memctl commands run inside this process from before it
	// tells its addresses until every server stopped; stop waits for
	// them, before the caller closes s.
	owner, stop := a.own(ctx, s, cmp.Or(sv.holder, "memctl"))
	defer stop()
	owner.serving(at.Inspector, at.MCP)
	if at.Inspector != "" {
		u := at.Inspector
		if t := sv.inspector.token; t != "" {
			u += "?token=" + t
		}
		sv.tell("inspector of %s at %s", a.storeName(s), u)
	}
	if at.MCP != "" {
		if t := sv.mcp.token; t != "" {
			sv.tell("MCP server of %s at %s (user %s); send the header Authorization: Bearer %s", a.storeName(s), at.MCP, userName(a.user), t)
		} else {
			sv.tell("MCP server of %s at %s (user %s), no token asked", s.Path(), at.MCP, userName(a.user))
		}
	}
	if sv.stdio {
		sv.tell("MCP server of %s over stdio (user %s); it ends when stdin closes", s.Path(), userName(a.user))
		runs = append(runs, func(ctx context.Context) error { return mcpserver.ServeStdio(ctx, server, a.stdin, a.rawStdout) })
	}
	if ready != nil {
		ready(at)
	}
	return together(ctx, runs...)
}

// mcpLimits are serve's bounds on a request to the MCP server, but for
// the answer's: a remember may ask a model twice (an invalid answer is
// asked again), so it has two model timeouts and 30 s when that is longer
// than a minute.
func (a *app) mcpLimits() serveLimits {
	lim := defaultServeLimits()
	if t, err := a.modelTimeout(); err == nil {
		lim.write = max(lim.write, 2*t+30*time.Second)
	}
	return lim
}
