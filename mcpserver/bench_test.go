package mcpserver_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/mcpserver"
)

// BenchmarkRecall is a recall tool call over the in-memory transports
// beside the Candidates call it makes (what the server and the SDK add),
// a get (a small answer) and a ping (a round trip alone).
func BenchmarkRecall(b *testing.B) {
	ctx := context.Background()
	s, err := memory.Open(filepath.Join(b.TempDir(), "m.db"), 0o600, &memory.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := range 300 {
		if _, err := s.Add(ctx, memory.Note{Text: fmt.Sprintf("I play the cello in orchestra number %d on Mondays.", i)}); err != nil {
			b.Fatal(err)
		}
	}
	server, err := mcpserver.New(s, nil)
	if err != nil {
		b.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.Run("tool", func(b *testing.B) {
		for b.Loop() {
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "recall", Arguments: map[string]any{"query": "Which instrument do I play?"}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("get-tool", func(b *testing.B) {
		for b.Loop() {
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get", Arguments: map[string]any{"id": 7}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ping", func(b *testing.B) {
		for b.Loop() {
			if err := cs.Ping(ctx, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("library", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Candidates(ctx, "", "Which instrument do I play?", memory.DefaultCandidates); err != nil {
				b.Fatal(err)
			}
		}
	})
}
