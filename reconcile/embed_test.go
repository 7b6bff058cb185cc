package reconcile

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

func TestEmbedAgainstFakeOllama(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Embed = func(text string) []float32 { return []float32{float32(len(text)), 1} }
	e, err := NewEmbedder("test-embed", &OllamaOptions{Host: srv.URL, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Embed(context.Background(), []string{"ab", "abcd"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0][0] != 2 || vs[1][0] != 4 {
		t.Errorf("vectors %v", vs)
	}
	if m := srv.Models(); len(m) != 1 || m[0] != "test-embed" {
		t.Errorf("models sent %v", m)
	}
}

func TestEmbedFaults(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Embed = func(string) []float32 { return []float32{1} }
	e, _ := NewEmbedder("m", &OllamaOptions{Host: srv.URL, Timeout: 200 * time.Millisecond})
	for _, f := range []ollamatest.Fault{ollamatest.Error500, ollamatest.Garbage, ollamatest.Hang} {
		srv.SetFault(f)
		start := time.Now()
		if _, err := e.Embed(context.Background(), []string{"x"}); err == nil {
			t.Errorf("fault %d: no error", f)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("fault %d took %v with a 200ms timeout", f, d)
		}
	}
	// A server that is not there at all.
	srv.Close()
	if _, err := e.Embed(context.Background(), []string{"x"}); err == nil {
		t.Error("refused connection: no error")
	}
	// The caller's context bounds it too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// The embedding model is the one named, else DefaultEmbedModel; the
// environment is not read (memctl maps $MEMCTL_EMBED_MODEL itself).
func TestEmbedderModel(t *testing.T) {
	t.Setenv("MEMCTL_EMBED_MODEL", "from-env")
	e, _ := NewEmbedder("", nil)
	if e.Model() != DefaultEmbedModel {
		t.Errorf("model %q", e.Model())
	}
	e, _ = NewEmbedder("given", nil)
	if e.Model() != "given" {
		t.Errorf("model %q", e.Model())
	}
}
