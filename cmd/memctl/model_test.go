package main

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// These tests set $OLLAMA_HOST and friends, so they cannot run in parallel.
// They hold no timing to account beyond what the 1 s notice needs: a slow
// reply is three times as slow as the notice's delay.

// slowReply is how long a slow fake model takes to answer.
const slowReply = 3 * time.Second

func TestTimeoutUsage(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "remember", contoso)
	t.Setenv("OLLAMA_HOST", closedPort(t))
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"not a duration", []string{"--timeout", "soon", "remember", "x"}, "soon"},
		{"a bare number", []string{"--timeout", "30", "remember", "x"}, "30"},
		{"zero", []string{"--timeout", "0s", "remember", "x"}, "0s"},
		{"negative", []string{"--timeout", "-1s", "remember", "x"}, "-1s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if e := fails(t, 2, append([]string{"--db", db}, tc.args...)...); !strings.Contains(e, tc.msg) ||
				!strings.Contains(e, "timeout") {
				t.Errorf("stderr %q does not name the timeout and %q", e, tc.msg)
			}
		})
	}
	t.Setenv("MEMCTL_TIMEOUT", "forever")
	if e := fails(t, 2, "--db", db, "remember", "x", "--decider", "ollama", "--model", "m"); !strings.Contains(e, "MEMCTL_TIMEOUT") ||
		!strings.Contains(e, "forever") {
		t.Errorf("bad $MEMCTL_TIMEOUT: %q", e)
	}
	if e := fails(t, 2, "--db", db, "--lookup", "semantic", "candidates", "x"); !strings.Contains(e, "MEMCTL_TIMEOUT") {
		t.Errorf("bad $MEMCTL_TIMEOUT, semantic lookup: %q", e)
	}
	if got := states(t, db); len(got) != 1 {
		t.Errorf("refused commands stored facts: %v", got)
	}
	if out := ok(t, "--help"); !strings.Contains(out, "--timeout") || !strings.Contains(out, "MEMCTL_TIMEOUT") {
		t.Errorf("--help does not document --timeout:\n%s", out)
	}
}

// A model call that takes over a second is announced on stderr, with the
// model and where it is asked; a quick one is not.
func TestWaitNoticeDecider(t *testing.T) {
	srv := ollamatest.New(t)
	t.Setenv("OLLAMA_HOST", srv.URL)
	db := tempDB(t)

	r := memctl(t, "", "--db", db, "--json", "remember", contoso, "--decider", "ollama", "--model", "quick-model")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("quick model: exit %d, stderr %q", r.code, r.stderr)
	}

	srv.Chat = func(ollamatest.ChatRequest) string {
		time.Sleep(slowReply)
		return ollamatest.DefaultChatReply
	}
	r = memctl(t, "", "--db", db, "--json", "remember", "I have a cat.", "--decider", "ollama", "--model", "slow-model")
	if r.code != 0 {
		t.Fatalf("slow model: exit %d, stderr %q", r.code, r.stderr)
	}
	want := "memctl: asking slow-model at " + srv.URL
	if !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("slow model: stderr %q, want one line starting %q", r.stderr, want)
	}
	if d, _ := outcome(t, r.stdout); d["action"] != "add" || d["fallback"] != "" {
		t.Errorf("slow model: decision %v, want the model's add", d)
	}
}

func TestWaitNoticeEmbedder(t *testing.T) {
	srv := ollamatest.New(t)
	var slow atomic.Bool
	srv.Embed = func(string) []float32 {
		if slow.Load() {
			time.Sleep(slowReply)
		}
		return []float32{1, 0}
	}
	t.Setenv("OLLAMA_HOST", srv.URL)
	t.Setenv("MEMCTL_EMBED_MODEL", "my-embed")
	db := tempDB(t)
	ok(t, "--db", db, "--lookup", "semantic", "add", "I drink green tea.")
	slow.Store(true)
	r := memctl(t, "", "--db", db, "--lookup", "semantic", "candidates", "tea")
	want := "memctl: asking my-embed at " + srv.URL
	if r.code != 0 || !strings.HasPrefix(r.stderr, want) || !strings.Contains(r.stdout, "I drink green tea.") {
		t.Errorf("slow embedder: %+v, want stderr starting %q", r, want)
	}
}

// --timeout bounds a server that accepts the request and never answers:
// the decision says it timed out and the fallback policy applies.
func TestTimeoutBoundsModel(t *testing.T) {
	srv := ollamatest.New(t)
	srv.SetFault(ollamatest.Hang) // holds each request for ollamatest.HangFor
	t.Setenv("OLLAMA_HOST", srv.URL)
	db := tempDB(t)

	d, f := outcome(t, ok(t, "--db", db, "--json", "--timeout", "200ms", "remember", contoso,
		"--decider", "ollama", "--model", "m"))
	if d["action"] != "add" || f == nil || !timedOut(d["fallback"]) {
		t.Errorf("--timeout 200ms, --fallback add: decision %v, fact %v", d, f)
	}

	t.Setenv("MEMCTL_TIMEOUT", "200ms")
	r := memctl(t, "", "--db", db, "--json", "remember", fabrikam, "--decider", "ollama", "--model", "m", "--fallback", "error")
	if r.code != 1 || !strings.Contains(r.stderr, "decider failed") {
		t.Errorf("$MEMCTL_TIMEOUT, --fallback error: exit %d, stderr %q", r.code, r.stderr)
	}
	if d, f := outcome(t, r.stdout); d["action"] != "refused" || f != nil || !timedOut(d["fallback"]) {
		t.Errorf("$MEMCTL_TIMEOUT, --fallback error: decision %v, fact %v", d, f)
	}
	if got := states(t, db); len(got) != 1 {
		t.Errorf("after the refused fact: %v", got)
	}
}

// timedOut: a fallback reason that says the model's time ran out.
func timedOut(reason any) bool {
	s, _ := reason.(string)
	s = strings.ToLower(s)
	return strings.Contains(s, "timeout") || strings.Contains(s, "timed out") || strings.Contains(s, "deadline exceeded")
}
