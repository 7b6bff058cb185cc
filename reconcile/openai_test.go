package reconcile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/openaitest"
)

const testKey = "sk-test-5f3a9c1e-never-to-be-seen"

// scriptOpenAI answers the given contents in turn, repeating the last.
func scriptOpenAI(replies ...string) func(openaitest.ChatRequest) openaitest.Reply {
	var mu sync.Mutex
	i := 0
	return func(openaitest.ChatRequest) openaitest.Reply {
		mu.Lock()
		defer mu.Unlock()
		r := replies[min(i, len(replies)-1)]
		i++
		return openaitest.Reply{Content: r}
	}
}

func fakeOpenAI(t *testing.T, key string, timeout time.Duration, replies ...string) (*OpenAI, *openaitest.Server) {
	t.Helper()
	srv := openaitest.New(t)
	srv.Key = key
	if len(replies) > 0 {
		srv.Chat = scriptOpenAI(replies...)
	}
	d, err := NewOpenAI("fake-judge", &OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: key, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return d, srv
}

func TestOpenAIDecidesEachAction(t *testing.T) {
	june1 := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, reply string
		want        Verdict
	}{
		{"add", `{"reasoning":"a different subject","action":"add","target":0,"event_from":null,"grain":null}`,
			Verdict{Action: Add, Reason: "a different subject"}},
		{"update", `{"reasoning":"moved from A to B in June","action":"update","target":1,"event_from":"2025-06-01","grain":"month"}`,
			Verdict{Action: Update, Target: 1, EventFrom: june1, Grain: "month", Reason: "moved from A to B in June"}},
		{"invalidate", `{"reasoning":"a correction","action":"invalidate","target":3,"event_from":null,"grain":null}`,
			Verdict{Action: Invalidate, Target: 3, Reason: "a correction"}},
		{"noop", `{"reasoning":"says the same","action":"noop","target":1,"event_from":null,"grain":null}`,
			Verdict{Action: Noop, Target: 1, Reason: "says the same"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, srv := fakeOpenAI(t, testKey, 2*time.Second, tc.reply)
			got, err := d.Decide(context.Background(), deciderInput())
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			want.Decider, want.Model, want.Raw = "openai", "fake-judge", tc.reply
			// These answers predate the claims field: the decision stands
			// and says the claims are missing.
			want.ClaimsDropped = []string{"the answer has no claims field"}
			if !got.EventFrom.Equal(want.EventFrom) {
				t.Errorf("event_from %v, want %v", got.EventFrom, want.EventFrom)
			}
			got.EventFrom, want.EventFrom = time.Time{}, time.Time{}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decision\n got %+v\nwant %+v", got, want)
			}
			if n := srv.Calls(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// The request as the server reads it: the path under the base, the key
// as a bearer token, the model, temperature 0, a token bound, no stream,
// the strict json_schema response format, and the same prompt and schema
// as the Ollama decider's.
func TestOpenAIRequest(t *testing.T) {
	d, srv := fakeOpenAI(t, testKey, 2*time.Second)
	in := deciderInput()
	if _, err := d.Decide(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost || r.Path != "/v1/chat/completions" || r.Authorization != "Bearer "+testKey {
		t.Errorf("%s %s, Authorization %q", r.Method, r.Path, r.Authorization)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if string(body["temperature"]) != "0" {
		t.Errorf("temperature %s, want 0", body["temperature"])
	}
	if _, ok := body["max_tokens"]; ok {
		t.Error("max_tokens sent: OpenAI's reasoning models refuse it; max_completion_tokens is the field")
	}
	req := srv.ChatRequests()[0]
	if req.Model != "fake-judge" || req.Stream == nil || *req.Stream || req.MaxCompletionTokens == nil || *req.MaxCompletionTokens != MaxAnswerTokens {
		t.Errorf("model %q stream %v max_completion_tokens %v", req.Model, req.Stream, req.MaxCompletionTokens)
	}
	rf := req.ResponseFormat
	if rf == nil || rf.Type != "json_schema" || rf.JSONSchema == nil || rf.JSONSchema.Name == "" || rf.JSONSchema.Strict == nil || !*rf.JSONSchema.Strict {
		t.Fatalf("response_format %s", body["response_format"])
	}
	checkStrictSchema(t, "schema", rf.JSONSchema.Schema)
	if string(rf.JSONSchema.Schema) != string(decisionSchema(len(in.Candidates))) {
		t.Errorf("schema %s is not the Ollama decider's", rf.JSONSchema.Schema)
	}
	fields := []string{"reasoning", "action", "target", "event_from", "grain", "claims"}
	var schema map[string]json.RawMessage
	_ = json.Unmarshal(rf.JSONSchema.Schema, &schema)
	if keys := objectKeys(t, schema["properties"]); !slices.Equal(keys, fields) {
		t.Errorf("properties in order %v, want %v (reasoning first)", keys, fields)
	}
	var props struct{ Target struct{ Maximum int } }
	_ = json.Unmarshal(schema["properties"], &props)
	if target := props.Target; target.Maximum != len(in.Candidates) {
		t.Errorf("target maximum %d, want %d", target.Maximum, len(in.Candidates))
	}
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[0].Content != systemPrompt ||
		req.Messages[1].Role != "user" || req.Messages[1].Content != userPrompt(in) {
		t.Fatalf("messages %+v", req.Messages)
	}
	for i, c := range in.Candidates {
		want := fmt.Sprintf("\n%d. (recorded ", i+1)
		line := req.Messages[1].Content[strings.Index(req.Messages[1].Content, want)+1:]
		line = line[:strings.Index(line, "\n")]
		if !strings.HasSuffix(line, " "+jsonString(c.Text)) {
			t.Errorf("candidate %d shown as %q", i+1, line)
		}
	}
}

// Without a key no Authorization header is sent: local servers want none.
func TestOpenAINoKey(t *testing.T) {
	d, srv := fakeOpenAI(t, "", 2*time.Second)
	if _, err := d.Decide(context.Background(), Input{Text: "I like tea"}); err != nil {
		t.Fatal(err)
	}
	if r := srv.Requests()[0]; r.Authorization != "" {
		t.Errorf("Authorization %q without a key", r.Authorization)
	}
}

func TestOpenAIRetriesOnceWithTheError(t *testing.T) {
	for _, bad := range badReplies {
		t.Run(bad.name, func(t *testing.T) {
			d, srv := fakeOpenAI(t, testKey, 2*time.Second, bad.reply, goodUpdate)
			got, err := d.Decide(context.Background(), deciderInput())
			if err != nil || got.Action != Update || got.Target != 1 || got.Raw != goodUpdate {
				t.Fatalf("%+v %v", got, err)
			}
			reqs := srv.ChatRequests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			m := reqs[1].Messages
			if len(m) != 4 || m[2].Role != "assistant" || m[2].Content != bad.reply || m[3].Role != "user" ||
				!strings.Contains(m[3].Content, bad.complaint) || !slices.Equal(reqs[0].Messages, m[:2]) {
				t.Fatalf("retry messages %+v", m)
			}
			d, _ = fakeOpenAI(t, testKey, 2*time.Second, bad.reply)
			got, err = d.Decide(context.Background(), deciderInput())
			if !errors.Is(err, ErrInvalidDecision) || !strings.Contains(err.Error(), bad.complaint) ||
				got.Decider != "openai" || got.Raw != bad.reply || got.Action != "" {
				t.Errorf("%+v %v", got, err)
			}
		})
	}
}

// openAIFailures are the ways a server fails, what the error must say and
// wrap, and how many requests it may take.
var openAIFailures = []struct {
	name     string
	reply    openaitest.Reply
	says     []string
	is       error
	requests int64
	// text is what a decision may keep of it: the Failure's Text.
	text string
}{
	{"refusal", openaitest.Reply{Refusal: "I'm sorry, I cannot help with that."},
		[]string{"the model refused: I'm sorry, I cannot help with that."}, ErrRefusal, 1, "the model refused"},
	{"length", openaitest.Reply{Content: `{"reasoning":"on and on`, FinishReason: "length"},
		[]string{"second answer also invalid", "cut at the token limit", `finish_reason "length"`}, ErrTruncated, 2,
		"second answer also invalid: the answer was cut at the token limit (2048 tokens)"},
	{"content filter", openaitest.Reply{FinishReason: "content_filter"},
		[]string{`content filter`, `"content_filter"`}, nil, 1, "the provider's content filter stopped the answer"},
	{"400 unsupported schema", openaitest.Reply{Status: 400, Body: openaitest.ErrorBody("Invalid schema for response_format 'memory_decision': 'maxLength' is not permitted.", "invalid_request_error", "invalid_json_schema")},
		[]string{"HTTP 400 Bad Request: Invalid schema for response_format 'memory_decision': 'maxLength' is not permitted. (type invalid_request_error, code invalid_json_schema)"}, nil, 1,
		"HTTP 400 Bad Request (invalid_json_schema)"},
	{"404 unknown model", openaitest.Reply{Status: 404, Body: openaitest.ErrorBody("The model `fake-judge` does not exist or you do not have access to it.", "invalid_request_error", "model_not_found")},
		[]string{"HTTP 404 Not Found: The model `fake-judge` does not exist"}, nil, 1, "HTTP 404 Not Found (model_not_found)"},
	{"404 empty body", openaitest.Reply{Status: 404},
		[]string{"HTTP 404 Not Found with an empty body"}, nil, 1, "HTTP 404 Not Found"},
	{"429", openaitest.Reply{Status: 429, Header: http.Header{"Retry-After": {"20"}}, Body: openaitest.ErrorBody("Rate limit reached for fake-judge on requests per min (RPM): Limit 3, Used 3, Requested 1.", "requests", "rate_limit_exceeded")},
		[]string{"HTTP 429 Too Many Requests (rate limited, retry after 20s): Rate limit reached"}, ErrRateLimited, 1,
		"HTTP 429 Too Many Requests (rate limited, rate_limit_exceeded)"},
	{"500", openaitest.Reply{Status: 500, Body: openaitest.ErrorBody("The server had an error while processing your request.", "server_error", "")},
		[]string{"HTTP 500 Internal Server Error: The server had an error"}, nil, 1, "HTTP 500 Internal Server Error (server_error)"},
	{"503 loading", openaitest.Reply{Status: 503, Body: `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`},
		[]string{"HTTP 503 Service Unavailable: Loading model"}, nil, 1, "HTTP 503 Service Unavailable (unavailable_error)"},
	{"code not a token", openaitest.Reply{Status: 400, Body: openaitest.ErrorBody("flagged", "Flagged: My PIN", "my pin is 4321, keep it")},
		[]string{"HTTP 400 Bad Request: flagged"}, nil, 1, "HTTP 400 Bad Request"},
	{"timeout", openaitest.Reply{Hang: true}, []string{"timed out after 200ms"}, ErrModelTimeout, 1, "timed out after 200ms"},
	{"garbage", openaitest.Reply{Garbage: true}, []string{"HTTP 200 but the reply is not the JSON expected", "<html>not json"}, nil, 1,
		"HTTP 200 but the reply is not the JSON expected"},
	{"no choices", openaitest.Reply{NoChoices: true}, []string{"no choices"}, nil, 1, "the reply holds no choices"},
	{"not the schema", openaitest.Reply{Content: `{"verdict":"update 1"}`},
		[]string{"second answer also invalid", `field "reasoning" is missing`}, ErrInvalidDecision, 2,
		`second answer also invalid: field "reasoning" of the schema is missing`},
	{"an action that quotes", openaitest.Reply{Content: `{"reasoning":"r","action":"My door code is 7781","target":0,"event_from":null,"grain":null}`},
		[]string{`unknown action "My door code is 7781"`}, ErrInvalidDecision, 2, "second answer also invalid: unknown action"},
	{"duplicate key", openaitest.Reply{Content: `{"reasoning":"r","action":"noop","target":1,"event_from":null,"grain":null,"action":"invalidate"}`},
		[]string{`key "action" appears twice`}, ErrInvalidDecision, 2, "second answer also invalid: a key appears twice in the answer"},
	{"target as string", openaitest.Reply{Content: `{"reasoning":"r","action":"update","target":"4321","event_from":null,"grain":null}`},
		[]string{`field "target" is "4321"`}, ErrInvalidDecision, 2, `second answer also invalid: field "target" is not of the schema's type`},
	{"target out of range", openaitest.Reply{Content: `{"reasoning":"r","action":"update","target":4321,"event_from":null,"grain":null}`},
		[]string{"update names target 4321, want 1..4"}, ErrInvalidDecision, 2, "second answer also invalid: target out of range for the action"},
}

func TestOpenAIFailures(t *testing.T) {
	for _, f := range openAIFailures {
		t.Run(f.name, func(t *testing.T) {
			d, srv := fakeOpenAI(t, testKey, 200*time.Millisecond)
			srv.Chat = func(openaitest.ChatRequest) openaitest.Reply { return f.reply }
			got, err := d.Decide(context.Background(), deciderInput())
			if err == nil {
				t.Fatalf("no error, decision %+v", got)
			}
			t.Logf("error: %v", err)
			for _, s := range f.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if !strings.Contains(err.Error(), "openai") || (f.requests == 1 && !strings.Contains(err.Error(), srv.BaseURL())) {
				t.Errorf("error %q does not say where", err)
			}
			if f.is != nil && !errors.Is(err, f.is) {
				t.Errorf("error %v does not wrap %v", err, f.is)
			}
			if n := srv.Calls(); n != f.requests {
				t.Errorf("%d requests, want %d", n, f.requests)
			}
			if got.Action != "" || got.Decider != "openai" || got.Model != "fake-judge" {
				t.Errorf("decision on error %+v", got)
			}
			var fail *Failure
			if !errors.As(err, &fail) {
				t.Fatalf("error %v holds no Failure", err)
			}
			if got := fail.Text(); got != f.text {
				t.Errorf("text %q, want %q", got, f.text)
			}
			if s := fmt.Sprintf("%v %+v %#v %v", err, got, got, d); strings.Contains(s, testKey) {
				t.Errorf("the key shows: %s", s)
			}
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		d, srv := fakeOpenAI(t, testKey, 200*time.Millisecond)
		srv.Close()
		_, err := d.Decide(context.Background(), deciderInput())
		if err == nil || errors.Is(err, ErrInvalidDecision) || !strings.Contains(err.Error(), "refused") {
			t.Errorf("error %v", err)
		}
	})
}

// A server that quotes the key it was given (OpenAI's 401 quotes part of
// it; a proxy may echo all of it) never gets it into an error or a
// decision.
func TestOpenAIKeyNeverShows(t *testing.T) {
	srv := openaitest.New(t)
	srv.Key = "sk-the-right-one"
	d, err := NewOpenAI("fake-judge", &OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: testKey, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Decide(context.Background(), deciderInput())
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 401 || !strings.Contains(err.Error(), "Incorrect API key provided: [API key].") {
		t.Errorf("error %v", err)
	}
	// A reply echoing it in the content and refusal.
	srv.Key = ""
	srv.Chat = func(openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Content: "your key is " + testKey, Refusal: "not with key " + testKey}
	}
	got2, err2 := d.Decide(context.Background(), deciderInput())
	if !errors.Is(err2, ErrRefusal) {
		t.Errorf("error %v", err2)
	}
	for _, s := range []string{fmt.Sprintf("%v %+v %v %+v", err, got, err2, got2), d.Describe(), d.String(), fmt.Sprintf("%v %+v %#v", d, d, d)} {
		if strings.Contains(s, testKey) {
			t.Errorf("the key shows: %s", s)
		}
	}
	o := OpenAIOptions{APIKey: testKey}
	if s := fmt.Sprintf("%v %+v %#v %s", o, o, o, &o); strings.Contains(s, testKey) {
		t.Errorf("options print the key: %s", s)
	}
}

func TestOpenAIRespectsContext(t *testing.T) {
	d, srv := fakeOpenAI(t, "", 10*time.Second, goodUpdate)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Decide(ctx, deciderInput()); !errors.Is(err, context.Canceled) || srv.Calls() != 0 {
		t.Errorf("cancelled: %v, %d calls", err, srv.Calls())
	}
	srv.Chat = func(openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Hang: true} }
	ctx, cancel = context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	if _, err := d.Decide(ctx, deciderInput()); !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrModelTimeout) {
		t.Errorf("deadline: %v", err)
	}
}

func TestNewOpenAI(t *testing.T) {
	t.Setenv("MEMCTL_MODEL", "from-env")
	t.Setenv("OPENAI_BASE_URL", "http://from-env:1/v1")
	for _, m := range []string{"", "  "} {
		if _, err := NewOpenAI(m, nil); !errors.Is(err, ErrNoModel) {
			t.Errorf("model %q: %v", m, err)
		}
		if _, err := NewOpenAIEmbedder(m, nil); !errors.Is(err, ErrNoModel) {
			t.Errorf("embedder model %q: %v", m, err)
		}
	}
	d, err := NewOpenAI("gpt-4o-mini", nil)
	if err != nil || d.Name() != "openai" || d.Model() != "gpt-4o-mini" || d.Describe() != "gpt-4o-mini at https://api.openai.com/v1" {
		t.Errorf("%v %v", d, err)
	}
	var _ Decider = d
	for base, want := range map[string]string{
		"http://127.0.0.1:8080/v1/":     "http://127.0.0.1:8080/v1",
		" http://localhost:1234/v1":     "http://localhost:1234/v1",
		"https://example.org/openai/v1": "https://example.org/openai/v1",
	} {
		d, err := NewOpenAI("m", &OpenAIOptions{BaseURL: base})
		if err != nil || d.Describe() != "m at "+want {
			t.Errorf("base %q: %v %v", base, d, err)
		}
	}
	for _, o := range []*OpenAIOptions{
		{BaseURL: "ftp://x/v1"}, {BaseURL: "127.0.0.1:8080/v1"}, {BaseURL: "http:///v1"},
		{BaseURL: "https://user:" + testKey + "@example.org/v1"}, {BaseURL: "http://x/v1?key=1"},
		{Timeout: -time.Second}, {APIKey: "sk-a\nInjected: yes"},
	} {
		_, err := NewOpenAI("m", o)
		if err == nil {
			t.Errorf("%+v accepted", o)
		} else if strings.Contains(err.Error(), testKey) {
			t.Errorf("error shows the key: %v", err)
		}
		if _, err := NewOpenAIEmbedder("m", o); err == nil {
			t.Errorf("embedder with %+v accepted", o)
		}
	}
}

func TestOpenAIEmbed(t *testing.T) {
	srv := openaitest.New(t)
	srv.Key = testKey
	srv.ReverseData = true // each item says its index; the order on the wire is free
	e, err := NewOpenAIEmbedder("text-embedding-3-small", &OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: testKey, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, maxEmbedBatch+3)
	for i := range texts {
		texts[i] = strings.Repeat("x", i+1)
	}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("%d vectors", len(vs))
	}
	for i, v := range vs {
		if v[0] != float32(i+1) {
			t.Fatalf("vector %d is text %v's", i, v[0])
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 batches", len(reqs))
	}
	var body struct {
		Model string
		Input []string
	}
	_ = json.Unmarshal(reqs[0].Body, &body)
	if reqs[0].Path != "/v1/embeddings" || reqs[0].Authorization != "Bearer "+testKey || body.Model != "text-embedding-3-small" || len(body.Input) != maxEmbedBatch {
		t.Errorf("request %s %q model %q, %d inputs", reqs[0].Path, reqs[0].Authorization, body.Model, len(body.Input))
	}
	if vs, err := e.Embed(context.Background(), nil); vs != nil || err != nil || srv.Calls() != 2 {
		t.Errorf("no texts: %v %v", vs, err)
	}
	if e.Describe() != "text-embedding-3-small at "+srv.BaseURL() {
		t.Errorf("describe %q", e.Describe())
	}
}

func TestOpenAIEmbedFailures(t *testing.T) {
	for _, f := range []struct {
		name  string
		reply func([]string) openaitest.Reply
		embed func(string) []float32
		says  string
		is    error
	}{
		{"401", func([]string) openaitest.Reply {
			return openaitest.Reply{Status: 401, Body: openaitest.ErrorBody("Incorrect API key provided: "+testKey, "invalid_request_error", "invalid_api_key")}
		}, nil, "HTTP 401 Unauthorized: Incorrect API key provided: [API key]", nil},
		{"429", func([]string) openaitest.Reply {
			return openaitest.Reply{Status: 429, Body: openaitest.ErrorBody("Rate limit reached", "requests", "rate_limit_exceeded")}
		}, nil, "rate limited", ErrRateLimited},
		{"500", func([]string) openaitest.Reply { return openaitest.Reply{Status: 500} }, nil, "HTTP 500 Internal Server Error with an empty body", nil},
		{"timeout", func([]string) openaitest.Reply { return openaitest.Reply{Hang: true} }, nil, "timed out after 200ms", ErrModelTimeout},
		{"garbage", func([]string) openaitest.Reply { return openaitest.Reply{Garbage: true} }, nil, "not the JSON expected", nil},
		{"unequal vectors", nil, func(s string) []float32 { return make([]float32, len(s)) }, "vectors of unequal length", nil},
		{"empty vector", nil, func(string) []float32 { return []float32{} }, "vector 1 of 2 is empty", nil},
		{"too long", nil, func(string) []float32 { return make([]float32, MaxVectorLen+1) }, "more than 16384", nil},
	} {
		t.Run(f.name, func(t *testing.T) {
			srv := openaitest.New(t)
			srv.EmbedReply, srv.Embed = f.reply, f.embed
			e, _ := NewOpenAIEmbedder("m", &OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: testKey, Timeout: 200 * time.Millisecond})
			vs, err := e.Embed(context.Background(), []string{"a", "bb"})
			if err == nil || vs != nil || !strings.Contains(err.Error(), f.says) || !strings.Contains(err.Error(), "openai embed at "+srv.BaseURL()) {
				t.Errorf("%v %v, want %q", vs, err, f.says)
			}
			if f.is != nil && !errors.Is(err, f.is) {
				t.Errorf("error %v does not wrap %v", err, f.is)
			}
			if err != nil && strings.Contains(err.Error(), testKey) {
				t.Errorf("the key shows: %v", err)
			}
		})
	}
}

// TestRealOpenAI runs one clear update case against a real
// OpenAI-compatible server when OPENAI_BASE_URL and MEMCTL_MODEL are both
// set (OPENAI_API_KEY too, if the server wants one).
func TestRealOpenAI(t *testing.T) {
	base, model := os.Getenv("OPENAI_BASE_URL"), os.Getenv("MEMCTL_MODEL")
	if base == "" || model == "" {
		t.Skip("set OPENAI_BASE_URL and MEMCTL_MODEL (and OPENAI_API_KEY if the server wants one) to run against a real OpenAI-compatible server")
	}
	d, err := NewOpenAI(model, &OpenAIOptions{BaseURL: base, APIKey: os.Getenv("OPENAI_API_KEY"), Timeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	decidesAMove(t, d)
}

// A model that takes only its default temperature (OpenAI's reasoning
// models answer 400 with param "temperature") is asked again without it,
// once, and from then on without it.
func TestOpenAITemperatureRefused(t *testing.T) {
	d, srv := fakeOpenAI(t, testKey, 2*time.Second)
	srv.Chat = func(req openaitest.ChatRequest) openaitest.Reply {
		if req.Temperature != nil && *req.Temperature != 1 {
			return openaitest.Reply{Status: 400, Body: `{"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`}
		}
		return openaitest.Reply{Content: goodUpdate}
	}
	for i, want := range []int{2, 3} {
		got, err := d.Decide(context.Background(), deciderInput())
		if err != nil || got.Action != Update {
			t.Fatalf("call %d: %+v %v", i, got, err)
		}
		if n := len(srv.ChatRequests()); n != want {
			t.Errorf("call %d: %d requests so far, want %d", i, n, want)
		}
	}
	reqs := srv.ChatRequests()
	if reqs[0].Temperature == nil || reqs[1].Temperature != nil || reqs[2].Temperature != nil {
		t.Errorf("temperatures %v %v %v", reqs[0].Temperature, reqs[1].Temperature, reqs[2].Temperature)
	}
	// Another 400 is not retried.
	d, srv = fakeOpenAI(t, "", 2*time.Second)
	srv.Chat = func(openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Status: 400, Body: `{"error":{"message":"Unsupported parameter: 'max_completion_tokens'.","type":"invalid_request_error","param":"max_completion_tokens","code":"unsupported_parameter"}}`}
	}
	if _, err := d.Decide(context.Background(), deciderInput()); err == nil || srv.Calls() != 1 || !strings.Contains(err.Error(), "Unsupported parameter: 'max_completion_tokens'.") {
		t.Errorf("%v, %d calls", err, srv.Calls())
	}
}

// A proxy's error object sent with a 200 is said, not taken for an empty
// answer.
func TestOpenAIErrorWith200(t *testing.T) {
	srv := openaitest.New(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, `{"error":{"message":"upstream provider unavailable","type":"upstream_error","code":502}}`)
	})
	srv.Config.Handler = mux
	d, err := NewOpenAI("m", &OpenAIOptions{BaseURL: srv.BaseURL(), Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Decide(context.Background(), deciderInput()); err == nil || !strings.Contains(err.Error(), "the reply holds no choices but an error: upstream provider unavailable") {
		t.Errorf("error %v", err)
	}
}
