package kv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rssFile is this process's resident memory of mapped files, in kB.
func rssFile(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "RssFile:"); ok {
			var kb int
			fmt.Sscan(v, &kb)
			return kb
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// A pass over the file maps it; ReleaseMapped lets those pages go from
// the process's resident memory, and what is read afterwards, also while
// a releaser runs beside the reads, is the file's.
func TestReleaseMapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	text := strings.Repeat("a fact of some length, ", 40)
	const n = 20_000 // about 20 MB
	for i := 0; i < n; i += 1000 {
		if err := db.Update(func(tx *Tx) error {
			for j := i + 1; j <= i+1000; j++ {
				if err := tx.Put(&Record{ID: uint64(j), Text: fmt.Sprint(j, text), RecordedAt: int64(j)}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	readAll := func(tx *Tx) error {
		for id := uint64(1); id <= n; id++ {
			r, err := tx.Get(id)
			if err != nil {
				return err
			}
			if want := fmt.Sprint(id, text); r.Text != want {
				return fmt.Errorf("fact %d reads %.40q", id, r.Text)
			}
		}
		return nil
	}
	if err := db.View(func(tx *Tx) error {
		if err := readAll(tx); err != nil {
			return err
		}
		before := rssFile(t)
		tx.ReleaseMapped()
		if after := rssFile(t); after > before-10_000 {
			t.Errorf("RssFile %d kB before ReleaseMapped, %d kB after: want 10 MB or more let go", before, after)
		}
		stop := tx.ReleaseMappedEvery(time.Millisecond)
		defer stop()
		return readAll(tx)
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}
