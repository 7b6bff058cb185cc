// Package modelenv builds a model's settings and its decider from the
// environment, the one way memctl and bench both read it. The library
// reads no environment, so the caller hands in its getenv.
package modelenv

import (
	"fmt"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
)

// ParseTimeout reads a positive Go duration ("90s", "2m").
func ParseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("bad timeout %q: want a duration such as 30s or 2m", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("bad timeout %q: want more than zero", s)
	}
	return d, nil
}

// Timeout is flag when set (not zero), else $MEMCTL_TIMEOUT, else the
// library's default.
func Timeout(flag time.Duration, getenv func(string) string) (time.Duration, error) {
	if flag != 0 {
		return flag, nil
	}
	s := getenv("MEMCTL_TIMEOUT")
	if s == "" {
		return memory.DefaultModelTimeout, nil
	}
	d, err := ParseTimeout(s)
	if err != nil {
		return 0, fmt.Errorf("$MEMCTL_TIMEOUT: %w", err)
	}
	return d, nil
}

// OllamaOptions say where Ollama is ($OLLAMA_HOST, else the library's
// default) and how long to wait for it (Timeout of timeout).
func OllamaOptions(timeout time.Duration, getenv func(string) string) (*memory.OllamaOptions, error) {
	t, err := Timeout(timeout, getenv)
	if err != nil {
		return nil, err
	}
	return &memory.OllamaOptions{Host: getenv("OLLAMA_HOST"), Timeout: t}, nil
}

// OpenAIOptions say where an OpenAI-compatible server is ($OPENAI_BASE_URL,
// else OpenAI's API), its key ($OPENAI_API_KEY, none when unset, as local
// servers want) and how long to wait for it (Timeout of timeout). The
// names are the OpenAI SDKs', so a shell set up for them works as it is.
func OpenAIOptions(timeout time.Duration, getenv func(string) string) (*memory.OpenAIOptions, error) {
	t, err := Timeout(timeout, getenv)
	if err != nil {
		return nil, err
	}
	o := &memory.OpenAIOptions{BaseURL: getenv("OPENAI_BASE_URL"), APIKey: getenv("OPENAI_API_KEY"), Timeout: t}
	// OpenAI's own API always wants a key; a local server need not.
	if strings.TrimSpace(o.BaseURL) == "" && strings.TrimSpace(o.APIKey) == "" {
		return nil, fmt.Errorf("OpenAI's API (%s) needs a key: set $OPENAI_API_KEY, or $OPENAI_BASE_URL for another server",
			memory.DefaultOpenAIBaseURL)
	}
	return o, nil
}
