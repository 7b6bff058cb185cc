//go:build unix

package memory_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/palimpsest-mem/memory"
)

const readerChildEnv = "PALIMPSEST_TEST_READER_CHILD"

// nobody is the user the reader runs as: not the store's owner.
const nobody = 65534

// runAsNobody runs this test binary, copied where nobody can run it, as
// user nobody, to open the store at path (read-only unless mode is
// "write") and report what each step gave.
func runAsNobody(t *testing.T, dir, path, mode string) string {
	t.Helper()
	bin := filepath.Join(dir, "memory.test")
	if _, err := os.Stat(bin); err != nil {
		src, err := os.Open(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		dst, err := os.OpenFile(bin, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(dst, src); err != nil {
			t.Fatal(err)
		}
		if err := dst.Close(); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-test.run=^TestReaderWhoIsNotTheOwner$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), readerChildEnv+"="+mode+":"+path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the reader run as uid %d: %v\n%s", nobody, err, out.String())
	}
	return out.String()
}

// readerChild is the reader's side: each step prints one line, "ok" or
// its error, marked [dir] when the error is ErrIndexDir.
func readerChild(spec string) {
	mode, path, _ := strings.Cut(spec, ":")
	say := func(step string, err error) {
		switch {
		case err == nil:
			fmt.Printf("%s: ok\n", step)
		case errors.Is(err, memory.ErrIndexDir):
			fmt.Printf("%s: [dir] %v\n", step, err)
		default:
			fmt.Printf("%s: %v\n", step, err)
		}
	}
	s, err := memory.Open(path, 0, &memory.Options{NoSync: true, ReadOnly: mode != "write"})
	say("open", err)
	if err != nil {
		return
	}
	defer s.Close()
	facts, err := s.List(ctx, "", nil)
	say(fmt.Sprintf("list %d", len(facts)), err)
	_, err = s.Candidates(ctx, "", "apple trees", 3)
	say("candidates", err)
	say("check", s.Check(ctx))
}

// A user who may read the store (and, in the writable case, write its
// file) but is not its owner can use it although the owner's process was
// killed and left its index folder behind, which that user can neither
// read nor remove: Open succeeds, List answers, lookups say why they
// cannot work, and a writable Open's Check reports the folder it could not
// clean. And a store in a folder the reader cannot write lists, while
// lookups say that they need write access beside the store.
func TestReaderWhoIsNotTheOwner(t *testing.T) {
	if spec := os.Getenv(readerChildEnv); spec != "" {
		readerChild(spec)
		return
	}
	if os.Geteuid() != 0 {
		t.Skipf("needs root, to run a reader as another user (uid %d): a non-root owner cannot make a folder that it could remove and another user could not", nobody)
	}
	base := t.TempDir()
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(base, "store")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	newStore := func(name string) string {
		path := filepath.Join(dir, name)
		s := must[*memory.Store](t)(memory.Open(path, 0o644, &memory.Options{NoSync: true}))
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My garden has three apple trees."}))
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "The apple trees came from my grandmother."}))
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	want := func(out string, lines ...string) {
		t.Helper()
		for _, l := range lines {
			if !strings.Contains(out, l) {
				t.Errorf("the reader's output lacks %q:\n%s", l, out)
			}
		}
	}

	t.Run("the owner's killed process left its index", func(t *testing.T) {
		path := newStore("left.db")
		child := startIndexChild(t, path, "hold")
		child.kill(t)
		out := runAsNobody(t, base, path, "read")
		want(out, "open: ok", "list 2: ok", "candidates: [dir] ", "need write access", indexRoot(path), "check: ok")
		if err := os.Chmod(path, 0o666); err != nil {
			t.Fatal(err)
		}
		out = runAsNobody(t, base, path, "write")
		want(out, "open: ok", "list 2: ok", "candidates: [dir] ", "need write access", "check: [dir] ", "could not remove")
		if _, err := os.Stat(child.dir); err != nil {
			t.Fatalf("test is void: the left index is gone: %v", err)
		}
		// The owner's next Open removes it.
		s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
		wantGone(t, "after the owner's Open", child.dir)
		if got := candidateIDs(t, s, "", "apple trees"); len(got) != 2 {
			t.Errorf("the owner's lookup: %v", got)
		}
		if err := s.Check(ctx); err != nil {
			t.Errorf("the owner's Check: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		wantOnlyKept(t, "after the owner's Close", indexRoot(path))
	})

	t.Run("a folder the reader cannot write", func(t *testing.T) {
		path := newStore("plain.db")
		out := runAsNobody(t, base, path, "read")
		want(out, "open: ok", "list 2: ok", "candidates: [dir] ", "need write access", dir, "check: ok")
		wantGone(t, "after the reader", indexRoot(path))
	})
}
