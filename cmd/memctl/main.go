// Command memctl reads and writes a palimpsest memory store from the shell:
// it adds, supersedes, retracts and restores facts, answers bi-temporal
// queries, and exports, imports and checks the file.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

func main() {
	// SIGTERM (what kill, systemd and a container runtime send) ends a
	// command as Ctrl-C does: its context ends, and the store is closed,
	// which removes the candidate index (every word of every fact).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop() // os.Exit skips deferred calls
	os.Exit(code)
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// app is one invocation: its streams and global flags. A fresh one per run
// keeps run re-entrant, so tests drive it in-process.
type app struct {
	stdin io.Reader
	// stdout and stderr pass what memctl prints through printable;
	// rawStderr is the stream itself, for the progress bar, which draws
	// with carriage returns and prints nothing it did not make.
	stdout, stderr io.Writer
	rawStderr      io.Writer
	rawStdout      io.Writer // the stream itself, for mcp's protocol on stdio
	getenv         func(string) string

	db     string
	user   string
	now    time.Time
	json   bool
	lookup string
	// embedderName is --embedder: who embeds for the semantic lookup.
	embedderName string
	// timeout bounds one model call; 0: $MEMCTL_TIMEOUT, else the default.
	timeout time.Duration
	// stderrMu keeps the wait notices of concurrent model calls, written
	// from timers, from interleaving.
	stderrMu sync.Mutex
	// staleWarned: the stale-store warning went to stderr already.
	staleWarned bool
	quietStale  bool // check and repair report the stale state themselves

	argv []string // the command line, for an owner to run it
	// owner is the process's store owner (serve, mcp): for a command
	// running inside it, whose store it is; for the owner, itself.
	owner *owner
	// cwd is the client's folder, for a command running inside an owner,
	// whose relative names (--db) are the client's; "" is this process's.
	cwd string
	// streamFile: export's or import's FILE is the client's, streamed as
	// this command's stdout or stdin.
	streamFile bool
	// deciderSpec names remember's decider, as rememberOptions made it:
	// what an owner and a command running inside it compare.
	deciderSpec string
	// ownSettings are what an owner opened its store with.
	ownSettings settings
}

// usageError marks a mistake in the command line, which exits 2 rather than 1.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// run executes memctl with args (without the program name) and returns the
// exit code. Every error ends as exactly one line on stderr.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runApp(ctx, args, stdin, stdout, stderr, nil)
}

// runApp is run with the invocation adjusted by setup (nil: none), as an
// owner runs its clients' commands.
func runApp(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, setup func(*app)) int {
	out, errOut := &printableWriter{w: stdout}, &printableWriter{w: stderr}
	defer out.flush()
	defer errOut.flush()
	if args == nil {
		args = []string{} // cobra would fall back to os.Args
	}
	a := &app{stdin: stdin, stdout: out, stderr: errOut, rawStderr: stderr, rawStdout: stdout, getenv: os.Getenv, argv: args}
	if setup != nil {
		setup(a)
	}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(errOut)
	completionCmd(root) // after SetOut: cobra's scripts write where it was then
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	if e := (exited{}); errors.As(err, &e) {
		return e.code // it ran inside the store's owner, which said why
	}
	out.flush() // what stdout held comes before the error
	fmt.Fprintf(errOut, "memctl: %s\n", a.explain(err))
	if errors.As(err, new(usageError)) {
		return exitUsage
	}
	return exitError
}

// explain is the error's line on stderr, with the command that helps.
func (a *app) explain(err error) string {
	switch {
	case errors.Is(err, memory.ErrStale) && a.staleWarned:
		return "write refused until the store is repaired (run memctl repair)"
	case errors.Is(err, memory.ErrStale):
		return oneLine(err) + "; run memctl repair"
	case errors.Is(err, memory.ErrScrubPending):
		return oneLine(err) + "; run memctl repair to finish it"
	}
	return oneLine(err)
}

// oneLine folds a multi-line error (errors.Join, as Check returns) so that
// stderr gets one line per failure.
func oneLine(err error) string {
	return printable(strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; "), false)
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "memctl",
		Short: "Read and write a bi-temporal memory of facts about a user",
		Long: `memctl reads and writes a palimpsest memory store: facts about a user with
two time axes, when the store learned them (record time) and when they were
true in the world (event time).

TIME and DATE are YYYY-MM-DD (midnight UTC) or RFC 3339. Times are shown in UTC.
The store is --db, else $MEMCTL_DB, else $XDG_DATA_HOME/palimpsest/memory.db
(~/.local/share when XDG_DATA_HOME is unset).`,
		// Args set keeps cobra from doing its own unknown-command handling,
		// which prints suggestions over several lines; RunE reports it instead.
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		// A command finds the store's owner, if one runs, before anything
		// else: it then runs there.
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error { return a.viaOwner(cmd, args) },
		// cobra's own "completion bash|zsh|fish|powershell" command stays on.
		Version: version(debug.ReadBuildInfo()),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q (see memctl --help)", args[0])
			}
			return usagef("no command given (see memctl --help)")
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.SetVersionTemplate("memctl {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringVar(&a.db, "db", "", "store file, or a cluster's URL nats://HOST:PORT (default $MEMCTL_DB, else a file in the user's data directory)")
	pf.StringVar(&a.user, "user", "", "user whose facts to read and write (default: the default user)")
	pf.Var(nowFlag{timeFlag{&a.now}}, "now", "record time of this command, instead of the clock")
	pf.BoolVar(&a.json, "json", false, "print JSON")
	pf.StringVar(&a.lookup, "lookup", "", "candidate lookup: keywords4, stems, topics or semantic (default $MEMCTL_LOOKUP, else topics)")
	pf.StringVar(&a.embedderName, "embedder", "", "embeddings of the semantic lookup: ollama or openai (default $MEMCTL_EMBEDDER, else ollama; model $MEMCTL_EMBED_MODEL)")
	pf.Var(durationFlag{&a.timeout}, "timeout", fmt.Sprintf("how long one model call may take, e.g. 90s (default $MEMCTL_TIMEOUT, else %s)", memory.DefaultModelTimeout))
	root.AddCommand(a.factCommands()...)
	root.AddCommand(a.candidatesCmd(), a.exportCmd(), a.importCmd(), a.checkCmd(), a.repairCmd(), a.graphCmd(), a.demoCmd(), a.serveCmd(), a.mcpCmd(), a.clusterCmd())
	root.AddCommand(a.reconcileCommands()...)
	return root
}

// completionCmd adds cobra's "completion bash|zsh|fish|powershell" now
// rather than at Execute, so that a shell it does not know is a usage error
// like any other instead of a help page and exit 0.
func completionCmd(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("no completion for shell %q: bash, zsh, fish or powershell", args[0])
			}
			return usagef("completion takes a shell: bash, zsh, fish or powershell")
		}
	}
}

// version is what --version prints after "memctl": the module version (a
// tag under go install, "(devel)" or a pseudo-version in a checkout), the
// commit and its time when the build recorded them, and the Go toolchain.
func version(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "(unknown: no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at, modified, goos, goarch string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = "commit " + s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "modified"
			}
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	var vcs []string
	for _, part := range []string{rev, at, modified} {
		if part != "" {
			vcs = append(vcs, part)
		}
	}
	if len(vcs) > 0 {
		v += " (" + strings.Join(vcs, ", ") + ")"
	}
	v += " " + info.GoVersion
	if goos != "" && goarch != "" {
		v += " " + goos + "/" + goarch
	}
	return v
}

// exactArgs names the positional arguments a command takes, for a clearer
// message than cobra's "accepts 1 arg(s)".
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == len(names) {
			return nil
		}
		if len(names) == 0 {
			return usagef("%s takes no arguments, got %d", cmd.Name(), len(args))
		}
		return usagef("%s takes %s, got %d argument(s)", cmd.Name(), strings.Join(names, " "), len(args))
	}
}

func maxArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) <= len(names) {
			return nil
		}
		return usagef("%s takes at most %s, got %d arguments", cmd.Name(), strings.Join(names, " "), len(args))
	}
}

// dbPath is --db, else the default location.
func (a *app) dbPath() (string, error) {
	p := a.db
	if isClusterURL(p) {
		return p, nil // a cluster, not a file of this folder
	}
	if p == "" {
		var err error
		if p, err = defaultDBPath(a.getenv); err != nil {
			return "", err
		}
	}
	return a.local(p), nil
}

// local is name as the invocation's folder means it: the client's, for a
// command running inside an owner.
func (a *app) local(name string) string {
	if a.cwd == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(a.cwd, name)
}

// defaultDBPath follows the XDG base directory spec, which is all a store
// of personal data needs; getenv is injected for tests.
func defaultDBPath(getenv func(string) string) (string, error) {
	if p := getenv("MEMCTL_DB"); p != "" {
		return p, nil
	}
	dir := getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(dir) { // the spec says to ignore a relative path
		home := getenv("HOME")
		if home == "" {
			var err error
			if home, err = os.UserHomeDir(); err != nil {
				return "", fmt.Errorf("no data directory (use --db or $MEMCTL_DB): %w", err)
			}
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "palimpsest", "memory.db"), nil
}

// open opens the store. Read-only commands take a shared lock and never
// create the file. tune, if given, adjusts the options last (remember's
// decider and lookup). undo, to call after the store's Close, removes the
// folders open made for the store if no store file is there then.
func (a *app) open(readOnly bool, tune ...func(*memory.Options)) (s *memory.Store, undo func(), err error) {
	path, err := a.dbPath()
	if err != nil {
		return nil, nil, err
	}
	if isClusterURL(path) {
		opts := &memory.Options{}
		if opts.Lookup, err = a.lookupMode(); err != nil {
			return nil, nil, err
		}
		if now := a.now; !now.IsZero() {
			opts.Clock = func() time.Time { return now }
		}
		for _, f := range tune {
			f(opts)
		}
		if s, err = a.openCluster(context.Background(), path, opts); err != nil {
			return nil, nil, err
		}
		return s, func() {}, nil
	}
	if readOnly {
		// bbolt cannot open a missing file read-only; say why plainly.
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("no store at %s (add a fact first)", path)
		}
	}
	opts := &memory.Options{ReadOnly: readOnly}
	if opts.Lookup, err = a.lookupMode(); err != nil {
		return nil, nil, err
	}
	if opts.Lookup == memory.LookupSemantic {
		if opts.Embedder, err = a.embedder(); err != nil {
			return nil, nil, err
		}
	}
	if now := a.now; !now.IsZero() {
		opts.Clock = func() time.Time { return now }
	}
	for _, f := range tune {
		f(opts)
	}
	undo = func() {}
	if !readOnly {
		removeMade, err := makeParents(filepath.Dir(path))
		if err != nil {
			return nil, nil, err
		}
		undo = func() {
			// Any error says there is no file (a name too long cannot be
			// one), and removeMade removes only empty folders anyway.
			if _, err := os.Lstat(path); err != nil {
				removeMade()
			}
		}
	}
	if s, err = memory.Open(path, 0o600, opts); err != nil {
		undo()
		if h, ok := a.whoHolds(path); errors.Is(err, memory.ErrLocked) && ok {
			// It began to own the store after this command looked.
			err = fmt.Errorf("%w: held by %s; run the command again", err, h)
		}
		return nil, nil, err
	}
	// Every answer of a stale store is a commit old: say so before it.
	if err := s.Stale(); err != nil && !a.quietStale {
		fmt.Fprintf(a.stderr, "memctl: warning: %s; run memctl repair\n", oneLine(err))
		a.staleWarned = true
	}
	return s, undo, nil
}

// makeParents makes dir and its missing parents, 0700 (they lead to
// personal data), and returns a function that removes the ones it made,
// innermost first, as long as they are empty: a refused write leaves no
// folders behind, and never removes one it did not make.
func makeParents(dir string) (removeMade func(), err error) {
	var missing []string // innermost first
	for d := filepath.Clean(dir); ; {
		_, err := os.Stat(d)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	var made []string
	removeMade = func() {
		for i := len(made) - 1; i >= 0; i-- {
			if os.Remove(made[i]) != nil { // not empty: what is inside is not ours
				return
			}
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		err := os.Mkdir(missing[i], 0o700)
		if errors.Is(err, fs.ErrExist) {
			continue // made meanwhile by another process, so not ours to remove
		}
		if err != nil {
			removeMade()
			return nil, err
		}
		made = append(made, missing[i])
	}
	return removeMade, nil
}

// withStore runs fn on the open store and closes it, reporting a failed
// close when fn succeeded.
func (a *app) withStore(readOnly bool, fn func(*memory.Store) error) error {
	return a.withTunedStore(readOnly, nil, fn)
}

// withTunedStore is withStore with options adjusted by tune (nil: none).
func (a *app) withTunedStore(readOnly bool, tune func(*memory.Options), fn func(*memory.Store) error) (err error) {
	if a.owner != nil {
		s, err := a.sharedStore(tune != nil)
		if err != nil {
			return err
		}
		return fn(s) // the owner closes it
	}
	var tunes []func(*memory.Options)
	if tune != nil {
		tunes = append(tunes, tune)
	}
	s, undo, err := a.open(readOnly, tunes...)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := s.Close(); cerr != nil && err == nil {
			err = cerr
		}
		undo()
	}()
	return fn(s)
}
