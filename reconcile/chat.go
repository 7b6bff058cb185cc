package reconcile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/palimpsest-mem/memory/internal/clip"
)

// Errors a model call can end in, besides ErrInvalidDecision; each is
// wrapped with what the provider said, and tested with errors.Is.
var (
	// ErrModelTimeout: the server did not answer within the options'
	// Timeout (the caller's context ending is reported as the context's
	// error instead).
	ErrModelTimeout = errors.New("timed out")
	// ErrRateLimited: the server answered HTTP 429.
	ErrRateLimited = errors.New("rate limited")
	// ErrRefusal: the model refused to answer (message.refusal).
	ErrRefusal = errors.New("the model refused")
	// ErrTruncated: the answer was cut at the token limit
	// (finish_reason or done_reason "length"). It also wraps
	// ErrInvalidDecision: a cut answer is an invalid one, and is retried
	// once like any other.
	ErrTruncated = errors.New("the answer was cut at the token limit")
)

// MaxAnswerTokens bounds the tokens a model may write for one decision
// (max_completion_tokens, or Ollama's num_predict). The answer needs about
// a hundred, and some thirty more a claim; reasoning models count their hidden reasoning against it too,
// hence the margin.
const MaxAnswerTokens = 2048

// maxBody bounds the bytes read from a model server's reply.
const maxBody = 8 << 20

// StatusError is an HTTP error status from a model server, with the
// message it gave, if any: the full cause of a Failure of ReasonStatus, for
// the caller (the API key cut out), never stored.
type StatusError struct {
	Code    int
	Message string // the provider's error message, bounded; "" if none
	// Param is the request field the provider blames (OpenAI's
	// error.param), "" if none.
	Param string
	// RetryAfter is the Retry-After header of a 429, as sent (bounded).
	RetryAfter string
}

func (e *StatusError) Error() string {
	s := "HTTP " + strconv.Itoa(e.Code)
	if t := http.StatusText(e.Code); t != "" {
		s += " " + t
	}
	if e.Code == http.StatusTooManyRequests {
		s += " (rate limited"
		if e.RetryAfter != "" {
			s += ", retry after " + e.RetryAfter
			if _, err := strconv.Atoi(e.RetryAfter); err == nil {
				s += "s" // a number of seconds, else an HTTP date
			}
		}
		s += ")"
	}
	if e.Message != "" {
		return s + ": " + e.Message
	}
	return s + " with an empty body"
}

// Is makes a 429 match ErrRateLimited.
func (e *StatusError) Is(target error) bool {
	return target == ErrRateLimited && e.Code == http.StatusTooManyRequests
}

// endpoint is one model server as the transports reach it.
type endpoint struct {
	client *http.Client
	base   string // the server's base URL, as shown in messages
	header http.Header
	// redact removes secrets from any text the server sends back, whole,
	// before it is clipped and reaches an error.
	redact func(string) string
}

// newHTTPClient is the client of every endpoint: bounded by timeout, and
// following no redirect, so that the key and the facts' texts go to the
// configured base URL and nowhere else (Go's client would forward the
// Authorization header to another port of the same host).
func newHTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		status := 0
		if req.Response != nil {
			status = req.Response.StatusCode
		}
		return &redirectError{status: status, to: req.URL.Redacted()}
	}}
}

// redirectError stops a redirect before it is followed.
type redirectError struct {
	status int
	to     string
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("HTTP %d redirect to %s not followed", e.status, e.to)
}

// minKeyPrefix is the shortest prefix of the API key that redaction cuts
// wherever it appears: a server that clips what it echoes leaves one, and
// a shorter one is too common a string to mean the key (and tells too
// little of it).
const minKeyPrefix = 8

// keyRedactor returns what cuts key, and every prefix of it of at least
// minKeyPrefix bytes, from a text (a key shorter than that only whole).
func keyRedactor(key string) func(string) string {
	const mark = "[API key]"
	if len(key) < minKeyPrefix {
		return func(s string) string { return strings.ReplaceAll(s, key, mark) }
	}
	head := key[:minKeyPrefix]
	return func(s string) string {
		i := strings.Index(s, head)
		if i < 0 {
			return s
		}
		var b strings.Builder
		for i >= 0 {
			n := minKeyPrefix
			for n < len(key) && i+n < len(s) && s[i+n] == key[n] {
				n++
			}
			b.WriteString(s[:i])
			b.WriteString(mark)
			s = s[i+n:]
			i = strings.Index(s, head)
		}
		b.WriteString(s)
		return b.String()
	}
}

// text is what the server sent, made fit for a message: the key cut out
// first, then on one line, then clipped to n bytes.
func (e *endpoint) text(s string, n int) string {
	return clip.Bytes(oneLine(e.redact(s)), n)
}

// post sends body as JSON to base+path and decodes a 2xx reply into out.
// Every failure is a *Failure: the HTTP status with the provider's
// message, a timeout with its bound, a redirect, a reply that is not JSON.
func (e *endpoint) post(ctx context.Context, path string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return &Failure{Reason: ReasonRequest, Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+path, bytes.NewReader(data))
	if err != nil {
		return &Failure{Reason: ReasonRequest, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	for k, v := range e.header {
		req.Header[k] = v
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return e.transportError(ctx, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return e.transportError(ctx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		pe := providerError(raw)
		n := 1000
		if pe.body {
			n = 200 // a page, not a message: its start says enough
		}
		return &Failure{Reason: ReasonStatus, Status: resp.StatusCode, Code: errorCode(pe.code, pe.typ),
			Err: &StatusError{Code: resp.StatusCode, Message: e.text(pe.message(), n), Param: e.text(pe.param, 80),
				RetryAfter: e.text(resp.Header.Get("Retry-After"), 40)}}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &Failure{Reason: ReasonBadReply, Status: resp.StatusCode,
			Err: fmt.Errorf("HTTP %d but the reply is not the JSON expected (%s): %s", resp.StatusCode, e.text(err.Error(), 200), e.text(string(raw), 200))}
	}
	return nil
}

// transportError says why a request got no reply: the caller's context
// ended (its error, wrapped), the timeout passed, a redirect was refused,
// or the connection failed.
func (e *endpoint) transportError(ctx context.Context, err error) error {
	msg := e.redact(err.Error())
	if cerr := ctx.Err(); cerr != nil {
		return &Failure{Reason: ReasonCanceled, Err: fmt.Errorf("%w (%s)", cerr, msg)}
	}
	var re *redirectError
	if errors.As(err, &re) {
		return &Failure{Reason: ReasonRedirect, Status: re.status,
			Err: fmt.Errorf("HTTP %d redirect to %s not followed: the client sends the key and the facts to its base URL %s only", re.status, e.text(re.to, 200), e.base)}
	}
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return &Failure{Reason: ReasonTimeout, After: e.client.Timeout, Err: fmt.Errorf("%w after %s", ErrModelTimeout, seconds(e.client.Timeout))}
	}
	reason := ReasonUnreachable
	if errors.Is(err, syscall.ECONNREFUSED) {
		reason = ReasonConnRefused
	}
	if msg != err.Error() {
		err = errors.New(msg)
	}
	return &Failure{Reason: reason, Err: err}
}

// seconds shows a duration of whole seconds as "60s", not "1m0s".
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

// providerReply is what an error reply said, as sent: neither redacted
// nor clipped.
type providerReply struct {
	msg, typ, code, param string
	// body says msg is the body itself, no message found in it.
	body bool
}

// message is the provider's message with its type and code, for the
// caller.
func (p providerReply) message() string {
	var tags []string
	if p.typ != "" {
		tags = append(tags, "type "+p.typ)
	}
	if p.code != "" {
		tags = append(tags, "code "+p.code)
	}
	if len(tags) == 0 {
		return p.msg
	}
	return p.msg + " (" + strings.Join(tags, ", ") + ")"
}

// providerError reads the error message out of an error reply, and the
// field it blames: OpenAI's {"error":{"message","type","param","code"}}
// (llama.cpp's too, with a numeric code), Ollama's and LM Studio's
// {"error":"..."}, or else the body itself.
func providerError(raw []byte) providerReply {
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &body) == nil {
		var s string
		if json.Unmarshal(body.Error, &s) == nil && s != "" {
			return providerReply{msg: s}
		}
		var o struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Param   *string         `json:"param"`
			Code    json.RawMessage `json:"code"`
		}
		if json.Unmarshal(body.Error, &o) == nil && o.Message != "" {
			p := providerReply{msg: o.Message, typ: o.Type}
			if json.Unmarshal(o.Code, &p.code) != nil && string(o.Code) != "null" {
				p.code = string(o.Code) // a number
			}
			if o.Param != nil {
				p.param = *o.Param
			}
			return p
		}
		if body.Message != "" {
			return providerReply{msg: body.Message}
		}
	}
	return providerReply{msg: strings.TrimSpace(string(raw)), body: true}
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// chatMessage is one message of a conversation with the model.
type chatMessage struct {
	Role    string
	Content string
}

// chatReply is one answer of the model, as a transport received it.
type chatReply struct {
	content string
	refusal string // the model's refusal, if it refused
	// finish is why the model stopped: "stop", "length", … ("" unknown).
	finish string
}

// chatTransport sends one exchange to a model server in its protocol.
type chatTransport interface {
	// name names the schema where the protocol asks for a name.
	chat(ctx context.Context, msgs []chatMessage, name string, schema json.RawMessage) (chatReply, error)
}

// modelDecider is the decision protocol every chat model shares: the same
// prompt, numbering and schema, temperature 0, the reasoning first, strict
// local parsing, and one retry with the error fed back when the answer is
// invalid. Only the transport differs between Ollama and OpenAI-compatible
// servers.
type modelDecider struct {
	name  string // the decider's name: "ollama", "openai"
	model string
	base  string // where the server is, as shown in messages
	t     chatTransport
}

// Name is the decider's name: "ollama", "openai".
func (m *modelDecider) Name() string { return m.name }

// Model names the chat model.
func (m *modelDecider) Model() string { return m.model }

// Describe says what the decider waits for: "MODEL at URL".
func (m *modelDecider) Describe() string { return m.model + " at " + m.base }

// String is Describe, so that printing a decider never shows a key.
func (m *modelDecider) String() string { return m.name + " decider " + m.Describe() }

// Decide asks the model once and, if its answer is invalid (not the
// schema, not a valid decision, or cut at the token limit), once more with
// the error fed back. A failure of the exchange itself — no reply, an HTTP
// error status, a timeout, a refusal — is returned at once: a second
// request would wait as long and fail the same way, and the fallback
// policy is the caller's. Every error holds a *Failure (errors.As). On
// error the Verdict carries only Decider, Model and Raw (the last answer
// received, if any), for the caller to see: a store keeps none of it.
//
// An update or invalidate naming a pinned candidate is a valid answer:
// the caller keeps the pinned fact and records the disagreement.
func (m *modelDecider) Decide(ctx context.Context, in Input) (Verdict, error) {
	base := Verdict{Decider: m.name, Model: m.model}
	if err := ctx.Err(); err != nil {
		return base, &Failure{Reason: ReasonCanceled, Err: err}
	}
	msgs := []chatMessage{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: userPrompt(in)},
	}
	schema := decisionSchema(len(in.Candidates))
	where := fmt.Sprintf("%s chat at %s with %s", m.name, m.base, m.model)
	var last *Failure
	for attempt := 0; attempt < 2; attempt++ {
		r, err := m.t.chat(ctx, msgs, schemaName, schema)
		if err != nil {
			return base, fmt.Errorf("%s: %w", where, err)
		}
		base.Raw = clip.Bytes(r.content, MaxRaw)
		if r.refusal != "" {
			return base, &Failure{Reason: ReasonRefused, Err: fmt.Errorf("%s: %w: %s", where, ErrRefusal, clip.Bytes(oneLine(r.refusal), 500))}
		}
		var f *Failure
		switch r.finish {
		case "length":
			f = &Failure{Reason: ReasonTruncated, Err: fmt.Errorf("%w: %w (%d tokens, finish_reason \"length\"); keep the reasoning to one short sentence", ErrInvalidDecision, ErrTruncated, MaxAnswerTokens)}
		case "content_filter":
			return base, &Failure{Reason: ReasonContentFilter, Err: fmt.Errorf("%s: the provider's content filter stopped the answer (finish_reason \"content_filter\")", where)}
		default:
			d, err := parseAnswer(r.content, in)
			if err == nil {
				d.Decider, d.Model, d.Raw = base.Decider, base.Model, base.Raw
				return d, nil
			}
			f = AsFailure(err)
		}
		last = f
		msgs = append(msgs,
			chatMessage{Role: "assistant", Content: r.content},
			chatMessage{Role: "user", Content: retryPrompt(f)})
	}
	again := *last
	again.Retried = true
	again.Err = fmt.Errorf("%s decider with %s at %s: second answer also invalid: %w", m.name, m.model, m.base, last)
	return base, &again
}
