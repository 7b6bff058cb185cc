package main

import (
	"crypto/subtle"
	"fmt"
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

// mcpCmd is "memctl mcp": the store over the Model Context Protocol.
func (a *app) mcpCmd() *cobra.Command {
	var (
		rf               rememberFlags
		g                guardFlags
		httpAddr, inspAt string
	)
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

--inspect HOST:PORT serves the memory inspector of memctl serve too, from the
same process and the same open store, with the same protections; its address,
with its own per-run token (unless --no-token), goes to stderr. It stops with
the MCP server (stdin closed, Ctrl-C, SIGTERM), before the store closes.

remember decides with --decider (default $MEMCTL_DECIDER, else rules), --model,
--fallback, --lookup, --embedder and --timeout, as memctl remember does; a
model failure is a tool error (--fallback error) or a decision that names its
fallback.

While it runs, the other memctl commands on this store run inside it, through
a socket in $XDG_RUNTIME_DIR/palimpsest (see the README's "One process owns the
store"); memctl mcp on stdio started beside a memctl serve runs inside that.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			tune, err := a.rememberOptions(&rf)
			if err != nil {
				return err
			}
			if err := memory.ValidUser(a.user); err != nil {
				return usagef("--user: %v", err)
			}
			sv := serving{tell: a.logf, lim: defaultServeLimits(), stdio: httpAddr == "", holder: "memctl mcp"}
			if httpAddr != "" {
				if sv.mcp, err = g.endpoint("--http", httpAddr); err != nil {
					return err
				}
			}
			if inspAt != "" {
				if sv.inspector, err = g.endpoint("--inspect", inspAt); err != nil {
					return err
				}
			}
			return a.withTunedStore(false, tune, func(s *memory.Store) error {
				return a.serve(cmd.Context(), s, sv, nil)
			})
		},
	}
	f := c.Flags()
	f.StringVar(&httpAddr, "http", "", "serve streamable HTTP at HOST:PORT/mcp instead of stdio (port 0 picks a free one)")
	f.StringVar(&inspAt, "inspect", "", "serve the inspector at HOST:PORT too (port 0 picks a free one)")
	g.register(f)
	rf.registerDecider(f)
	return c
}

// mcpServer is the MCP server of the open store s, for --user.
func (a *app) mcpServer(s *memory.Store) (*mcp.Server, error) {
	return mcpserver.New(s, &mcpserver.Options{User: a.user, SourceKind: "mcp", Version: version(debug.ReadBuildInfo())})
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
// e.hosts (else 421, against DNS rebinding), the bearer token e.token
// unless it is "" (else 401), and no cross-origin browser request (403).
func mcpHandler(server *mcp.Server, e *endpoint) http.Handler {
	// The SDK's own guard against DNS rebinding refuses every Host but
	// localhost's; the check below is the same with --allow-host's names.
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute, DisableLocalhostProtection: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.NewCrossOriginProtection().Handler(h))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !inspect.HostAllowed(r.Host, e.hosts) {
			http.Error(w, "refused: this server answers only to a loopback host name (localhost, 127.0.0.1, [::1])", http.StatusMisdirectedRequest)
			return
		}
		if e.token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(e.token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="memctl"`)
				http.Error(w, "refused: send the token memctl printed at start, as Authorization: Bearer TOKEN", http.StatusUnauthorized)
				return
			}
		}
		mux.ServeHTTP(w, r)
	})
}
