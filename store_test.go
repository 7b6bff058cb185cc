package memory_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

func TestFileMode(t *testing.T) {
	_, path := open(t, nil, nil)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := st.Mode().Perm(); m != 0o600 {
		t.Errorf("file mode %o, want 600", m)
	}
}

// An option out of range is refused by name, before the file is touched.
func TestOpenNamesTheBadOption(t *testing.T) {
	for _, c := range []struct {
		opts memory.Options
		want string
	}{
		{memory.Options{MaxTextRunes: -1}, "Options.MaxTextRunes = -1"},
		{memory.Options{AutoBudget: -2}, "Options.AutoBudget = -2"},
		{memory.Options{Lookup: "psychic"}, "Options.Lookup: "},
		{memory.Options{Fallback: "maybe"}, "Options.Fallback: "},
	} {
		path := filepath.Join(t.TempDir(), "m.db")
		s, err := memory.Open(path, 0, &c.opts)
		if err == nil {
			s.Close()
			t.Errorf("Open(%+v) accepted", c.opts)
			continue
		}
		if !strings.HasPrefix(err.Error(), "memory: "+c.want) {
			t.Errorf("Open(%+v): %v, want it to start %q", c.opts, err, "memory: "+c.want)
		}
		if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Open(%+v) refused, but made the file: %v", c.opts, err)
		}
	}
}

func TestSecondOpenIsLocked(t *testing.T) {
	_, path := open(t, nil, nil)
	start := time.Now()
	_, err := memory.Open(path, 0, &memory.Options{LockTimeout: 200 * time.Millisecond})
	if !errors.Is(err, memory.ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("second open took %v with a 200ms timeout", d)
	}
}

func TestReadOnly(t *testing.T) {
	s, path := open(t, newClock("2026-01-01"), nil)
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "kept"}))
	s.Close()
	ro, err := memory.Open(path, 0, &memory.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got := must[memory.Fact](t)(ro.Get(ctx, "", f.ID)); got.Text != "kept" {
		t.Errorf("read-only get: %+v", got)
	}
	if _, err := ro.Add(ctx, memory.Note{Text: "x"}); !errors.Is(err, memory.ErrReadOnly) {
		t.Errorf("write on read-only store: %v", err)
	}
	if _, err := ro.Delete(ctx, "", f.ID, nil); !errors.Is(err, memory.ErrReadOnly) {
		t.Errorf("delete on read-only store: %v", err)
	}
}

func TestClosedStore(t *testing.T) {
	s, _ := open(t, nil, nil)
	s.Close()
	if _, err := s.Add(ctx, memory.Note{Text: "x"}); !errors.Is(err, memory.ErrClosed) {
		t.Errorf("add after close: %v", err)
	}
	// A lookup meets the closed candidate index before the file.
	if _, err := s.Candidates(ctx, "", "apple trees", 1); !errors.Is(err, memory.ErrClosed) || err.Error() != "store is closed" {
		t.Errorf("lookup after close: %v", err)
	}
	if _, err := s.Remember(ctx, memory.Note{Text: "I like apple trees."}); !errors.Is(err, memory.ErrClosed) {
		t.Errorf("remember after close: %v", err)
	}
}

// A damaged or foreign file gives an error from Open or Check, never a panic.
func TestCorruptFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	garbage := make([]byte, 16384)
	for i := range garbage {
		garbage[i] = byte(i * 7)
	}
	// A file of bytes is damaged or foreign (ErrCorrupt); an empty one is no
	// store yet (ErrNotStore). Either way Open, read-write or read-only,
	// leaves the file as it was.
	for _, tc := range []struct {
		name    string
		content []byte
		want    error
	}{
		{"garbage", garbage, memory.ErrCorrupt},
		{"text file", []byte("hello, I am not a database\n"), memory.ErrCorrupt},
		{"empty file", nil, memory.ErrNotStore},
	} {
		other := memory.ErrNotStore
		if tc.want == memory.ErrNotStore {
			other = memory.ErrCorrupt
		}
		path := write(strings.ReplaceAll(tc.name, " ", "-")+".db", tc.content)
		for _, ro := range []bool{false, true} {
			s, err := memory.Open(path, 0, &memory.Options{ReadOnly: ro})
			if err == nil {
				s.Close()
				t.Errorf("%s, read-only %v: Open succeeded", tc.name, ro)
				continue
			}
			if !errors.Is(err, tc.want) || errors.Is(err, other) {
				t.Errorf("%s, read-only %v: %v, want %v only", tc.name, ro, err, tc.want)
			}
			if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, tc.content) {
				t.Errorf("%s, read-only %v: a refused Open changed the file (%d bytes, %v)", tc.name, ro, len(b), err)
			}
		}
	}

	// A real store whose data pages are overwritten: Open may succeed, but
	// Check (or the first read) must report it.
	s, path := open(t, newClock("2026-01-01"), nil)
	for range 50 {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "a fact that fills pages"}))
	}
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 2 * 4096; i < len(b); i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := memory.Open(path, 0, nil)
	if err != nil {
		if !errors.Is(err, memory.ErrCorrupt) {
			t.Errorf("open of a damaged store: %v, want ErrCorrupt", err)
		}
		return
	}
	defer s2.Close()
	if err := s2.Check(ctx); !errors.Is(err, memory.ErrCorrupt) {
		t.Errorf("check of a damaged store: %v, want ErrCorrupt", err)
	}
}

func TestCheckCleanStore(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "a", Pinned: true}))
	b := must[memory.Fact](t)(s.Supersede(ctx, "", a.ID, memory.Note{Text: "b"}))
	must[memory.Fact](t)(s.Invalidate(ctx, "", b.ID, memory.Change{}))
	must[memory.Fact](t)(s.Restore(ctx, "", a.ID, memory.Change{}))
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// A second Open waiting for the lock while an Import swaps the file for
// the one it filled must not get the lock on the old, unlinked file. The
// test watches this process's open files (no timing): it starts the Import
// only once the second Open holds the old file open, waiting for its lock;
// after the swap it waits until that Open has let go of the old file,
// which it must do without returning, since the first store holds the new
// one; it returns only after the first store closed (an order of events on
// one counter).
func TestOpenWaitingDuringImport(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skip("needs /proc/self/fd to watch the open files:", err)
	}
	src, _ := open(t, newClock("2026-01-01"), nil)
	f := must[memory.Fact](t)(src.Add(ctx, memory.Note{Text: "first"}))
	kept := must[memory.Fact](t)(src.Add(ctx, memory.Note{Text: "second"}))
	var export bytes.Buffer
	if err := src.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	s, path := open(t, newClock("2026-01-01"), nil)
	old, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ours := openOn(t, old) // the first store's handles on the file
	var seq atomic.Int64   // orders the second Open's return and the first Close
	type result struct {
		s   *memory.Store
		err error
		at  int64
	}
	opened := make(chan result, 1)
	go func() {
		s2, err := memory.Open(path, 0, &memory.Options{LockTimeout: time.Minute})
		opened <- result{s2, err, seq.Add(1)} // still open, so that its handles stay visible
	}()
	returned := func(what string) {
		t.Helper()
		select {
		case r := <-opened:
			if r.s != nil {
				r.s.Close()
			}
			t.Fatalf("second open returned %s, while the first still holds the store: %v", what, r.err)
		default:
		}
	}
	// Deadlock guard only: every wait below ends on what it watches.
	deadline := time.Now().Add(30 * time.Second)
	for openOn(t, old) <= ours {
		returned("before it opened the old file")
		if time.Now().After(deadline) {
			t.Fatal("the second open never opened the file")
		}
		time.Sleep(time.Millisecond)
	}
	returned("at once")
	must[int](t)(s.Import(ctx, &export, nil))
	now, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(old, now) {
		t.Fatal("the Import did not replace the file: the test proves nothing")
	}
	// The old file's last handle is the second Open's, until it sees the
	// file was replaced and retries on the new one.
	for openOn(t, old) > 0 {
		returned("with the lock on the old file")
		if time.Now().After(deadline) {
			t.Fatal("the second open still holds the old file")
		}
		time.Sleep(time.Millisecond)
	}
	returned("after letting go of the old file")
	closing := seq.Add(1)
	s.Close()
	r := <-opened
	if r.s != nil {
		defer r.s.Close()
	}
	if r.at < closing {
		t.Fatalf("second open returned before the first store closed: %v", r.err)
	}
	if r.err != nil {
		t.Fatalf("second open after the first closed: %v", r.err)
	}
	// It opened the file the first store left, the imported one, and
	// holds nothing of the unlinked one.
	at, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(at, now) {
		t.Fatal("the file at the path was replaced again while the first store held it")
	}
	if n, m := openOn(t, old), openOn(t, at); n != 0 || m == 0 {
		t.Fatalf("the second store holds %d handles on the unlinked file, %d on the file at the path", n, m)
	}
	for _, want := range []memory.Fact{f, kept} {
		if g := must[memory.Fact](t)(r.s.Get(ctx, "", want.ID)); g.Text != want.Text {
			t.Errorf("the second store has %+v, want the imported %+v", g, want)
		}
	}
}

// openOn counts this process's open files that are the file fi describes,
// unlinked or not.
func openOn(t *testing.T, fi os.FileInfo) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if st, err := os.Stat(filepath.Join("/proc/self/fd", fd.Name())); err == nil && os.SameFile(st, fi) {
			n++
		}
	}
	return n
}

func TestTruncatedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "short.db")
	if err := os.WriteFile(path, make([]byte, 4096), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := memory.Open(path, 0, nil); !errors.Is(err, memory.ErrCorrupt) {
		t.Errorf("open of a one-page file: %v, want ErrCorrupt", err)
	}
}

// A clock set back must not make a fact's log go back in time.
func TestRecordTimeNeverGoesBack(t *testing.T) {
	c := newClock("2026-08-01")
	s, _ := open(t, c, nil)
	f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I work at A."}))
	c.set("2026-03-01")
	before := snapshot(t, s)
	if _, err := s.Invalidate(ctx, "", f.ID, memory.Change{}); !errors.Is(err, memory.ErrTimeOrder) {
		t.Errorf("invalidate with the clock set back: %v", err)
	}
	if _, err := s.Supersede(ctx, "", f.ID, memory.Note{Text: "I work at B."}); !errors.Is(err, memory.ErrTimeOrder) {
		t.Errorf("supersede with the clock set back: %v", err)
	}
	if snapshot(t, s) != before {
		t.Error("a refused change wrote something")
	}
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "a new fact may be recorded at any time"}))
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}
