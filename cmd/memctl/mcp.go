package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/inspect"
	"github.com/palimpsest-mem/memory/mcpserver"
	"github.com/spf13/cobra"
)

// mcpOptions are how "memctl mcp" serves: over stdio (HTTP ""), or
// streamable HTTP at HTTP with the inspector's protections.
type mcpOptions struct {
	HTTP        string   // HOST:PORT; "" serves stdio
	NonLoopback bool     // --allow-nonloopback
	Hosts       []string // --allow-host: Host names answered besides the loopback ones
	// Token is the bearer token every HTTP request must carry; "" with
	// NoToken asks for none.
	Token   string
	NoToken bool
}

// mcpCmd is "memctl mcp": the store over the Model Context Protocol.
func (a *app) mcpCmd() *cobra.Command {
	rf := rememberFlags{fallback: memory.FallbackAdd}
	var o mcpOptions
	c := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the store to an assistant over the Model Context Protocol (stdio, or --http)",
		Long: `mcp serves the store at --db, for --user, to an assistant over the Model
Context Protocol: its tools remember, recall, context, get, at, correct,
retract, restore, pin, unpin, forget, decisions, undo, conflicts, resolve,
edges, entity, merge and unmerge, and the prompt memory_context.

By default it speaks over stdin and stdout, as desktop assistants start it
(Claude Desktop, Cursor, VS Code, Zed): nothing but protocol goes to stdout,
and it ends when stdin closes, on Ctrl-C or on SIGTERM, closing the store.

--http HOST:PORT serves streamable HTTP at /mcp instead, with the inspector's
protections: a loopback address only (unless --allow-nonloopback), only a
loopback Host (or one of --allow-host), and a per-run token, printed on stderr
at start, in an "Authorization: Bearer TOKEN" header (unless --no-token). Each
request is bounded as serve's are, but for the answer: a minute, or two model
timeouts and 30 s when that is longer.

remember decides with --decider (default $MEMCTL_DECIDER, else rules), --model,
--fallback, --lookup, --embedder and --timeout, as memctl remember does; a
model failure is a tool error (--fallback error) or a decision that names its
fallback.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			tune, err := a.rememberOptions(&rf)
			if err != nil {
				return err
			}
			if err := memory.ValidUser(a.user); err != nil {
				return usagef("--user: %v", err)
			}
			if o.HTTP != "" {
				if err := o.checkHTTP(); err != nil {
					return err
				}
				if !o.NoToken {
					o.Token = newToken()
				}
			}
			return a.withTunedStore(false, tune, func(s *memory.Store) error {
				return a.serveMCP(cmd.Context(), s, o)
			})
		},
	}
	f := c.Flags()
	f.StringVar(&o.HTTP, "http", "", "serve streamable HTTP at HOST:PORT/mcp instead of stdio (port 0 picks a free one)")
	f.BoolVar(&o.NoToken, "no-token", false, "with --http, ask for no token (any local program could then use the store)")
	f.BoolVar(&o.NonLoopback, "allow-nonloopback", false, "with --http, allow an address that other machines can reach")
	f.StringArrayVar(&o.Hosts, "allow-host", nil, "with --http, a Host name to answer besides the loopback ones (repeatable)")
	f.StringVar(&rf.decider, "decider", "", "rules, ollama, openai or add (default $MEMCTL_DECIDER, else rules)")
	f.StringVar(&rf.model, "model", "", "chat model of the ollama or openai decider (default $MEMCTL_MODEL)")
	f.StringVar(&rf.fallback, "fallback", rf.fallback, "when the decider fails: add the fact anyway, or error")
	return c
}

// checkHTTP refuses, as a usage error, an address the store would be open
// to other machines at, unless told; listen checks the address bound too.
func (o *mcpOptions) checkHTTP() error {
	host, _, err := net.SplitHostPort(o.HTTP)
	if err != nil {
		return usagef("--http %q: %v (give HOST:PORT, e.g. 127.0.0.1:7712)", o.HTTP, err)
	}
	if !inspect.IsLoopbackName(host) && !o.NonLoopback {
		return usagef("--http %s is not a loopback address: the store would be open to other machines (give --allow-nonloopback to mean it)", o.HTTP)
	}
	if !inspect.IsLoopbackName(host) && host != "" {
		o.Hosts = append(o.Hosts, host)
	}
	return nil
}

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// mcpServer is the MCP server of the open store s, for --user.
func (a *app) mcpServer(s *memory.Store) (*mcp.Server, error) {
	return mcpserver.New(s, &mcpserver.Options{User: a.user, SourceKind: "mcp", Version: version(debug.ReadBuildInfo())})
}

// serveMCP serves the open store s until ctx ends (Ctrl-C, SIGTERM) or,
// on stdio, until stdin closes; the caller closes s. A process that owns
// the store and serves it otherwise too mounts mcpHandler instead.
func (a *app) serveMCP(ctx context.Context, s *memory.Store, o mcpOptions) error {
	server, err := a.mcpServer(s)
	if err != nil {
		return usageError{err}
	}
	if o.HTTP == "" {
		a.logf("MCP server of %s over stdio (user %s); it ends when stdin closes", s.Path(), userName(a.user))
		return mcpserver.ServeStdio(ctx, server, a.stdin, a.rawStdout)
	}
	h, err := mcpHandler(server, o)
	if err != nil {
		return err
	}
	ln, err := listen(o.HTTP, o.NonLoopback)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	if o.Token != "" {
		a.logf("MCP server of %s at %s (user %s); send the header Authorization: Bearer %s", s.Path(), url, userName(a.user), o.Token)
	} else {
		a.logf("MCP server of %s at %s (user %s), no token asked", s.Path(), url, userName(a.user))
	}
	lim := defaultServeLimits()
	if t, err := a.modelTimeout(); err == nil {
		// A remember may ask a model twice (an invalid answer is asked again).
		lim.write = max(lim.write, 2*t+30*time.Second)
	}
	return serveHTTP(ctx, ln, h, lim)
}

// logf writes a line on stderr: the only place a stdio server may speak.
func (a *app) logf(format string, args ...any) {
	a.stderrMu.Lock()
	defer a.stderrMu.Unlock()
	fmt.Fprintf(a.stderr, "memctl: "+format+"\n", args...)
}

func userName(u string) string {
	if u == "" {
		return "(default)"
	}
	return fmt.Sprintf("%q", u)
}

// mcpHandler is streamable HTTP at /mcp over server, behind the
// inspector's protections: a Host that is a loopback name or one of
// o.Hosts (else 421, against DNS rebinding), the bearer token o.Token
// (else 401), and no cross-origin browser request (403).
func mcpHandler(server *mcp.Server, o mcpOptions) (http.Handler, error) {
	if o.Token == "" && !o.NoToken {
		return nil, errors.New("mcp over HTTP needs a token, or NoToken")
	}
	// The SDK's own guard against DNS rebinding refuses every Host but
	// localhost's; the check below is the same with --allow-host's names.
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute, DisableLocalhostProtection: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.NewCrossOriginProtection().Handler(h))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !inspect.HostAllowed(r.Host, o.Hosts) {
			http.Error(w, "refused: this server answers only to a loopback host name (localhost, 127.0.0.1, [::1])", http.StatusMisdirectedRequest)
			return
		}
		if o.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(o.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="memctl mcp"`)
				http.Error(w, "refused: send the token memctl mcp printed at start, as Authorization: Bearer TOKEN", http.StatusUnauthorized)
				return
			}
		}
		mux.ServeHTTP(w, r)
	}), nil
}

// serveHTTP serves h on ln with the bounds lim until ctx ends, then shuts
// down, as serve does.
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
	if err := srv.Shutdown(shut); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
