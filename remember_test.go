package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// ---- helpers ----

// lastDecision returns the user's newest decision.
func lastDecision(t *testing.T, s *memory.Store, user string) memory.Decision {
	t.Helper()
	ds := must[[]memory.Decision](t)(s.Decisions(ctx, user, 1))
	if len(ds) != 1 {
		t.Fatalf("no decision for user %q", user)
	}
	return ds[0]
}

func getFact(t *testing.T, s *memory.Store, user string, id uint64) memory.Fact {
	t.Helper()
	return must[memory.Fact](t)(s.Get(ctx, user, id))
}

func allFacts(t *testing.T, s *memory.Store, user string) []memory.Fact {
	t.Helper()
	return must[[]memory.Fact](t)(s.List(ctx, user, &memory.ListOptions{All: true}))
}

func checkClean(t *testing.T, s *memory.Store) {
	t.Helper()
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check: %v", err)
	}
}

// successorsOK asserts that no fact has more than one successor naming it,
// and at most one of them current.
func successorsOK(t *testing.T, s *memory.Store, user string) {
	t.Helper()
	succ := map[uint64][]memory.Fact{}
	for _, f := range allFacts(t, s, user) {
		if f.Supersedes != 0 {
			succ[f.Supersedes] = append(succ[f.Supersedes], f)
		}
	}
	for id, fs := range succ {
		cur := 0
		for _, f := range fs {
			if f.State() == memory.Current {
				cur++
			}
		}
		if len(fs) > 1 || cur > 1 {
			t.Errorf("fact %d has successors %v (%d current)", id, ids(fs), cur)
		}
	}
}

// funcDecider is a memory.Decider made of a function.
type funcDecider struct {
	name string
	fn   func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error)
}

func (d *funcDecider) Name() string { return d.name }
func (d *funcDecider) Decide(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
	return d.fn(ctx, in)
}

// alwaysUpdate1 answers update 1 when there is a candidate, else add.
func alwaysUpdate1(_ context.Context, in memory.DecideInput) (memory.Verdict, error) {
	if len(in.Candidates) == 0 {
		return memory.Verdict{Action: memory.ActionAdd, Reason: "no candidates", Decider: "custom"}, nil
	}
	return memory.Verdict{Action: memory.ActionUpdate, Target: 1, Reason: "always update 1", Decider: "custom"}, nil
}

// ---- 1. rules decider ----

func TestRememberRulesUpdate(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
	d := out.Decision
	if d.Action != memory.ActionUpdate || d.Proposed != memory.ActionUpdate || d.Target != old.ID || d.Added == 0 ||
		d.Added != out.Fact.ID || d.Decider != "rules" || d.Fallback != "" || d.Reason == "" {
		t.Fatalf("decision %+v", d)
	}
	if !slices.Contains(d.Candidates, old.ID) {
		t.Errorf("candidates %v lack the old fact %d", d.Candidates, old.ID)
	}
	if out.Fact.Supersedes != old.ID || out.Fact.State() != memory.Current {
		t.Errorf("new fact %+v", out.Fact)
	}
	o := getFact(t, s, "", old.ID)
	if o.State() != memory.Superseded || o.SupersededBy != out.Fact.ID || !o.ValidUntil.Equal(date("2026-02-01")) {
		t.Errorf("old fact %+v", o)
	}
	logged := must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))
	if len(logged) != 1 || logged[0].ID != d.ID || logged[0].Action != memory.ActionUpdate || logged[0].Target != old.ID ||
		logged[0].Added != out.Fact.ID || !logged[0].At.Equal(date("2026-02-01")) || logged[0].Text != out.Fact.Text {
		t.Errorf("decision log %+v", logged)
	}
	wantAt(t, s, "", "", "", out.Fact.ID)
	checkClean(t, s)
}

func TestRememberRulesCorrectionRestatementAdd(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Lookup: memory.LookupStems})
	sister := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	city := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")

	// A correction retracts the old fact and adds the new one.
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Sorry, I was wrong: my sister lives in Milan."}))
	d := out.Decision
	if d.Action != memory.ActionInvalidate || d.Target != sister.ID || d.Added != out.Fact.ID || d.Decider != "rules" || d.Fallback != "" {
		t.Fatalf("correction decision %+v", d)
	}
	if g := getFact(t, s, "", sister.ID); g.State() != memory.Retracted || g.SupersededBy != 0 || !g.ValidUntil.Equal(date("2026-02-01")) {
		t.Errorf("corrected fact %+v", g)
	}
	if out.Fact.State() != memory.Current || out.Fact.Supersedes != 0 {
		t.Errorf("correcting fact %+v", out.Fact)
	}

	// A restatement stores nothing; the outcome's fact is the one restated.
	before := len(allFacts(t, s, ""))
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Lyon."}))
	d = out.Decision
	if d.Action != memory.ActionNoop || d.Target != city.ID || d.Added != 0 || d.Fallback != "" || out.Fact.ID != city.ID {
		t.Errorf("restatement: decision %+v fact %+v", d, out.Fact)
	}
	if n := len(allFacts(t, s, "")); n != before {
		t.Errorf("a noop stored something: %d facts, was %d", n, before)
	}

	// Unrelated: added beside the others.
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin."}))
	if d := out.Decision; d.Action != memory.ActionAdd || d.Target != 0 || d.Added != out.Fact.ID || out.Fact.ID == 0 || d.Fallback != "" {
		t.Errorf("unrelated: %+v", d)
	}
	// Related words but no marker: still an add.
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My sister also lives in Lyon, near the river."}))
	if d := out.Decision; d.Action != memory.ActionAdd || d.Target != 0 || !slices.Contains(d.Candidates, city.ID) {
		t.Errorf("related, no marker: %+v", d)
	}
	if g := getFact(t, s, "", city.ID); g.State() != memory.Current {
		t.Errorf("an add touched fact %d: %+v", city.ID, g)
	}
	if n := len(must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))); n != 4 {
		t.Errorf("%d decisions logged, want 4", n)
	}
	checkClean(t, s)
}

// The brief's example of a correction: only the number changes. The
// restatement check must not swallow it: it is an invalidate, and the
// new fact is stored.
func TestRememberRulesCorrectionOfANumber(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Lookup: memory.LookupStems})
	cat := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My cat is 4."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Sorry, I was wrong: my cat is 5."}))
	d := out.Decision
	if d.Action != memory.ActionInvalidate || d.Target != cat.ID || d.Added == 0 || d.Added != out.Fact.ID {
		t.Errorf("correction of a number: decision %+v", d)
	}
	if g := getFact(t, s, "", cat.ID); g.State() != memory.Retracted {
		t.Errorf("the wrong fact is still %v", g.State())
	}
	if cur := must[[]memory.Fact](t)(s.List(ctx, "", nil)); len(cur) != 1 || cur[0].Text != "Sorry, I was wrong: my cat is 5." {
		t.Errorf("current facts %+v", cur)
	}
	checkClean(t, s)
}

// The rules decider must not retire the next-best candidate when the best
// one is pinned: that is collateral damage to a true fact. The spec: the
// new fact is added and a conflict links it to the pinned fact.
func TestRememberRulesPinnedBestCandidate(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	pinned := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon.", Pinned: true}))
	other := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "Lyon has wonderful food markets."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
	if g := getFact(t, s, "", pinned.ID); g.State() != memory.Current {
		t.Errorf("pinned fact changed: %+v", g)
	}
	if g := getFact(t, s, "", other.ID); g.State() != memory.Current {
		t.Errorf("the rules decider retired an unrelated fact %q because the best candidate was pinned: decision %+v",
			other.Text, out.Decision)
	}
	if out.Fact.ID == 0 || out.Fact.State() != memory.Current {
		t.Errorf("the new fact was not stored: %+v", out)
	}
	if out.Decision.Conflict == 0 {
		t.Errorf("no conflict links the new fact with the pinned one: %+v", out.Decision)
	}
	checkClean(t, s)
}

// ---- 2. Ollama decider against the fake server ----

func ollamaStore(t *testing.T, c *clock, srv *ollamatest.Server, fallback string) *memory.Store {
	t.Helper()
	dec := must[memory.Decider](t)(memory.OllamaDecider("m", &memory.OllamaOptions{Host: srv.URL, Timeout: 300 * time.Millisecond}))
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: dec, Lookup: memory.LookupTopics, Fallback: fallback})
	return s
}

func reply(action string, target any, eventFrom, grain string) string {
	ef, gr := "null", "null"
	if eventFrom != "" {
		ef = strconv.Quote(eventFrom)
	}
	if grain != "" {
		gr = strconv.Quote(grain)
	}
	tg, _ := json.Marshal(target)
	return fmt.Sprintf(`{"reasoning":"scripted","action":%q,"target":%s,"event_from":%s,"grain":%s}`, action, tg, ef, gr)
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
	}{
		{"target out of range", func(srv *ollamatest.Server) {
			srv.Chat = func(ollamatest.ChatRequest) string { return reply("update", 7, "", "") }
		}, 2, "target 7"},
		{"malformed JSON", func(srv *ollamatest.Server) {
			srv.Chat = func(ollamatest.ChatRequest) string { return `{"reasoning":"x","action":"upd` }
		}, 2, "not one JSON object"},
		{"wrong types", func(srv *ollamatest.Server) {
			srv.Chat = func(ollamatest.ChatRequest) string { return reply("update", "1", "", "") }
		}, 2, "want an integer"},
		{"unknown action", func(srv *ollamatest.Server) {
			srv.Chat = func(ollamatest.ChatRequest) string { return reply("merge", 1, "", "") }
		}, 2, "unknown action"},
		{"hang", func(srv *ollamatest.Server) { srv.SetFault(ollamatest.Hang) }, 0, "ollama"},
		{"error 500", func(srv *ollamatest.Server) { srv.SetFault(ollamatest.Error500) }, 0, "ollama"},
		{"garbage body", func(srv *ollamatest.Server) { srv.SetFault(ollamatest.Garbage) }, 0, "ollama"},
		{"connection refused", func(srv *ollamatest.Server) { srv.Close() }, 0, "ollama"},
	}
	for _, tc := range cases {
		for _, policy := range []string{memory.FallbackAdd, memory.FallbackError} {
			t.Run(tc.name+"/"+policy, func(t *testing.T) {
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
				case memory.FallbackError:
					if !errors.Is(err, memory.ErrDecider) || !strings.Contains(err.Error(), tc.reason) {
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
	for _, policy := range []string{memory.FallbackAdd, memory.FallbackError} {
		t.Run(policy, func(t *testing.T) {
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
			if len(reqs) == 0 || !strings.Contains(reqs[0].Messages[1].Content, "(pinned: context only, not eligible)") {
				t.Errorf("the pinned candidate is not marked in the request")
			}
			successorsOK(t, s, "")
			checkClean(t, s)
		})
	}
}

// ---- 3. concurrency ----

// Two Remember calls aimed at the same old fact, both decided before
// either applies: exactly one supersedes it, the other is judged again.
func TestRememberConcurrentSameTarget(t *testing.T) {
	for round := range 5 {
		t.Run(strconv.Itoa(round), func(t *testing.T) {
			var calls atomic.Int32
			both := make(chan struct{})
			var once sync.Once
			dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
				if n := calls.Add(1); n <= 2 {
					if n == 2 {
						once.Do(func() { close(both) })
					}
					select {
					case <-both:
					case <-time.After(10 * time.Second):
						return memory.Verdict{}, errors.New("barrier timed out")
					}
				}
				return alwaysUpdate1(ctx, in)
			}}
			c := newClock("2026-01-01")
			s, _ := open(t, c, &memory.Options{NoSync: true, Decider: dec})
			old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
			c.set("2026-02-01")
			texts := []string{"I live in Paris now.", "I live in Berlin now."}
			outs := make([]memory.Outcome, 2)
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					outs[i], errs[i] = s.Remember(ctx, memory.Note{Text: texts[i]})
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			var first, second memory.Outcome
			switch {
			case outs[0].Decision.Target == old.ID && outs[1].Decision.Target != old.ID:
				first, second = outs[0], outs[1]
			case outs[1].Decision.Target == old.ID && outs[0].Decision.Target != old.ID:
				first, second = outs[1], outs[0]
			default:
				t.Fatalf("not exactly one decision on the old fact: %+v / %+v", outs[0].Decision, outs[1].Decision)
			}
			if first.Decision.Action != memory.ActionUpdate || first.Decision.Fallback != "" {
				t.Errorf("first %+v", first.Decision)
			}
			g := getFact(t, s, "", old.ID)
			if g.State() != memory.Superseded || g.SupersededBy != first.Fact.ID {
				t.Errorf("old fact %+v, first added %d", g, first.Fact.ID)
			}
			sd := second.Decision
			switch {
			case sd.Action == memory.ActionUpdate && sd.Target == first.Fact.ID:
				if f := getFact(t, s, "", first.Fact.ID); f.SupersededBy != second.Fact.ID {
					t.Errorf("first's fact %+v", f)
				}
			case sd.Action == memory.ActionAdd && sd.Conflict != 0:
			default:
				t.Errorf("second decision %+v: want an update of fact %d or an add with a conflict", sd, first.Fact.ID)
			}
			if second.Fact.ID == 0 || second.Fact.State() != memory.Current {
				t.Errorf("second fact %+v", second.Fact)
			}
			if n := calls.Load(); n != 3 {
				t.Errorf("%d decisions made, want 3 (one judged again)", n)
			}
			succ := 0
			for _, f := range allFacts(t, s, "") {
				if f.Supersedes == old.ID {
					succ++
				}
			}
			if succ != 1 {
				t.Errorf("old fact has %d successors", succ)
			}
			wantAt(t, s, "", "", "", second.Fact.ID)
			successorsOK(t, s, "")
			checkClean(t, s)
		})
	}
}

// A target that moves again after the second judgement: the fact is
// added and a conflict says so.
func TestRememberTargetMovesTwiceMakesConflict(t *testing.T) {
	c := newClock("2026-01-01")
	var s *memory.Store
	var calls atomic.Int32
	dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
		calls.Add(1)
		// Someone retracts the candidate about to be targeted, meanwhile.
		for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", nil)) {
			if len(in.Candidates) > 0 && f.Text == in.Candidates[0].Text {
				must[memory.Fact](t)(s.Invalidate(ctx, "", f.ID, memory.Change{Reason: "by hand"}))
			}
		}
		return alwaysUpdate1(ctx, in)
	}}
	s, _ = open(t, c, &memory.Options{NoSync: true, Decider: dec})
	a := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	b := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in a flat."}))
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."}))
	d := out.Decision
	if calls.Load() != 2 {
		t.Errorf("%d decisions, want 2", calls.Load())
	}
	if d.Action != memory.ActionAdd || d.Proposed != memory.ActionUpdate || d.Conflict == 0 || out.Fact.ID == 0 ||
		(d.Target != a.ID && d.Target != b.ID) {
		t.Fatalf("decision %+v", d)
	}
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 1 || cs[0].ID != d.Conflict || cs[0].New != out.Fact.ID || cs[0].Existing != d.Target || cs[0].Decision != d.ID {
		t.Errorf("conflicts %+v", cs)
	}
	checkClean(t, s)
}

// A noop judged against a fact that changed before it was applied must not
// drop the new fact: the target is re-checked like any other.
func TestRememberNoopRechecksTarget(t *testing.T) {
	for _, how := range []string{"retracted", "deleted"} {
		t.Run(how, func(t *testing.T) {
			c := newClock("2026-01-01")
			var s *memory.Store
			var calls atomic.Int32
			dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
				if len(in.Candidates) == 0 {
					return memory.Verdict{Action: memory.ActionAdd, Decider: "custom"}, nil
				}
				if calls.Add(1) == 1 {
					for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", nil)) {
						if how == "retracted" {
							must[memory.Fact](t)(s.Invalidate(ctx, "", f.ID, memory.Change{}))
						} else {
							must[[]uint64](t)(s.Delete(ctx, "", f.ID, nil))
						}
					}
				}
				return memory.Verdict{Action: memory.ActionNoop, Target: 1, Decider: "custom"}, nil
			}}
			s, _ = open(t, c, &memory.Options{NoSync: true, Decider: dec})
			must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
			out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Lyon!"}))
			if cur := must[[]memory.Fact](t)(s.List(ctx, "", nil)); len(cur) != 1 || cur[0].Text != "I live in Lyon!" {
				t.Errorf("after a noop on a fact that was %s meanwhile, current facts are %v (decision %+v, outcome fact %+v)",
					how, cur, out.Decision, out.Fact)
			}
			checkClean(t, s)
			// The log names no missing fact: export and import still agree.
			dst, _ := open(t, c, nil)
			if _, err := dst.Import(ctx, strings.NewReader(snapshot(t, s)), nil); err != nil {
				t.Errorf("import of the export: %v", err)
			}
		})
	}
}

// ---- 4. undo ----

func TestUndo(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, nil)
	old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
	if out.Decision.Action != memory.ActionUpdate {
		t.Fatalf("setup: %+v", out.Decision)
	}
	if _, err := s.Undo(ctx, "bob", out.Decision.ID); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("undo of another user's decision: %v", err)
	}
	if _, err := s.Undo(ctx, "", 999); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("undo of a missing decision: %v", err)
	}
	c.set("2026-03-01")
	u := must[memory.Decision](t)(s.Undo(ctx, "", out.Decision.ID))
	if u.UndoneAt == nil || !u.UndoneAt.Equal(date("2026-03-01")) {
		t.Errorf("undone decision %+v", u)
	}
	if g := getFact(t, s, "", old.ID); g.State() != memory.Current || g.SupersededBy != 0 {
		t.Errorf("old fact after undo %+v", g)
	}
	if g := getFact(t, s, "", out.Fact.ID); g.State() != memory.Retracted || !g.ValidUntil.Equal(date("2026-03-01")) {
		t.Errorf("added fact after undo %+v", g)
	}
	if l := lastDecision(t, s, ""); l.UndoneAt == nil || !l.UndoneAt.Equal(date("2026-03-01")) {
		t.Errorf("logged %+v", l)
	}
	wantAt(t, s, "", "", "", old.ID)
	wantAt(t, s, "", "2026-02-15", "2026-02-15", out.Fact.ID) // what was believed in between
	checkClean(t, s)

	before := snapshot(t, s)
	c.set("2026-04-01")
	if _, err := s.Undo(ctx, "", out.Decision.ID); !errors.Is(err, memory.ErrAlreadyUndone) {
		t.Errorf("second undo: %v", err)
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused undo changed the store:\n%s\nwas:\n%s", after, before)
	}
}

func TestUndoStale(t *testing.T) {
	for _, how := range []string{"added fact retracted", "added fact superseded", "target restored"} {
		t.Run(how, func(t *testing.T) {
			c := newClock("2026-01-01")
			s, _ := open(t, c, nil)
			old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
			c.set("2026-02-01")
			out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I moved to Paris, I no longer live in Lyon."}))
			if out.Decision.Action != memory.ActionUpdate {
				t.Fatalf("setup: %+v", out.Decision)
			}
			c.set("2026-03-01")
			switch how {
			case "added fact retracted":
				must[memory.Fact](t)(s.Invalidate(ctx, "", out.Fact.ID, memory.Change{}))
			case "added fact superseded":
				must[memory.Fact](t)(s.Supersede(ctx, "", out.Fact.ID, memory.Note{Text: "I live in Berlin."}))
			case "target restored":
				must[memory.Fact](t)(s.Restore(ctx, "", old.ID, memory.Change{}))
			}
			before := snapshot(t, s)
			c.set("2026-04-01")
			if _, err := s.Undo(ctx, "", out.Decision.ID); !errors.Is(err, memory.ErrUndoStale) {
				t.Errorf("undo after the facts changed: %v", err)
			}
			if after := snapshot(t, s); after != before {
				t.Errorf("a refused undo changed the store:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}

func TestUndoInvalidateAndNoop(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Lookup: memory.LookupStems})
	cat := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Sorry, I was wrong: my sister lives in Milan."}))
	if out.Decision.Action != memory.ActionInvalidate {
		t.Fatalf("setup: %+v", out.Decision)
	}
	noop := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "Sorry, I was wrong: my sister lives in Milan."}))
	if noop.Decision.Action != memory.ActionNoop {
		t.Fatalf("setup: %+v", noop.Decision)
	}
	c.set("2026-03-01")
	before := allFacts(t, s, "")
	must[memory.Decision](t)(s.Undo(ctx, "", noop.Decision.ID))
	if after := allFacts(t, s, ""); !slices.Equal(ids(after), ids(before)) || after[1].State() != memory.Current {
		t.Errorf("undo of a noop changed facts")
	}
	must[memory.Decision](t)(s.Undo(ctx, "", out.Decision.ID))
	if g := getFact(t, s, "", cat.ID); g.State() != memory.Current {
		t.Errorf("retracted target not restored: %+v", g)
	}
	if g := getFact(t, s, "", out.Fact.ID); g.State() != memory.Retracted {
		t.Errorf("added fact not retracted: %+v", g)
	}
	checkClean(t, s)
}

// ---- 5. conflicts ----

// The spec: a decision that would touch a pinned fact adds the new fact and
// records a conflict linking the two.
func TestRememberPinnedTargetMakesConflict(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, Decider: &funcDecider{name: "custom", fn: alwaysUpdate1}})
	old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon.", Pinned: true}))
	c.set("2026-02-01")
	out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."}))
	d := out.Decision
	if g := getFact(t, s, "", old.ID); g.State() != memory.Current {
		t.Fatalf("pinned fact changed: %+v", g)
	}
	if out.Fact.ID == 0 || d.Action != memory.ActionAdd || d.Proposed != memory.ActionUpdate || d.Target != old.ID || d.Conflict == 0 {
		t.Errorf("a custom decider's update of a pinned fact gave decision %+v, want an add with a conflict", d)
	}
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 1 || cs[0].New != out.Fact.ID || cs[0].Existing != old.ID {
		t.Errorf("conflicts %+v", cs)
	}
	checkClean(t, s)
}

// conflictStore makes a conflict: the fact is pinned while the decider
// thinks, so the update it answers meets a pinned target at apply time.
func conflictStore(t *testing.T, c *clock) (s *memory.Store, existing memory.Fact, out memory.Outcome) {
	t.Helper()
	dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
		if len(in.Candidates) > 0 {
			for _, f := range must[[]memory.Fact](t)(s.List(ctx, "", nil)) {
				if f.Text == in.Candidates[0].Text {
					must[memory.Fact](t)(s.Pin(ctx, "", f.ID))
				}
			}
		}
		return alwaysUpdate1(ctx, in)
	}}
	s, _ = open(t, c, &memory.Options{NoSync: true, Decider: dec})
	existing = must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I live in Lyon."}))
	c.set("2026-02-01")
	out = must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I live in Paris now."}))
	d := out.Decision
	if d.Action != memory.ActionAdd || d.Proposed != memory.ActionUpdate || d.Target != existing.ID || d.Conflict == 0 ||
		out.Fact.ID == 0 || d.Added != out.Fact.ID || !strings.Contains(d.Reason, "pinned") {
		t.Fatalf("decision %+v", d)
	}
	if g := getFact(t, s, "", existing.ID); g.State() != memory.Current || !g.Pinned {
		t.Fatalf("pinned fact %+v", g)
	}
	cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil))
	if len(cs) != 1 || cs[0].ID != d.Conflict || cs[0].New != out.Fact.ID || cs[0].Existing != existing.ID ||
		cs[0].Decision != d.ID || cs[0].ResolvedAt != nil || cs[0].Reason == "" {
		t.Fatalf("conflicts %+v", cs)
	}
	if n := len(must[[]memory.Conflict](t)(s.Conflicts(ctx, "bob", &memory.ConflictOptions{All: true}))); n != 0 {
		t.Errorf("bob sees %d conflicts", n)
	}
	checkClean(t, s)
	return s, existing, out
}

func TestResolveConflict(t *testing.T) {
	for _, keep := range []memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth} {
		t.Run(string(keep), func(t *testing.T) {
			c := newClock("2026-01-01")
			s, existing, out := conflictStore(t, c)
			cid := out.Decision.Conflict
			if _, err := s.ResolveConflict(ctx, "bob", cid, keep); !errors.Is(err, memory.ErrNotFound) {
				t.Errorf("resolve of another user's conflict: %v", err)
			}
			c.set("2026-03-01")
			r := must[memory.Conflict](t)(s.ResolveConflict(ctx, "", cid, keep))
			if r.ResolvedAt == nil || !r.ResolvedAt.Equal(date("2026-03-01")) || r.Resolution != keep {
				t.Errorf("resolved %+v", r)
			}
			e, n := getFact(t, s, "", existing.ID), getFact(t, s, "", out.Fact.ID)
			switch keep {
			case memory.KeepNew:
				if e.State() != memory.Superseded || e.SupersededBy != n.ID || n.Supersedes != e.ID || n.State() != memory.Current {
					t.Errorf("keep new: existing %+v new %+v", e, n)
				}
				wantAt(t, s, "", "", "", n.ID)
			case memory.KeepExisting:
				if e.State() != memory.Current || n.State() != memory.Retracted {
					t.Errorf("keep existing: existing %+v new %+v", e, n)
				}
				wantAt(t, s, "", "", "", e.ID)
			case memory.KeepBoth:
				if e.State() != memory.Current || n.State() != memory.Current {
					t.Errorf("keep both: existing %+v new %+v", e, n)
				}
				wantAt(t, s, "", "", "", e.ID, n.ID)
			}
			if cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", nil)); len(cs) != 0 {
				t.Errorf("unresolved after resolve: %+v", cs)
			}
			if cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", &memory.ConflictOptions{All: true})); len(cs) != 1 || cs[0].ResolvedAt == nil {
				t.Errorf("all conflicts: %+v", cs)
			}
			checkClean(t, s)
			before := snapshot(t, s)
			for _, again := range []memory.Keep{memory.KeepNew, memory.KeepExisting, memory.KeepBoth} {
				if _, err := s.ResolveConflict(ctx, "", cid, again); !errors.Is(err, memory.ErrResolved) {
					t.Errorf("resolve twice (%s): %v", again, err)
				}
			}
			if after := snapshot(t, s); after != before {
				t.Errorf("a refused resolve changed the store")
			}
		})
	}
	t.Run("unknown choice", func(t *testing.T) {
		s, _, out := conflictStore(t, newClock("2026-01-01"))
		before := snapshot(t, s)
		if _, err := s.ResolveConflict(ctx, "", out.Decision.Conflict, "neither"); err == nil {
			t.Error("an unknown choice was accepted")
		}
		if _, err := s.ResolveConflict(ctx, "", 999, memory.KeepBoth); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("missing conflict: %v", err)
		}
		if snapshot(t, s) != before {
			t.Error("a refused resolve changed the store")
		}
	})
}

// Keeping the new fact of a conflict whose new fact the user has since
// retracted must not retire the existing one too: the user would lose both.
func TestResolveConflictKeepNewOfRetractedFact(t *testing.T) {
	c := newClock("2026-01-01")
	s, existing, out := conflictStore(t, c)
	c.set("2026-03-01")
	must[memory.Fact](t)(s.Invalidate(ctx, "", out.Fact.ID, memory.Change{Reason: "not true after all"}))
	c.set("2026-04-01")
	_, err := s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepNew)
	if g := getFact(t, s, "", existing.ID); g.State() != memory.Current {
		t.Errorf("keep new of a retracted new fact (err %v) retired the existing fact too: %+v; current facts %v",
			err, g, ids(must[[]memory.Fact](t)(s.List(ctx, "", nil))))
	}
	checkClean(t, s)
}

// ---- 6. hard delete scrubs the logs ----

func TestRememberDeleteScrubsDecisions(t *testing.T) {
	dir := t.TempDir()
	c := newClock("2026-01-01")
	s := must[*memory.Store](t)(memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now}))
	t.Cleanup(func() { s.Close() })
	for i := range 50 {
		must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: fmt.Sprintf("filler fact %d", i)}))
	}
	old := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My locker code is 1234."}))
	c.set("2026-02-01")
	secret := "I moved lockers, my locker code is now SECRET-LOCKER-7731."
	upd := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: secret}))
	if upd.Decision.Action != memory.ActionUpdate || upd.Decision.Target != old.ID {
		t.Fatalf("setup: %+v", upd.Decision)
	}
	if !dirContains(t, dir, "SECRET-LOCKER") {
		t.Fatal("test is void: the secret was never in the files")
	}
	must[[]uint64](t)(s.Delete(ctx, "", upd.Fact.ID, nil))
	ds := must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))
	if len(ds) != 1 {
		t.Fatalf("decisions %+v", ds)
	}
	if d := ds[0]; d.Text != "[deleted]" || d.Raw != "" || d.Added != 0 || strings.Contains(d.Reason, "SECRET") {
		t.Errorf("the deleted fact's decision: %+v", d)
	}
	if dirContains(t, dir, "SECRET-LOCKER") {
		t.Error("the deleted text is still in the store's directory")
	}
	if g := getFact(t, s, "", old.ID); g.State() != memory.Current {
		t.Errorf("the fact it had replaced is not restored: %+v", g)
	}
	checkClean(t, s)
	dst, _ := open(t, c, nil)
	exported := snapshot(t, s)
	must[int](t)(dst.Import(ctx, strings.NewReader(exported), nil))
	if snapshot(t, dst) != exported {
		t.Error("round trip after delete differs")
	}
}

// A model's reasoning compares the new fact with the old ones and often
// quotes them. A decision that only showed the deleted fact as a candidate
// must not keep its text either.
func TestRememberDeleteScrubsCandidateQuotes(t *testing.T) {
	dir := t.TempDir()
	c := newClock("2026-01-01")
	dec := &funcDecider{name: "custom", fn: func(ctx context.Context, in memory.DecideInput) (memory.Verdict, error) {
		quoted := in.Text
		for _, c := range in.Candidates {
			quoted += " | " + c.Text
		}
		return memory.Verdict{Action: memory.ActionAdd, Decider: "custom", Reason: "compared " + quoted, Raw: strconv.Quote(quoted)}, nil
	}}
	s := must[*memory.Store](t)(memory.Open(filepath.Join(dir, "memory.db"), 0, &memory.Options{NoSync: true, Clock: c.Now, Decider: dec}))
	t.Cleanup(func() { s.Close() })
	secret := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My locker code is SECRET-LOCKER-7731."}))
	later := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "My locker is on the second floor."}))
	if !slices.Contains(later.Decision.Candidates, secret.Fact.ID) || !strings.Contains(later.Decision.Reason, "SECRET-LOCKER") {
		t.Fatalf("setup: the later decision did not see the secret: %+v", later.Decision)
	}
	must[[]uint64](t)(s.Delete(ctx, "", secret.Fact.ID, nil))
	for _, d := range must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)) {
		if b, _ := json.Marshal(d); strings.Contains(string(b), "SECRET-LOCKER") {
			t.Errorf("decision %d still holds the deleted text: %s", d.ID, b)
		}
		if d.Added == secret.Fact.ID || d.Target == secret.Fact.ID || slices.Contains(d.Candidates, secret.Fact.ID) {
			t.Errorf("decision %d still names the deleted fact: %+v", d.ID, d)
		}
	}
	if dirContains(t, dir, "SECRET-LOCKER") {
		t.Error("the deleted text is still in the store's directory")
	}
	checkClean(t, s)
}

// A conflict whose fact is deleted is dropped.
func TestRememberDeleteDropsConflict(t *testing.T) {
	c := newClock("2026-01-01")
	s, _, out := conflictStore(t, c)
	must[[]uint64](t)(s.Delete(ctx, "", out.Fact.ID, nil))
	if cs := must[[]memory.Conflict](t)(s.Conflicts(ctx, "", &memory.ConflictOptions{All: true})); len(cs) != 0 {
		t.Errorf("conflicts after delete: %+v", cs)
	}
	checkClean(t, s)
}

// ---- 7. budget ----

func TestRememberBudget(t *testing.T) {
	c := newClock("2026-01-01")
	s, _ := open(t, c, &memory.Options{NoSync: true, AutoBudget: 2, Lookup: memory.LookupKeywords4})
	auto := func(text string) memory.Note { return memory.Note{Text: text, Origin: memory.OriginAuto} }
	must[memory.Outcome](t)(s.Remember(ctx, auto("I live in Lyon.")))
	must[memory.Outcome](t)(s.Remember(ctx, auto("I play the violin.")))
	before := snapshot(t, s)
	ndec := len(must[[]memory.Decision](t)(s.Decisions(ctx, "", 0)))
	if _, err := s.Remember(ctx, auto("I have a dog named Rex.")); !errors.Is(err, memory.ErrBudgetExceeded) {
		t.Errorf("add past the budget: %v", err)
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused add wrote:\n%s\nwas:\n%s", after, before)
	}
	// A correction adds one and retracts a user-stated fact: still over.
	u := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My sister lives in Rome."}))
	before = snapshot(t, s)
	if _, err := s.Remember(ctx, auto("Sorry, I was wrong: my sister lives in Milan, not Rome.")); !errors.Is(err, memory.ErrBudgetExceeded) {
		t.Errorf("invalidate of a user fact past the budget: %v", err)
	}
	if _, err := s.Remember(ctx, auto("My sister no longer lives in Rome, she moved to Turin.")); !errors.Is(err, memory.ErrBudgetExceeded) {
		t.Errorf("update of a user fact past the budget: %v", err)
	}
	if after := snapshot(t, s); after != before {
		t.Errorf("a refused Remember wrote:\n%s\nwas:\n%s", after, before)
	}
	if n := len(must[[]memory.Decision](t)(s.Decisions(ctx, "", 0))); n != ndec {
		t.Errorf("%d decisions after refusals, want %d", n, ndec)
	}
	if g := getFact(t, s, "", u.ID); g.State() != memory.Current {
		t.Errorf("user fact %+v", g)
	}
	// Replacing an automatic fact is within the budget; the user is never capped.
	out := must[memory.Outcome](t)(s.Remember(ctx, auto("I moved to Paris, I no longer live in Lyon.")))
	if out.Decision.Action != memory.ActionUpdate {
		t.Errorf("update of an automatic fact: %+v", out.Decision)
	}
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I have a dog named Rex."}))
	checkClean(t, s)
}

// ---- 8. export and import keep decisions and conflicts ----

func TestRememberExportImportRoundTrip(t *testing.T) {
	c := newClock("2026-01-01")
	s, existing, out := conflictStore(t, c)
	_ = existing
	c.set("2026-03-01")
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin."}))
	upd := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: "I play the violin on Sundays now."}))
	c.set("2026-04-01")
	must[memory.Decision](t)(s.Undo(ctx, "", upd.Decision.ID))
	// A second conflict, resolved.
	must[memory.Fact](t)(s.Unpin(ctx, "", existing.ID))
	must[memory.Conflict](t)(s.ResolveConflict(ctx, "", out.Decision.Conflict, memory.KeepBoth))
	must[memory.Outcome](t)(s.Remember(ctx, memory.Note{User: "bob", Text: "Bob likes tea."}))
	exported := snapshot(t, s)
	if !strings.Contains(exported, `"decision"`) || !strings.Contains(exported, `"conflict"`) || !strings.Contains(exported, `"undone_at"`) {
		t.Fatalf("export lacks the logs:\n%s", exported)
	}
	dst, _ := open(t, c, nil)
	must[int](t)(dst.Import(ctx, strings.NewReader(exported), nil))
	if again := snapshot(t, dst); again != exported {
		t.Errorf("export after import differs:\n%s\nwant:\n%s", again, exported)
	}
	checkClean(t, dst)
	for _, user := range []string{"", "bob"} {
		a := must[[]memory.Decision](t)(s.Decisions(ctx, user, 0))
		b := must[[]memory.Decision](t)(dst.Decisions(ctx, user, 0))
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) || len(a) == 0 {
			t.Errorf("decisions of %q differ after import", user)
		}
	}
	// New decisions and conflicts after the import do not reuse ids.
	last := lastDecision(t, dst, "")
	next := must[memory.Outcome](t)(dst.Remember(ctx, memory.Note{Text: "I have a dog named Rex."}))
	if next.Decision.ID <= last.ID {
		t.Errorf("decision id %d after import, last was %d", next.Decision.ID, last.ID)
	}
}
