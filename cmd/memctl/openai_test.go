package main

import (
	"bytes"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// These tests set $OPENAI_BASE_URL and $OPENAI_API_KEY, so they cannot run
// in parallel.

const testKey = "sk-test-0123456789abcdefSECRET"

// openAIServer is a fake OpenAI-compatible server that wants testKey, with
// memctl's environment pointing at it.
func openAIServer(t *testing.T) *openaitest.Server {
	t.Helper()
	srv := openaitest.New(t)
	srv.Key = testKey
	t.Setenv("OPENAI_BASE_URL", srv.BaseURL())
	t.Setenv("OPENAI_API_KEY", testKey)
	return srv
}

// noKey fails the test if the key is in any output or any file under dir.
func noKey(t *testing.T, dir string, outputs ...string) {
	t.Helper()
	for _, o := range outputs {
		if strings.Contains(o, testKey) || strings.Contains(o, "SECRET") {
			t.Errorf("the API key is in an output: %q", o)
		}
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(testKey)) || bytes.Contains(b, []byte("SECRET")) {
			t.Errorf("the API key is in %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// lastUser is the last user message of a chat request: the prompt the
// model answers.
func lastUser(req openaitest.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return req.Messages[i].Content
		}
	}
	return ""
}

// Each action of the openai decider, through memctl: the decision is the
// model's, the request goes to $OPENAI_BASE_URL with the key as a bearer
// token, and the key is in no output and no file of the store.
func TestRememberOpenAIActions(t *testing.T) {
	srv := openAIServer(t)
	srv.Chat = func(req openaitest.ChatRequest) openaitest.Reply {
		p := lastUser(req)
		// The prompt holds the candidates too: the new fact's own words first.
		switch {
		case strings.Contains(p, "still at Fabrikam"):
			return openaitest.Reply{Content: `{"reasoning":"said before","action":"noop","target":1,"event_from":null,"grain":null}`}
		case strings.Contains(p, "never had a cat"):
			return openaitest.Reply{Content: `{"reasoning":"the cat was a mistake","action":"invalidate","target":1,"event_from":null,"grain":null}`}
		case strings.Contains(p, "I now work at Fabrikam"):
			return openaitest.Reply{Content: `{"reasoning":"the job changed","action":"update","target":1,"event_from":null,"grain":null}`}
		}
		return openaitest.Reply{Content: openaitest.DefaultContent}
	}
	db := tempDB(t)
	var outs []string
	remember := func(text string) (map[string]any, map[string]any) {
		t.Helper()
		r := memctl(t, "", "--db", db, "--json", "remember", text, "--decider", "openai", "--model", "gpt-test")
		outs = append(outs, r.stdout, r.stderr)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("remember %q: exit %d, stderr %q", text, r.code, r.stderr)
		}
		return outcome(t, r.stdout)
	}
	d, f := remember(contoso)
	if d["action"] != "add" || d["decider"] != "openai" || d["model"] != "gpt-test" || d["fallback"] != "" || f == nil {
		t.Errorf("add: decision %v, fact %v", d, f)
	}
	d, f = remember("I now work at Fabrikam.")
	if d["action"] != "update" || num(d["target"]) != 1 || d["reason"] != "the job changed" || f == nil || id(f) != 2 {
		t.Errorf("update: decision %v, fact %v", d, f)
	}
	d, f = remember("I am still at Fabrikam.")
	if d["action"] != "noop" || num(d["target"]) != 2 || num(d["added"]) != 0 || f == nil || id(f) != 2 {
		t.Errorf("noop: decision %v, fact %v", d, f)
	}
	ok(t, "--db", db, "add", "I have a cat.")
	d, f = remember("Sorry, I never had a cat.")
	if d["action"] != "invalidate" || d["fallback"] != "" || f == nil {
		t.Errorf("invalidate: decision %v, fact %v", d, f)
	}
	if got := states(t, db); got[1] != "superseded" || got[2] != "current" || got[3] != "retracted" || got[4] != "current" {
		t.Errorf("states = %v", got)
	}
	// The text output names the decider and its model.
	out := ok(t, "--db", db, "remember", "I like jazz.", "--decider", "openai", "--model", "gpt-test")
	if !strings.Contains(out, "openai (model gpt-test)") {
		t.Errorf("remember output:\n%s", out)
	}
	outs = append(outs, out)

	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Errorf("%d requests, want 5", len(reqs))
	}
	for _, r := range reqs {
		if r.Path != "/v1/chat/completions" || r.Authorization != "Bearer "+testKey {
			t.Errorf("request %s %s, Authorization %q", r.Method, r.Path, r.Authorization)
		}
	}
	for _, r := range srv.ChatRequests() {
		if r.Model != "gpt-test" {
			t.Errorf("model %q, want gpt-test", r.Model)
		}
	}
	outs = append(outs, ok(t, "--db", db, "--json", "decisions"), ok(t, "--db", db, "export"))
	noKey(t, filepath.Dir(db), outs...)
}

// Every failure of the server goes to the fallback policy with a reason
// that names its cause, on the output; the key appears nowhere.
func TestRememberOpenAIFailures(t *testing.T) {
	srv := openAIServer(t)
	var reply atomic.Pointer[openaitest.Reply]
	srv.Chat = func(openaitest.ChatRequest) openaitest.Reply { return *reply.Load() }
	db := tempDB(t)
	ok(t, "--db", db, "remember", contoso)
	var outs []string
	for _, tc := range []struct {
		name  string
		reply openaitest.Reply
		key   string // "" keeps testKey
		cause []string
	}{
		{"refusal", openaitest.Reply{Refusal: "I can't help with that."}, "", []string{"refused", "I can't help with that."}},
		{"cut at the token limit", openaitest.Reply{Content: `{"reasoning":"and so`, FinishReason: "length"}, "", []string{"token limit"}},
		{"not the schema", openaitest.Reply{Content: `{"verdict":"add"}`}, "", []string{"invalid"}},
		{"not JSON", openaitest.Reply{Garbage: true}, "", []string{"JSON"}},
		{"unsupported schema", openaitest.Reply{Status: http.StatusBadRequest,
			Body: openaitest.ErrorBody("Invalid schema for response_format 'decision'", "invalid_request_error", "")}, "",
			[]string{"400", "Invalid schema for response_format"}},
		{"rate limited", openaitest.Reply{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"20"}},
			Body: openaitest.ErrorBody("Rate limit reached for gpt-test", "requests", "rate_limit_exceeded")}, "",
			[]string{"429", "rate limited", "Rate limit reached"}},
		{"server error", openaitest.Reply{Status: http.StatusInternalServerError,
			Body: openaitest.ErrorBody("The server had an error", "server_error", "")}, "", []string{"500", "The server had an error"}},
		{"not found, empty body", openaitest.Reply{Status: http.StatusNotFound}, "", []string{"404"}},
		{"wrong key", openaitest.Reply{Content: openaitest.DefaultContent}, "sk-wrong-key", []string{"401", "Incorrect API key"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply.Store(&tc.reply)
			if tc.key != "" {
				t.Setenv("OPENAI_API_KEY", tc.key)
			}
			r := memctl(t, "", "--db", db, "remember", "I now live in Oslo.", "--decider", "openai", "--model", "gpt-test")
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("fallback add: exit %d, stderr %q", r.code, r.stderr)
			}
			fb := lineOf(r.stdout, "fallback:")
			for _, c := range tc.cause {
				if !strings.Contains(fb, c) {
					t.Errorf("fallback line %q does not name %q", fb, c)
				}
			}
			if !strings.Contains(r.stdout, "--fallback add") {
				t.Errorf("output:\n%s", r.stdout)
			}
			e := memctl(t, "", "--db", db, "remember", "I now live in Bergen.", "--decider", "openai", "--model", "gpt-test",
				"--fallback", "error")
			if e.code != 1 || !strings.Contains(e.stderr, "decider failed") || !strings.Contains(e.stderr, tc.cause[0]) ||
				!strings.Contains(e.stdout, "nothing was stored") {
				t.Errorf("fallback error: %+v", e)
			}
			outs = append(outs, r.stdout, r.stderr, e.stdout, e.stderr)
		})
	}
	// A server that never answers, bounded by --timeout.
	reply.Store(&openaitest.Reply{Hang: true})
	r := memctl(t, "", "--db", db, "--timeout", "200ms", "remember", "I now live in Tromsø.", "--decider", "openai", "--model", "gpt-test")
	if fb := lineOf(r.stdout, "fallback:"); r.code != 0 || !strings.Contains(fb, "timed out") {
		t.Errorf("a hanging server: %+v", r)
	}
	outs = append(outs, r.stdout, r.stderr, ok(t, "--db", db, "--json", "decisions"))
	noKey(t, filepath.Dir(db), outs...)
}

// lineOf is the first line of out that starts with prefix, or "".
func lineOf(out, prefix string) string {
	for l := range strings.Lines(out) {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// Mistakes in the openai set-up are usage errors, found before the store
// is touched, and never print the key.
func TestRememberOpenAIUsage(t *testing.T) {
	db := tempDB(t)
	ok(t, "--db", db, "remember", contoso)
	t.Setenv("OPENAI_API_KEY", testKey)
	for _, tc := range []struct {
		name, base string
		args       []string
		msg        string
	}{
		{"no model", "http://127.0.0.1:1/v1", nil, "--model"},
		{"a base URL of another scheme", "ftp://example.com/v1", []string{"--model", "m"}, "ftp"},
		{"credentials in the base URL", "https://user:" + testKey + "@example.com/v1", []string{"--model", "m"}, "credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OPENAI_BASE_URL", tc.base)
			e := fails(t, 2, append([]string{"--db", db, "remember", "x", "--decider", "openai"}, tc.args...)...)
			if !strings.Contains(e, tc.msg) {
				t.Errorf("stderr %q does not mention %q", e, tc.msg)
			}
			noKey(t, filepath.Dir(db), e)
		})
	}
	// OpenAI's own API without a key.
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	if e := fails(t, 2, "--db", db, "remember", "x", "--decider", "openai", "--model", "m"); !strings.Contains(e, "OPENAI_API_KEY") {
		t.Errorf("no key for OpenAI's API: %q", e)
	}
	t.Setenv("MEMCTL_EMBED_MODEL", "text-embedding-3-small")
	if e := fails(t, 2, "--db", db, "--lookup", "semantic", "--embedder", "openai", "candidates", "x"); !strings.Contains(e, "OPENAI_API_KEY") {
		t.Errorf("no key for OpenAI's API, embedder: %q", e)
	}
	if got := states(t, db); len(got) != 1 {
		t.Errorf("facts after usage errors: %v", got)
	}
}

// --embedder openai: the semantic lookup embeds through the server's
// /embeddings with $MEMCTL_EMBED_MODEL and the key.
func TestSemanticLookupOpenAI(t *testing.T) {
	srv := openAIServer(t)
	srv.Embed = func(text string) []float32 {
		if strings.Contains(text, "tea") {
			return []float32{1, 0}
		}
		return []float32{0, 1}
	}
	var failing atomic.Bool
	srv.EmbedReply = func([]string) openaitest.Reply {
		if failing.Load() {
			return openaitest.Reply{Status: http.StatusInternalServerError, Body: openaitest.ErrorBody("boom", "server_error", "")}
		}
		return openaitest.Reply{} // a normal reply
	}
	t.Setenv("MEMCTL_EMBED_MODEL", "embed-test")
	db := tempDB(t)
	var outs []string
	outs = append(outs, ok(t, "--db", db, "--lookup", "semantic", "--embedder", "openai", "add", "I drink green tea."))
	out := ok(t, "--db", db, "--lookup", "semantic", "--embedder", "openai", "candidates", "tea")
	if !strings.Contains(out, "I drink green tea.") || !strings.Contains(out, "similarity 1.00") {
		t.Errorf("semantic candidates: %q", out)
	}
	outs = append(outs, out)
	// $MEMCTL_EMBEDDER chooses it too.
	t.Setenv("MEMCTL_EMBEDDER", "openai")
	n := len(srv.Requests())
	outs = append(outs, ok(t, "--db", db, "--lookup", "semantic", "candidates", "tea"))
	reqs := srv.Requests()
	if len(reqs) == n {
		t.Errorf("$MEMCTL_EMBEDDER=openai asked no embeddings")
	}
	for _, r := range reqs {
		if r.Path != "/v1/embeddings" || r.Authorization != "Bearer "+testKey || !strings.Contains(string(r.Body), `"embed-test"`) {
			t.Errorf("request %s %s, Authorization %q, body %s", r.Method, r.Path, r.Authorization, r.Body)
		}
	}
	// A failing server: the lookup falls back to words, and says why.
	failing.Store(true)
	r := memctl(t, "", "--db", db, "--lookup", "semantic", "candidates", "tea")
	if r.code != 0 || !strings.Contains(r.stderr, "500") || !strings.Contains(r.stdout, "I drink green tea.") {
		t.Errorf("a failing embedder: %+v", r)
	}
	outs = append(outs, r.stdout, r.stderr)
	noKey(t, filepath.Dir(db), outs...)

	// Mistakes are usage errors.
	t.Setenv("MEMCTL_EMBED_MODEL", "")
	if e := fails(t, 2, "--db", db, "--lookup", "semantic", "candidates", "tea"); !strings.Contains(e, "MEMCTL_EMBED_MODEL") {
		t.Errorf("openai embedder without a model: %q", e)
	}
	if e := fails(t, 2, "--db", db, "--lookup", "semantic", "--embedder", "telepathy", "candidates", "tea"); !strings.Contains(e, "telepathy") {
		t.Errorf("unknown embedder: %q", e)
	}
}

// A slow OpenAI-compatible server is announced with its model and base
// URL, never the key.
func TestWaitNoticeOpenAI(t *testing.T) {
	srv := openAIServer(t)
	srv.Chat = func(openaitest.ChatRequest) openaitest.Reply {
		time.Sleep(slowReply)
		return openaitest.Reply{Content: openaitest.DefaultContent}
	}
	db := tempDB(t)
	r := memctl(t, "", "--db", db, "remember", contoso, "--decider", "openai", "--model", "gpt-test")
	want := "memctl: asking gpt-test at " + srv.BaseURL()
	if r.code != 0 || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("slow server: %+v, want stderr starting %q", r, want)
	}
	noKey(t, filepath.Dir(db), r.stdout, r.stderr)
}

// Against a real OpenAI-compatible server, when $OPENAI_BASE_URL and
// $MEMCTL_MODEL name one (with $OPENAI_API_KEY if it wants a key): memctl
// gets a decision from the model, with no fallback, and keeps no key.
func TestRememberOpenAIRealServer(t *testing.T) {
	if os.Getenv("OPENAI_BASE_URL") == "" || os.Getenv("MEMCTL_MODEL") == "" {
		t.Skip("set OPENAI_BASE_URL and MEMCTL_MODEL (and OPENAI_API_KEY) to run against a real server")
	}
	db := tempDB(t)
	ok(t, "--db", db, "remember", contoso)
	r := memctl(t, "", "--db", db, "--json", "--timeout", "5m", "remember", fabrikam, "--decider", "openai")
	d, _ := outcome(t, r.stdout)
	if r.code != 0 || d["decider"] != "openai" || d["fallback"] != "" || d["reason"] == "" {
		t.Fatalf("real server: exit %d, stderr %q, decision %v", r.code, r.stderr, d)
	}
	t.Logf("the model decided %v of fact %v: %v", d["action"], d["target"], d["reason"])
	if key := os.Getenv("OPENAI_API_KEY"); key != "" {
		for _, s := range []string{r.stdout, r.stderr, ok(t, "--db", db, "export")} {
			if strings.Contains(s, key) {
				t.Errorf("the key is in an output")
			}
		}
	}
}
