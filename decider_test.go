package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
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

// candidateNumber finds the number under which the request's data block
// shows text; 0 if it is not shown.
func candidateNumber(req ollamatest.ChatRequest, text string) int {
	lit, _ := json.Marshal(text)
	for _, m := range req.Messages {
		if m.Role != "user" || !strings.Contains(m.Content, "<<<DATA") {
			continue
		}
		for _, line := range strings.Split(m.Content, "\n") {
			dot := strings.Index(line, ". (recorded ")
			if dot <= 0 || !strings.HasSuffix(line, " "+string(lit)) {
				continue
			}
			if n, err := strconv.Atoi(line[:dot]); err == nil {
				return n
			}
		}
	}
	return 0
}

// checkChatRequest asserts the wire format of a decider request.
func checkChatRequest(t *testing.T, req ollamatest.ChatRequest, candidates ...string) {
	t.Helper()
	if req.Model != "m" || req.Stream == nil || *req.Stream {
		t.Errorf("model %q stream %v", req.Model, req.Stream)
	}
	var schema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if len(req.Format) == 0 || json.Unmarshal(req.Format, &schema) != nil || schema.Type != "object" {
		t.Errorf("format is not a JSON schema: %s", req.Format)
	}
	for _, f := range []string{"reasoning", "action", "target", "event_from", "grain"} {
		if _, ok := schema.Properties[f]; !ok || !slices.Contains(schema.Required, f) {
			t.Errorf("schema lacks %q: %s", f, req.Format)
		}
	}
	if i, j := strings.Index(string(req.Format), `"reasoning"`), strings.Index(string(req.Format), `"action"`); i < 0 || i > j {
		t.Errorf("reasoning does not come first in the schema: %s", req.Format)
	}
	if temp, ok := req.Options["temperature"]; !ok || temp != float64(0) {
		t.Errorf("temperature %v (present %v), want 0", temp, ok)
	}
	for i, text := range candidates {
		if n := candidateNumber(req, text); n != i+1 {
			t.Errorf("candidate %q shown as number %d, want %d", text, n, i+1)
		}
	}
}

func TestRememberOllamaActions(t *testing.T) {
	const oldText = "I live in Lyon."
	cases := []struct {
		name    string
		action  string
		newText string
		check   func(t *testing.T, s *memory.Store, old memory.Fact, out memory.Outcome)
	}{
		{"add", "add", "I play the violin at home.", func(t *testing.T, s *memory.Store, old memory.Fact, out memory.Outcome) {
			if out.Decision.Action != memory.ActionAdd || out.Decision.Target != 0 || out.Fact.ID == 0 {
				t.Errorf("%+v", out)
			}
			if getFact(t, s, "", old.ID).State() != memory.Current {
				t.Error("add changed the old fact")
			}
		}},
		{"update", "update", "I live in Paris now.", func(t *testing.T, s *memory.Store, old memory.Fact, out memory.Outcome) {
			d := out.Decision
			if d.Action != memory.ActionUpdate || d.Target != old.ID || d.Added != out.Fact.ID || out.Fact.Supersedes != old.ID {
				t.Errorf("%+v", out)
			}
			if g := getFact(t, s, "", old.ID); g.State() != memory.Superseded || g.SupersededBy != out.Fact.ID {
				t.Errorf("old %+v", g)
			}
			// The event time the model found is the new fact's start.
			if !out.Fact.EventFrom.Equal(date("2026-01-15")) || d.EventFrom == nil || !d.EventFrom.Equal(date("2026-01-15")) || d.Grain != "month" {
				t.Errorf("event time: fact %v decision %v %q", out.Fact.EventFrom, d.EventFrom, d.Grain)
			}
		}},
		{"invalidate", "invalidate", "I was wrong, I live in Lille, not Lyon.", func(t *testing.T, s *memory.Store, old memory.Fact, out memory.Outcome) {
			d := out.Decision
			if d.Action != memory.ActionInvalidate || d.Target != old.ID || d.Added != out.Fact.ID || out.Fact.ID == 0 {
				t.Errorf("%+v", out)
			}
			if g := getFact(t, s, "", old.ID); g.State() != memory.Retracted {
				t.Errorf("old %+v", g)
			}
		}},
		{"noop", "noop", "I live in Lyon, as I said.", func(t *testing.T, s *memory.Store, old memory.Fact, out memory.Outcome) {
			d := out.Decision
			if d.Action != memory.ActionNoop || d.Target != old.ID || d.Added != 0 || out.Fact.ID != old.ID {
				t.Errorf("%+v", out)
			}
			if n := len(allFacts(t, s, "")); n != 1 {
				t.Errorf("noop stored something: %d facts", n)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock("2026-01-01")
			srv := ollamatest.New(t)
			srv.Chat = func(req ollamatest.ChatRequest) string {
				if tc.action == "add" {
					return reply("add", 0, "", "")
				}
				if tc.action == "update" {
					return reply("update", candidateNumber(req, oldText), "2026-01-15", "month")
				}
				return reply(tc.action, candidateNumber(req, oldText), "", "")
			}
			s := ollamaStore(t, c, srv, "")
			old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: oldText}))
			c.set("2026-02-01")
			out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: tc.newText}))
			if d := out.Decision; d.Fallback != "" || d.Decider != "ollama" || d.Model != "m" || d.Raw == "" || d.Reason != "scripted" {
				t.Errorf("decision %+v", d)
			}
			reqs := srv.ChatRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d chat requests, want 1", len(reqs))
			}
			if tc.action != "add" {
				checkChatRequest(t, reqs[0], oldText)
				if !slices.Contains(out.Decision.Candidates, old.ID) {
					t.Errorf("candidates %v", out.Decision.Candidates)
				}
			} else {
				checkChatRequest(t, reqs[0])
			}
			if !strings.Contains(reqs[0].Messages[len(reqs[0].Messages)-1].Content, strconv.Quote(tc.newText)) {
				t.Errorf("the new fact is not in the data block as a JSON string:\n%s", reqs[0].Messages[1].Content)
			}
			tc.check(t, s, old, out)
			if logged := lastDecision(t, s, ""); logged.ID != out.Decision.ID || logged.Action != out.Decision.Action {
				t.Errorf("logged %+v", logged)
			}
			checkClean(t, s)
		})
	}
}

// Every failure of the model ends in an explicit fallback: an add by
// default, a refusal wrapping ErrDecider with FallbackError; the decision
// log keeps it either way, and the store stays consistent.
func TestRememberOllamaFallbacks(t *testing.T) {
	const oldText = "I live in Lyon."
	const newText = "I live in Paris now."
	cases := []struct {
		name     string
		setup    func(srv *ollamatest.Server)
		requests int // chat requests recorded by the server
		reason   string
		says     string // what the caller's error says besides
	}{
		{"target out of range", func(srv *ollamatest.Server) {
			srv.Chat = func(ollamatest.ChatRequest) string { return reply("update", 7, "", "") }
		}, 2, "target out of range", "target 7, want 1..1"},
		{"malformed JSON", func(srv *ollamatest.Server) {
			srv.Chat = func(ollamatest.ChatRequest) string { return `{"reasoning":"x","action":"upd` }
		}, 2, "not one JSON object", "not one JSON object"},
		{"wrong types", func(srv *ollamatest.Server) {
			srv.Chat = func(ollamatest.ChatRequest) string { return reply("update", "1", "", "") }
		}, 2, `field "target" is not of the schema's type`, `field "target" is "1", want an integer`},
		{"unknown action", func(srv *ollamatest.Server) {
			srv.Chat = func(ollamatest.ChatRequest) string { return reply("merge", 1, "", "") }
		}, 2, "unknown action", `unknown action "merge"`},
		{"hang", func(srv *ollamatest.Server) { srv.SetFault(ollamatest.Hang) }, 0, "timed out after 300ms", "timed out"},
		{"error 500", func(srv *ollamatest.Server) { srv.SetFault(ollamatest.Error500) }, 0,
			"HTTP 500 Internal Server Error", "model runner has unexpectedly stopped"},
		{"garbage body", func(srv *ollamatest.Server) { srv.SetFault(ollamatest.Garbage) }, 0,
			"HTTP 200 but the reply is not the JSON expected", "<html>not json"},
		{"connection refused", func(srv *ollamatest.Server) { srv.Close() }, 0, "connection refused", "connection refused"},
	}
	for _, tc := range cases {
		for _, policy := range []memory.FallbackPolicy{memory.FallbackAdd, memory.FallbackError} {
			t.Run(tc.name+"/"+string(policy), func(t *testing.T) {
				c := newClock("2026-01-01")
				srv := ollamatest.New(t)
				s := ollamaStore(t, c, srv, policy)
				old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: oldText}))
				c.set("2026-02-01")
				tc.setup(srv)
				start := time.Now()
				out, err := s.Remember(ctx, memory.Note{Text: newText})
				if el := time.Since(start); el > 2*time.Second {
					t.Errorf("Remember took %v", el)
				}
				d := out.Decision
				if d.Fallback == "" || !strings.Contains(d.Fallback, tc.reason) || d.Decider != "ollama" || d.Model != "m" {
					t.Errorf("fallback %q (want it to mention %q), decision %+v", d.Fallback, tc.reason, d)
				}
				if g := getFact(t, s, "", old.ID); g.State() != memory.Current {
					t.Errorf("the old fact changed: %+v", g)
				}
				logged := lastDecision(t, s, "")
				if logged.ID != d.ID || logged.Fallback != d.Fallback || logged.ID == 0 {
					t.Errorf("log %+v, returned %+v", logged, d)
				}
				all := allFacts(t, s, "")
				switch policy {
				case memory.FallbackAdd:
					if err != nil {
						t.Fatal(err)
					}
					if d.Action != memory.ActionAdd || d.Target != 0 || d.Added == 0 || out.Fact.ID != d.Added || out.Fact.Text != newText {
						t.Errorf("fallback add: %+v", out)
					}
					if len(all) != 2 {
						t.Errorf("%d facts, want 2", len(all))
					}
					if out.DeciderError == nil || !strings.Contains(out.DeciderError.Error(), tc.says) {
						t.Errorf("decider error %v, want it to say %q", out.DeciderError, tc.says)
					}
				case memory.FallbackError:
					if !errors.Is(err, memory.ErrDecider) || !strings.Contains(err.Error(), tc.says) {
						t.Errorf("error %v, want ErrDecider with the reason", err)
					}
					if d.Added != 0 || out.Fact.ID != 0 || len(all) != 1 || logged.Action != "" || logged.Added != 0 {
						t.Errorf("a refused fact was stored: facts %v, decision %+v", ids(all), logged)
					}
					// No fact holds the text, so no hard delete could reach a copy in the log.
					if logged.Text != "" || logged.Raw != "" || strings.Contains(logged.Fallback, newText) || logged.Fallback == "" {
						t.Errorf("the refusal's log entry keeps the text: %+v", logged)
					}
				}
				if n := len(srv.ChatRequests()); n != tc.requests {
					t.Errorf("%d chat requests, want %d", n, tc.requests)
				}
				if reqs := srv.ChatRequests(); tc.requests == 2 {
					// The retry feeds the error back after the first answer.
					checkChatRequest(t, reqs[0], oldText)
					m := reqs[1].Messages
					if len(m) != 4 || m[2].Role != "assistant" || m[3].Role != "user" || !strings.Contains(m[3].Content, "invalid") {
						t.Errorf("retry messages %+v", m)
					}
				}
				checkClean(t, s)
			})
		}
	}
}

// A pinned candidate is shown, marked not eligible; a model that insists on
// updating it never changes it, and the outcome says why.
func TestRememberOllamaPinnedTarget(t *testing.T) {
	for _, policy := range []memory.FallbackPolicy{memory.FallbackAdd, memory.FallbackError} {
		t.Run(string(policy), func(t *testing.T) {
			const oldText = "I live in Lyon."
			c := newClock("2026-01-01")
			srv := ollamatest.New(t)
			srv.Chat = func(req ollamatest.ChatRequest) string { return reply("update", candidateNumber(req, oldText), "", "") }
			s := ollamaStore(t, c, srv, policy)
			old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: oldText}))
			must[memory.Fact](t)(s.Pin(ctx, "", old.ID))
			c.set("2026-02-01")
			out, err := s.Remember(ctx, memory.Note{Text: "I live in Paris now."})
			d := out.Decision
			if g := getFact(t, s, "", old.ID); g.State() != memory.Current || !g.Pinned {
				t.Errorf("pinned fact changed: %+v", g)
			}
			if d.Fallback == "" && d.Conflict == 0 {
				t.Errorf("silent outcome: %+v", d)
			}
			if d.Action == memory.ActionUpdate || d.Action == memory.ActionInvalidate {
				t.Errorf("action %s on a pinned fact", d.Action)
			}
			if err != nil && !errors.Is(err, memory.ErrDecider) {
				t.Errorf("error %v", err)
			}
			if policy == memory.FallbackAdd && (err != nil || out.Fact.ID == 0) {
				t.Errorf("fact not added: %v %+v", err, out)
			}
			reqs := srv.ChatRequests()
			if len(reqs) == 0 || !strings.Contains(reqs[0].Messages[1].Content, "(pinned: never changed)") {
				t.Errorf("the pinned candidate is not marked in the request")
			}
			successorsOK(t, s, "")
			checkClean(t, s)
		})
	}
}
