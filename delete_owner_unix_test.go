//go:build unix

package memory_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// fileOwner is the uid and gid of the file at path.
func fileOwner(t *testing.T, path string) (uint32, uint32) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	s := st.Sys().(*syscall.Stat_t)
	return s.Uid, s.Gid
}

// A hard delete run by root (sudo) keeps the store its owner's: a new
// file would be root's, and its owner could no longer open it.
func TestDeleteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give the store to another user")
	}
	s, path := open(t, newClock("2026-01-01"), nil)
	gone := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My pin is zzsecretpin."}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I like tea."}))
	s.Close()
	const nobody = 65534
	if err := os.Chown(path, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
	defer s.Close()
	if _, err := s.Delete(ctx, "", gone.ID, nil); err != nil {
		t.Fatal(err)
	}
	if uid, gid := fileOwner(t, path); uid != nobody || gid != nobody {
		t.Errorf("after a delete by root the store is %d:%d, want %d:%d", uid, gid, nobody, nobody)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// A process of another user (not root) that may write the store deletes
// from it in place: the file stays the one its owner has, under the same
// owner, and the fact is gone. As root, the test runs its own binary as
// nobody for that part.
func TestDeleteByAnotherUserKeepsOwner(t *testing.T) {
	if path := os.Getenv("PALIMPSEST_TEST_OWNER_STORE"); path != "" {
		deleteAsOtherUser(t, path)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run a process as another user")
	}
	// Everything the other user needs is open to it: the folder, the
	// store's bytes and this test binary.
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "memory.test")
	copyFile(t, exe, 0o755)
	path := filepath.Join(dir, "memory.db")
	s := must[*memory.Store](t)(memory.Open(path, 0o666, &memory.Options{NoSync: true}))
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My pin is zzsecretpin."}))
	s.Close()
	const owner = 12345
	if err := os.Chown(path, owner, owner); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)

	cmd := exec.Command(exe, "-test.run=^TestDeleteByAnotherUserKeepsOwner$", "-test.v")
	cmd.Env = append(os.Environ(), "PALIMPSEST_TEST_OWNER_STORE="+path, "PALIMPSEST_TEST_OWNER_FACT="+strconv.FormatUint(f.ID, 10))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the delete as another user: %v\n%s", err, out)
	}
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) {
		t.Error("the delete replaced the store file")
	}
	if uid, gid := fileOwner(t, path); uid != owner || gid != owner {
		t.Errorf("the store is %d:%d, want %d:%d", uid, gid, owner, owner)
	}
	s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
	defer s.Close()
	if _, err := s.Get(ctx, "", f.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("the deleted fact: %v", err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// deleteAsOtherUser is the part of TestDeleteByAnotherUserKeepsOwner that
// runs as the other user.
func deleteAsOtherUser(t *testing.T, path string) {
	id, err := strconv.ParseUint(os.Getenv("PALIMPSEST_TEST_OWNER_FACT"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
	defer s.Close()
	if _, err := s.Delete(ctx, "", id, nil); err != nil {
		t.Fatalf("Delete as another user: %v", err)
	}
}

// copyFile copies this test binary to dst with mode perm.
func copyFile(t *testing.T, dst string, perm os.FileMode) {
	t.Helper()
	src, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
