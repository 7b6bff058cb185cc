//go:build linux

package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestMain lets a test run memctl as a child process (the test binary with
// memctlChild set), for the cases that need real file descriptors 0 and 1.
func TestMain(m *testing.M) {
	if os.Getenv(memctlChild) == "1" {
		main()
	}
	os.Exit(m.Run())
}

const memctlChild = "MEMCTL_TEST_RUN_AS_MEMCTL"

// child returns a command that runs memctl with args in a child process.
func child(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), memctlChild+"=1")
	return cmd
}

// storeToExport makes a store with a few facts and returns it with its
// export as memctl prints it on stdout: what every destination must receive.
func storeToExport(t *testing.T) (db, want string) {
	t.Helper()
	db = tempDB(t)
	ok(t, "--db", db, "--now", "2026-03-10", "add", "I work at company A.")
	ok(t, "--db", db, "--now", "2026-03-11", "add", "Я живу в Москве.")
	ok(t, "--db", db, "--now", "2026-08-20", "supersede", "1", "I work at company B.", "--from", "2026-06-01")
	want = ok(t, "--db", db, "export")
	if !strings.Contains(want, "company B") {
		t.Fatalf("test is void: the export lacks the facts:\n%s", want)
	}
	return db, want
}

// names lists a directory's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range entries {
		ns = append(ns, e.Name())
	}
	return ns
}

// lmode is path's mode, not following a link; 0 if it cannot be read.
func lmode(path string) fs.FileMode {
	fi, err := os.Lstat(path)
	if err != nil {
		return 0
	}
	return fi.Mode()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestExportToStdout(t *testing.T) {
	t.Parallel()
	db, want := storeToExport(t)
	if got := ok(t, "--db", db, "export", "-"); got != want {
		t.Errorf("export - differs from export:\n%s\nwant\n%s", got, want)
	}
	// Through the real descriptor 1, whatever it is: a pipe, a file the
	// shell opened for appending (the export goes after what is there, as
	// with any command's output), a socket (which cannot be opened by
	// name). The name is a link of the test's own, as /dev/stdout is, so
	// that a regression replaces that link and not the system's; the
	// system's is tried once the private one survived.
	stdout := filepath.Join(t.TempDir(), "stdout")
	if err := os.Symlink("/proc/self/fd/1", stdout); err != nil {
		t.Fatal(err)
	}
	kept := func(t *testing.T) {
		t.Helper()
		if l, err := os.Readlink(stdout); err != nil || l != "/proc/self/fd/1" {
			t.Fatalf("the link to descriptor 1 reads %q (%v)", l, err)
		}
	}
	intoPipe := func(t *testing.T, name string) {
		var stderr bytes.Buffer
		cmd := child(t, "--db", db, "export", name)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || string(out) != want {
			t.Errorf("export %s into a pipe: %v %s, got %q", name, err, stderr.String(), out)
		}
	}
	t.Run("pipe", func(t *testing.T) {
		intoPipe(t, stdout)
		kept(t)
	})
	t.Run("file opened for appending", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "out")
		if err := os.WriteFile(path, []byte("header\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var stderr bytes.Buffer
		cmd := child(t, "--db", db, "export", stdout)
		cmd.Stdout, cmd.Stderr = f, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("export into a file opened for appending: %v %s", err, stderr.String())
		}
		if got := readFile(t, path); got != "header\n"+want {
			t.Errorf("file after export:\n%s\nwant header and the export", got)
		}
		kept(t)
	})
	t.Run("socket", func(t *testing.T) {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		ours, theirs := os.NewFile(uintptr(fds[0]), "ours"), os.NewFile(uintptr(fds[1]), "theirs")
		defer ours.Close()
		got := make(chan []byte, 1)
		go func() { b, _ := io.ReadAll(ours); got <- b }()
		var stderr bytes.Buffer
		cmd := child(t, "--db", db, "export", stdout)
		cmd.Stdout, cmd.Stderr = theirs, &stderr
		err = cmd.Run()
		theirs.Close()
		if b := <-got; err != nil || string(b) != want {
			t.Errorf("export into a socket: %v %s, got %q", err, stderr.String(), b)
		}
		kept(t)
	})
	if !t.Failed() {
		t.Run("/dev/stdout", func(t *testing.T) { intoPipe(t, "/dev/stdout") })
	}
}

// The descriptor names a shell hands out for >(cmd) are written through.
func TestExportToDescriptor(t *testing.T) {
	t.Parallel()
	db, want := storeToExport(t)
	for _, dir := range []string{"/dev/fd", "/proc/self/fd"} {
		t.Run(dir, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got := make(chan []byte, 1)
			go func() { b, _ := io.ReadAll(r); got <- b }()
			res := memctl(t, "", "--db", db, "export", filepath.Join(dir, strconv.Itoa(int(w.Fd()))))
			w.Close()
			if b := <-got; res.code != 0 || res.stderr != "" || string(b) != want {
				t.Errorf("export into %s/N of a pipe: %+v, the pipe got %q", dir, res, b)
			}
		})
	}
	t.Run("closed descriptor", func(t *testing.T) {
		e := fails(t, 1, "--db", db, "export", "/dev/fd/987654")
		if !strings.Contains(e, "/dev/fd/987654") {
			t.Errorf("stderr %q does not name the descriptor", e)
		}
	})
}

// A FIFO is written to, not replaced: its reader gets every byte.
func TestExportToFIFO(t *testing.T) {
	t.Parallel()
	db, want := storeToExport(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o640); err != nil {
		t.Fatal(err)
	}
	// hold keeps a writer on the FIFO, so that neither the reader's open
	// nor the export's waits; closing it after the export ends the
	// reader's input even if the export never opened the FIFO.
	hold, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	rd, err := os.Open(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	got := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(rd); got <- b }()

	res := memctl(t, "", "--db", db, "export", fifo)
	hold.Close()
	b := <-got
	if res.code != 0 || res.stderr != "" || res.stdout != "" {
		t.Errorf("export FIFO = %+v", res)
	}
	if string(b) != want {
		t.Errorf("the FIFO's reader got %d bytes %q, want the %d of the export", len(b), b, len(want))
	}
	if m := lmode(fifo); m != fs.ModeNamedPipe|0o640 {
		t.Errorf("after export the FIFO is %v, want a FIFO with mode 640", m)
	}
	if ns := names(t, filepath.Dir(fifo)); len(ns) != 1 {
		t.Errorf("the FIFO's directory holds %v, want only the FIFO", ns)
	}
}

// An export waiting for a FIFO's reader stops when its context is cancelled.
func TestExportToFIFOCancelled(t *testing.T) {
	t.Parallel()
	db, _ := storeToExport(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := run(ctx, []string{"--db", db, "export", fifo}, strings.NewReader(""), &out, &errOut)
		done <- result{code, out.String(), errOut.String()}
	}()
	cancel()
	res := <-done
	if res.code != 1 || !strings.Contains(res.stderr, "context canceled") {
		t.Errorf("export to a FIFO without a reader, cancelled = %+v", res)
	}
	if m := lmode(fifo); m != fs.ModeNamedPipe|0o600 {
		t.Errorf("after export the FIFO is %v", m)
	}
}

// A unix socket is connected to and written to, not replaced.
func TestExportToSocket(t *testing.T) {
	t.Parallel()
	db, want := storeToExport(t)
	path := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		b, _ := io.ReadAll(c)
		got <- b
	}()
	res := memctl(t, "", "--db", db, "export", path)
	if m := lmode(path); m.Type() != fs.ModeSocket || res.code != 0 {
		t.Errorf("after export the socket is %v", m)
		ln.Close() // ends the Accept if the export never connected
	}
	defer ln.Close()
	if b := <-got; res.code != 0 || res.stderr != "" || string(b) != want {
		t.Errorf("export to a socket: %+v, the listener got %q", res, b)
	}
}

// A device is written to, never replaced by a regular file. The device
// that can be replaced safely is a null device of the test's own, which
// needs root to make; the system's /dev/null is only tried once that one
// survived, so that a regression cannot replace it.
func TestExportToDevice(t *testing.T) {
	t.Parallel()
	db, _ := storeToExport(t)
	if os.Geteuid() == 0 {
		dir := t.TempDir()
		null := filepath.Join(dir, "null")
		if err := syscall.Mknod(null, syscall.S_IFCHR|0o620, 1<<8|3); err != nil { // 1,3: null
			t.Fatal(err)
		}
		if err := os.Chmod(null, 0o620); err != nil { // whatever the umask
			t.Fatal(err)
		}
		ok(t, "--db", db, "export", null)
		if m := lmode(null); m != fs.ModeDevice|fs.ModeCharDevice|0o620 {
			t.Fatalf("after export the device is %v, want a character device with mode 620", m)
		}
		if ns := names(t, dir); len(ns) != 1 {
			t.Errorf("the device's directory holds %v, want only the device", ns)
		}
	}
	before := lmode("/dev/null")
	if before.Type() != fs.ModeDevice|fs.ModeCharDevice {
		t.Skipf("no /dev/null character device here: %v", before)
	}
	ok(t, "--db", db, "export", "/dev/null")
	if after := lmode("/dev/null"); after != before {
		t.Errorf("/dev/null was %v, is %v", before, after)
	}
}

// A symlink's target is written and the link kept, through a chain too.
func TestExportThroughSymlink(t *testing.T) {
	t.Parallel()
	db, want := storeToExport(t)
	realDir, linkDir := t.TempDir(), t.TempDir()
	target := filepath.Join(realDir, "export.jsonl")
	if err := os.WriteFile(target, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(linkDir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(linkDir, "chain.jsonl")
	if err := os.Symlink("link.jsonl", chain); err != nil { // relative to its own directory
		t.Fatal(err)
	}
	for _, name := range []string{link, chain} {
		if err := os.WriteFile(target, []byte("old\n"), 0o640); err != nil {
			t.Fatal(err)
		}
		ok(t, "--db", db, "export", name)
		if got := readFile(t, target); got != want {
			t.Errorf("export %s: the target holds %q", filepath.Base(name), got)
		}
		if m := lmode(target); m != 0o640 {
			t.Errorf("export %s: the target is %v, want a regular file with mode 640", filepath.Base(name), m)
		}
	}
	if l, err := os.Readlink(link); err != nil || l != target {
		t.Errorf("the link reads %q (%v), want %q", l, err, target)
	}
	if l, err := os.Readlink(chain); err != nil || l != "link.jsonl" {
		t.Errorf("the chain's link reads %q (%v)", l, err)
	}
	if ns := names(t, realDir); len(ns) != 1 {
		t.Errorf("the target's directory holds %v, want only the target", ns)
	}
	if ns := names(t, linkDir); len(ns) != 2 {
		t.Errorf("the links' directory holds %v, want only the links", ns)
	}
}

// A link to nothing is refused: its target may be anywhere, which a name
// given for an export of personal data should not silently create.
func TestExportThroughDanglingSymlinkRefused(t *testing.T) {
	t.Parallel()
	db, _ := storeToExport(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere", "export.jsonl")
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Dir(target), 0o700); err != nil {
		t.Fatal(err)
	}
	e := fails(t, 1, "--db", db, "export", link)
	if !strings.Contains(e, "dangling") || !strings.Contains(e, target) {
		t.Errorf("stderr %q does not say the link is dangling and name its target", e)
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Errorf("export through a dangling link created its target (%v)", err)
	}
	if l, err := os.Readlink(link); err != nil || l != target {
		t.Errorf("the link reads %q (%v)", l, err)
	}
	if ns := names(t, filepath.Dir(target)); len(ns) != 0 {
		t.Errorf("the target's directory holds %v", ns)
	}
}

// An existing file is replaced whole and keeps its mode, and its owner
// where the process may set it; a new one is 0600.
func TestExportReplacesFileKeepingMode(t *testing.T) {
	t.Parallel()
	db, want := storeToExport(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "export.jsonl")
	if err := os.WriteFile(path, []byte(strings.Repeat("old contents, longer than the export\n", 200)), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil { // whatever the umask
		t.Fatal(err)
	}
	const uid, gid = 4321, 4322
	root := os.Geteuid() == 0
	if root {
		if err := os.Chown(path, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	ok(t, "--db", db, "export", path)
	if got := readFile(t, path); got != want {
		t.Errorf("the file holds %q, want the export", got)
	}
	if m := lmode(path); m != 0o640 {
		t.Errorf("the file is %v, want a regular file with mode 640", m)
	}
	if fi, err := os.Lstat(path); root && err == nil {
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != uid || st.Gid != gid {
			t.Errorf("the file's owner is %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
		}
	}
	if ns := names(t, dir); len(ns) != 1 {
		t.Errorf("the directory holds %v, want only the file", ns)
	}

	fresh := filepath.Join(dir, "new.jsonl")
	ok(t, "--db", db, "export", fresh)
	if m := lmode(fresh); m != 0o600 || readFile(t, fresh) != want {
		t.Errorf("a new export file is %v, want 0600 with the export", m)
	}
}

// A failed export leaves the file as it was, and nothing beside it.
func TestExportFailureKeepsFile(t *testing.T) {
	t.Parallel()
	db, _ := storeToExport(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "export.jsonl")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"--db", db, "export", path}, strings.NewReader(""), &out, &errOut); code != 1 {
		t.Errorf("export with a cancelled context: exit %d, stderr %q", code, errOut.String())
	}
	if got := readFile(t, path); got != "old\n" {
		t.Errorf("a failed export left %q", got)
	}
	if ns := names(t, dir); len(ns) != 1 {
		t.Errorf("a failed export left %v, want only the file", ns)
	}

	// A directory, or a name that cannot be a file, is refused before anything is written.
	for _, name := range []string{dir, dir + "/", path + "/"} {
		e := fails(t, 1, "--db", db, "export", name)
		if !strings.Contains(e, dir) {
			t.Errorf("export %s: stderr %q does not name it", name, e)
		}
	}
	if got := readFile(t, path); got != "old\n" || len(names(t, dir)) != 1 {
		t.Errorf("a refused export changed the directory: %v, %q", names(t, dir), got)
	}
}

// import reads a FIFO and the descriptor names as it reads stdin.
func TestImportFromFIFOAndDescriptor(t *testing.T) {
	t.Parallel()
	_, want := storeToExport(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		_, _ = io.WriteString(f, want)
	}()
	db := tempDB(t)
	if out := ok(t, "--db", db, "import", fifo); out != "imported 3 facts\n" {
		t.Errorf("import FIFO printed %q", out)
	}
	if got := ok(t, "--db", db, "export"); got != want {
		t.Errorf("export after import from a FIFO differs")
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() { _, _ = io.WriteString(w, want); w.Close() }()
	db = tempDB(t)
	if out := ok(t, "--db", db, "import", "/dev/fd/"+strconv.Itoa(int(r.Fd()))); out != "imported 3 facts\n" {
		t.Errorf("import /dev/fd/N printed %q", out)
	}

	// /dev/stdin in a child, whose standard input was read from before.
	input := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(input, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := child(t, "--db", tempDB(t), "import", "/dev/stdin")
	f, err := os.Open(input)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd.Stdin = f
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "imported 3 facts\n" {
		t.Errorf("import /dev/stdin: %v %s", err, out)
	}
}

// The size openInput reports is a regular file's; a FIFO's is unknown, so
// that a long import from one still gets its progress bar.
func TestOpenInputSize(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
	}()
	a := &app{stdin: strings.NewReader("")}
	_, size, closeIn, err := a.openInput(context.Background(), fifo)
	if err != nil {
		t.Fatal(err)
	}
	closeIn()
	if size != -1 {
		t.Errorf("size of a FIFO = %d, want -1 (unknown)", size)
	}
}

// The store's own file is refused as an export's destination, under any
// name: written over, the store would be gone.
func TestExportOverStoreRefused(t *testing.T) {
	t.Parallel()
	db, want := storeToExport(t)
	before := readFile(t, db)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(db, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, name := range []string{db, link, "/dev/fd/" + strconv.Itoa(int(f.Fd()))} {
		if e := fails(t, 1, "--db", db, "export", name); !strings.Contains(e, "is the store itself") {
			t.Errorf("export %s: stderr %q", name, e)
		}
	}
	if readFile(t, db) != before {
		t.Error("the store file changed")
	}
	if got := ok(t, "--db", db, "export"); got != want {
		t.Errorf("the store's export after refused exports differs:\n%s", got)
	}
	if ns := names(t, filepath.Dir(db)); len(ns) != 1 {
		t.Errorf("the store's directory holds %v", ns)
	}
}
