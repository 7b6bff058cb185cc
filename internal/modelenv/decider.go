package modelenv

import (
	"fmt"
	"time"

	"github.com/palimpsest-mem/memory"
)

// Model is model when set, else $MEMCTL_MODEL.
func Model(model string, getenv func(string) string) string {
	if model == "" {
		return getenv("MEMCTL_MODEL")
	}
	return model
}

// Decider is the decider name stands for: rules ("" too), add, or the
// ollama or openai one with Model of model, waiting Timeout of timeout.
func Decider(name, model string, timeout time.Duration, getenv func(string) string) (memory.Decider, error) {
	switch name {
	case "", "rules":
		return memory.RulesDecider(), nil
	case "add":
		return memory.AddDecider(), nil
	case "ollama", "openai":
	default:
		return nil, fmt.Errorf("unknown decider %q (rules, ollama, openai or add)", name)
	}
	model = Model(model, getenv)
	if model == "" {
		return nil, fmt.Errorf("the %s decider needs a model: --model NAME or $MEMCTL_MODEL", name)
	}
	if name == "ollama" {
		opts, err := OllamaOptions(timeout, getenv)
		if err != nil {
			return nil, err
		}
		return memory.OllamaDecider(model, opts)
	}
	opts, err := OpenAIOptions(timeout, getenv)
	if err != nil {
		return nil, err
	}
	return memory.OpenAIDecider(model, opts)
}
