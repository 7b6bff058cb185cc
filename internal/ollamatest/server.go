// Package ollamatest is a fake Ollama server on loopback for tests. It
// speaks Ollama's wire format by hand (JSON bodies, one-line JSON replies)
// rather than through the Ollama client, so tests check the client's real
// requests against an independent reading of the protocol.
//
// It must not import the Ollama client or any other package of this module.
package ollamatest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Fault makes the server misbehave.
type Fault int

const (
	// OK answers normally.
	OK Fault = iota
	// Error500 answers with an HTTP 500 and Ollama's error body.
	Error500
	// Garbage answers 200 with a body that is not JSON.
	Garbage
	// Hang waits until the client gives up (or HangFor passes).
	Hang
	// NotFound answers an HTTP 404 with an empty body, as a proxy or a
	// server without the endpoint may.
	NotFound
	// Redirect answers 307 Temporary Redirect to Server.RedirectTo, as a
	// proxy or a moved server may.
	Redirect
)

// HangFor bounds how long a Hang fault holds a request, so a test whose
// client has no timeout still ends.
const HangFor = 5 * time.Second

// Server is a running fake Ollama.
type Server struct {
	*httptest.Server
	// Embed maps a text to its vector; set before the first request.
	Embed func(text string) []float32
	// Chat returns the content of the assistant's reply to a /api/chat
	// request; set before the request. Nil answers DefaultChatReply.
	Chat func(req ChatRequest) string
	// DoneReason is the done_reason of every chat reply; "" means "stop".
	// Set it before the request ("length": cut at num_predict).
	DoneReason string
	// RedirectTo is where the Redirect fault sends a request (a URL);
	// set it before the request.
	RedirectTo string

	mu     sync.Mutex
	fault  Fault
	calls  atomic.Int64
	models []string
	chats  []ChatRequest
	stop   chan struct{} // closed by Close, to release hanging requests
	once   sync.Once
}

// New starts a fake Ollama and stops it when the test ends.
func New(t testing.TB) *Server {
	s := &Server{stop: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/embed", s.embed)
	mux.HandleFunc("POST /api/chat", s.chat)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// Close releases hanging requests and stops the server.
func (s *Server) Close() {
	s.once.Do(func() { close(s.stop) })
	s.Server.Close()
}

// SetFault makes every later request fail in the given way.
func (s *Server) SetFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault = f
}

// Calls counts the requests served so far.
func (s *Server) Calls() int64 { return s.calls.Load() }

// Models lists the model named by each request, in order.
func (s *Server) Models() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.models...)
}

// misbehave applies the current fault; it reports whether it answered.
func (s *Server) misbehave(w http.ResponseWriter, r *http.Request) bool {
	s.calls.Add(1)
	s.mu.Lock()
	f := s.fault
	s.mu.Unlock()
	switch f {
	case Error500:
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintln(w, `{"error":"model runner has unexpectedly stopped"}`)
	case Garbage:
		fmt.Fprintln(w, `<html>not json`)
	case NotFound:
		w.WriteHeader(http.StatusNotFound)
	case Redirect:
		http.Redirect(w, r, s.RedirectTo, http.StatusTemporaryRedirect)
	case Hang:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		case <-time.After(HangFor):
		}
	default:
		return false
	}
	return true
}

type embedRequest struct {
	Model string          `json:"model"`
	Input json.RawMessage `json:"input"`
}

func (s *Server) embed(w http.ResponseWriter, r *http.Request) {
	if s.misbehave(w, r) {
		return
	}
	var req embedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":"invalid request"}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.models = append(s.models, req.Model)
	s.mu.Unlock()
	// Ollama accepts a string or an array of strings.
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			http.Error(w, `{"error":"invalid input type"}`, http.StatusBadRequest)
			return
		}
		inputs = []string{one}
	}
	out := struct {
		Model      string      `json:"model"`
		Embeddings [][]float32 `json:"embeddings"`
	}{Model: req.Model, Embeddings: make([][]float32, len(inputs))}
	for i, in := range inputs {
		out.Embeddings[i] = s.Embed(in)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out) // one line, as Ollama writes it
}

// DefaultChatReply is the content the server answers when Chat is nil: an
// add decision in the shape the reconcile deciders ask for.
const DefaultChatReply = `{"reasoning":"the fake server always adds","action":"add","target":0,"event_from":null,"grain":null}`

// DefaultClaimsReply is the content the server answers to a claims-only
// request (see ChatRequest.ClaimsOnly) when Chat is nil: no claims.
const DefaultClaimsReply = `{"claims":[]}`

// ChatMessage is one message of a chat request.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatRequest is a /api/chat request body as the server decoded it.
type ChatRequest struct {
	Model    string          `json:"model"`
	Messages []ChatMessage   `json:"messages"`
	Stream   *bool           `json:"stream"`
	Format   json.RawMessage `json:"format"`
	Options  map[string]any  `json:"options"`
}

// ClaimsOnly reports whether the request's format asks for claims alone
// (an object whose only property is "claims"), not for a decision.
func (r ChatRequest) ClaimsOnly() bool { return claimsOnly(r.Format) }

// claimsOnly reports whether schema is an object with the one property
// "claims".
func claimsOnly(schema json.RawMessage) bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return false
	}
	_, ok := s.Properties["claims"]
	return ok && len(s.Properties) == 1
}

func (r ChatRequest) clone() ChatRequest {
	c := r
	c.Messages = append([]ChatMessage(nil), r.Messages...)
	if r.Stream != nil {
		v := *r.Stream
		c.Stream = &v
	}
	c.Format = append(json.RawMessage(nil), r.Format...)
	if r.Options != nil {
		c.Options = cloneValue(r.Options).(map[string]any)
	}
	return c
}

// cloneValue deep-copies a value decoded from JSON.
func cloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = cloneValue(x)
		}
		return m
	case []any:
		a := make([]any, len(v))
		for i, x := range v {
			a[i] = cloneValue(x)
		}
		return a
	default:
		return v
	}
}

// ChatRequests returns a copy of every /api/chat request decoded so far, in
// order.
func (s *Server) ChatRequests() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ChatRequest, len(s.chats))
	for i, r := range s.chats {
		out[i] = r.clone()
	}
	return out
}

type chatMessageOut struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatResponse struct {
	Model      string         `json:"model"`
	CreatedAt  string         `json:"created_at"`
	Message    chatMessageOut `json:"message"`
	Done       bool           `json:"done"`
	DoneReason string         `json:"done_reason,omitempty"`
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	if s.misbehave(w, r) {
		return
	}
	var req ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintln(w, `{"error":"invalid request body"}`)
		return
	}
	s.mu.Lock()
	s.models = append(s.models, req.Model)
	s.chats = append(s.chats, req.clone())
	s.mu.Unlock()
	content := DefaultChatReply
	if req.ClaimsOnly() {
		content = DefaultClaimsReply
	}
	if s.Chat != nil {
		content = s.Chat(req.clone())
	}
	done := s.DoneReason
	if done == "" {
		done = "stop"
	}
	now := func() string { return time.Now().UTC().Format(time.RFC3339Nano) }
	enc := json.NewEncoder(w) // one line per object, as Ollama writes them
	if req.Stream != nil && !*req.Stream {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = enc.Encode(chatResponse{Model: req.Model, CreatedAt: now(),
			Message: chatMessageOut{Role: "assistant", Content: content}, Done: true, DoneReason: done})
		return
	}
	// Streaming, Ollama's default: the content, then an empty final chunk.
	w.Header().Set("Content-Type", "application/x-ndjson")
	_ = enc.Encode(chatResponse{Model: req.Model, CreatedAt: now(),
		Message: chatMessageOut{Role: "assistant", Content: content}})
	_ = enc.Encode(chatResponse{Model: req.Model, CreatedAt: now(),
		Message: chatMessageOut{Role: "assistant"}, Done: true, DoneReason: done})
}
