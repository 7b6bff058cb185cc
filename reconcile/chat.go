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
// message it gave, if any.
type StatusError struct {
	Code    int
	Message string // the provider's error message, bounded; "" if none
	// Param is the request field the provider blames (OpenAI's
	// error.param), "" if none.
	Param string
	// RetryAfter is the Retry-After header of a 429, as sent.
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
	// redact removes secrets from any text the server sends back before
	// it reaches an error, a decision or a log.
	redact func(string) string
}

// post sends body as JSON to base+path and decodes a 2xx reply into out.
// Every failure says what it was: the HTTP status with the provider's
// message, a timeout with its bound, a reply that is not JSON.
func (e *endpoint) post(ctx context.Context, path string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+path, bytes.NewReader(data))
	if err != nil {
		return err
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
		msg, param := providerError(raw)
		return &StatusError{Code: resp.StatusCode, Message: e.redact(msg), Param: clip.Bytes(param, 80),
			RetryAfter: clip.Bytes(resp.Header.Get("Retry-After"), 40)}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("HTTP %d but the reply is not the JSON expected (%v): %s", resp.StatusCode, err, e.redact(snippet(raw)))
	}
	return nil
}

// transportError says why a request got no reply: the caller's context
// ended (its error, wrapped), the timeout passed, or the connection failed.
func (e *endpoint) transportError(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%w (%s)", cerr, e.redact(err.Error()))
	}
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return fmt.Errorf("%w after %s", ErrModelTimeout, seconds(e.client.Timeout))
	}
	if msg := e.redact(err.Error()); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}

// seconds shows a duration of whole seconds as "60s", not "1m0s".
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

// providerError reads the error message out of an error reply, and the
// field it blames: OpenAI's {"error":{"message","type","param","code"}}
// (llama.cpp's too, with a numeric code), Ollama's and LM Studio's
// {"error":"..."}, or else the body itself.
func providerError(raw []byte) (msg, param string) {
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &body) == nil {
		var s string
		if json.Unmarshal(body.Error, &s) == nil && s != "" {
			return clip.Bytes(oneLine(s), 1000), ""
		}
		var o struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Param   *string         `json:"param"`
			Code    json.RawMessage `json:"code"`
		}
		if json.Unmarshal(body.Error, &o) == nil && o.Message != "" {
			msg := oneLine(o.Message)
			var tags []string
			if o.Type != "" {
				tags = append(tags, "type "+o.Type)
			}
			if c := strings.Trim(string(o.Code), `"`); c != "" && c != "null" {
				tags = append(tags, "code "+c)
			}
			if len(tags) > 0 {
				msg += " (" + strings.Join(tags, ", ") + ")"
			}
			if o.Param != nil {
				param = *o.Param
			}
			return clip.Bytes(msg, 1000), param
		}
		if body.Message != "" {
			return clip.Bytes(oneLine(body.Message), 1000), ""
		}
	}
	return snippet(raw), ""
}

// snippet is the start of a body, on one line, for an error message.
func snippet(raw []byte) string {
	return clip.Bytes(oneLine(strings.TrimSpace(string(raw))), 200)
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
// policy is the caller's. On error the Decision carries only Decider, Model
// and Raw (the last answer received, if any), for the caller's log.
//
// An update or invalidate naming a pinned candidate is a valid answer:
// the caller keeps the pinned fact and records the disagreement.
func (m *modelDecider) Decide(ctx context.Context, in Input) (Decision, error) {
	base := Decision{Decider: m.name, Model: m.model}
	if err := ctx.Err(); err != nil {
		return base, err
	}
	msgs := []chatMessage{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: userPrompt(in)},
	}
	schema := decisionSchema(len(in.Candidates))
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		r, err := m.t.chat(ctx, msgs, schemaName, schema)
		if err != nil {
			return base, fmt.Errorf("%s chat at %s with %s: %w", m.name, m.base, m.model, err)
		}
		base.Raw = clip.Bytes(r.content, MaxRaw)
		if r.refusal != "" {
			return base, fmt.Errorf("%s chat at %s with %s: %w: %s", m.name, m.base, m.model, ErrRefusal, clip.Bytes(oneLine(r.refusal), 500))
		}
		switch r.finish {
		case "length":
			err = fmt.Errorf("%w: %w (%d tokens, finish_reason \"length\"); keep the reasoning to one short sentence", ErrInvalidDecision, ErrTruncated, MaxAnswerTokens)
		case "content_filter":
			return base, fmt.Errorf("%s chat at %s with %s: the provider's content filter stopped the answer (finish_reason \"content_filter\")", m.name, m.base, m.model)
		default:
			var d Decision
			if d, err = parseAnswer(r.content, in); err == nil {
				d.Decider, d.Model, d.Raw = base.Decider, base.Model, base.Raw
				return d, nil
			}
		}
		lastErr = err
		msgs = append(msgs,
			chatMessage{Role: "assistant", Content: r.content},
			chatMessage{Role: "user", Content: retryPrompt(err)})
	}
	return base, fmt.Errorf("%s decider with %s at %s: second answer also invalid: %w", m.name, m.model, m.base, lastErr)
}
