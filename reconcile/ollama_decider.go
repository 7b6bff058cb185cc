package reconcile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/palimpsest-mem/memory/eventtime"
	"github.com/palimpsest-mem/memory/internal/clip"
)

// ErrNoModel means no chat model was named.
var ErrNoModel = errors.New("no model named")

// Ollama decides with a local chat model through Ollama's structured
// output: one /api/chat call with a JSON schema, validated, retried once
// with the error fed back when the answer is invalid.
type Ollama struct {
	modelDecider
}

// NewOllama returns an Ollama decider for model ("" gives an error that
// wraps ErrNoModel). It does not contact Ollama until Decide.
func NewOllama(model string, opts *OllamaOptions) (*Ollama, error) {
	m := model
	if strings.TrimSpace(m) == "" {
		return nil, fmt.Errorf("ollama decider: %w", ErrNoModel)
	}
	ep, err := newOllamaEndpoint(opts)
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	return &Ollama{modelDecider{name: "ollama", model: m, base: ep.base, t: ollamaChat{ep: ep, model: m}}}, nil
}

// ollamaChat speaks Ollama's /api/chat: the schema in format, options in a
// map (the typed api.Options drops a zero temperature), no streaming.
type ollamaChat struct {
	ep    *endpoint
	model string
}

func (c ollamaChat) chat(ctx context.Context, msgs []chatMessage, _ string, schema json.RawMessage) (chatReply, error) {
	stream := false
	req := &api.ChatRequest{
		Model:    c.model,
		Messages: make([]api.Message, len(msgs)),
		Stream:   &stream,
		Format:   schema,
		Options:  map[string]any{"temperature": 0, "num_predict": MaxAnswerTokens},
	}
	for i, m := range msgs {
		req.Messages[i] = api.Message{Role: m.Role, Content: m.Content}
	}
	var resp api.ChatResponse
	if err := c.ep.post(ctx, "/api/chat", req, &resp); err != nil {
		return chatReply{}, err
	}
	return chatReply{content: resp.Message.Content, finish: resp.DoneReason}, nil
}

// modelReply is the answer the schema asks for.
type modelReply struct {
	Reasoning string
	Action    string
	Target    int
	EventFrom *string
	Grain     *string
}

// replyFields are the fields a decision answer must hold. Its claims
// field is read apart (decisionClaims): one missing or malformed costs the
// claims, never the decision.
var replyFields = []string{"reasoning", "action", "target", "event_from", "grain"}

// parseAnswer reads a model's answer strictly: one JSON object with
// exactly the schema's fields and types, nothing around it, but for its
// claims, whose faults are listed in ClaimsDropped. The decision it
// returns has passed Validate against in, except that an update or
// invalidate may name a pinned candidate: that is the model's judgement,
// which the caller turns into a conflict rather than a change. Every error
// wraps ErrInvalidDecision.
func parseAnswer(content string, in Input) (Verdict, error) {
	if strings.TrimSpace(content) == "" {
		return Verdict{}, invalid(ReasonNotObject, "", "the answer is empty, not one JSON object")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(content), &fields); err != nil {
		return Verdict{}, invalid(ReasonNotObject, "", "the answer is not one JSON object: %v", err)
	}
	if fields == nil { // the answer was null
		return Verdict{}, invalid(ReasonNotObject, "", "the answer is null, not a JSON object")
	}
	// Unmarshal lets the last of two equal keys win: a noop that says
	// invalidate at its end is no answer to act on.
	if err := uniqueKeys(content); err != nil {
		return Verdict{}, err
	}
	for _, f := range replyFields {
		if _, ok := fields[f]; !ok {
			return Verdict{}, invalid(ReasonMissingField, f, "field %q is missing", f)
		}
	}
	if len(fields) != len(replyFields) {
		for k := range fields {
			if !isReplyField(k) && k != "claims" {
				return Verdict{}, invalid(ReasonUnknownField, "", "unknown field %q", clip.Bytes(k, 40))
			}
		}
	}
	var r modelReply
	if err := strictField(fields, "reasoning", &r.Reasoning, "a string"); err != nil {
		return Verdict{}, err
	}
	if err := strictField(fields, "action", &r.Action, "a string"); err != nil {
		return Verdict{}, err
	}
	if err := strictField(fields, "target", &r.Target, "an integer"); err != nil {
		return Verdict{}, err
	}
	if err := nullableString(fields, "event_from", &r.EventFrom); err != nil {
		return Verdict{}, err
	}
	if err := nullableString(fields, "grain", &r.Grain); err != nil {
		return Verdict{}, err
	}

	d := Verdict{Action: Action(r.Action), Target: r.Target, Reason: clip.Bytes(r.Reasoning, MaxRaw)}
	switch d.Action {
	case Add, Update, Invalidate, Noop:
	default:
		return Verdict{}, invalid(ReasonUnknownAction, "", "unknown action %q, want add, update, invalidate or noop", clip.Bytes(r.Action, 80))
	}
	if r.Grain != nil {
		switch *r.Grain {
		case "day", "week", "month", "season", "year":
		default:
			return Verdict{}, invalid(ReasonUnknownGrain, "", "unknown grain %q, want day, week, month, season, year or null", clip.Bytes(*r.Grain, 40))
		}
	}
	if r.EventFrom != nil {
		t, err := time.Parse(time.DateOnly, *r.EventFrom)
		if err != nil {
			return Verdict{}, invalid(ReasonBadDate, "", "event_from %q is not a date YYYY-MM-DD", clip.Bytes(*r.EventFrom, 40))
		}
		if !eventtime.InRange(t) {
			return Verdict{}, invalid(ReasonDateRange, "", "event_from %q is out of range (%s)", *r.EventFrom, eventtime.RangeText)
		}
		d.EventFrom = t.UTC()
		if r.Grain != nil {
			d.Grain = *r.Grain
		}
	}
	// A grain without a date says nothing; it is dropped.
	if err := validate(d, in, true); err != nil {
		return Verdict{}, err
	}
	decisionClaims(&d, fields)
	return d, nil
}

func isReplyField(k string) bool {
	for _, f := range replyFields {
		if f == k {
			return true
		}
	}
	return false
}

// strictField decodes fields[name] into v, refusing null and other types.
func strictField(fields map[string]json.RawMessage, name string, v any, want string) error {
	raw := fields[name]
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return invalid(ReasonFieldType, name, "field %q is null, want %s", name, want)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return invalid(ReasonFieldType, name, "field %q is %s, want %s", name, clip.Bytes(string(raw), 40), want)
	}
	return nil
}

// nullableString decodes fields[name] as a string or null.
func nullableString(fields map[string]json.RawMessage, name string, v **string) error {
	if err := json.Unmarshal(fields[name], v); err != nil {
		return invalid(ReasonFieldType, name, "field %q is %s, want a string or null", name, clip.Bytes(string(fields[name]), 40))
	}
	return nil
}

// uniqueKeys refuses a JSON text in which an object, at any depth, holds
// a key twice (compared as decoded: "\u0061ction" is "action"). The text
// is known to be valid JSON.
func uniqueKeys(content string) error {
	dec := json.NewDecoder(strings.NewReader(content))
	dec.UseNumber()
	// One frame per open object or array: an object's keys so far, and
	// whether its next string is a key.
	type frame struct {
		keys    map[string]bool
		wantKey bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return invalid(ReasonNotObject, "", "the answer is not one JSON object: %v", err)
		}
		if n := len(stack); n > 0 && stack[n-1].keys != nil && stack[n-1].wantKey {
			if k, ok := tok.(string); ok {
				if stack[n-1].keys[k] {
					return invalid(ReasonDuplicateKey, "", "key %q appears twice in one object", clip.Bytes(k, 40))
				}
				stack[n-1].keys[k], stack[n-1].wantKey = true, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: in an object, a key comes next.
		if n := len(stack); n > 0 && stack[n-1].keys != nil {
			stack[n-1].wantKey = true
		}
	}
}
