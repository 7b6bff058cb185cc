package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/palimpsest-mem/memory"
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
	d, err := parseTimeout(s)
	if err != nil {
		return err
	}
	*f.d = d
	return nil
}

func (f durationFlag) Type() string { return "DURATION" }

// parseTimeout reads a positive Go duration ("90s", "2m").
func parseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("bad timeout %q: want a duration such as 30s or 2m", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("bad timeout %q: want more than zero", s)
	}
	return d, nil
}

// modelTimeout is --timeout, else $MEMCTL_TIMEOUT, else the library's
// default.
func (a *app) modelTimeout() (time.Duration, error) {
	if a.timeout != 0 {
		return a.timeout, nil
	}
	s := a.getenv("MEMCTL_TIMEOUT")
	if s == "" {
		return memory.DefaultModelTimeout, nil
	}
	d, err := parseTimeout(s)
	if err != nil {
		return 0, usagef("$MEMCTL_TIMEOUT: %v", err)
	}
	return d, nil
}

// ollamaOptions say where Ollama is ($OLLAMA_HOST, else the library's
// default) and how long to wait for it.
func (a *app) ollamaOptions() (*memory.OllamaOptions, error) {
	timeout, err := a.modelTimeout()
	if err != nil {
		return nil, err
	}
	return &memory.OllamaOptions{Host: a.getenv("OLLAMA_HOST"), Timeout: timeout}, nil
}

// ollamaHost is where the Ollama models are asked, as the notice names it.
func (a *app) ollamaHost() string {
	if h := a.getenv("OLLAMA_HOST"); h != "" {
		return showURL(h)
	}
	return memory.DefaultOllamaHost
}

// showURL is an address fit for a terminal: without the user information
// or query a URL may carry (a key can hide there), and quoted when it is
// not printable.
func showURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" { // host[:port], or a mistake the library reports
		if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			return strconv.Quote(s)
		}
		return s
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// waitNotice says on stderr what a model call waits for once it has
// taken noticeAfter; the library prints nothing, so memctl wraps the
// values it hands the library. One notice per call.
type waitNotice struct {
	w    io.Writer
	mu   *sync.Mutex // one writer to stderr at a time
	what string      // "asking MODEL at HOST for a decision (timeout 1m0s)"
}

// start arms the notice; stop disarms it and returns only once a notice
// that fired has been written, so that nothing writes to stderr after.
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

// notice is the wait notice of a call to model at host, for what.
func (a *app) notice(model, host, what string) (waitNotice, error) {
	timeout, err := a.modelTimeout()
	if err != nil {
		return waitNotice{}, err
	}
	return waitNotice{w: a.stderr, mu: &a.stderrMu,
		what: fmt.Sprintf("asking %s at %s for %s (timeout %s)", model, host, what, timeout)}, nil
}

// embedder is the embedder of the semantic lookup: Ollama's, with the
// model $MEMCTL_EMBED_MODEL (else the library's default).
func (a *app) embedder() (memory.Embedder, error) {
	model := a.getenv("MEMCTL_EMBED_MODEL")
	opts, err := a.ollamaOptions()
	if err != nil {
		return nil, err
	}
	e, err := memory.OllamaEmbedder(model, opts)
	if err != nil {
		return nil, usageError{err}
	}
	if model == "" {
		model = memory.DefaultEmbedModel
	}
	n, err := a.notice(model, a.ollamaHost(), "embeddings")
	if err != nil {
		return nil, err
	}
	return noticedEmbedder{e, n}, nil
}
