package memory_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// The fact the claims tests remember, and what the rules read in it.
const claimsText = "I work at Contoso"

var ruleClaims = []memory.Claim{{Relation: memory.RelWorksAt, Object: "Contoso", Kind: claims.Company}}

// modelSaid is what the scripted model says the fact states: not what the
// rules read, so that the test tells them apart.
var modelSaid = []memory.Claim{
	{Relation: memory.RelWorksAt, Object: "Contoso Ltd", Kind: claims.Company},
	{Relation: memory.RelJobTitle, Object: "engineer", Kind: claims.Job},
}

const modelClaimsJSON = `[{"subject":"","relation":"works_at","object":"Contoso Ltd","kind":"company"},` +
	`{"subject":"","relation":"job_title","object":"engineer","kind":"job"}]`

// addWith is an add decision whose claims field is claimsField (raw JSON),
// or one without a claims field when it is "".
func addWith(claimsField string) string {
	r := strings.TrimSuffix(reply("add", 0, "", ""), "}")
	if claimsField != "" {
		r += `,"claims":` + claimsField
	}
	return r + "}"
}

// modelStores are a store deciding through each fake server, answering
// content to every chat request, with the server's count of chat requests
// and whether each was claims-only.
type modelStore struct {
	s        *memory.Store
	requests func() []bool // per chat request: claims-only?
}

func modelStores(t *testing.T, content string) map[string]func(t *testing.T) modelStore {
	return map[string]func(t *testing.T) modelStore{
		"ollama": func(t *testing.T) modelStore {
			srv := ollamatest.New(t)
			srv.Chat = func(ollamatest.ChatRequest) string { return content }
			s := ollamaStore(t, newClock("2026-03-01"), srv, memory.FallbackError)
			return modelStore{s, func() []bool {
				var out []bool
				for _, r := range srv.ChatRequests() {
					out = append(out, r.ClaimsOnly())
				}
				return out
			}}
		},
		"openai": func(t *testing.T) modelStore {
			srv := openaitest.New(t)
			srv.Chat = func(openaitest.ChatRequest) openaitest.Reply { return openaitest.Reply{Content: content} }
			s, _ := openAIStore(t, newClock("2026-03-01"), srv, memory.FallbackError)
			return modelStore{s, func() []bool {
				var out []bool
				for _, r := range srv.ChatRequests() {
					out = append(out, r.ClaimsOnly())
				}
				return out
			}}
		},
	}
}

func remember(t *testing.T, s *memory.Store, n memory.Note) memory.Outcome {
	t.Helper()
	out, err := s.Remember(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A model decider's claims are stored with the fact, in its transaction,
// and the decision says they are the model's.
func TestRememberStoresModelClaims(t *testing.T) {
	for name, mk := range modelStores(t, addWith(modelClaimsJSON)) {
		t.Run(name, func(t *testing.T) {
			m := mk(t)
			out := remember(t, m.s, memory.Note{Text: claimsText})
			if got := getFact(t, m.s, "", out.Fact.ID).Claims; !reflect.DeepEqual(got, modelSaid) {
				t.Errorf("stored claims %+v, want the model's %+v", got, modelSaid)
			}
			if d := lastDecision(t, m.s, ""); d.ClaimsFrom != memory.ClaimsFromModel || d.ClaimsNote != "" || d.Action != memory.ActionAdd {
				t.Errorf("decision %+v", d)
			}
			if reqs := m.requests(); len(reqs) != 1 || reqs[0] {
				t.Errorf("requests (claims-only?) %v, want one decision request", reqs)
			}
			// The graph is built from them.
			edges, err := m.s.Edges(context.Background(), "", &memory.EdgeQuery{Relation: memory.RelJobTitle})
			if err != nil || len(edges) != 1 || edges[0].Object != "engineer" {
				t.Errorf("job_title edges %+v, %v", edges, err)
			}
		})
	}
}

// A model that gives an empty list states no claim: the fact is stored
// with none, not with the rules'.
func TestRememberModelGivesNoClaims(t *testing.T) {
	for name, mk := range modelStores(t, addWith("[]")) {
		t.Run(name, func(t *testing.T) {
			m := mk(t)
			out := remember(t, m.s, memory.Note{Text: claimsText})
			if got := getFact(t, m.s, "", out.Fact.ID).Claims; len(got) != 0 {
				t.Errorf("stored claims %+v, want none", got)
			}
			if d := lastDecision(t, m.s, ""); d.ClaimsFrom != memory.ClaimsFromModel {
				t.Errorf("claims from %q", d.ClaimsFrom)
			}
		})
	}
}

// Garbage claims are dropped and the decision says which; the good ones
// and the decision are kept.
func TestRememberDropsGarbageClaims(t *testing.T) {
	garbage := `[{"subject":"","relation":"works_at","object":"Contoso Ltd","kind":"company"},` +
		`{"subject":"","relation":"boss_of","object":"Bob","kind":"person"},` +
		`{"subject":"","relation":"owns","object":"a\u0007bell","kind":"thing"}]`
	for name, mk := range modelStores(t, addWith(garbage)) {
		t.Run(name, func(t *testing.T) {
			m := mk(t)
			out := remember(t, m.s, memory.Note{Text: claimsText})
			want := []memory.Claim{{Relation: memory.RelWorksAt, Object: "Contoso Ltd", Kind: claims.Company}}
			if got := getFact(t, m.s, "", out.Fact.ID).Claims; !reflect.DeepEqual(got, want) {
				t.Errorf("stored claims %+v, want %+v", got, want)
			}
			d := out.Decision
			if d.ClaimsFrom != memory.ClaimsFromModel || d.Action != memory.ActionAdd || d.Fallback != "" {
				t.Errorf("decision %+v", d)
			}
			for _, w := range []string{`claim 2 of 3: unknown relation "boss_of"`, "model claim 2: ", "control character"} {
				if !strings.Contains(d.ClaimsNote, w) {
					t.Errorf("claims note %q lacks %q", d.ClaimsNote, w)
				}
			}
			if lastDecision(t, m.s, "").ClaimsNote != d.ClaimsNote {
				t.Errorf("the note is not in the decision log")
			}
		})
	}
}

// An answer without a usable claims field keeps its decision, stores the
// rules' claims, and says why.
func TestRememberBadClaimsFieldKeepsRules(t *testing.T) {
	for field, note := range map[string]string{"": "the answer has no claims field", `"none"`: `field "claims" is "none", want a list`} {
		for name, mk := range modelStores(t, addWith(field)) {
			t.Run(name+"/"+field, func(t *testing.T) {
				m := mk(t)
				out := remember(t, m.s, memory.Note{Text: claimsText})
				if got := getFact(t, m.s, "", out.Fact.ID).Claims; !reflect.DeepEqual(got, ruleClaims) {
					t.Errorf("stored claims %+v, want the rules' %+v", got, ruleClaims)
				}
				d := out.Decision
				if d.ClaimsFrom != memory.ClaimsFromRules || !strings.Contains(d.ClaimsNote, note) || d.Fallback != "" {
					t.Errorf("decision %+v", d)
				}
			})
		}
	}
}

// The caller's claims win over the model's, and no claims call is made
// for them.
func TestRememberCallerClaimsWin(t *testing.T) {
	mine := []memory.Claim{{Relation: memory.RelWorksAt, Object: "Initech", Kind: claims.Company}}
	for name, mk := range modelStores(t, addWith(modelClaimsJSON)) {
		t.Run(name, func(t *testing.T) {
			m := mk(t)
			out := remember(t, m.s, memory.Note{Text: claimsText, Claims: mine})
			if got := getFact(t, m.s, "", out.Fact.ID).Claims; !reflect.DeepEqual(got, mine) {
				t.Errorf("stored claims %+v, want the caller's %+v", got, mine)
			}
			if out.Decision.ClaimsFrom != memory.ClaimsFromCaller {
				t.Errorf("claims from %q", out.Decision.ClaimsFrom)
			}
		})
	}
	t.Run("with a claimer", func(t *testing.T) {
		srv := ollamatest.New(t)
		claimer := must[memory.Claimer](t)(memory.OllamaClaimer("m", &memory.OllamaOptions{Host: srv.URL, Timeout: time.Second}))
		s, _ := open(t, newClock("2026-03-01"), &memory.Options{Claimer: claimer})
		out := remember(t, s, memory.Note{Text: claimsText, Claims: mine})
		if got := getFact(t, s, "", out.Fact.ID).Claims; !reflect.DeepEqual(got, mine) || srv.Calls() != 0 {
			t.Errorf("stored claims %+v after %d calls", got, srv.Calls())
		}
	})
}

// claimerStores are a store with the rules decider, which asks no model,
// and a Claimer behind each fake server answering content to claims-only
// requests; fail makes the server fail instead.
func claimerStores(t *testing.T, content string, fail bool) map[string]func(t *testing.T) modelStore {
	return map[string]func(t *testing.T) modelStore{
		"ollama": func(t *testing.T) modelStore {
			srv := ollamatest.New(t)
			srv.Chat = func(ollamatest.ChatRequest) string { return content }
			if fail {
				srv.SetFault(ollamatest.Error500)
			}
			c := must[memory.Claimer](t)(memory.OllamaClaimer("m", &memory.OllamaOptions{Host: srv.URL, Timeout: time.Second}))
			s, _ := open(t, newClock("2026-03-01"), &memory.Options{Claimer: c, Fallback: memory.FallbackError})
			return modelStore{s, func() []bool {
				out := make([]bool, srv.Calls())
				for i, r := range srv.ChatRequests() {
					out[i] = r.ClaimsOnly()
				}
				return out
			}}
		},
		"openai": func(t *testing.T) modelStore {
			srv := openaitest.New(t)
			srv.Chat = func(openaitest.ChatRequest) openaitest.Reply {
				if fail {
					return openaitest.Reply{Status: 503, Body: openaitest.ErrorBody("The server is overloaded", "server_error", "")}
				}
				return openaitest.Reply{Content: content}
			}
			c := must[memory.Claimer](t)(memory.OpenAIClaimer("m", &memory.OpenAIOptions{BaseURL: srv.BaseURL(), Timeout: time.Second}))
			s, _ := open(t, newClock("2026-03-01"), &memory.Options{Claimer: c, Fallback: memory.FallbackError})
			return modelStore{s, func() []bool {
				var out []bool
				for _, r := range srv.ChatRequests() {
					out = append(out, r.ClaimsOnly())
				}
				return out
			}}
		},
	}
}

// Where the decider asks no model, a configured Claimer is asked for the
// claims in one claims-only call.
func TestRememberClaimsCall(t *testing.T) {
	for name, mk := range claimerStores(t, `{"claims":`+modelClaimsJSON+`}`, false) {
		t.Run(name, func(t *testing.T) {
			m := mk(t)
			out := remember(t, m.s, memory.Note{Text: claimsText})
			if got := getFact(t, m.s, "", out.Fact.ID).Claims; !reflect.DeepEqual(got, modelSaid) {
				t.Errorf("stored claims %+v, want the model's %+v", got, modelSaid)
			}
			if d := out.Decision; d.Decider != "rules" || d.ClaimsFrom != memory.ClaimsFromModel || d.ClaimsNote != "" {
				t.Errorf("decision %+v", d)
			}
			if reqs := m.requests(); len(reqs) != 1 || !reqs[0] {
				t.Errorf("requests (claims-only?) %v, want one claims-only request", reqs)
			}
			// A restatement stores nothing, and asks for no claims.
			if again := remember(t, m.s, memory.Note{Text: claimsText}); again.Decision.Action != memory.ActionNoop || len(m.requests()) != 1 {
				t.Errorf("restated: %s after %d requests", again.Decision.Action, len(m.requests()))
			}
		})
	}
}

// A failed claims call stores the fact with the rules' claims and says
// which error, even under FallbackError: the decision itself did not fail.
func TestRememberClaimsCallFailure(t *testing.T) {
	wantErr := map[string]string{"ollama": "HTTP 500", "openai": "HTTP 503"}
	for name, mk := range claimerStores(t, "", true) {
		t.Run(name, func(t *testing.T) {
			m := mk(t)
			out, err := m.s.Remember(context.Background(), memory.Note{Text: claimsText})
			if err != nil || out.Fact.ID == 0 {
				t.Fatalf("outcome %+v, %v: the fact must be stored", out, err)
			}
			if got := getFact(t, m.s, "", out.Fact.ID).Claims; !reflect.DeepEqual(got, ruleClaims) {
				t.Errorf("stored claims %+v, want the rules' %+v", got, ruleClaims)
			}
			d := out.Decision
			if d.ClaimsFrom != memory.ClaimsFromRules || !strings.Contains(d.ClaimsNote, "claims call failed") ||
				!strings.Contains(d.ClaimsNote, wantErr[name]) || d.Fallback != "" {
				t.Errorf("decision %+v", d)
			}
		})
	}
}

// When the decider fails, the fact added by the fallback carries the
// rules' claims, and the decision says why.
func TestRememberDeciderFailureRuleClaims(t *testing.T) {
	srv := ollamatest.New(t)
	srv.SetFault(ollamatest.Error500)
	s := ollamaStore(t, newClock("2026-03-01"), srv, memory.FallbackAdd)
	out := remember(t, s, memory.Note{Text: claimsText})
	if got := getFact(t, s, "", out.Fact.ID).Claims; !reflect.DeepEqual(got, ruleClaims) {
		t.Errorf("stored claims %+v", got)
	}
	if d := out.Decision; d.Fallback == "" || d.ClaimsFrom != memory.ClaimsFromRules || !strings.Contains(d.ClaimsNote, "decider failed") {
		t.Errorf("decision %+v", d)
	}
	if n := srv.Calls(); n != 1 {
		t.Errorf("%d calls, want 1: no claims call after the decider failed", n)
	}
}

// A decision written before claims had a source decodes, with none.
func TestOldDecisionDecodes(t *testing.T) {
	var d memory.Decision
	old := `{"id":1,"at":"2026-03-01T00:00:00Z","user":"","text":"I work at A","action":"add","proposed":"add","target":0,"added":1,"candidates":[],"decider":"rules","reason":"r","fallback":""}`
	if err := json.Unmarshal([]byte(old), &d); err != nil || d.ClaimsFrom != "" || d.ClaimsNote != "" || d.Added != 1 {
		t.Errorf("%+v %v", d, err)
	}
	b, _ := json.Marshal(d)
	if strings.Contains(string(b), "claims_") {
		t.Errorf("an old decision gains claims fields: %s", b)
	}
}

// A hard delete of the fact takes the claims note, which quotes the
// model's claims, with it.
func TestDeleteScrubsClaimsNote(t *testing.T) {
	garbage := `[{"subject":"","relation":"boss_of","object":"Zebulon","kind":"person"}]`
	for name, mk := range modelStores(t, addWith(garbage)) {
		t.Run(name, func(t *testing.T) {
			m := mk(t)
			out := remember(t, m.s, memory.Note{Text: claimsText})
			if !strings.Contains(out.Decision.ClaimsNote, "boss_of") {
				t.Fatalf("claims note %q", out.Decision.ClaimsNote)
			}
			if _, err := m.s.Delete(context.Background(), "", out.Fact.ID, nil); err != nil {
				t.Fatal(err)
			}
			ds, err := m.s.Decisions(context.Background(), "", 0)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(ds)
			if strings.Contains(string(b), "boss_of") || strings.Contains(string(b), "Zebulon") {
				t.Errorf("the decision log keeps the claims note: %s", b)
			}
		})
	}
}

// The rules decider reads a second value of a single-valued relation:
// with a change marker it updates the only other value; without one it
// adds the fact and records a conflict ("may replace"), never silently.
func TestRememberRulesSecondValue(t *testing.T) {
	for _, c := range []struct {
		text     string
		action   memory.Action
		conflict bool
	}{{"I'm based in Porto now", memory.ActionUpdate, false}, {"I'm based in Porto", memory.ActionAdd, true}} {
		s, _ := open(t, newClock("2026-01-10"), nil)
		lisbon := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My flat in Lisbon.",
			Claims: []memory.Claim{{Relation: memory.RelLivesIn, Object: "Lisbon", Kind: "city"}}}))
		out := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: c.text}))
		d := out.Decision
		if d.Action != c.action || d.Target != lisbon.ID || (d.Conflict != 0) != c.conflict {
			t.Errorf("%q: %s target %d conflict %d (%s), want %s of %d, conflict %v", c.text, d.Action, d.Target, d.Conflict, d.Reason, c.action, lisbon.ID, c.conflict)
		}
		if c.conflict && !strings.Contains(d.Reason, "may replace candidate 1") {
			t.Errorf("%q: reason %q", c.text, d.Reason)
		}
	}
}
