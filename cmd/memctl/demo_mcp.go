package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory/mcpserver"
)

// assistant tells the last step as an assistant lives it: over the Model
// Context Protocol, as memctl mcp serves it to Claude Desktop or Cursor,
// it remembers what the user says, recalls it for a question and asks for
// the context of a message. The client and the server talk in-process,
// over the SDK's in-memory transports.
func (d *demo) assistant() error {
	d.printf("\n14. An assistant uses the memory over MCP (memctl mcp, here in-process)\n")
	server, err := mcpserver.New(d.s, &mcpserver.Options{SourceKind: "demo"})
	if err != nil {
		return err
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(d.ctx, st, nil)
	if err != nil {
		return err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "memctl-demo", Version: "1"}, nil).Connect(d.ctx, ct, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	tools, err := cs.ListTools(d.ctx, nil)
	if err != nil {
		return err
	}
	d.printf("    tools/list → %d tools: ", len(tools.Tools))
	for i, t := range tools.Tools {
		d.printf("%s%s", map[bool]string{true: "", false: ", "}[i == 0], t.Name)
	}
	d.printf("\n")
	call := func(name string, args map[string]any, out any) error {
		b, _ := json.Marshal(args)
		d.printf("    → tools/call %s %s\n", name, b)
		res, err := cs.CallTool(d.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return err
		}
		if res.IsError {
			return fmt.Errorf("demo: the %s tool refused: %v", name, res.Content)
		}
		b, err = json.Marshal(res.StructuredContent)
		if err != nil {
			return err
		}
		return json.Unmarshal(b, out)
	}

	d.on(date(2026, 11, 2), `The user tells the assistant: "I play the cello."`)
	var r struct {
		Decision struct {
			Action string `json:"action"`
			Reason string `json:"reason"`
		} `json:"decision"`
		Fact struct {
			ID uint64 `json:"id"`
		} `json:"fact"`
	}
	if err := call("remember", map[string]any{"text": "I play the cello."}, &r); err != nil {
		return err
	}
	if r.Decision.Action != "add" || r.Fact.ID == 0 {
		return fmt.Errorf("demo: remember over MCP decided %q (%s), the story expects add", r.Decision.Action, r.Decision.Reason)
	}
	d.printf("    ← decision %s (%s); fact #%d stored\n", r.Decision.Action, r.Decision.Reason, r.Fact.ID)

	d.on(date(2026, 11, 20), `The user asks: "What instrument do I play?"`)
	var rc struct {
		Facts []struct {
			Fact struct {
				ID   uint64 `json:"id"`
				Text string `json:"text"`
			} `json:"fact"`
			Terms  []string `json:"terms"`
			Topics []string `json:"topics"`
		} `json:"facts"`
	}
	if err := call("recall", map[string]any{"query": "What instrument do I play?", "k": 3}, &rc); err != nil {
		return err
	}
	if len(rc.Facts) == 0 || rc.Facts[0].Fact.ID != r.Fact.ID {
		return fmt.Errorf("demo: recall over MCP did not find the cello (#%d) first: %+v", r.Fact.ID, rc.Facts)
	}
	h := rc.Facts[0]
	d.printf("    ← #%d %s (evidence: %s)\n", h.Fact.ID, h.Fact.Text, strings.Join(append(h.Terms, h.Topics...), ", "))

	var c struct {
		Prompt string `json:"prompt"`
	}
	if err := call("context", map[string]any{"for": "Can you suggest a concert for me this weekend?", "budget": 200}, &c); err != nil {
		return err
	}
	if !strings.Contains(c.Prompt, "cello") {
		return fmt.Errorf("demo: the context over MCP does not mention the cello:\n%s", c.Prompt)
	}
	d.printf("    ← the context the assistant reads before it answers:\n")
	for _, line := range strings.Split(strings.TrimRight(c.Prompt, "\n"), "\n") {
		d.printf("      %s\n", line)
	}
	d.printf("    To give an assistant this memory: memctl mcp (see the README's \"MCP server\" for each client's configuration)\n")
	return nil
}
