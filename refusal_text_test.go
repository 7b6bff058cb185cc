package memory_test

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// pinText is a note whose text a provider or a model may send back.
const pinText = "My bank PIN is QQPIN-4321.\nPlease keep it."

// quotings are the ways a provider's message may quote a text: verbatim,
// on one line, with its escapes, clipped. Only the first was scrubbed.
var quotings = map[string]func(string) string{
	"verbatim":  func(s string) string { return s },
	"one line":  func(s string) string { return strings.Join(strings.Fields(s), " ") },
	"escaped":   func(s string) string { return strconv.Quote(s) },
	"clipped":   func(s string) string { return s[:20] + "…" },
	"lowercase": func(s string) string { return strings.ToLower(s) },
}

// A provider that refuses a Remember and quotes the text leaves no copy of
// it in the store: under FallbackError no byte of it reaches the file, and
// under FallbackAdd the decision keeps none (the fact holds the text, and
// goes with Delete).
func TestRefusalKeepsNoProviderText(t *testing.T) {
	for name, quote := range quotings {
		for _, policy := range []memory.FallbackPolicy{memory.FallbackError, memory.FallbackAdd} {
			t.Run(name+"/"+string(policy), func(t *testing.T) {
				srv := openaitest.New(t)
				s, path := openAIStore(t, nil, srv, policy)
				srv.Chat = func(openaitest.ChatRequest) openaitest.Reply {
					return openaitest.Reply{Status: 400, Body: openaitest.ErrorBody("flagged by moderation: "+quote(pinText), "invalid_request_error", "content_policy_violation")}
				}
				out, err := s.Remember(ctx, memory.Note{Text: pinText})
				d := out.Decision
				if policy == memory.FallbackError && err == nil {
					t.Fatal("no error under FallbackError")
				}
				for _, field := range []string{d.Fallback, d.Raw, d.Reason, d.ClaimsNote} {
					if strings.Contains(strings.ToLower(field), "qqpin") {
						t.Errorf("the decision keeps the text: %+v", d)
					}
				}
				if d.Fallback == "" || d.Raw != "" {
					t.Errorf("fallback %q raw %q", d.Fallback, d.Raw)
				}
				if policy == memory.FallbackError {
					if err := s.Close(); err != nil {
						t.Fatal(err)
					}
					if dirContains(t, filepath.Dir(path), "QQPIN") || dirContains(t, filepath.Dir(path), "qqpin") {
						t.Error("the refused text is in a file of the store")
					}
				}
			})
		}
	}
}

// A model's answer that is not the schema (here an action that is a copy
// of the text) is no part of the decision that refused it.
func TestRefusalKeepsNoModelAnswer(t *testing.T) {
	const text = "My door code is 7781."
	answer := `{"reasoning":"r","action":"My door code is 7781","target":0,"event_from":null,"grain":null,"claims":[]}`
	for _, policy := range []memory.FallbackPolicy{memory.FallbackError, memory.FallbackAdd} {
		t.Run(string(policy), func(t *testing.T) {
			srv := openaitest.New(t)
			s, path := openAIStore(t, nil, srv, policy)
			srv.Chat = func(openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Content: answer} }
			out, _ := s.Remember(ctx, memory.Note{Text: text})
			d := out.Decision
			if strings.Contains(d.Fallback, "7781") || d.Raw != "" || !strings.Contains(d.Fallback, "unknown action") {
				t.Errorf("decision %+v", d)
			}
			if policy == memory.FallbackError {
				s.Close()
				if dirContains(t, filepath.Dir(path), "7781") {
					t.Error("the model's answer is in a file of the store")
				}
			}
		})
	}
}

// A Decider of the caller's own is held to the same: its error, and an
// answer that is no action, are not stored (only that it failed).
func TestRefusalKeepsNoCustomDeciderText(t *testing.T) {
	const text = "My door code is 7781."
	for name, fn := range map[string]func(context.Context, memory.DecideInput) (memory.Verdict, error){
		"error": func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
			return memory.Verdict{}, errors.New("cannot judge " + in.Text)
		},
		"action": func(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
			return memory.Verdict{Action: memory.Action(in.Text), Reason: in.Text, Raw: in.Text}, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			s, path := open(t, nil, &memory.Options{Decider: &funcDecider{name: "custom", fn: fn}, Fallback: memory.FallbackError})
			out, err := s.Remember(ctx, memory.Note{Text: text})
			if !errors.Is(err, memory.ErrDecider) || !strings.Contains(err.Error(), "7781") {
				t.Errorf("the caller's error %v does not say it all", err)
			}
			if d := out.Decision; d.Proposed != "" || d.Raw != "" || d.Reason != "" || !strings.HasPrefix(d.Fallback, "custom decider failed: ") {
				t.Errorf("decision %+v", d)
			}
			s.Close()
			if dirContains(t, filepath.Dir(path), "7781") {
				t.Error("the text is in a file of the store")
			}
		})
	}
}
