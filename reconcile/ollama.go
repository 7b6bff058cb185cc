package reconcile

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout bounds one request to a model unless the options say
// otherwise. A chat model on a CPU can take tens of seconds to answer; a
// client without any bound turns a hung server into a hung caller.
const DefaultTimeout = 60 * time.Second

// DefaultHost is where Ollama listens unless the options say otherwise.
const DefaultHost = "http://127.0.0.1:11434"

// OllamaOptions say where Ollama is and how long to wait for it. The
// package reads no environment variable: a command maps $OLLAMA_HOST onto
// Host itself.
type OllamaOptions struct {
	// Host is Ollama's address, in the forms $OLLAMA_HOST takes: a URL, or
	// host[:port] meaning http on Ollama's port 11434 unless one is given;
	// "" means DefaultHost.
	Host string
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
}

// newOllamaEndpoint checks the options and returns the endpoint they name.
func newOllamaEndpoint(o *OllamaOptions) (*endpoint, error) {
	var opts OllamaOptions
	if o != nil {
		opts = *o
	}
	timeout, err := checkTimeout(opts.Timeout)
	if err != nil {
		return nil, err
	}
	u, err := parseHost(opts.Host)
	if err != nil {
		return nil, err
	}
	return &endpoint{client: newHTTPClient(timeout),
		base: u.Redacted(), redact: func(s string) string { return s }}, nil
}

// checkTimeout applies the default to a zero timeout and refuses a
// negative one.
func checkTimeout(t time.Duration) (time.Duration, error) {
	switch {
	case t < 0:
		return 0, fmt.Errorf("negative timeout %s", t)
	case t == 0:
		return DefaultTimeout, nil
	}
	return t, nil
}

// parseHost reads an Ollama address as Ollama reads $OLLAMA_HOST: without
// a scheme it is http, and without a port it is 11434 for a bare host,
// 80 or 443 for an http or https URL. "" is DefaultHost.
func parseHost(s string) (*url.URL, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		s = DefaultHost
	}
	port := "11434"
	scheme, hostport, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		scheme, hostport = "http", s
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	default:
		return nil, fmt.Errorf("ollama host %q: scheme %q, want http or https", s, scheme)
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	} else {
		port = p
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, fmt.Errorf("ollama host %q: bad port %q", s, port)
	}
	u := &url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port)}
	if path != "" {
		u.Path = "/" + path
	}
	return u, nil
}
