package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"
)

// The client side of an owner's socket (see owner.go).

// forwardedEnv are the variables memctl reads (a test holds the list to
// the code), which a command running inside an owner reads from its
// client's environment instead of the owner's.
var forwardedEnv = []string{"HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "MEMCTL_DB", "MEMCTL_DECIDER",
	"MEMCTL_MODEL", "MEMCTL_TIMEOUT", "MEMCTL_LOOKUP", "MEMCTL_EMBEDDER", "MEMCTL_EMBED_MODEL",
	"OLLAMA_HOST", "OPENAI_BASE_URL", "OPENAI_API_KEY", "XDG_STATE_HOME", "NATS_CREDS"}

// exited is a command that ran inside an owner and ended with code, having
// written its own error line, if any.
type exited struct{ code int }

func (e exited) Error() string { return fmt.Sprintf("exit %d", e.code) }

// storeless are the commands that never open --db.
var storeless = map[string]bool{"demo": true, "help": true, "completion": true, "cluster": true,
	cobra.ShellCompRequestCmd: true, cobra.ShellCompNoDescRequestCmd: true}

// viaOwner runs cmd inside the process that owns the store, if one does,
// and then returns exited; nil means no owner answers, and cmd runs here.
// Inside an owner, it refuses what cannot run there.
func (a *app) viaOwner(cmd *cobra.Command, args []string) error {
	top := cmd
	for top.HasParent() && top.Parent().HasParent() {
		top = top.Parent()
	}
	if !top.HasParent() || storeless[top.Name()] {
		return nil
	}
	if o := a.owner; o != nil {
		// A server inside a server would listen in the owner for as long
		// as it lives: refused. memctl mcp over stdio serves the client's
		// own streams, and runs.
		if top.Name() == "serve" || top.Name() == "mcp" && (cmd.Flags().Changed("http") || cmd.Flags().Changed("inspect")) {
			return &heldError{h: o.holder(), why: fmt.Sprintf("%s cannot listen beside it: stop it first, or use its servers", cmd.CommandPath())}
		}
		return nil
	}
	path, err := a.dbPath()
	if err != nil || isClusterURL(path) {
		return nil // the command says why; a cluster has no owner process
	}
	sock, err := socketPath(a.getenv, path, false)
	if err != nil {
		return nil
	}
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return nil // no owner, or a dead one's socket: the file is free
	}
	defer c.Close()
	req := frame{V: ownerProtocol, Args: a.argv, Env: map[string]string{}}
	if req.Cwd, err = os.Getwd(); err != nil {
		return err
	}
	for _, k := range forwardedEnv {
		if v := a.getenv(k); v != "" {
			req.Env[k] = v
		}
	}
	ctx := cmd.Context()
	// export FILE and import FILE read and write the file here, as this
	// user in this folder, and the owner streams it.
	if (top.Name() == "export" || top.Name() == "import") && len(args) == 1 && args[0] != "-" {
		req.Stream = true
		if top.Name() == "import" {
			in, _, closeIn, err := a.openInput(ctx, args[0])
			if err != nil {
				return err
			}
			defer closeIn()
			return a.forward(ctx, c, req, in, a.rawStdout)
		}
		store, err := os.Stat(path)
		if err != nil {
			return err
		}
		var ran error
		err = writeOutput(ctx, args[0], store, func(w io.Writer) error {
			ran = a.forward(ctx, c, req, a.stdin, w)
			if e, ok := ran.(exited); ok && e.code == 0 {
				return nil // the file is replaced
			}
			return ran
		})
		if err != nil {
			return err
		}
		return ran
	}
	return a.forward(ctx, c, req, a.stdin, a.rawStdout)
}

// forward sends req on c and plays the owner's frames until the command
// exits: its output to stdout and stderr, its reads from stdin.
func (a *app) forward(ctx context.Context, c net.Conn, req frame, stdin io.Reader, stdout io.Writer) error {
	var mu sync.Mutex
	enc := json.NewEncoder(c)
	send := func(f frame) error { mu.Lock(); defer mu.Unlock(); return enc.Encode(f) }
	if err := send(req); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { c.Close() }) // Ctrl-C ends the command inside too
	defer stop()
	dec := json.NewDecoder(c)
	buf := make([]byte, 64<<10)
	reading := make(chan struct{}, 1)
	for {
		var f frame
		if err := dec.Decode(&f); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("the store's owner ended before the command did, which may or may not have run: %w", err)
		}
		switch {
		case f.Refuse != "":
			return errors.New(f.Refuse)
		case f.Exit != nil:
			return exited{*f.Exit}
		case f.Out != nil:
			if _, err := stdout.Write(f.Out); err != nil {
				return err
			}
		case f.Err != nil:
			if _, err := a.rawStderr.Write(f.Err); err != nil {
				return err
			}
		case f.Read > 0:
			// Read aside, so that the owner's output (an MCP server's
			// answers) keeps flowing while stdin waits for a line.
			select {
			case reading <- struct{}{}:
			default:
				return errors.New("the store's owner asked for input twice at once")
			}
			n := min(f.Read, len(buf))
			go func() {
				var k int
				var err error
				for k == 0 && err == nil {
					k, err = stdin.Read(buf[:n])
				}
				in := frame{In: append([]byte(nil), buf[:k]...), EOF: k == 0} // an error ends the input
				<-reading
				_ = send(in)
			}()
		}
	}
}

// whoHolds names the owner of the store at path, if one answers.
func (a *app) whoHolds(path string) (holder, bool) {
	sock, err := socketPath(a.getenv, path, false)
	if err != nil {
		return holder{}, false
	}
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return holder{}, false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if err := json.NewEncoder(c).Encode(frame{V: ownerProtocol, Who: true}); err != nil {
		return holder{}, false
	}
	var f frame
	if err := json.NewDecoder(c).Decode(&f); err != nil || f.Holder == nil {
		return holder{}, false
	}
	return *f.Holder, true
}
