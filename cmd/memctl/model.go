package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/modelenv"
)

// noticeAfter is how long a model call runs before memctl says on stderr
// what it is waiting for: long enough that a quick answer stays quiet,
// short enough that nobody wonders whether memctl hangs.
const noticeAfter = time.Second

// durationFlag is a pflag.Value for --timeout, so that a bad value fails
// while flags are parsed and is reported as a usage error.
type durationFlag struct{ d *time.Duration }

func (f durationFlag) String() string {
	if f.d == nil || *f.d == 0 {
		return ""
	}
	return f.d.String()
}

func (f durationFlag) Set(s string) error {
	d, err := modelenv.ParseTimeout(s)
	if err != nil {
		return err
	}
	*f.d = d
	return nil
}

func (f durationFlag) Type() string { return "DURATION" }

// modelTimeout is --timeout, else $MEMCTL_TIMEOUT, else the library's
// default.
func (a *app) modelTimeout() (time.Duration, error) {
	d, err := modelenv.Timeout(a.timeout, a.getenv)
	if err != nil {
		return 0, usageError{err}
	}
	return d, nil
}

// ollamaOptions say where Ollama is and how long to wait for it.
func (a *app) ollamaOptions() (*memory.OllamaOptions, error) {
	o, err := modelenv.OllamaOptions(a.timeout, a.getenv)
	if err != nil {
		return nil, usageError{err}
	}
	return o, nil
}

// openAIOptions say where an OpenAI-compatible server is, its key and how
// long to wait for it.
func (a *app) openAIOptions() (*memory.OpenAIOptions, error) {
	o, err := modelenv.OpenAIOptions(a.timeout, a.getenv)
	if err != nil {
		return nil, usageError{err}
	}
	return o, nil
}

// embedder is the embedder of the semantic lookup: --embedder (else
// $MEMCTL_EMBEDDER, else ollama) with the model $MEMCTL_EMBED_MODEL; Ollama
// has a default model, an OpenAI-compatible server none.
func (a *app) embedder() (memory.Embedder, error) {
	provider := a.embedderName
	if provider == "" {
		provider = a.getenv("MEMCTL_EMBEDDER")
	}
	model := a.getenv("MEMCTL_EMBED_MODEL")
	var e memory.Embedder
	switch provider {
	case "", "ollama":
		opts, err := a.ollamaOptions()
		if err != nil {
			return nil, err
		}
		if e, err = memory.OllamaEmbedder(model, opts); err != nil {
			return nil, usageError{err}
		}
	case "openai":
		if model == "" {
			return nil, usagef("the openai embedder needs a model: $MEMCTL_EMBED_MODEL, e.g. text-embedding-3-small")
		}
		opts, err := a.openAIOptions()
		if err != nil {
			return nil, err
		}
		if e, err = memory.OpenAIEmbedder(model, opts); err != nil {
			return nil, usageError{err}
		}
	default:
		return nil, usagef("unknown embedder %q (ollama or openai)", provider)
	}
	n, err := a.notice(e, "embeddings")
	if err != nil {
		return nil, err
	}
	return noticedEmbedder{e, n}, nil
}

// waitNotice says on stderr what a model call waits for once it has
// taken noticeAfter; the library prints nothing, so memctl wraps the
// values it hands the library. One notice per call.
type waitNotice struct {
	w    io.Writer
	mu   *sync.Mutex // notices of concurrent calls, one line at a time
	what string      // "asking MODEL at HOST for a decision (timeout 1m0s)"
}

// start arms the notice; stop disarms it and returns only once a notice
// that fired has been written, so that no notice is written once the call
// has returned and memctl goes on printing.
func (n waitNotice) start() (stop func()) {
	done := make(chan struct{})
	t := time.AfterFunc(noticeAfter, func() {
		defer close(done)
		n.mu.Lock()
		defer n.mu.Unlock()
		fmt.Fprintf(n.w, "memctl: %s …\n", n.what)
	})
	return func() {
		if !t.Stop() {
			<-done
		}
	}
}

// noticedDecider announces a slow Decide.
type noticedDecider struct {
	memory.Decider
	n waitNotice
}

func (d noticedDecider) Decide(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
	defer d.n.start()()
	return d.Decider.Decide(ctx, in)
}

// noticedEmbedder announces a slow Embed.
type noticedEmbedder struct {
	memory.Embedder
	n waitNotice
}

func (e noticedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	defer e.n.start()()
	return e.Embedder.Embed(ctx, texts)
}

// notice is the wait notice of calls to model, a Decider or an Embedder,
// for what: it names the model and its server as the library describes
// them, without credentials or key.
func (a *app) notice(model any, what string) (waitNotice, error) {
	timeout, err := a.modelTimeout()
	if err != nil {
		return waitNotice{}, err
	}
	who := "the model"
	if d, ok := model.(memory.Describer); ok {
		who = d.Describe()
	}
	return waitNotice{w: a.stderr, mu: &a.stderrMu,
		what: fmt.Sprintf("asking %s for %s (timeout %s)", who, what, timeout)}, nil
}
