//go:build unix

package kv

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/fsx"
)

// A FIFO, a socket or a device at the store's path is refused at once
// with what it is; a FIFO must not block the open.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock.db")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for path, what := range map[string]string{
		fifo:        "is a named pipe (FIFO)",
		sock:        "is a socket",
		"/dev/null": "is a character device",
	} {
		for _, ro := range []bool{false, true} {
			done := make(chan error, 1)
			go func() {
				db, err := Open(path, 0, &Options{ReadOnly: ro, LockTimeout: 100 * time.Millisecond})
				if err == nil {
					db.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotStore) || !strings.Contains(err.Error(), what) {
					t.Errorf("%s, read-only %v: %v, want ErrNotStore saying it %s", path, ro, err, what)
				}
			case <-time.After(10 * time.Second): // a guard against a hang, not a measurement
				t.Fatalf("%s, read-only %v: Open hangs", path, ro)
			}
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
}

// A create that died before putting its new file in place left it under a
// temporary name: the next create removes it, unless a live create holds
// it locked or it was made a moment ago (bbolt locks the file it makes
// only after making it).
func TestCreateSweepsHalfMadeFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	dead := filepath.Join(dir, newNamePrefix(path)+"dead")
	live := filepath.Join(dir, newNamePrefix(path)+"live")
	young := filepath.Join(dir, newNamePrefix(path)+"young")
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{dead, live, young} {
		if err := os.WriteFile(name, []byte("half made"), 0o600); err != nil {
			t.Fatal(err)
		}
		if name != young {
			if err := os.Chtimes(name, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, err := fsx.LockFile(f, false); err != nil || !got {
		t.Skipf("no flock here: %v", err)
	}
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := os.Stat(dead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead create's file is still there: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the file a live create holds was removed: %v", err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("a file made a moment ago, which its create may not have locked yet, was removed: %v", err)
	}
}
