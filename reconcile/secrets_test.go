package reconcile

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// leaks reports whether s holds the key or a prefix of it long enough to
// count (minKeyPrefix characters): what redaction must leave out.
func leaks(s, key string) bool {
	return strings.Contains(s, key[:min(len(key), minKeyPrefix)])
}

// The key is cut from every header and body the client reads, before
// anything is clipped: a Retry-After echoing it, a long 401 whose message
// ends with it (the clip used to fall inside the key and leave a prefix),
// a body that is not JSON, and a message that spells it in JSON escapes.
func TestKeyRedactedBeforeClipping(t *testing.T) {
	key := openaitest.KeyPlaceholder
	escaped := `{"error":{"message":"bad key \u0073\u006b-test-5f3a9c1e-never-to-be-seen","type":"invalid_request_error","code":"invalid_api_key"}}`
	for _, tc := range []struct {
		name string
		rep  openaitest.Reply
	}{
		{"Retry-After echoing the key", openaitest.Reply{Status: 429, Header: http.Header{"Retry-After": {key}},
			Body: openaitest.ErrorBody("Rate limit reached.", "requests", "rate_limit_exceeded")}},
		{"long 401 ending with the key", openaitest.Reply{Status: 401,
			Body: openaitest.ErrorBody(strings.Repeat("x", 1000-12)+key, "invalid_request_error", "invalid_api_key")}},
		{"long 401 that is not JSON", openaitest.Reply{Status: 401, Body: strings.Repeat("y", 200-12) + key}},
		{"the key in JSON escapes", openaitest.Reply{Status: 401, Body: escaped}},
		{"a 200 that is not JSON", openaitest.Reply{Status: 200, Body: strings.Repeat("z", 200-12) + key}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, srv := fakeOpenAI(t, "", 2*time.Second)
			// The client sends testKey; the server wants none, and echoes it.
			d, err := NewOpenAI("fake-judge", &OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: testKey, Timeout: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			srv.Chat = func(openaitest.ChatRequest) openaitest.Reply { return tc.rep }
			got, err := d.Decide(context.Background(), deciderInput())
			if err == nil {
				t.Fatalf("no error: %+v", got)
			}
			if s := fmt.Sprintf("%v %+v", err, got); leaks(s, testKey) {
				t.Errorf("the key, or a prefix of it, shows: %s", s)
			}
			var se *StatusError
			if errors.As(err, &se) && (leaks(se.Message, testKey) || leaks(se.RetryAfter, testKey) || leaks(se.Param, testKey)) {
				t.Errorf("the status error keeps the key: %+v", se)
			}
			e, _ := NewOpenAIEmbedder("m", &OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: testKey, Timeout: 2 * time.Second})
			srv.EmbedReply = func([]string) openaitest.Reply { return tc.rep }
			if _, err := e.Embed(context.Background(), []string{"a"}); err == nil || leaks(err.Error(), testKey) {
				t.Errorf("embed: %v", err)
			}
		})
	}
}

// The redaction of the key and of its prefixes, on texts of every shape.
func TestRedactKey(t *testing.T) {
	r := keyRedactor(testKey)
	for in, want := range map[string]string{
		"":                                       "",
		"no key here":                            "no key here",
		"key " + testKey + ".":                   "key [API key].",
		testKey + testKey:                        "[API key][API key]",
		"cut " + testKey[:12]:                    "cut [API key]",
		"short " + testKey[:7] + " stays":        "short " + testKey[:7] + " stays",
		"prefix then other " + testKey[:9] + "X": "prefix then other [API key]X",
		"sk-test-" + "sk-test-5f":                "[API key][API key]",
	} {
		if got := r(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
	// A key shorter than the prefix bound is cut whole only.
	short := keyRedactor("abc123")
	if got := short("x abc123 abc12 y"); got != "x [API key] abc12 y" {
		t.Errorf("short key: %q", got)
	}
}

// A redirect is never followed: the key and the facts' texts go to the
// configured base URL only. The server redirected to (another port on the
// same host, to which Go's client would forward the Authorization header)
// receives nothing, and the failure says why.
func TestClientsRefuseRedirects(t *testing.T) {
	t.Run("openai chat", func(t *testing.T) {
		d, srv := fakeOpenAI(t, testKey, 2*time.Second)
		elsewhere := openaitest.New(t)
		srv.Chat = func(openaitest.ChatRequest) openaitest.Reply {
			return openaitest.Reply{RedirectTo: elsewhere.BaseURL() + "/chat/completions"}
		}
		_, err := d.Decide(context.Background(), deciderInput())
		if n := elsewhere.Calls(); n != 0 {
			t.Fatalf("the redirect was followed: %d requests elsewhere, %+v", n, elsewhere.Requests())
		}
		if err == nil || !strings.Contains(err.Error(), "redirect") || srv.Calls() != 1 {
			t.Errorf("error %v after %d requests", err, srv.Calls())
		}
	})
	t.Run("openai embed", func(t *testing.T) {
		srv, elsewhere := openaitest.New(t), openaitest.New(t)
		srv.EmbedReply = func([]string) openaitest.Reply {
			return openaitest.Reply{RedirectTo: elsewhere.BaseURL() + "/embeddings"}
		}
		e, _ := NewOpenAIEmbedder("m", &OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: testKey, Timeout: 2 * time.Second})
		_, err := e.Embed(context.Background(), []string{"a"})
		if n := elsewhere.Calls(); n != 0 || err == nil || !strings.Contains(err.Error(), "redirect") {
			t.Errorf("%d requests elsewhere, error %v", n, err)
		}
	})
	t.Run("ollama", func(t *testing.T) {
		d, srv := fakeDecider(t, 2*time.Second, goodUpdate)
		elsewhere := ollamatest.New(t)
		srv.RedirectTo = elsewhere.URL + "/api/chat"
		srv.SetFault(ollamatest.Redirect)
		_, err := d.Decide(context.Background(), deciderInput())
		if n := elsewhere.Calls(); n != 0 || err == nil || !strings.Contains(err.Error(), "redirect") {
			t.Errorf("%d requests elsewhere, error %v", n, err)
		}
		e, _ := NewEmbedder("m", &OllamaOptions{Host: srv.URL, Timeout: 2 * time.Second})
		srv.RedirectTo = elsewhere.URL + "/api/embed"
		if _, err := e.Embed(context.Background(), []string{"a"}); elsewhere.Calls() != 0 || err == nil {
			t.Errorf("embed: %d requests elsewhere, error %v", elsewhere.Calls(), err)
		}
	})
}
