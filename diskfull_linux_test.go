//go:build linux

package memory_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// filler writes to a store until the disk (or the file size limit) refuses,
// remembering what each write acknowledged and the texts of the writes
// that failed.
type filler struct {
	s      *memory.Store
	errno  syscall.Errno // what the refusal must say
	mu     sync.Mutex
	acked  map[uint64]string
	failed []string
	errs   []error
}

func newFiller(s *memory.Store, errno syscall.Errno) *filler {
	return &filler{s: s, errno: errno, acked: map[uint64]string{}}
}

// text is unique per n and long, so that the file fills in a few hundred
// writes, and shares no word with another, so the rules decider adds.
func fillText(kind string, n int) string {
	return fmt.Sprintf("%s note %05d:%s", kind, n, strings.Repeat(fmt.Sprintf(" w%05dx", n), 40))
}

func (f *filler) record(text string, ids []uint64, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		f.failed = append(f.failed, text)
		f.errs = append(f.errs, err)
		return
	}
	for _, id := range ids {
		f.acked[id] = text
	}
}

// fill runs adds, supersedes and Remembers in turn until the first write
// fails, then writes from several goroutines at once (group commit) while
// the disk is still full: some may fit in pages the file has free.
func (f *filler) fill(t *testing.T) {
	t.Helper()
	var current []uint64
	for i := 0; len(f.errs) == 0; i++ {
		if i == 20000 {
			t.Fatal("test is void: 20,000 writes and none failed")
		}
		text := fillText("fill", i)
		switch {
		case i%5 == 3 && len(current) > 0:
			old := current[len(current)-1]
			nf, err := f.s.Supersede(ctx, "", old, memory.Note{Text: text})
			f.record(text, []uint64{nf.ID}, err)
			if err == nil {
				current[len(current)-1] = nf.ID
			}
		case i%7 == 5:
			out, err := f.s.Remember(ctx, memory.Note{Text: text})
			if err == nil && out.Fact.Text != text {
				t.Fatalf("remember: %+v", out.Decision) // a noop would not be a write
			}
			f.record(text, []uint64{out.Fact.ID}, err)
		default:
			nf, err := f.s.Add(ctx, memory.Note{Text: text})
			f.record(text, []uint64{nf.ID}, err)
			if err == nil {
				current = append(current, nf.ID)
			}
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 8 {
				text := fillText(fmt.Sprintf("crowd%d", g), j)
				nf, err := f.s.Add(ctx, memory.Note{Text: text})
				f.record(text, []uint64{nf.ID}, err)
			}
		}()
	}
	wg.Wait()
	for _, err := range f.errs {
		if errors.Is(err, memory.ErrCorrupt) || !strings.Contains(err.Error(), f.errno.Error()) {
			t.Errorf("a failed write says %v, want an error naming %q and not ErrCorrupt", err, f.errno.Error())
		}
	}
	t.Logf("%d writes acknowledged, %d refused", len(f.acked), len(f.failed))
}

// verify checks a store after the failures: it passes Check, holds exactly
// the facts want (the store's own list before it was closed), every
// acknowledged fact with its text, and no text of a refused write.
func verify(t *testing.T, s *memory.Store, want []memory.Fact, acked map[uint64]string, failed []string) {
	t.Helper()
	// A pending compaction is not ok for Check, but leaves the store consistent.
	if err := s.Check(ctx); err != nil && !errors.Is(err, memory.ErrScrubPending) {
		t.Fatalf("Check: %v", err)
	}
	got := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))
	if want != nil && !reflect.DeepEqual(got, want) {
		t.Errorf("the store holds %d facts, want the %d it listed before", len(got), len(want))
	}
	byID := map[uint64]memory.Fact{}
	for _, f := range got {
		byID[f.ID] = f
	}
	for id, text := range acked {
		if byID[id].Text != text {
			t.Errorf("acknowledged fact %d: %q, want %q", id, byID[id].Text, text)
		}
	}
	texts := map[string]bool{}
	for _, f := range got {
		texts[f.Text] = true
	}
	for _, d := range must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)) {
		texts[d.Text] = true
	}
	for _, text := range failed {
		if texts[text] {
			t.Errorf("a refused write is in the store: %.30q…", text)
		}
	}
}

// mountTmpfs mounts a small tmpfs, or skips: it needs root (CAP_SYS_ADMIN).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a %s tmpfs here (%v): needs root; TestWriteFailsAtFileSizeLimit covers failing writes without it", size, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// takeUpRoom writes path until the disk it is on is full.
func takeUpRoom(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// On a full disk every write either is acknowledged or returns an error
// (ENOSPC, not a panic, not ErrCorrupt); the store stays consistent in the
// process and after reopening; a hard delete on the full disk is applied
// and its text leaves the file (its scrub writes in place); and once
// space is freed, writes work again.
func TestWriteFailsOnFullDisk(t *testing.T) {
	dir := mountTmpfs(t, "2m")
	ballast := filepath.Join(dir, "ballast")
	if err := os.WriteFile(ballast, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	// Room kept for the hard delete's commits below (a few pages): without
	// it, whether they fit in the file's free pages depends on how the
	// writes went.
	room := filepath.Join(dir, "room")
	if err := os.WriteFile(room, make([]byte, 128<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "memory.db")
	// The candidate index lives beside the store, so it meets the full
	// disk too: Remember's lookups build it there.
	var opts *memory.Options
	s := must[*memory.Store](t)(memory.Open(path, 0, opts))
	defer func() { s.Close() }()
	f := newFiller(s, syscall.ENOSPC)
	f.fill(t)
	verify(t, s, nil, f.acked, f.failed)
	// The candidate index shares the disk, and a hard delete of a small
	// store drops it: its bytes would give the delete room. Closed, the
	// store keeps its index beside it; removed (as it may be while no
	// process has the store open), the store has none until a lookup, and
	// what it held is taken up.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(path + ".index"); err != nil {
		t.Fatal(err)
	}
	s = must[*memory.Store](t)(memory.Open(path, 0, opts))
	takeUpRoom(t, filepath.Join(dir, "ballast2"))
	if err := os.Remove(room); err != nil {
		t.Fatal(err)
	}

	// A hard delete on the full disk: its scrub overwrites freed pages in
	// place, which needs no room, so it is applied and its text leaves
	// the file.
	var victim uint64
	for id := range f.acked {
		victim = max(victim, id)
	}
	gone := f.acked[victim]
	delete(f.acked, victim)
	if ids, err := s.Delete(ctx, "", victim, nil); len(ids) != 1 || err != nil {
		t.Errorf("delete on a full disk: %v, %v", ids, err)
	}
	if _, err := s.Get(ctx, "", victim); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("get of the deleted fact: %v", err)
	}
	if dirContains(t, dir, gone) {
		t.Error("the deleted text is still on the disk after the delete")
	}
	want := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))
	verify(t, s, want, f.acked, f.failed)
	if err := s.Check(ctx); err != nil {
		t.Errorf("Check after the delete on a full disk: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true}))
	verify(t, ro, want, f.acked, f.failed)
	ro.Close()

	// Space freed: writes work again.
	if err := os.Remove(ballast); err != nil {
		t.Fatal(err)
	}
	s = must[*memory.Store](t)(memory.Open(path, 0, opts))
	verify(t, s, want, f.acked, f.failed)
	after := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "written after space was freed"}))
	f.acked[after.ID] = after.Text
	s.Close()
	s = must[*memory.Store](t)(memory.Open(path, 0, opts))
	verify(t, s, nil, f.acked, f.failed)
}

// fsizeChild names the store directory of the child process that runs
// TestWriteFailsAtFileSizeLimit under a file size limit.
const fsizeChild = "PALIMPSEST_TEST_FSIZE_DIR"

// fsizeResult is what the child reports to the parent.
type fsizeResult struct {
	Acked  map[uint64]string
	Failed []string
	Facts  []memory.Fact
}

// Writes past the file size limit (RLIMIT_FSIZE, which needs no root) fail
// with EFBIG: the child process fills a store under the limit, checks it,
// and reports; the parent, without the limit (the space freed), reopens
// the store, finds it consistent with every acknowledged fact and none of
// the refused ones, and writes to it.
func TestWriteFailsAtFileSizeLimit(t *testing.T) {
	if dir := os.Getenv(fsizeChild); dir != "" {
		runFsizeChild(t, dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFailsAtFileSizeLimit$", "-test.count=1")
	cmd.Env = append(os.Environ(), fsizeChild+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var res *fsizeResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "RESULT "); ok {
			res = new(fsizeResult)
			if err := json.Unmarshal([]byte(line), res); err != nil {
				t.Fatal(err)
			}
		}
	}
	if res == nil {
		t.Fatalf("the child reported nothing:\n%s", out)
	}
	if len(res.Acked) == 0 || len(res.Failed) == 0 {
		t.Fatalf("test is void: %d acknowledged, %d refused", len(res.Acked), len(res.Failed))
	}
	path := filepath.Join(dir, "memory.db")
	s := must[*memory.Store](t)(memory.Open(path, 0, nil))
	defer func() { s.Close() }()
	// Facts decoded from JSON lose their time zone pointer; compare them
	// re-encoded.
	got := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))
	if a, b := must[[]byte](t)(json.Marshal(got)), must[[]byte](t)(json.Marshal(res.Facts)); !bytes.Equal(a, b) {
		t.Errorf("after reopening, the store holds %d facts, the child listed %d", len(got), len(res.Facts))
	}
	verify(t, s, nil, res.Acked, res.Failed)
	// Past the old limit: a write that grows the file works now.
	for i := range 200 {
		f := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: fillText("after", i)}))
		res.Acked[f.ID] = f.Text
	}
	s.Close()
	s = must[*memory.Store](t)(memory.Open(path, 0, nil))
	verify(t, s, nil, res.Acked, res.Failed)
}

func runFsizeChild(t *testing.T, dir string) {
	// Go ignores SIGXFSZ unless notified; say so, so that a write past the
	// limit fails with EFBIG instead of killing the process.
	signal.Ignore(syscall.SIGXFSZ)
	// NoSync saves time only: the limit refuses the file's growth before any
	// sync matters, and the child closes the store before it exits.
	s := must[*memory.Store](t)(memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true}))
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	lim.Cur = 768 << 10
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	f := newFiller(s, syscall.EFBIG)
	f.fill(t)
	verify(t, s, nil, f.acked, f.failed)
	res := fsizeResult{Acked: f.acked, Failed: f.failed, Facts: must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b := must[[]byte](t)(json.Marshal(res))
	fmt.Printf("RESULT %s\n", b)
}
