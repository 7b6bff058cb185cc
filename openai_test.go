package memory_test

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

const apiKey = "sk-proj-9d2c4b7e1f-must-never-be-stored"

// openAICandidateNumber finds the number under which a chat request's data
// block shows text, as candidateNumber does for Ollama's.
func openAICandidateNumber(req openaitest.ChatRequest, text string) int {
	var o ollamatest.ChatRequest
	for _, m := range req.Messages {
		o.Messages = append(o.Messages, ollamatest.ChatMessage{Role: m.Role, Content: m.Content})
	}
	return candidateNumber(o, text)
}

// openAIStore is a store deciding through the fake OpenAI-compatible
// server, with the key it wants.
func openAIStore(t *testing.T, c *clock, srv *openaitest.Server, fallback memory.FallbackPolicy) (*memory.Store, string) {
	t.Helper()
	srv.Key = apiKey
	dec := must[memory.Decider](t)(memory.OpenAIDecider("m", &memory.OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: apiKey, Timeout: 300 * time.Millisecond}))
	return open(t, c, &memory.Options{NoSync: true, Decider: dec, Lookup: memory.LookupTopics, Fallback: fallback})
}

func TestOpenAIConstructors(t *testing.T) {
	for _, m := range []string{"", " "} {
		if d, err := memory.OpenAIDecider(m, nil); !errors.Is(err, memory.ErrNoModel) || d != nil {
			t.Errorf("OpenAIDecider(%q) = %v, %v; want ErrNoModel", m, d, err)
		}
		if e, err := memory.OpenAIEmbedder(m, nil); !errors.Is(err, memory.ErrNoModel) || e != nil {
			t.Errorf("OpenAIEmbedder(%q) = %v, %v; want ErrNoModel", m, e, err)
		}
	}
	d, err := memory.OpenAIDecider("gpt-4o-mini", nil)
	if err != nil || d.Name() != "openai" {
		t.Fatalf("OpenAIDecider: %v, %v", d, err)
	}
	if desc, ok := d.(memory.Describer); !ok || desc.Describe() != "gpt-4o-mini at "+memory.DefaultOpenAIBaseURL {
		t.Errorf("describe: %v", d)
	}
	e, err := memory.OpenAIEmbedder("nomic-embed-text", &memory.OpenAIOptions{BaseURL: "http://127.0.0.1:11434/v1"})
	if desc, ok := e.(memory.Describer); err != nil || !ok || desc.Describe() != "nomic-embed-text at http://127.0.0.1:11434/v1" {
		t.Errorf("embedder: %v %v", e, err)
	}
	for _, o := range []*memory.OpenAIOptions{{BaseURL: "ftp://x/v1"}, {BaseURL: "localhost:8080"}, {Timeout: -1}} {
		if _, err := memory.OpenAIDecider("m", o); err == nil {
			t.Errorf("OpenAIDecider with %+v: no error", o)
		}
		if _, err := memory.OpenAIEmbedder("m", o); err == nil {
			t.Errorf("OpenAIEmbedder with %+v: no error", o)
		}
	}
	// Every model decider and embedder says what it waits for.
	for _, v := range []any{must[memory.Decider](t)(memory.OllamaDecider("llama3.2", nil)), must[memory.Embedder](t)(memory.OllamaEmbedder("", nil))} {
		if desc, ok := v.(memory.Describer); !ok || !strings.HasSuffix(desc.Describe(), " at http://127.0.0.1:11434") {
			t.Errorf("%T does not describe itself", v)
		}
	}
	o := memory.OpenAIOptions{APIKey: apiKey}
	if s := fmt.Sprintf("%v %+v %#v %v", o, o, o, &o); strings.Contains(s, apiKey) {
		t.Errorf("options print the key: %s", s)
	}
}

func TestRememberOpenAIActions(t *testing.T) {
	const oldText = "I live in Lyon."
	for _, tc := range []struct{ action, newText string }{
		{"add", "I play the violin at home."},
		{"update", "I live in Paris now."},
		{"invalidate", "I was wrong, I live in Lille, not Lyon."},
		{"noop", "I live in Lyon, as I said."},
	} {
		t.Run(tc.action, func(t *testing.T) {
			c := newClock("2026-01-01")
			srv := openaitest.New(t)
			srv.Chat = func(req openaitest.ChatRequest) openaitest.Reply {
				if tc.action == "add" {
					return openaitest.Reply{Content: reply("add", 0, "", "")}
				}
				return openaitest.Reply{Content: reply(tc.action, openAICandidateNumber(req, oldText), "2026-01-15", "month")}
			}
			s, _ := openAIStore(t, c, srv, "")
			old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: oldText}))
			c.set("2026-02-01")
			out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: tc.newText}))
			d := out.Decision
			if d.Fallback != "" || d.Decider != "openai" || d.Model != "m" || d.Raw == "" || d.Reason != "scripted" || string(d.Action) != tc.action {
				t.Fatalf("decision %+v", d)
			}
			state := getFact(t, s, "", old.ID).State()
			switch tc.action {
			case "add":
				if state != memory.Current || out.Fact.ID == 0 || d.Target != 0 {
					t.Errorf("add: %+v, old %v", out, state)
				}
			case "update":
				if state != memory.Superseded || out.Fact.Supersedes != old.ID || !out.Fact.EventFrom.Equal(date("2026-01-15")) {
					t.Errorf("update: %+v, old %v", out, state)
				}
			case "invalidate":
				if state != memory.Retracted || out.Fact.ID == 0 {
					t.Errorf("invalidate: %+v, old %v", out, state)
				}
			case "noop":
				if state != memory.Current || out.Fact.ID != old.ID || len(allFacts(t, s, "")) != 1 {
					t.Errorf("noop: %+v", out)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" || reqs[0].Authorization != "Bearer "+apiKey {
				t.Fatalf("requests %+v", reqs)
			}
			req := srv.ChatRequests()[0]
			if req.Temperature == nil || *req.Temperature != 0 || req.ResponseFormat == nil || req.ResponseFormat.Type != "json_schema" {
				t.Errorf("request %+v", req)
			}
			if tc.action != "add" {
				if n := openAICandidateNumber(req, oldText); n != 1 {
					t.Errorf("the old fact shown as candidate %d, want 1", n)
				}
			}
			checkClean(t, s)
		})
	}
}

// Every failure of an OpenAI-compatible server ends in the fallback policy
// with a reason that names it: the decision keeps it in the store's own
// words (stored), and the caller gets the whole of it (says), through the
// error under FallbackError and Outcome.DeciderError under FallbackAdd;
// the key is in no file of the store's folder, no decision and no error.
func TestRememberOpenAIFallbacks(t *testing.T) {
	const oldText = "I live in Lyon."
	const newText = "I live in Paris now."
	cases := []struct {
		name         string
		reply        openaitest.Reply
		stored, says string
	}{
		{"refusal", openaitest.Reply{Refusal: "I can't help with that."}, "the model refused", "the model refused: I can't help with that."},
		{"length", openaitest.Reply{Content: `{"reasoning":"and so`, FinishReason: "length"},
			"second answer also invalid: the answer was cut at the token limit (2048 tokens)", `finish_reason "length"`},
		{"400 schema", openaitest.Reply{Status: 400, Body: openaitest.ErrorBody("Invalid schema for response_format 'memory_decision'.", "invalid_request_error", "invalid_json_schema")},
			"HTTP 400 Bad Request (invalid_json_schema)", "HTTP 400 Bad Request: Invalid schema for response_format"},
		{"401", openaitest.Reply{Status: 401, Body: openaitest.ErrorBody("Incorrect API key provided: "+apiKey+".", "invalid_request_error", "invalid_api_key")},
			"HTTP 401 Unauthorized (invalid_api_key)", "HTTP 401 Unauthorized: Incorrect API key provided: [API key]."},
		{"429", openaitest.Reply{Status: 429, Header: http.Header{"Retry-After": {"7"}}, Body: openaitest.ErrorBody("Rate limit reached.", "requests", "rate_limit_exceeded")},
			"HTTP 429 Too Many Requests (rate limited, rate_limit_exceeded)", "HTTP 429 Too Many Requests (rate limited, retry after 7s): Rate limit reached."},
		{"500", openaitest.Reply{Status: 500, Body: openaitest.ErrorBody("The server had an error.", "server_error", "")},
			"HTTP 500 Internal Server Error (server_error)", "HTTP 500 Internal Server Error: The server had an error."},
		{"502 empty", openaitest.Reply{Status: 502}, "HTTP 502 Bad Gateway", "HTTP 502 Bad Gateway with an empty body"},
		{"timeout", openaitest.Reply{Hang: true}, "timed out after 300ms", "timed out after 300ms"},
		{"not the schema", openaitest.Reply{Content: `{"action":"update"}`},
			`second answer also invalid: field "reasoning" of the schema is missing`, `field "reasoning" is missing`},
		{"prose", openaitest.Reply{Content: "Update fact 1."}, "second answer also invalid: the answer is not one JSON object", "not one JSON object"},
		{"redirect", openaitest.Reply{RedirectTo: "http://127.0.0.1:9/v1/chat/completions"},
			"HTTP 307 redirect, not followed", "redirect to http://127.0.0.1:9/v1/chat/completions not followed"},
	}
	for _, tc := range cases {
		for _, policy := range []memory.FallbackPolicy{memory.FallbackAdd, memory.FallbackError} {
			t.Run(tc.name+"/"+string(policy), func(t *testing.T) {
				c := newClock("2026-01-01")
				srv := openaitest.New(t)
				s, path := openAIStore(t, c, srv, policy)
				old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: oldText}))
				c.set("2026-02-01")
				srv.Chat = func(openaitest.ChatRequest) openaitest.Reply { return tc.reply }
				out, err := s.Remember(ctx, memory.Note{Text: newText})
				d := out.Decision
				if !strings.HasPrefix(d.Fallback, "openai decider failed: "+tc.stored) || d.Decider != "openai" || d.Raw != "" {
					t.Errorf("fallback %q raw %q, want the fallback to say %q", d.Fallback, d.Raw, tc.stored)
				}
				if g := getFact(t, s, "", old.ID); g.State() != memory.Current {
					t.Errorf("the old fact changed: %+v", g)
				}
				switch policy {
				case memory.FallbackAdd:
					if err != nil || d.Action != memory.ActionAdd || out.Fact.Text != newText {
						t.Errorf("fallback add: %v %+v", err, out)
					}
					if out.DeciderError == nil || !strings.Contains(out.DeciderError.Error(), tc.says) {
						t.Errorf("decider error %v, want it to say %q", out.DeciderError, tc.says)
					}
				case memory.FallbackError:
					if !errors.Is(err, memory.ErrDecider) || !strings.Contains(err.Error(), tc.says) || d.Added != 0 || len(allFacts(t, s, "")) != 1 {
						t.Errorf("fallback error: %v %+v", err, out)
					}
					if out.DeciderError != nil {
						t.Errorf("decider error %v beside the error", out.DeciderError)
					}
				}
				logged := lastDecision(t, s, "")
				if logged.ID != d.ID || logged.Fallback != d.Fallback {
					t.Errorf("logged %+v", logged)
				}
				checkClean(t, s)
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				for _, text := range []string{fmt.Sprintf("%v %+v %+v %v", err, d, logged, out.DeciderError)} {
					if strings.Contains(text, apiKey) {
						t.Errorf("the key shows: %s", text)
					}
				}
				if dirContains(t, filepath.Dir(path), apiKey) {
					t.Error("the key is in a file of the store's folder")
				}
			})
		}
	}
}

// The disagreement with a pinned fact reaches the conflict queue for every
// decider: a model's update or invalidate of a pinned candidate is an
// answer, which the store keeps as an add in conflict with it, with no
// fallback and no retry — as the rules decider's is.
func TestRememberPinnedTargetConflict(t *testing.T) {
	const oldText = "I live in Lyon."
	const newText = "I live in Paris now."
	for _, action := range []string{"update", "invalidate"} {
		for _, proto := range []string{"ollama", "openai", "rules"} {
			t.Run(proto+"/"+action, func(t *testing.T) {
				c := newClock("2026-01-01")
				var s *memory.Store
				var requests func() int
				switch proto {
				case "ollama":
					srv := ollamatest.New(t)
					srv.Chat = func(req ollamatest.ChatRequest) string {
						return reply(action, candidateNumber(req, oldText), "", "")
					}
					s = ollamaStore(t, c, srv, memory.FallbackError)
					requests = func() int { return len(srv.ChatRequests()) }
				case "openai":
					srv := openaitest.New(t)
					srv.Chat = func(req openaitest.ChatRequest) openaitest.Reply {
						return openaitest.Reply{Content: reply(action, openAICandidateNumber(req, oldText), "", "")}
					}
					s, _ = openAIStore(t, c, srv, memory.FallbackError)
					requests = func() int { return len(srv.ChatRequests()) }
				case "rules":
					if action == "invalidate" {
						t.Skip("the rules decider's invalidate needs a correction marker; see conflictStore")
					}
					s, _ = open(t, c, &memory.Options{NoSync: true, Fallback: memory.FallbackError})
					requests = func() int { return 1 }
				}
				old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: oldText}))
				must[memory.Fact](t)(s.Pin(ctx, "", old.ID))
				c.set("2026-02-01")
				text := newText
				if proto == "rules" {
					text = "I moved to Paris, I no longer live in Lyon."
				}
				out, err := s.Remember(ctx, memory.Note{Text: text})
				if err != nil {
					t.Fatalf("Remember: %v", err)
				}
				d := out.Decision
				if d.Fallback != "" || d.Action != memory.ActionAdd || (proto != "rules" && string(d.Proposed) != action) || d.Target != old.ID ||
					d.Conflict == 0 || out.Fact.ID == 0 || !strings.Contains(d.Reason, "pinned") {
					t.Fatalf("decision %+v", d)
				}
				cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
				if len(cs) != 1 || cs[0].ID != d.Conflict || cs[0].Existing != old.ID || cs[0].New != out.Fact.ID || cs[0].Decision != d.ID {
					t.Errorf("conflicts %+v", cs)
				}
				if g := getFact(t, s, "", old.ID); g.State() != memory.Current || !g.Pinned {
					t.Errorf("the pinned fact changed: %+v", g)
				}
				if n := requests(); n != 1 {
					t.Errorf("%d requests: a pinned target is an answer, not one to retry", n)
				}
				checkClean(t, s)
			})
		}
	}
}

// Remember calls at once through one OpenAI decider: each gets its own
// answer, and the store stays consistent.
func TestRememberOpenAIConcurrent(t *testing.T) {
	srv := openaitest.New(t)
	srv.Chat = func(req openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Content: reply("add", 0, "", "")}
	}
	s, _ := openAIStore(t, newClock("2026-01-01"), srv, memory.FallbackError)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	outs := make([]memory.Outcome, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = s.Remember(ctx, memory.Note{User: fmt.Sprintf("u%d", i%4), Text: fmt.Sprintf("I keep %d bees on the roof.", i)})
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || outs[i].Decision.Decider != "openai" || outs[i].Fact.Text != fmt.Sprintf("I keep %d bees on the roof.", i) {
			t.Errorf("%d: %v %+v", i, errs[i], outs[i])
		}
	}
	if got := srv.Calls(); got != n {
		t.Errorf("%d requests, want %d", got, n)
	}
	total := 0
	for u := range 4 {
		total += len(allFacts(t, s, fmt.Sprintf("u%d", u)))
	}
	if total != n {
		t.Errorf("%d facts, want %d", total, n)
	}
	checkClean(t, s)
}

// The semantic lookup through an OpenAI-compatible embeddings endpoint
// finds by meaning, and says so when the endpoint fails.
func TestSemanticLookupOpenAIEmbedder(t *testing.T) {
	srv := openaitest.New(t)
	srv.Key = apiKey
	srv.Embed = conceptEmbed
	srv.ReverseData = true
	e := must[memory.Embedder](t)(memory.OpenAIEmbedder("text-embedding-3-small", &memory.OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: apiKey, Timeout: 300 * time.Millisecond}))
	s, path := open(t, nil, &memory.Options{NoSync: true, Lookup: memory.LookupSemantic, Embedder: e})
	target := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My hobby is florp."}))
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I keep a zint at home."}))
	l := must[memory.Lookup](t)(s.Candidates(ctx, "", "Lately I practise quab.", 12))
	if l.Fallback != "" || len(l.Candidates) == 0 || l.Candidates[0].Fact.ID != target.ID {
		t.Fatalf("lookup %+v", l)
	}
	for _, r := range srv.Requests() {
		if r.Path != "/v1/embeddings" || r.Authorization != "Bearer "+apiKey {
			t.Errorf("request %s %q", r.Path, r.Authorization)
		}
	}
	srv.EmbedReply = func([]string) openaitest.Reply {
		return openaitest.Reply{Status: 429, Body: openaitest.ErrorBody("Rate limit reached for "+apiKey, "requests", "rate_limit_exceeded")}
	}
	l = must[memory.Lookup](t)(s.Candidates(ctx, "", "Lately I practise quab.", 12))
	if !strings.Contains(l.Fallback, "semantic lookup failed") || !strings.Contains(l.Fallback, "HTTP 429 Too Many Requests (rate limited)") || strings.Contains(l.Fallback, apiKey) {
		t.Errorf("fallback %q", l.Fallback)
	}
	s.Close()
	if dirContains(t, filepath.Dir(path), apiKey) {
		t.Error("the key is in a file of the store's folder")
	}
}
