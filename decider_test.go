package memory_test

import (
	"context"
	"errors"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// A store without a decider decides by the rules; one given a decider value
// uses it. Everything here is reached through package memory alone.
func TestDeciderValues(t *testing.T) {
	for _, tc := range []struct {
		decider memory.Decider
		name    string
		action  memory.Action
	}{
		{nil, "rules", memory.ActionUpdate},
		{memory.RulesDecider(), "rules", memory.ActionUpdate},
		{memory.AddDecider(), "add", memory.ActionAdd},
	} {
		s, _ := open(t, newClock("2026-01-01"), &memory.Options{NoSync: true, Decider: tc.decider})
		must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Lyon."}))
		out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
		if out.Decision.Decider != tc.name || out.Decision.Action != tc.action {
			t.Errorf("decider %s: %+v", tc.name, out.Decision)
		}
	}
	var custom memory.Decider = &funcDecider{name: "mine", fn: func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
		var c memory.DecideCandidate
		if len(in.Candidates) > 0 {
			c = in.Candidates[0]
		}
		return memory.Verdict{Action: memory.ActionAdd, Reason: "saw " + c.Text, Decider: "mine"}, nil
	}}
	s, _ := open(t, newClock("2026-01-01"), &memory.Options{NoSync: true, Decider: custom})
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Lyon."}))
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Lyon still."}))
	if out.Decision.Decider != "mine" || out.Decision.Reason != "saw I live in Lyon." {
		t.Errorf("custom decider: %+v", out.Decision)
	}
}

func TestOllamaConstructors(t *testing.T) {
	for _, m := range []string{"", " "} {
		if d, err := memory.OllamaDecider(m, nil); !errors.Is(err, memory.ErrNoModel) || d != nil {
			t.Errorf("OllamaDecider(%q) = %v, %v; want ErrNoModel", m, d, err)
		}
	}
	d, err := memory.OllamaDecider("m", &memory.OllamaOptions{Host: "gpu.lan"})
	if err != nil || d.Name() != "ollama" {
		t.Errorf("OllamaDecider: %v, %v", d, err)
	}
	for _, o := range []*memory.OllamaOptions{{Host: "ftp://x"}, {Host: "x:70000"}, {Timeout: -1}} {
		if _, err := memory.OllamaDecider("m", o); err == nil {
			t.Errorf("OllamaDecider with %+v: no error", o)
		}
		if _, err := memory.OllamaEmbedder("", o); err == nil {
			t.Errorf("OllamaEmbedder with %+v: no error", o)
		}
	}
	if _, err := memory.OllamaEmbedder("", nil); err != nil {
		t.Error(err)
	}
}

func TestBadFallbackRefused(t *testing.T) {
	path := t.TempDir() + "/m.db"
	if s, err := memory.Open(path, 0, &memory.Options{Fallback: "maybe"}); err == nil {
		s.Close()
		t.Fatal("unknown fallback accepted")
	}
}
