package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory"
)

// One process owns the store: memctl serve and memctl mcp hold its file
// (bbolt's lock) for as long as they run. So that the other memctl commands
// still work beside them, the owner listens on a Unix socket named after
// the store, and a command that finds one there runs inside the owner, on
// the owner's open store: its arguments, folder and environment go to the
// owner, its output and exit code come back, its standard input is read
// when the command asks for it. This costs a command a connection instead
// of an open of the file, and none of the owner's caches; the owner never
// lets go of the file, so an assistant's call never waits for a reopen.

// ownerProtocol is the version of the frames below; an owner refuses
// another, so that a memctl of another release fails plainly.
const ownerProtocol = 1

// frame is one message on an owner's socket, as a JSON line. The client
// sends a request first (V, Args, Cwd, Env; or Who), then In or EOF each
// time the owner sends Read; the owner sends Out, Err and Read as the
// command runs, and Exit last (Holder alone, for Who).
type frame struct {
	V      int               `json:"v,omitempty"`
	Args   []string          `json:"args,omitempty"`
	Cwd    string            `json:"cwd,omitempty"`
	Env    map[string]string `json:"env,omitempty"`
	Who    bool              `json:"who,omitempty"`
	Stream bool              `json:"stream,omitempty"` // export's or import's FILE is the client's stdout or stdin

	In  []byte `json:"in,omitempty"`
	EOF bool   `json:"eof,omitempty"`

	Out    []byte  `json:"out,omitempty"`
	Err    []byte  `json:"err,omitempty"`
	Read   int     `json:"read,omitempty"`
	Exit   *int    `json:"exit,omitempty"`
	Holder *holder `json:"holder,omitempty"`
	Refuse string  `json:"refuse,omitempty"` // a request the owner cannot take
}

// holder is who owns a store, as the other commands name it: never its
// tokens.
type holder struct {
	Command   string    `json:"command"`
	PID       int       `json:"pid"`
	Since     time.Time `json:"since"`
	Inspector string    `json:"inspector,omitempty"` // the inspector's address, without its token
	MCP       string    `json:"mcp,omitempty"`       // the MCP endpoint, without its token
}

func (h holder) String() string {
	s := fmt.Sprintf("%s (pid %d, since %s", h.Command, h.PID, h.Since.UTC().Format(time.RFC3339))
	if h.Inspector != "" {
		s += ", inspector at " + h.Inspector
	}
	if h.MCP != "" {
		s += ", MCP at " + h.MCP
	}
	return s + ")"
}

// heldError is a command that cannot run because another process owns the
// store, or cannot run inside it as asked.
type heldError struct {
	h   holder
	why string // what cannot be done, e.g. "serve cannot run beside it"
}

func (e *heldError) Error() string {
	return fmt.Sprintf("the store is held by %s: %s", e.h, e.why)
}

// settings are what a command asks of the store that belongs to its open,
// not to a call: an owner's store has the owner's, and a command that
// asks for other ones cannot run inside it.
type settings struct {
	Lookup  string // lookup mode, and the embedder of a semantic one
	Decider string // remember's decider, model, fallback and timeout; "" when not asked
}

// socketPath is the owner socket of the store at path: its name is a hash
// of the store's real path, so that every name of one file finds one
// socket, and a long path still makes a short socket name (a socket's
// path has about a hundred bytes at most).
func socketPath(getenv func(string) string, path string, create bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	dir, err := ownerDir(getenv, create)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:12])+".sock"), nil
}

// owner serves the commands of other memctl processes on its open store.
type owner struct {
	a  *app // the owning invocation: its settings and streams
	s  *memory.Store
	ln net.Listener

	mu sync.Mutex
	h  holder

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// own makes this process the owner of the open store s, under the name
// command, until the returned stop is called; stop waits for the commands
// running inside it. Where no socket can be made, memctl says why and the
// store is served anyway, locked to others as before.
func (a *app) own(ctx context.Context, s *memory.Store, command string) (o *owner, stop func()) {
	if a.owner != nil {
		return a.owner, func() {} // memctl mcp on stdio, inside an owner: the store is its
	}
	o = &owner{a: a, s: s, h: holder{Command: command, PID: os.Getpid(), Since: time.Now().UTC().Truncate(time.Second)}}
	if s.Path() == "" {
		return o, func() {} // a cluster: every process opens it itself
	}
	if err := o.listen(ctx); err != nil {
		a.logf("warning: other memctl commands cannot use %s while this runs: %v", s.Path(), err)
		return o, func() {}
	}
	o.wg.Add(1)
	go o.accept()
	return o, o.stop
}

// listen makes the owner's socket, and notes the settings of its store.
func (o *owner) listen(ctx context.Context) error {
	a := o.a
	if a.deciderSpec == "" { // opened without remember's options: the library's
		a.deciderSpec = "rules, fallback " + string(memory.FallbackAdd)
	}
	var err error
	if a.ownSettings, err = a.settings(true); err != nil {
		return err
	}
	path, err := socketPath(a.getenv, o.s.Path(), true)
	if err != nil {
		return err
	}
	// This process holds the store's lock, so a socket left at path
	// belongs to an owner that died (kill -9, a crash): it is ours to
	// replace. Anything else there is not ours, and stays.
	if fi, err := os.Lstat(path); err == nil && fi.Mode().Type() == fs.ModeSocket {
		_ = os.Remove(path)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return err
	}
	o.ln = ln
	o.ctx, o.cancel = context.WithCancel(ctx)
	return nil
}

// serving records where the owner's servers listen, for the holder's name.
func (o *owner) serving(inspector, mcp string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if inspector != "" {
		o.h.Inspector = inspector
	}
	if mcp != "" {
		o.h.MCP = mcp
	}
}

func (o *owner) holder() holder {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.h
}

func (o *owner) stop() {
	o.ln.Close() // removes the socket: the next command opens the file itself
	o.cancel()
	o.wg.Wait()
}

func (o *owner) accept() {
	defer o.wg.Done()
	for {
		c, err := o.ln.Accept()
		if err != nil {
			return // closed by stop
		}
		o.wg.Add(1)
		go func() {
			defer o.wg.Done()
			defer c.Close()
			o.serveConn(c)
		}()
	}
}

// serveConn runs one client's command inside the owner.
func (o *owner) serveConn(c net.Conn) {
	if err := peerIsUs(c); err != nil {
		return
	}
	dec := json.NewDecoder(c)
	var req frame
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := dec.Decode(&req); err != nil {
		return
	}
	c.SetReadDeadline(time.Time{})
	w := &frameWriter{enc: json.NewEncoder(c)}
	switch {
	case req.V != ownerProtocol:
		w.send(frame{Refuse: fmt.Sprintf("this owner speaks protocol %d, the command %d: use the memctl of the owner's release", ownerProtocol, req.V)})
		return
	case req.Who:
		h := o.holder()
		w.send(frame{Holder: &h})
		return
	}
	ctx, cancel := context.WithCancel(o.ctx)
	defer cancel()
	in := &remoteInput{w: w, ctx: ctx, frames: make(chan frame)}
	go func() {
		// The client sends only input after the request; its going away
		// (Ctrl-C, a kill) ends the command as Ctrl-C would.
		defer cancel()
		for {
			var f frame
			if err := dec.Decode(&f); err != nil {
				return
			}
			select {
			case in.frames <- f:
			case <-ctx.Done():
				return
			}
		}
	}()
	env := req.Env
	code := runApp(ctx, req.Args, in, w.stream(false), w.stream(true), func(a *app) {
		a.getenv = func(k string) string { return env[k] }
		a.cwd = req.Cwd
		a.owner = o
		a.streamFile = req.Stream
	})
	w.send(frame{Exit: &code})
}

// frameWriter writes frames from the command's goroutines, one at a time.
// Output is gathered for up to outputDelay (or outputBatch bytes) into one
// frame: a listing written a line at a time crosses the socket in a few
// frames, not a thousand, and a server's answer still leaves at once.
type frameWriter struct {
	mu      sync.Mutex
	enc     *json.Encoder
	err     error
	pending []byte
	pendErr bool // pending is stderr's
	timer   *time.Timer
	armed   bool
}

const (
	outputDelay = 500 * time.Microsecond
	outputBatch = 32 << 10
)

func (w *frameWriter) send(f frame) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked()
	if w.err == nil {
		w.err = w.enc.Encode(f)
	}
	return w.err
}

func (w *frameWriter) flushLocked() {
	if len(w.pending) == 0 {
		return
	}
	f := frame{Out: w.pending}
	if w.pendErr {
		f = frame{Err: w.pending}
	}
	if w.err == nil {
		w.err = w.enc.Encode(f)
	}
	w.pending = w.pending[:0]
}

func (w *frameWriter) write(stderr bool, p []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) > 0 && w.pendErr != stderr {
		w.flushLocked() // stdout and stderr keep their order
	}
	w.pending, w.pendErr = append(w.pending, p...), stderr
	switch {
	case len(w.pending) >= outputBatch:
		w.flushLocked()
	case !w.armed:
		w.armed = true
		if w.timer == nil {
			w.timer = time.AfterFunc(outputDelay, w.tick)
		} else {
			w.timer.Reset(outputDelay)
		}
	}
	return w.err
}

func (w *frameWriter) tick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.armed = false
	w.flushLocked()
}

// stream is the command's stdout, or its stderr, as frames.
func (w *frameWriter) stream(stderr bool) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		if err := w.write(stderr, p); err != nil {
			return 0, err
		}
		return len(p), nil
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// remoteInput is the client's standard input, read only when the command
// reads it: a command that does not leaves the client's stdin alone (a
// shell loop reading lines keeps them).
type remoteInput struct {
	mu     sync.Mutex
	w      *frameWriter
	ctx    context.Context
	frames chan frame
	buf    []byte
	eof    bool
}

func (r *remoteInput) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if len(r.buf) == 0 && !r.eof {
		if err := r.w.send(frame{Read: min(len(p), 64<<10)}); err != nil {
			return 0, err
		}
		select {
		case f := <-r.frames:
			r.buf, r.eof = f.In, f.EOF
			if len(f.In) == 0 && !f.EOF {
				return 0, errors.New("the command's client sent no input where it was asked for")
			}
		case <-r.ctx.Done():
			return 0, r.ctx.Err()
		}
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// sharedStore is the owner's store, for a command running inside it: what
// the command asks of the store must be what the owner opened it with.
func (a *app) sharedStore(tuned bool) (*memory.Store, error) {
	o := a.owner
	refuse := func(why string) error { return &heldError{h: o.holder(), why: why} }
	path, err := a.dbPath()
	if err != nil {
		return nil, err
	}
	if !sameFile(path, o.s.Path()) {
		return nil, refuse(fmt.Sprintf("it owns %s, not %s", o.s.Path(), path))
	}
	if !a.now.IsZero() {
		return nil, refuse("--now sets the clock of a store, and the store's clock is the owner's: stop it to run with --now")
	}
	want, err := a.settings(tuned)
	if err != nil {
		return nil, err
	}
	have := o.a.ownSettings
	if want.Lookup != have.Lookup {
		return nil, refuse(fmt.Sprintf("it looks up with %s, the command asks for %s: give the owner's settings, or stop it", have.Lookup, want.Lookup))
	}
	if tuned && want.Decider != have.Decider {
		return nil, refuse(fmt.Sprintf("it decides with %s, the command asks for %s: give the owner's settings, or stop it", have.Decider, want.Decider))
	}
	if err := o.s.Stale(); err != nil && !a.quietStale {
		fmt.Fprintf(a.stderr, "memctl: warning: %s; run memctl repair\n", oneLine(err))
		a.staleWarned = true
	}
	return o.s, nil
}

// settings describes what this invocation asks of the store it opens
// (tuned: remember's decider too), in words to compare and show.
func (a *app) settings(tuned bool) (settings, error) {
	m, err := a.lookupMode()
	if err != nil {
		return settings{}, err
	}
	if m == "" {
		m = memory.LookupTopics
	}
	st := settings{Lookup: string(m)}
	if m == memory.LookupSemantic {
		provider := a.embedderName
		if provider == "" {
			provider = a.getenv("MEMCTL_EMBEDDER")
		}
		st.Lookup += fmt.Sprintf(" (embedder %s %s)", orDefault(provider, "ollama"), a.modelPlace(provider, a.getenv("MEMCTL_EMBED_MODEL")))
	}
	if tuned {
		st.Decider = a.deciderSpec
	}
	return st, nil
}

// modelPlace names a model and where it is asked, and how long for.
func (a *app) modelPlace(provider, model string) string {
	where := a.getenv("OLLAMA_HOST")
	if provider == "openai" {
		where = a.getenv("OPENAI_BASE_URL")
	}
	t, _ := a.modelTimeout()
	return fmt.Sprintf("%q at %q, timeout %s", model, where, t)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// sameFile says whether two names lead to one file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
