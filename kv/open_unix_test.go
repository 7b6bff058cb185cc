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
