//go:build unix

package main

import (
	"os"
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

// delete of a store with a second name (hard link) goes through: the
// scrub works in place, so the text leaves the file under both names.
func TestDeleteOfAHardLinkedStore(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ok(t, "--db", db, "add", "my pin is zzsecretpin")
	if err := os.Link(db, db+".other"); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	ok(t, "--db", db, "delete", "1")
	for _, name := range []string{db, db + ".other"} {
		if b, _ := os.ReadFile(name); strings.Contains(string(b), "zzsecretpin") {
			t.Errorf("the deleted text is still in %s", name)
		}
	}
	if out := ok(t, "--db", db, "check"); out != "ok\n" {
		t.Errorf("check of a linked store: %q", out)
	}
}
