package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
)

// ownerRuntime gives the test a folder of owner sockets of its own.
func ownerRuntime(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "rt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_RUNTIME_DIR", dir)
	return dir
}

// startServe runs memctl serve on db in this process and returns the line
// it printed and a stop that ends it and returns its exit code.
func startServe(t *testing.T, db string, extra ...string) (line string, stderr *syncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &lineWriter{line: make(chan string, 1)}
	stderr = &syncBuffer{}
	code := make(chan int, 1)
	args := append([]string{"--db", db, "serve", "--addr", "127.0.0.1:0"}, extra...)
	go func() { code <- run(ctx, args, strings.NewReader(""), out, stderr) }()
	select {
	case line = <-out.line:
	case c := <-code:
		cancel()
		t.Fatalf("serve exited %d: %s", c, stderr.String())
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("serve printed no address")
	}
	stopped := false
	stop = func() int {
		t.Helper()
		if stopped {
			return 0
		}
		stopped = true
		cancel()
		select {
		case c := <-code:
			return c
		case <-time.After(20 * time.Second):
			t.Fatal("serve did not stop")
		}
		return -1
	}
	t.Cleanup(func() { stop() })
	return line, stderr, stop
}

// locked says whether another open of db finds it locked, as it must while
// an owner holds it: a command that succeeds then ran inside the owner.
func locked(t *testing.T, db string) bool {
	t.Helper()
	s, err := memory.Open(db, 0o600, &memory.Options{ReadOnly: true, LockTimeout: 50 * time.Millisecond})
	if err == nil {
		s.Close()
		return false
	}
	if !errors.Is(err, memory.ErrLocked) {
		t.Fatal(err)
	}
	return true
}

func TestOwnerRunsCommands(t *testing.T) {
	rt := ownerRuntime(t)
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Lyon.")
	line, _, stop := startServe(t, db)
	token := regexp.MustCompile(`token=([0-9a-f]+)`).FindStringSubmatch(line)[1]
	if !locked(t, db) {
		t.Fatal("serve does not hold the store")
	}
	// The socket: 0600, in a 0700 folder of this user's.
	socks, _ := filepath.Glob(filepath.Join(rt, "palimpsest", "*.sock"))
	if len(socks) != 1 {
		t.Fatalf("sockets %q", socks)
	}
	for p, want := range map[string]fs.FileMode{filepath.Dir(socks[0]): 0o700, socks[0]: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, %v; want mode %v", p, fi.Mode(), err, want)
		}
	}

	// Reads and writes, through the owner.
	if out := ok(t, "--db", db, "remember", "I moved to Paris."); !strings.Contains(out, "update fact 1") {
		t.Fatalf("remember: %q", out)
	}
	list := facts(t, ok(t, "--db", db, "--json", "list", "--all"))
	if len(list) != 2 || list[1]["text"] != "I moved to Paris." || list[0]["state"] != "superseded" {
		t.Fatalf("list: %v", list)
	}
	if got := fails(t, 1, "--db", db, "get", "99"); got != "memctl: fact 99: not found\n" {
		t.Errorf("get 99: %q", got)
	}
	// A relative --db is the client's folder's.
	t.Chdir(filepath.Dir(db))
	if out := ok(t, "--db", filepath.Base(db), "list"); !strings.Contains(out, "Paris") {
		t.Fatalf("list by a relative name: %q", out)
	}
	// export FILE is written by the client, 0600, and is the export.
	file := filepath.Join(t.TempDir(), "out.jsonl")
	ok(t, "--db", db, "export", file)
	b, err := os.ReadFile(file)
	if err != nil || string(b) != ok(t, "--db", db, "export") {
		t.Fatalf("export FILE: %v\n%s", err, b)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("export FILE mode %v", fi.Mode())
	}
	// A failed command inside leaves FILE as it was.
	if got := fails(t, 1, "--db", db, "export", db); !strings.Contains(got, "is the store itself") {
		t.Errorf("export over the store: %q", got)
	}

	// What cannot run inside names the holder, never its token, and
	// changes nothing.
	holderRE := `held by memctl serve \(pid ` + strconv.Itoa(os.Getpid()) + `, since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, inspector at http://127\.0\.0\.1:\d+/\)`
	for _, tc := range []struct {
		args []string
		why  string
	}{
		{[]string{"serve", "--addr", "127.0.0.1:0"}, "serve cannot listen beside it"},
		{[]string{"mcp", "--http", "127.0.0.1:0"}, "mcp cannot listen beside it"},
		{[]string{"--now", "2026-01-01", "add", "I have a cat."}, "--now sets the clock"},
		{[]string{"remember", "--decider", "add", "I have a dog."}, "it decides with rules, fallback add, the command asks for add, fallback add"},
		{[]string{"--lookup", "stems", "candidates", "cat"}, "it looks up with topics, the command asks for stems"},
	} {
		got := fails(t, 1, append([]string{"--db", db}, tc.args...)...)
		if !regexp.MustCompile(holderRE).MatchString(got) || !strings.Contains(got, tc.why) || strings.Contains(got, token) {
			t.Errorf("%q: %q, want the holder and %q", tc.args, got, tc.why)
		}
	}
	if n := len(facts(t, ok(t, "--db", db, "--json", "list", "--all"))); n != 2 {
		t.Errorf("%d facts after the refusals, want 2", n)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve: exit %d", code)
	}
	if socks, _ := filepath.Glob(filepath.Join(rt, "palimpsest", "*.sock")); len(socks) != 0 {
		t.Errorf("sockets left after serve ended: %q", socks)
	}
	if locked(t, db) {
		t.Fatal("the store is still locked")
	}
	ok(t, "--db", db, "check")
}

// readSpy records whether anything read it.
type readSpy struct {
	r    io.Reader
	read atomic.Bool
}

func (s *readSpy) Read(p []byte) (int, error) { s.read.Store(true); return s.r.Read(p) }

func TestOwnerReadsStdinOnlyWhenAsked(t *testing.T) {
	ownerRuntime(t)
	_, want := storeToExport(t)
	db := tempDB(t)
	startServe(t, db)
	var out, errOut bytes.Buffer
	spy := &readSpy{r: strings.NewReader("a line the shell's loop keeps\n")}
	if code := run(context.Background(), []string{"--db", db, "list"}, spy, &out, &errOut); code != 0 || spy.read.Load() {
		t.Fatalf("list: exit %d, stdin read %v (%s)", code, spy.read.Load(), errOut.String())
	}
	out.Reset()
	spy = &readSpy{r: strings.NewReader(want)}
	if code := run(context.Background(), []string{"--db", db, "import", "-"}, spy, &out, &errOut); code != 0 || out.String() != "imported 3 facts\n" {
		t.Fatalf("import -: exit %d, %q %s", code, out.String(), errOut.String())
	}
	if got := ok(t, "--db", db, "export"); !locked(t, db) || got != want {
		t.Fatalf("export after import through the owner:\n%s\nwant\n%s", got, want)
	}
	// import FILE reads the file here and streams it.
	file := filepath.Join(t.TempDir(), "in.jsonl")
	os.WriteFile(file, []byte(want), 0o600)
	if got := fails(t, 1, "--db", db, "import", file); !strings.Contains(got, "not empty") {
		t.Errorf("import into a store with facts: %q", got)
	}
	if got := fails(t, 1, "--db", db, "import", file+".missing"); !strings.Contains(got, "no such file") {
		t.Errorf("import of a missing file: %q", got)
	}
}

// TestOwnerServesMCPStdio: memctl mcp, started by a desktop client while
// the inspector runs, serves through the inspector's process; closing its
// stdin ends it.
func TestOwnerServesMCPStdio(t *testing.T) {
	ownerRuntime(t)
	db := tempDB(t)
	startServe(t, db)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m := startMCP(t, ctx, "--db", db, "mcp")
	if b, res := m.call("remember", map[string]any{"text": "I live in Lyon."}); res.IsError || field(t, b, "decision", "action") != "add" {
		t.Fatalf("remember: %s", b)
	}
	if b, _ := m.call("recall", map[string]any{"query": "where do I live"}); !strings.Contains(string(b), "Lyon") {
		t.Fatalf("recall: %s", b)
	}
	if out := ok(t, "--db", db, "list"); !strings.Contains(out, "I live in Lyon.") || !locked(t, db) {
		t.Fatalf("list beside the session: %q", out)
	}
	if code := m.close(); code != 0 {
		t.Fatalf("mcp: exit %d, %s", code, m.stderr.String())
	}
	ok(t, "--db", db, "check")
}

// TestOwnerRefusesBadRequests: garbage, another protocol and a client that
// vanishes never take the owner down.
func TestOwnerRefusesBadRequests(t *testing.T) {
	rt := ownerRuntime(t)
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Lyon.")
	startServe(t, db)
	socks, _ := filepath.Glob(filepath.Join(rt, "palimpsest", "*.sock"))
	talk := func(req string) string {
		t.Helper()
		c, err := net.Dial("unix", socks[0])
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, req)
		b, _ := io.ReadAll(c)
		return string(b)
	}
	if got := talk("{not json\n"); got != "" {
		t.Errorf("garbage: %q", got)
	}
	if got := talk(`{"v":99,"args":["list"]}` + "\n"); !strings.Contains(got, "protocol 1") {
		t.Errorf("another protocol: %q", got)
	}
	var f frame
	if err := json.Unmarshal([]byte(talk(`{"v":1,"who":true}`+"\n")), &f); err != nil || f.Holder == nil || f.Holder.PID != os.Getpid() {
		t.Errorf("who: %+v %v", f, err)
	}
	// A client that asks for a read and goes away ends its command.
	c, _ := net.Dial("unix", socks[0])
	io.WriteString(c, `{"v":1,"args":["--db","`+db+`","import","-"]}`+"\n")
	r := bufio.NewReader(c)
	if l, _ := r.ReadString('\n'); !strings.Contains(l, `"read"`) {
		t.Errorf("import - asked no input: %q", l)
	}
	c.Close()
	if out := ok(t, "--db", db, "list"); !strings.Contains(out, "Lyon") {
		t.Fatalf("after the bad requests: %q", out)
	}
}

// TestOwnerSocketLeftByAKill: an owner killed with SIGKILL leaves its
// socket; the next command opens the file itself, and the next owner
// replaces the socket.
func TestOwnerSocketLeftByAKill(t *testing.T) {
	rt := ownerRuntime(t)
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Lyon.")
	cmd := child(t, "--db", db, "serve", "--addr", "127.0.0.1:0")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	if out := ok(t, "--db", db, "list"); !strings.Contains(out, "Lyon") {
		t.Fatalf("list beside the child: %q", out)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	socks, _ := filepath.Glob(filepath.Join(rt, "palimpsest", "*.sock"))
	if len(socks) != 1 {
		t.Fatalf("test is void: no socket left by the kill (%q)", socks)
	}
	ok(t, "--db", db, "add", "I have a cat.")
	startServe(t, db)
	if out := ok(t, "--db", db, "list"); !strings.Contains(out, "I have a cat.") || !locked(t, db) {
		t.Fatalf("list through the new owner: %q", out)
	}
}

// TestOwnerUnsafeFolder: a socket folder others can enter is not used: the
// owner says so and holds the store as before, and commands find it
// locked, saying so.
func TestOwnerUnsafeFolder(t *testing.T) {
	rt := ownerRuntime(t)
	os.Mkdir(filepath.Join(rt, "palimpsest"), 0o700)
	os.Chmod(filepath.Join(rt, "palimpsest"), 0o755)
	db := tempDB(t)
	ok(t, "--db", db, "add", "I live in Lyon.")
	_, stderr, _ := startServe(t, db)
	if s := stderr.String(); !strings.Contains(s, "other memctl commands cannot use") || !strings.Contains(s, "open to other users") {
		t.Errorf("serve's warning: %q", s)
	}
	if socks, _ := filepath.Glob(filepath.Join(rt, "palimpsest", "*")); len(socks) != 0 {
		t.Errorf("a socket in the open folder: %q", socks)
	}
	if got := fails(t, 1, "--db", db, "list"); !strings.Contains(got, "locked by another process") {
		t.Errorf("list: %q", got)
	}
}

// TestForwardedEnvIsWhatMemctlReads holds forwardedEnv to the variables
// the package's code reads, so that a command inside an owner sees its
// client's environment, all of it.
func TestForwardedEnvIsWhatMemctlReads(t *testing.T) {
	// memctl's own files, and internal/modelenv's, which reads the
	// model settings through memctl's getenv.
	files, _ := filepath.Glob("*.go")
	more, _ := filepath.Glob("../../internal/modelenv/*.go")
	files = append(files, more...)
	re := regexp.MustCompile(`getenv\("([A-Z_]+)"\)`)
	var read []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			read = append(read, m[1])
		}
	}
	if len(read) < 10 {
		t.Fatalf("test is void: %q", read)
	}
	for _, k := range read {
		if !slices.Contains(forwardedEnv, k) {
			t.Errorf("memctl reads $%s, which a command inside an owner does not get", k)
		}
	}
}

// TestPeerOfAnotherUser: a process of another user that reaches an
// owner's socket (here, one in an open folder) is refused by the kernel's
// word on who it is. It needs root, to start that process, and node.
func TestPeerOfAnotherUser(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux, to connect as another user")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs node, to connect as another user")
	}
	dir, err := os.MkdirTemp("", "peer") // t.TempDir's parent is 0700
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	path := filepath.Join(dir, "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	os.Chmod(path, 0o777)
	peers := make(chan error, 2)
	go func() {
		for range 2 {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			peers <- peerIsUs(c)
			c.Close()
		}
	}()
	connect := func(uid uint32) {
		t.Helper()
		cmd := exec.Command(node, "-e", `require("net").connect(process.argv[1]).on("connect", function () { this.end() })`, path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("node as uid %d: %v %s", uid, err, out)
		}
	}
	connect(0)
	if err := <-peers; err != nil {
		t.Errorf("this user refused: %v", err)
	}
	connect(65534)
	if err := <-peers; err == nil || !strings.Contains(err.Error(), "peer uid 65534") {
		t.Errorf("another user: %v, want refused", err)
	}
}

// TestOneOwnerConcurrently: an assistant's MCP session, commands of other
// terminals and a person's inspector use one store at once, through the
// one process that holds it: nothing is lost, and Check is clean.
func TestOneOwnerConcurrently(t *testing.T) {
	ownerRuntime(t)
	db := tempDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, errOut := &lineWriter{line: make(chan string, 2)}, &syncBuffer{}
	code := make(chan int, 1)
	serveCtx, stopServe := context.WithCancel(ctx)
	defer stopServe()
	go func() {
		code <- run(serveCtx, []string{"--db", db, "serve", "--addr", "127.0.0.1:0", "--mcp", "127.0.0.1:0"}, strings.NewReader(""), out, errOut)
	}()
	insp, at := told(nextLine(t, out, code, errOut), nextLine(t, out, code, errOut))
	cs := connectHTTP(t, ctx, at)
	defer cs.Close()

	const viaMCP, terminals, perTerminal = 30, 3, 15
	var want []string
	errs := make(chan error, 100)
	done := make(chan struct{})
	var workers sync.WaitGroup
	workers.Add(1)
	go func() { // the assistant
		defer workers.Done()
		for i := range viaMCP {
			text := fmt.Sprintf("The assistant heard fact number %d.", i)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "remember", Arguments: map[string]any{"text": text}})
			if err != nil || res.IsError {
				errs <- fmt.Errorf("remember %q: %v %v", text, err, res)
				return
			}
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "recall", Arguments: map[string]any{"query": text}}); err != nil {
				errs <- err
				return
			}
		}
	}()
	for i := range viaMCP {
		want = append(want, fmt.Sprintf("The assistant heard fact number %d.", i))
	}
	for w := range terminals {
		for i := range perTerminal {
			want = append(want, fmt.Sprintf("Terminal %d typed fact number %d.", w, i))
		}
		workers.Add(1)
		go func() { // another terminal: writes and reads
			defer workers.Done()
			for i := range perTerminal {
				var o, e bytes.Buffer
				if c := run(ctx, []string{"--db", db, "add", fmt.Sprintf("Terminal %d typed fact number %d.", w, i)}, strings.NewReader(""), &o, &e); c != 0 {
					errs <- fmt.Errorf("terminal %d add: exit %d: %s", w, c, e.String())
					return
				}
				o.Reset()
				if c := run(ctx, []string{"--db", db, "--json", "list"}, strings.NewReader(""), &o, &e); c != 0 || !json.Valid(o.Bytes()) {
					errs <- fmt.Errorf("terminal %d list: exit %d: %s", w, c, e.String())
					return
				}
			}
		}()
	}
	var pages atomic.Int64
	inspected := make(chan struct{})
	go func() { // the person at the inspector, until the others are done
		defer close(inspected)
		jar, _ := cookiejar.New(nil)
		client := &http.Client{Jar: jar, Timeout: 10 * time.Second}
		u := insp.url + "?token=" + insp.token
		for {
			select {
			case <-done:
				return
			default:
			}
			resp, err := client.Get(u)
			if err != nil {
				errs <- err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				errs <- fmt.Errorf("inspector: %d", resp.StatusCode)
				return
			}
			pages.Add(1)
			u = insp.url
		}
	}()
	workers.Wait()
	close(done)
	<-inspected // no send on errs after it closes, whatever the load
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if pages.Load() == 0 {
		t.Error("test is void: the inspector answered no page meanwhile")
	}
	var got []string
	for _, f := range facts(t, ok(t, "--db", db, "--json", "list", "--all")) {
		got = append(got, f["text"].(string))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%d facts, want %d:\n%q", len(got), len(want), got)
	}
	ok(t, "--db", db, "check") // inside the owner
	stopServe()
	exitsZero(t, code, errOut)
	ok(t, "--db", db, "check") // the file, opened anew
}
