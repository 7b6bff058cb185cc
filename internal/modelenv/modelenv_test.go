package modelenv_test

import (
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/modelenv"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestTimeout(t *testing.T) {
	for _, c := range []struct {
		flag time.Duration
		env  string
		want time.Duration
		err  string
	}{
		{0, "", memory.DefaultModelTimeout, ""},
		{0, "90s", 90 * time.Second, ""},
		{2 * time.Second, "90s", 2 * time.Second, ""}, // the flag wins
		{0, "forever", 0, "$MEMCTL_TIMEOUT: bad timeout"},
		{0, "-1s", 0, "want more than zero"},
	} {
		got, err := modelenv.Timeout(c.flag, env(map[string]string{"MEMCTL_TIMEOUT": c.env}))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Timeout(%s, %q): error %v, want %q", c.flag, c.env, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Timeout(%s, %q) = %s, %v; want %s", c.flag, c.env, got, err, c.want)
		}
	}
}

func TestDecider(t *testing.T) {
	for _, c := range []struct {
		name, model string
		env         map[string]string
		err         string // "" when it builds
	}{
		{"", "", nil, ""},
		{"rules", "", nil, ""},
		{"add", "", nil, ""},
		{"oracle", "", nil, `unknown decider "oracle"`},
		{"ollama", "", nil, "the ollama decider needs a model"},
		{"ollama", "", map[string]string{"MEMCTL_MODEL": "m"}, ""},
		{"ollama", "m", map[string]string{"MEMCTL_TIMEOUT": "soon"}, "$MEMCTL_TIMEOUT"},
		// OpenAI's own API wants a key; another server need not.
		{"openai", "m", nil, "needs a key"},
		{"openai", "m", map[string]string{"OPENAI_API_KEY": "k"}, ""},
		{"openai", "m", map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}, ""},
	} {
		d, err := modelenv.Decider(c.name, c.model, 0, env(c.env))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Decider(%q, %q, %v): error %v, want %q", c.name, c.model, c.env, err, c.err)
			}
			continue
		}
		if err != nil || d == nil {
			t.Errorf("Decider(%q, %q, %v) = %v, %v", c.name, c.model, c.env, d, err)
		}
	}
}
