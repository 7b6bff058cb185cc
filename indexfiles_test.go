package memory_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// watchTemp points the system temporary directory at an empty directory of
// its own for the test and returns it, so that the test can see what is
// written there.
func watchTemp(t *testing.T) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", d)
	return d
}

func wantEmpty(t *testing.T, when, dir string) {
	t.Helper()
	if got := modesUnder(t, dir); len(got) > 0 {
		t.Errorf("%s: %d files under %s: %v", when, len(got), dir, got)
	}
}

// The candidate index lives only beside the store, in a private directory
// (0700, its files 0600) where Close leaves only the kept index; nothing
// of it goes to the system's temporary directory.
func TestIndexLivesOnlyBesideTheStore(t *testing.T) {
	tmp := watchTemp(t)
	storeDir := privateDir(t)
	path := filepath.Join(storeDir, "memory.db")
	s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true, Lookup: memory.LookupTopics}))
	defer s.Close()
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My locker pin is zzsecretpin."}))
	must[memory.Lookup](t)(s.Candidates(ctx, "", "the locker pin", 5))
	waitSegment(t, indexRoot(path))
	if st, err := os.Stat(indexRoot(path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("index directory: %v, %v", st, err)
	}
	wantPrivate(t, "with the index built", indexRoot(path))
	wantEmpty(t, "with the index built", tmp)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My gym is on Elm Street."}))
	must[memory.Lookup](t)(s.Candidates(ctx, "", "which gym", 5))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wantOnlyKept(t, "after Close", indexRoot(path))
	wantEmpty(t, "after Close", tmp)
}

// An index directory left by a killed process, or by any process that is
// gone, is removed by the next Open, writable or read-only; a read-only
// Open leaves alone the index of another process that still has the
// store open. Once the store is reopened and the fact deleted, no index
// beside the store holds a term of it; and a process killed after a delete
// leaves an index without the deleted text.
func TestKilledProcessLeavesNoIndexTerms(t *testing.T) {
	if path := os.Getenv(indexChildEnv); path != "" {
		runIndexChild(t, path, os.Getenv(indexChildModeEnv))
		return
	}
	needles := []string{"zzsecret", "кодсекр"}
	prepare := func(t *testing.T) (path string, plain, chainHead uint64) {
		storeDir := privateDir(t)
		path = filepath.Join(storeDir, "memory.db")
		s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
		defer s.Close()
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "The gym locker is blue."}))
		plain = must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My locker pin is zzsecretpin."})).ID
		old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Мой кодсекрет от сейфа: сорок два."}))
		chainHead = must[memory.Fact](t)(s.Supersede(ctx, "", old.ID, memory.Note{Text: "Теперь мой кодсекрет другой."})).ID
		return path, plain, chainHead
	}

	t.Run("killed holding the text, then reopened and deleted", func(t *testing.T) {
		tmp := watchTemp(t)
		path, plain, head := prepare(t)
		child := startIndexChild(t, path, "hold")
		// A read-only Open beside the live child sweeps nothing of it.
		s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true}))
		must[memory.Lookup](t)(s.Candidates(ctx, "", "locker", 5))
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(child.dir); err != nil {
			t.Fatalf("a read-only Open removed a live index of another process: %v", err)
		}
		child.kill(t)
		if got := holding(indexTerms(t, path), needles); len(got) == 0 {
			t.Fatal("test is void: the killed process's index holds no term of the text")
		}
		// A read-only Open removes what the dead process left.
		s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true}))
		wantGone(t, "after a read-only Open", child.dir)
		s.Close()

		child = startIndexChild(t, path, "hold")
		child.kill(t)
		s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
		wantOnlyKept(t, "after a writable Open", indexRoot(path))
		must[memory.Lookup](t)(s.Candidates(ctx, "", "locker", 5))
		must[[]uint64](t)(s.Delete(ctx, "", plain, nil))
		must[[]uint64](t)(s.Delete(ctx, "", head, &memory.DeleteOptions{Chain: true}))
		if got := holding(indexTerms(t, path), needles); len(got) > 0 {
			t.Errorf("after the delete: %v", got)
		}
		if got := candidateIDs(t, s, "", "gym locker"); len(got) != 1 {
			t.Errorf("the rebuilt index finds %v", got)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		wantOnlyKept(t, "after Close", indexRoot(path))
		if got := traces(t, []string{filepath.Dir(path)}, []string{"zzsecretpin", "кодсекрет"}); len(got) > 0 {
			t.Errorf("after Close: %v", got)
		}
		wantEmpty(t, "at the end", tmp)
	})

	t.Run("killed after deleting", func(t *testing.T) {
		path, _, _ := prepare(t)
		// A child killed after its first segment file appeared but before
		// scorch recorded it left an index that lists no term: try again
		// (the facts are deleted by then; the index is built after it).
		var child *indexChild
		var terms []string
		for try := 0; len(holding(terms, []string{"locker"})) == 0; try++ {
			if try == 5 {
				t.Fatal("test is void: the killed process's index holds no term of the fact it kept")
			}
			child = startIndexChild(t, path, "delete")
			child.kill(t)
			terms = indexTerms(t, path)
		}
		if got := holding(terms, needles); len(got) > 0 {
			t.Errorf("the index of a process killed after a delete holds %v", got)
		}
		if got := traces(t, []string{filepath.Dir(path)}, []string{"zzsecretpin", "кодсекрет"}); len(got) > 0 {
			t.Errorf("after the kill: %v", got)
		}
		s := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true}))
		wantOnlyKept(t, "after Open", indexRoot(path))
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		wantOnlyKept(t, "after Close", indexRoot(path))
	})
}

const (
	indexChildEnv     = "PALIMPSEST_TEST_INDEX_CHILD"
	indexChildModeEnv = "PALIMPSEST_TEST_INDEX_CHILD_MODE"
)

type indexChild struct {
	cmd *exec.Cmd
	dir string // its index directory
}

// startIndexChild runs this test binary as a process that opens the store
// at path, builds the index (deleting first in mode "delete"), and waits
// to be killed once a segment is on disk.
func startIndexChild(t *testing.T, path, mode string) *indexChild {
	t.Helper()
	cctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(cctx, os.Args[0], "-test.run=^TestKilledProcessLeavesNoIndexTerms$", "-test.count=1")
	cmd.Env = append(os.Environ(), indexChildEnv+"="+path, indexChildModeEnv+"="+mode)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if dir, ok := strings.CutPrefix(sc.Text(), "READY "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			return &indexChild{cmd: cmd, dir: dir}
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	t.Fatal("the child exited before it was ready")
	return nil
}

func (c *indexChild) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	c.cmd.Wait()
	if _, err := os.Stat(c.dir); err != nil {
		t.Fatalf("test is void: the killed child's index directory is gone: %v", err)
	}
}

func runIndexChild(t *testing.T, path, mode string) {
	// keywords4 keeps words whole, so the terms the test looks for are plain.
	opts := &memory.Options{NoSync: true, ReadOnly: mode == "hold", Lookup: memory.LookupKeywords4}
	s := must[*memory.Store](t)(memory.Open(path, 0, opts))
	if mode == "delete" {
		for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", nil)) {
			if strings.Contains(f.Text, "zzsecretpin") {
				must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
			}
			if strings.Contains(f.Text, "кодсекрет") {
				must[[]uint64](t)(s.Delete(ctx, "", f.ID, &memory.DeleteOptions{Chain: true}))
			}
		}
	}
	must[memory.Lookup](t)(s.Candidates(ctx, "", "locker", 5))
	waitSegment(t, indexRoot(path))
	es, err := os.ReadDir(indexRoot(path))
	if err != nil {
		t.Fatal(err)
	}
	// Its own directory is the newest one.
	var mine string
	var newest time.Time
	for _, e := range es {
		fi, err := e.Info()
		if err == nil && e.IsDir() && fi.ModTime().After(newest) {
			mine, newest = filepath.Join(indexRoot(path), e.Name()), fi.ModTime()
		}
	}
	fmt.Println("READY " + mine)
	time.Sleep(time.Hour)
	// Unreachable, the store's files would be closed by their finalizers,
	// and its index's lock given up while the process lives.
	runtime.KeepAlive(s)
	t.Fatal("not killed: " + strconv.Itoa(os.Getpid()))
}
