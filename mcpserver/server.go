// Package mcpserver serves a memory.Store over the Model Context Protocol
// (MCP), so that any assistant that speaks it — Claude Desktop, Cursor, VS
// Code, Zed, an agent framework — remembers, recalls, corrects and forgets
// the user's facts. It uses only package memory's public API (and eventtime's
// range of times) and the official Go SDK, github.com/modelcontextprotocol/go-sdk.
//
// New builds the server: typed tools whose input and output schemas come from
// the structs below, with annotations (read-only, destructive, idempotent;
// never open-world) and structured results whose objects are memctl's --json
// objects, and a prompt giving the memory context for a message. A refusal
// of the library is a tool error (isError) with the library's message,
// and the store is unchanged. ServeStdio runs a server over a pair of streams
// (what desktop clients start) such that a line that is no JSON-RPC message
// gets an error answer and never ends the session; streamable HTTP is the
// SDK's mcp.NewStreamableHTTPHandler over the same server.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/eventtime"
)

// Options configure a server; nil means the defaults.
type Options struct {
	// User is whose facts the server reads and writes; "" is the default
	// user. The server never answers for another: an id of another user's
	// fact is not found.
	User string
	// Origin is who the state changes and new facts are made as. The
	// default, memory.OriginUser, is what memctl does: the assistant acts on
	// the user's word. memory.OriginAuto makes a pinned fact refuse the
	// assistant's correct, retract and restore (memory.ErrPinned), and puts
	// its facts under the store's AutoBudget.
	Origin memory.Origin
	// SourceKind is the Source.Kind of the facts the tools write; "" means
	// "mcp".
	SourceKind string
	// Version is the version the server announces; "" means "(devel)".
	Version string
}

// Name is the name the server announces to its clients.
const Name = "palimpsest"

// srv is the state the tools share: the store and the options, fixed.
type srv struct {
	s      *memory.Store
	user   string
	origin memory.Origin
	kind   string
}

// New returns an MCP server over s with every tool and the prompt. The
// clock, the decider, the lookup and the fallback policy are the store's
// (memory.Options). It fails only on an invalid Options.User.
func New(s *memory.Store, opts *Options) (*mcp.Server, error) {
	if s == nil {
		return nil, errors.New("mcpserver: no store")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := memory.ValidUser(o.User); err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	if o.SourceKind == "" {
		o.SourceKind = "mcp"
	}
	if o.Version == "" {
		o.Version = "(devel)"
	}
	x := &srv{s: s, user: o.User, origin: o.Origin, kind: o.SourceKind}
	server := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Palimpsest memory", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{}})
	names := x.addTools(server)
	x.addPrompt(server)
	server.AddReceivingMiddleware(unknownTool(names))
	return server, nil
}

const instructions = `A bi-temporal memory of facts about the user. Facts are never overwritten: a fact that stops being true is superseded or retracted and kept as history, so you can answer what is true now and what was believed before.
- Call context at the start of a conversation (with the user's message as "for") and put its text in your context; a line marked "unconfirmed … ask" is a question to put to the user.
- Call remember with each new fact the user tells you about themselves, in their words, one fact at a time. If it answers conflicts, ask the user and settle each with resolve.
- recall finds facts for a question, also as of a past time; get shows a fact's versions and lifecycle.
- correct, retract and forget only on the user's word; forget erases for good and needs confirm true.`

// unknownTool answers a call of a tool the server does not have as a tool
// error, as it answers every other bad call, rather than the SDK's
// protocol error, so that a model reads why and goes on.
func unknownTool(names []string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && !slices.Contains(names, r.Params.Name) {
					res := &mcp.CallToolResult{}
					res.SetError(fmt.Errorf("unknown tool %q: the tools are %s", r.Params.Name, strings.Join(names, ", ")))
					return res, nil
				}
			}
			return next(ctx, method, req)
		}
	}
}

// reads annotates a tool that changes nothing.
func reads(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}
}

// writes annotates a tool that changes the store; destructive: it erases.
func writes(title string, destructive, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(false)}
}

func ptr(b bool) *bool { return &b }

// tool adds a typed tool whose handler answers (out, err): err, the
// library's refusal, becomes a tool error with its message. A refusal
// that still has a result to show (remember's decision under the error
// fallback) keeps it as the structured content of the tool error.
//
// It does what mcp.AddTool does — schemas inferred from In and Out, the
// arguments checked against the input schema before the handler runs —
// but for checking each answer against the output schema and encoding it
// twice: Out is this package's own type, whose JSON is its schema's by
// construction (the tests check every tool's answers against it, and
// the TypeScript SDK's client does), and that check and second encoding
// were most of what a call cost beyond the library's.
func tool[In, Out any](server *mcp.Server, names *[]string, t *mcp.Tool, h func(context.Context, In) (Out, error)) {
	*names = append(*names, t.Name)
	in, ok := t.InputSchema.(*jsonschema.Schema)
	if !ok {
		in = schemaFor[In](nil)
		t.InputSchema = in
	}
	resolved, err := in.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: input schema of %s: %v", t.Name, err)) // the types are this package's own
	}
	if t.OutputSchema, err = jsonschema.For[Out](nil); err != nil {
		panic(fmt.Sprintf("mcpserver: output schema of %s: %v", t.Name, err))
	}
	server.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args In
		if err := decodeArgs(req.Params.Arguments, resolved, &args); err != nil {
			return errorResult(err), nil
		}
		out, err := h(ctx, args)
		var r refusal
		switch {
		case errors.As(err, &r):
			text := err.Error()
			if r.fallback != "" {
				text += "\nfallback: " + r.fallback
			}
			res, merr := result(out)
			if merr != nil {
				return nil, merr
			}
			res.IsError, res.Content = true, []mcp.Content{&mcp.TextContent{Text: text}}
			return res, nil
		case err != nil:
			return errorResult(err), nil
		}
		return result(out)
	})
}

// decodeArgs checks the arguments against the input schema (types,
// required fields, no others) and decodes them into v.
func decodeArgs(raw json.RawMessage, schema *jsonschema.Resolved, v any) error {
	m := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("arguments: want a JSON object: %v", err)
		}
	}
	if err := schema.Validate(m); err != nil {
		return fmt.Errorf("arguments: %v", err)
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// result is a tool's answer: out as its structured content, and the same
// JSON as its text, as the protocol asks of a tool that has an output
// schema, for clients that read only the text.
func result(out any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: encoding the answer: %w", err)
	}
	return &mcp.CallToolResult{StructuredContent: json.RawMessage(b), Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
}

func errorResult(err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	res.SetError(err)
	return res
}

// parseTime reads a time argument as memctl reads one: YYYY-MM-DD (midnight
// UTC) or RFC 3339, within the years the store keeps; "" is the zero time.
func parseTime(name, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		if t, err = time.Parse(time.RFC3339Nano, s); err != nil {
			return time.Time{}, fmt.Errorf("%s %q: want YYYY-MM-DD or RFC 3339 (2006-01-02T15:04:05Z)", name, s)
		}
	}
	if !eventtime.InRange(t) {
		return time.Time{}, fmt.Errorf("%s %q: %w", name, s, memory.ErrInvalidTime)
	}
	return t.UTC(), nil
}

// One fact.
type idIn struct {
	ID uint64 `json:"id" jsonschema:"the fact's id"`
}

type changeIn struct {
	ID     uint64 `json:"id" jsonschema:"the fact's id"`
	Reason string `json:"reason,omitempty" jsonschema:"why, kept in the fact's log"`
}

type factOut struct {
	Fact Fact `json:"fact"`
}

type factsOut struct {
	Facts []Fact `json:"facts"`
}
