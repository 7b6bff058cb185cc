package reconcile

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"
)

// DefaultTimeout bounds one request to Ollama. The client from
// api.ClientFromEnvironment has none, which turns a hung server into a
// hung caller.
const DefaultTimeout = 30 * time.Second

// OllamaOptions say where Ollama is and how long to wait for it.
type OllamaOptions struct {
	// Host is Ollama's base URL; "" means $OLLAMA_HOST, else
	// http://127.0.0.1:11434.
	Host string
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
}

func newClient(o *OllamaOptions) (*api.Client, string, error) {
	var opts OllamaOptions
	if o != nil {
		opts = *o
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	var u *url.URL
	if opts.Host == "" {
		u = envconfig.Host()
	} else {
		host := opts.Host
		if !strings.Contains(host, "://") {
			host = "http://" + host
		}
		var err error
		if u, err = url.Parse(host); err != nil {
			return nil, "", err
		}
	}
	return api.NewClient(u, &http.Client{Timeout: opts.Timeout}), u.String(), nil
}

// modelFrom returns name, else $envVar, else def.
func modelFrom(name, envVar, def string) string {
	if name != "" {
		return name
	}
	if m := os.Getenv(envVar); m != "" {
		return m
	}
	return def
}
