// Package openaitest is a fake OpenAI-compatible server on loopback for
// tests. It speaks the Chat Completions and Embeddings wire format by hand
// (JSON bodies, one-line JSON replies shaped like OpenAI's), so tests check
// the client's real requests against an independent reading of the
// protocol. It serves under /v1: a client's base URL is Server.BaseURL().
//
// It must not import any other package of this module.
package openaitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// HangFor bounds how long a hanging reply holds a request, so a test whose
// client has no timeout still ends.
const HangFor = 5 * time.Second

// DefaultContent is the content the server answers when Chat is nil: an
// add decision in the shape the reconcile deciders ask for.
const DefaultContent = `{"reasoning":"the fake server always adds","action":"add","target":0,"event_from":null,"grain":null}`

// DefaultClaimsContent is the content the server answers to a
// claims-only request (see ChatRequest.ClaimsOnly) when Chat is nil: no
// claims.
const DefaultClaimsContent = `{"claims":[]}`

// Reply is how the server answers one chat request.
type Reply struct {
	// Content is message.content; with Refusal set it is sent as null
	// unless also given.
	Content string
	// Refusal is message.refusal, as OpenAI sends when the model refuses.
	Refusal string
	// FinishReason is choices[0].finish_reason; "" means "stop".
	FinishReason string
	// Status, when not 0, answers that HTTP status with Body instead.
	Status int
	// Body is the body of a Status reply, as sent (see ErrorBody).
	Body string
	// Header is added to a Status reply (Retry-After, say).
	Header http.Header
	// Hang holds the request until the client gives up (or HangFor).
	Hang bool
	// NoChoices answers 200 with an empty choices array.
	NoChoices bool
	// Garbage answers 200 with a body that is not JSON.
	Garbage bool
	// RedirectTo, when set, answers 307 Temporary Redirect to this URL,
	// as a proxy or a moved server may: a client that follows it sends
	// the request, and its key, there.
	RedirectTo string
}

// KeyPlaceholder stands, in a reply's Content, Refusal, Body and Header
// values, for the bearer token the request carried: the server echoes the
// key it was given, as a proxy's error page or a careless provider may.
const KeyPlaceholder = "{{key}}"

// echoKey puts the request's bearer token where rep holds KeyPlaceholder.
func echoKey(rep Reply, r *http.Request) Reply {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	sub := func(s string) string { return strings.ReplaceAll(s, KeyPlaceholder, key) }
	rep.Content, rep.Refusal, rep.Body = sub(rep.Content), sub(rep.Refusal), sub(rep.Body)
	if rep.Header != nil {
		h := http.Header{}
		for k, vs := range rep.Header {
			for _, v := range vs {
				h.Add(k, sub(v))
			}
		}
		rep.Header = h
	}
	return rep
}

// ErrorBody is OpenAI's error object, on one line.
func ErrorBody(message, typ, code string) string {
	var c any
	if code != "" {
		c = code
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": typ, "param": nil, "code": c}})
	return string(b)
}

// Request is one request as the server received it.
type Request struct {
	Method, Path string
	// Authorization is the header as sent ("" if none).
	Authorization string
	// Body is the request body as sent.
	Body json.RawMessage
}

// Message is one message of a chat request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatRequest is a /chat/completions body as the server decoded it;
// pointers tell a field that was absent from a zero.
type ChatRequest struct {
	Model               string    `json:"model"`
	Messages            []Message `json:"messages"`
	Temperature         *float64  `json:"temperature"`
	MaxCompletionTokens *int      `json:"max_completion_tokens"`
	MaxTokens           *int      `json:"max_tokens"`
	Stream              *bool     `json:"stream"`
	ResponseFormat      *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Strict *bool           `json:"strict"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

// ClaimsOnly reports whether the request's schema asks for claims alone
// (an object whose only property is "claims"), not for a decision.
func (r ChatRequest) ClaimsOnly() bool {
	if r.ResponseFormat == nil || r.ResponseFormat.JSONSchema == nil {
		return false
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(r.ResponseFormat.JSONSchema.Schema, &s) != nil {
		return false
	}
	_, ok := s.Properties["claims"]
	return ok && len(s.Properties) == 1
}

// Server is a running fake OpenAI-compatible server.
type Server struct {
	*httptest.Server
	// Chat answers a chat request; nil answers DefaultContent. Set it
	// before the first request.
	Chat func(req ChatRequest) Reply
	// Embed maps a text to its vector; nil answers a vector of the
	// text's length. Set it before the first request.
	Embed func(text string) []float32
	// EmbedReply, when set, answers an embeddings request instead (to
	// misbehave). Set it before the first request.
	EmbedReply func(inputs []string) Reply
	// ReverseData sends embeddings data last index first, as the
	// protocol allows (each item carries its index).
	ReverseData bool
	// Key, when set, is the API key the server wants: a request without
	// "Authorization: Bearer Key" gets OpenAI's 401, whose message quotes
	// the key it was given.
	Key string

	mu    sync.Mutex
	reqs  []Request
	calls atomic.Int64
	stop  chan struct{}
	once  sync.Once
}

// New starts a fake server and stops it when the test ends.
func New(t testing.TB) *Server {
	s := &Server{stop: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.record(r, nil)
		writeJSON(w, http.StatusNotFound, ErrorBody("Invalid URL ("+r.Method+" "+r.URL.Path+")", "invalid_request_error", ""))
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the base a client takes: the server's URL and /v1.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Close releases hanging requests and stops the server.
func (s *Server) Close() {
	s.once.Do(func() { close(s.stop) })
	s.Server.Close()
}

// Calls counts the requests received so far.
func (s *Server) Calls() int64 { return s.calls.Load() }

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// ChatRequests decodes every chat request received so far, in order.
func (s *Server) ChatRequests() []ChatRequest {
	var out []ChatRequest
	for _, r := range s.Requests() {
		if r.Path != "/v1/chat/completions" {
			continue
		}
		var c ChatRequest
		_ = json.Unmarshal(r.Body, &c)
		out = append(out, c)
	}
	return out
}

func (s *Server) record(r *http.Request, body []byte) {
	s.calls.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path,
		Authorization: r.Header.Get("Authorization"), Body: append(json.RawMessage(nil), body...)})
}

// read records the request and checks its key; it reports whether the
// request may go on.
func (s *Server) read(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(r.Body)
	s.record(r, body)
	if err != nil {
		return nil, false
	}
	if s.Key != "" && r.Header.Get("Authorization") != "Bearer "+s.Key {
		given := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		writeJSON(w, http.StatusUnauthorized, ErrorBody("Incorrect API key provided: "+given+". You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key"))
		return nil, false
	}
	if !json.Valid(body) {
		writeJSON(w, http.StatusBadRequest, ErrorBody("We could not parse the JSON body of your request.", "invalid_request_error", ""))
		return nil, false
	}
	return body, true
}

// misbehave answers a reply that is not a normal one; it reports whether
// it answered.
func (s *Server) misbehave(w http.ResponseWriter, r *http.Request, rep Reply) bool {
	switch {
	case rep.RedirectTo != "":
		http.Redirect(w, r, rep.RedirectTo, http.StatusTemporaryRedirect)
	case rep.Hang:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		case <-time.After(HangFor):
		}
	case rep.Status != 0:
		for k, v := range rep.Header {
			w.Header()[k] = v
		}
		writeJSON(w, rep.Status, rep.Body)
	case rep.Garbage:
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintln(w, "<html>not json")
	default:
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if body != "" {
		fmt.Fprintln(w, body)
	}
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, ok := s.read(w, r)
	if !ok {
		return
	}
	var req ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, ErrorBody("Invalid request body: "+err.Error(), "invalid_request_error", ""))
		return
	}
	rep := Reply{Content: DefaultContent}
	if req.ClaimsOnly() {
		rep.Content = DefaultClaimsContent
	}
	if s.Chat != nil {
		rep = s.Chat(req)
	}
	rep = echoKey(rep, r)
	if s.misbehave(w, r, rep) {
		return
	}
	type message struct {
		Role    string  `json:"role"`
		Content *string `json:"content"`
		Refusal *string `json:"refusal"`
	}
	type choice struct {
		Index        int     `json:"index"`
		Message      message `json:"message"`
		Logprobs     any     `json:"logprobs"`
		FinishReason string  `json:"finish_reason"`
	}
	out := struct {
		ID      string   `json:"id"`
		Object  string   `json:"object"`
		Created int64    `json:"created"`
		Model   string   `json:"model"`
		Choices []choice `json:"choices"`
		Usage   any      `json:"usage"`
	}{ID: "chatcmpl-fake", Object: "chat.completion", Created: time.Now().Unix(), Model: req.Model,
		Choices: []choice{}, Usage: map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
	if !rep.NoChoices {
		m := message{Role: "assistant"}
		if rep.Content != "" || rep.Refusal == "" {
			m.Content = &rep.Content
		}
		if rep.Refusal != "" {
			m.Refusal = &rep.Refusal
		}
		fr := rep.FinishReason
		if fr == "" {
			fr = "stop"
		}
		out.Choices = append(out.Choices, choice{Message: m, FinishReason: fr})
	}
	b, _ := json.Marshal(out) // one line, as OpenAI writes it
	writeJSON(w, http.StatusOK, string(b))
}

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	body, ok := s.read(w, r)
	if !ok {
		return
	}
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, ErrorBody("Invalid request body: "+err.Error(), "invalid_request_error", ""))
		return
	}
	// The protocol takes a string or an array of strings.
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeJSON(w, http.StatusBadRequest, ErrorBody("'input' must be a string or an array of strings", "invalid_request_error", ""))
			return
		}
		inputs = []string{one}
	}
	if s.EmbedReply != nil && s.misbehave(w, r, echoKey(s.EmbedReply(inputs), r)) {
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
		Model  string `json:"model"`
		Usage  any    `json:"usage"`
	}{Object: "list", Data: []item{}, Model: req.Model, Usage: map[string]int{"prompt_tokens": 1, "total_tokens": 1}}
	for i, in := range inputs {
		v := []float32{float32(len(in)), 1}
		if s.Embed != nil {
			v = s.Embed(in)
		}
		out.Data = append(out.Data, item{Object: "embedding", Index: i, Embedding: v})
	}
	if s.ReverseData {
		for i, j := 0, len(out.Data)-1; i < j; i, j = i+1, j-1 {
			out.Data[i], out.Data[j] = out.Data[j], out.Data[i]
		}
	}
	b, _ := json.Marshal(out)
	writeJSON(w, http.StatusOK, string(b))
}
