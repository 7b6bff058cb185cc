package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// memctl, not the library, maps $OLLAMA_HOST and $MEMCTL_EMBED_MODEL onto
// the embedder of the semantic lookup. It sets the environment, so it
// cannot run in parallel.
func TestSemanticLookupFromEnvironment(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Embed = func(text string) []float32 {
		if strings.Contains(text, "tea") {
			return []float32{1, 0}
		}
		return []float32{0, 1}
	}
	t.Setenv("OLLAMA_HOST", srv.URL)
	t.Setenv("MEMCTL_EMBED_MODEL", "my-embed")
	db := tempDB(t)
	ok(t, "--db", db, "--lookup", "semantic", "add", "I drink green tea.")
	out := ok(t, "--db", db, "--lookup", "semantic", "candidates", "tea")
	if !strings.Contains(out, "I drink green tea.") || strings.Contains(out, "fall") {
		t.Errorf("semantic candidates: %q", out)
	}
	if ms := srv.Models(); len(ms) == 0 || slices.ContainsFunc(ms, func(m string) bool { return m != "my-embed" }) {
		t.Errorf("models asked for: %v, want my-embed alone", ms)
	}
	// Without $MEMCTL_EMBED_MODEL, the library's default model.
	t.Setenv("MEMCTL_EMBED_MODEL", "")
	n := len(srv.Models())
	ok(t, "--db", db, "--lookup", "semantic", "candidates", "tea")
	if ms := srv.Models()[n:]; len(ms) == 0 || ms[0] != "nomic-embed-text" {
		t.Errorf("models asked for without $MEMCTL_EMBED_MODEL: %v", ms)
	}
	// A bad $OLLAMA_HOST is a usage mistake.
	t.Setenv("OLLAMA_HOST", "ftp://nowhere")
	if e := fails(t, 2, "--db", db, "--lookup", "semantic", "candidates", "tea"); !strings.Contains(e, "ftp") {
		t.Errorf("bad $OLLAMA_HOST: %q", e)
	}
}
