//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO at the store's path is refused at once, by name, by every
// command (it used to block memctl list forever).
func TestFIFOIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "fifo.db")
	if err := syscall.Mkfifo(db, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"list"}, {"check"}, {"add", "A fact."}} {
		done := make(chan string, 1)
		go func() { done <- fails(t, 1, append([]string{"--db", db}, args...)...) }()
		select {
		case msg := <-done:
			if !strings.Contains(msg, "is a named pipe (FIFO), not a memory store") {
				t.Errorf("memctl %v: %q", args, msg)
			}
		case <-time.After(10 * time.Second): // a guard against the hang, not a measurement
			t.Fatalf("memctl %v hangs on a FIFO", args)
		}
	}
}
