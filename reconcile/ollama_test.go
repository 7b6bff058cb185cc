package reconcile

import (
	"testing"
	"time"
)

// parseHost reads an address as Ollama reads $OLLAMA_HOST, and the
// environment itself not at all.
func TestParseHost(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "http://from-env:1")
	for in, want := range map[string]string{
		"":                        DefaultHost,
		"localhost":               "http://localhost:11434",
		"gpu.lan:8080":            "http://gpu.lan:8080",
		"0.0.0.0":                 "http://0.0.0.0:11434",
		":9999":                   "http://127.0.0.1:9999",
		"[::1]":                   "http://[::1]:11434",
		"http://127.0.0.1:5":      "http://127.0.0.1:5",
		"http://box":              "http://box:80",
		"https://ollama.example/": "https://ollama.example:443",
		"https://h:1/api/base":    "https://h:1/api/base",
	} {
		u, err := parseHost(in)
		if err != nil || u.String() != want {
			t.Errorf("parseHost(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	for _, in := range []string{"ftp://h", "h:0", "h:99999", "h:port"} {
		if u, err := parseHost(in); err == nil {
			t.Errorf("parseHost(%q) = %v, want an error", in, u)
		}
	}
	if _, err := NewEmbedder("m", &OllamaOptions{Timeout: -time.Second}); err == nil {
		t.Error("negative timeout accepted")
	}
}
