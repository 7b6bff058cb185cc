package mcpserver

import (
	"context"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
)

// PromptName is the MCP prompt that gives the memory context for a message.
const PromptName = "memory_context"

// addPrompt adds the prompt: the context tool's text, as a user message a
// client puts before the conversation.
func (x *srv) addPrompt(server *mcp.Server) {
	server.AddPrompt(&mcp.Prompt{Name: PromptName, Title: "Memory context",
		Description: "What the memory knows of the user that bears on a message: the facts true now and upcoming, ranked for it, with a note on each open conflict to ask about.",
		Arguments: []*mcp.PromptArgument{
			{Name: "message", Description: "the message being answered (facts it bears on rank first)"},
			{Name: "budget", Description: "the most characters the fact lines may take (default: no limit)"},
		}}, x.prompt)
}

func (x *srv) prompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	var args map[string]string
	if req.Params != nil {
		args = req.Params.Arguments
	}
	opts := &memory.PromptOptions{For: args["message"]}
	if b := args["budget"]; b != "" {
		n, err := strconv.Atoi(b)
		if err != nil {
			return nil, &badArgument{"budget", b}
		}
		opts.Budget = n
	}
	p, err := x.s.Prompt(ctx, x.user, opts)
	if err != nil {
		return nil, err
	}
	return &mcp.GetPromptResult{Description: "The memory context",
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: p}}}}, nil
}

type badArgument struct{ name, value string }

func (e *badArgument) Error() string {
	return "argument " + e.name + " " + strconv.Quote(e.value) + ": want a whole number"
}
