package reconcile

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/internal/ollamatest"
	"github.com/palimpsest-mem/memory/internal/openaitest"
)

// claimsEnums reads the relation and kind enums of a schema's claims
// property.
func claimsEnums(t *testing.T, schema json.RawMessage) (rels, kinds []string, required []string) {
	t.Helper()
	var s struct {
		Properties struct {
			Claims struct {
				Type  string
				Items struct {
					Properties struct {
						Relation struct{ Enum []string }
						Kind     struct{ Enum []string }
					}
					Required []string
				}
			}
		}
		Required []string
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	if s.Properties.Claims.Type != "array" {
		t.Fatalf("claims of type %q in %s", s.Properties.Claims.Type, schema)
	}
	if !slices.Equal(s.Properties.Claims.Items.Required, claimFields) {
		t.Errorf("a claim requires %v, want %v", s.Properties.Claims.Items.Required, claimFields)
	}
	return s.Properties.Claims.Items.Properties.Relation.Enum, s.Properties.Claims.Items.Properties.Kind.Enum, s.Required
}

// Both schemas hold the claims list in the strict subset, its item objects
// too, with the vocabulary's relations and kinds as closed enums.
func TestClaimsSchemaIsStrictAndClosed(t *testing.T) {
	var wantRels, wantKinds []string
	for _, r := range claims.Relations() {
		wantRels = append(wantRels, string(r))
	}
	for _, k := range claims.Kinds() {
		wantKinds = append(wantKinds, string(k))
	}
	for name, schema := range map[string]json.RawMessage{"decision": decisionSchema(3), "claims only": claimsSchema()} {
		t.Run(name, func(t *testing.T) {
			checkStrictSchema(t, "schema", schema)
			rels, kinds, required := claimsEnums(t, schema)
			if !slices.Equal(rels, wantRels) {
				t.Errorf("relation enum %v, want %v", rels, wantRels)
			}
			if !slices.Equal(kinds, wantKinds) {
				t.Errorf("kind enum %v, want %v", kinds, wantKinds)
			}
			if !slices.Contains(required, "claims") {
				t.Errorf("required %v lacks claims", required)
			}
		})
	}
	if !strings.Contains(systemPrompt, `"claims"`) || !strings.Contains(systemPrompt, `"subject" is ""`) {
		t.Errorf("the system prompt does not explain the claims")
	}
}

// transports runs f against a model decider over each wire format, with
// the replies given in turn.
func transports(t *testing.T, f func(t *testing.T, d *modelDecider, requests func() int), replies ...string) {
	t.Run("ollama", func(t *testing.T) {
		d, srv := fakeDecider(t, 2*time.Second, replies...)
		f(t, &d.modelDecider, func() int { return len(srv.ChatRequests()) })
	})
	t.Run("openai", func(t *testing.T) {
		d, srv := fakeOpenAI(t, "", 2*time.Second, replies...)
		f(t, &d.modelDecider, func() int { return len(srv.ChatRequests()) })
	})
}

const updateWithClaims = `{"reasoning":"changed jobs","action":"update","target":1,"event_from":"2025-06-01","grain":"month",` +
	`"claims":[{"subject":"","relation":"works_at","object":"company B","kind":"company"}]}`

func TestDecisionCarriesClaims(t *testing.T) {
	transports(t, func(t *testing.T, d *modelDecider, requests func() int) {
		got, err := d.Decide(context.Background(), deciderInput())
		if err != nil {
			t.Fatal(err)
		}
		want := []claims.Claim{{Relation: claims.WorksAt, Object: "company B", Kind: claims.Company}}
		if got.Action != Update || got.Target != 1 || !got.ClaimsGiven || !reflect.DeepEqual(got.Claims, want) || got.ClaimsDropped != nil {
			t.Errorf("decision %+v", got)
		}
		if n := requests(); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	}, updateWithClaims)
}

// An empty list is claims given: the fact states none.
func TestDecisionWithNoClaims(t *testing.T) {
	transports(t, func(t *testing.T, d *modelDecider, _ func() int) {
		got, err := d.Decide(context.Background(), deciderInput())
		if err != nil || !got.ClaimsGiven || len(got.Claims) != 0 || got.ClaimsDropped != nil {
			t.Errorf("decision %+v, %v", got, err)
		}
	}, `{"reasoning":"r","action":"add","target":0,"event_from":null,"grain":null,"claims":[]}`)
}

// Garbage claims are dropped one by one and listed; the good claims and
// the decision stand, and the answer is not retried for them.
func TestGarbageClaimsDropped(t *testing.T) {
	reply := `{"reasoning":"changed jobs","action":"update","target":1,"event_from":null,"grain":null,"claims":[` +
		`{"subject":"","relation":"works_at","object":"company B","kind":"company"},` +
		`{"subject":"","relation":"boss_of","object":"Bob","kind":"person"},` +
		`{"subject":"","relation":"lives_in","object":"Mars","kind":"planet"},` +
		`{"subject":"","relation":"owns","object":"  ","kind":"thing"},` +
		`{"subject":"","relation":"owns","kind":"thing"},` +
		`{"subject":"","relation":"owns","object":"a car","kind":"vehicle","confidence":0.9},` +
		`{"subject":7,"relation":"owns","object":"a car","kind":"vehicle"},` +
		`"works_at company B",` +
		`{"subject":"I","relation":"works_at","object":"Company B","kind":"company"},` +
		`{"subject":"sister","relation":"lives_in","object":"Kazan","kind":"city"}]}`
	transports(t, func(t *testing.T, d *modelDecider, requests func() int) {
		got, err := d.Decide(context.Background(), deciderInput())
		if err != nil {
			t.Fatal(err)
		}
		if got.Action != Update || got.Target != 1 || got.Reason != "changed jobs" || !got.ClaimsGiven {
			t.Errorf("decision %+v", got)
		}
		want := []claims.Claim{
			{Relation: claims.WorksAt, Object: "company B", Kind: claims.Company},
			{Subject: "sister", Relation: claims.LivesIn, Object: "Kazan", Kind: claims.City},
		}
		if !reflect.DeepEqual(got.Claims, want) {
			t.Errorf("claims %+v, want %+v", got.Claims, want)
		}
		wantDropped := []string{
			`claim 2 of 10: unknown relation "boss_of"`,
			`claim 3 of 10: unknown kind "planet"`,
			`claim 4 of 10: an empty object`,
			`claim 5 of 10: field "object" is missing`,
			`claim 6 of 10: unknown field "confidence"`,
			`claim 7 of 10: field "subject" is 7, want a string`,
			`claim 8 of 10: not an object`,
			`claim 9 of 10: a repeat of an earlier claim`,
		}
		if !slices.Equal(got.ClaimsDropped, wantDropped) {
			t.Errorf("dropped\n%s\nwant\n%s", strings.Join(got.ClaimsDropped, "\n"), strings.Join(wantDropped, "\n"))
		}
		if n := requests(); n != 1 {
			t.Errorf("%d requests, want 1: bad claims are not retried", n)
		}
	}, reply)
}

// A claims field that is not a list, or none at all, costs the claims and
// says so; the decision stands.
func TestBadClaimsFieldKeepsTheDecision(t *testing.T) {
	for name, c := range map[string]struct{ reply, dropped string }{
		"not a list": {`{"reasoning":"r","action":"update","target":1,"event_from":null,"grain":null,"claims":"works at B"}`,
			`field "claims" is "works at B", want a list`},
		"null": {`{"reasoning":"r","action":"update","target":1,"event_from":null,"grain":null,"claims":null}`,
			`field "claims" is null, want a list`},
		"missing": {`{"reasoning":"r","action":"update","target":1,"event_from":null,"grain":null}`,
			"the answer has no claims field"},
	} {
		t.Run(name, func(t *testing.T) {
			transports(t, func(t *testing.T, d *modelDecider, requests func() int) {
				got, err := d.Decide(context.Background(), deciderInput())
				if err != nil || got.Action != Update || got.Target != 1 {
					t.Fatalf("decision %+v, %v", got, err)
				}
				if got.ClaimsGiven || got.Claims != nil || !slices.Equal(got.ClaimsDropped, []string{c.dropped}) {
					t.Errorf("claims %v given %v dropped %q", got.Claims, got.ClaimsGiven, got.ClaimsDropped)
				}
				if n := requests(); n != 1 {
					t.Errorf("%d requests, want 1", n)
				}
			}, c.reply)
		})
	}
}

// The claims-only call: its own schema and prompt, the fact in the data
// block, the model's claims validated.
func TestClaimsCall(t *testing.T) {
	const text = "My sister lives in Kazan"
	reply := `{"claims":[{"subject":"sister","relation":"lives_in","object":"Kazan","kind":"city"},{"subject":"","relation":"likes","object":"","kind":"thing"}]}`
	want := []claims.Claim{{Subject: "sister", Relation: claims.LivesIn, Object: "Kazan", Kind: claims.City}}
	check := func(t *testing.T, a ClaimsAnswer, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Claims, want) || !slices.Equal(a.Dropped, []string{"claim 2 of 2: an empty object"}) ||
			a.Raw != reply || a.Model != "fake-judge" {
			t.Errorf("answer %+v", a)
		}
	}
	t.Run("ollama", func(t *testing.T) {
		d, srv := fakeDecider(t, 2*time.Second, reply)
		a, err := d.Claims(context.Background(), text)
		check(t, a, err)
		reqs := srv.ChatRequests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		r := reqs[0]
		if string(r.Format) != string(claimsSchema()) || !r.ClaimsOnly() {
			t.Errorf("format %s", r.Format)
		}
		if r.Messages[0].Content != claimsSystemPrompt || !strings.Contains(r.Messages[1].Content, `"My sister lives in Kazan"`) {
			t.Errorf("messages %+v", r.Messages)
		}
	})
	t.Run("openai", func(t *testing.T) {
		d, srv := fakeOpenAI(t, "", 2*time.Second, reply)
		a, err := d.Claims(context.Background(), text)
		check(t, a, err)
		reqs := srv.ChatRequests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		rf := reqs[0].ResponseFormat
		if rf == nil || rf.JSONSchema == nil || rf.JSONSchema.Name != claimsSchemaName || rf.JSONSchema.Strict == nil || !*rf.JSONSchema.Strict ||
			string(rf.JSONSchema.Schema) != string(claimsSchema()) || !reqs[0].ClaimsOnly() {
			t.Errorf("response_format %+v", rf)
		}
	})
}

// An answer that is not the claims object is retried once with the error
// fed back; a failure of the exchange is returned at once.
func TestClaimsCallFailures(t *testing.T) {
	transports(t, func(t *testing.T, d *modelDecider, requests func() int) {
		a, err := d.Claims(context.Background(), "I live in Porto")
		if err != nil || len(a.Claims) != 1 || a.Claims[0].Object != "Porto" {
			t.Fatalf("%+v %v", a, err)
		}
		if n := requests(); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	}, `{"claims":"Porto"}`, `{"claims":[{"subject":"","relation":"lives_in","object":"Porto","kind":"city"}]}`)

	transports(t, func(t *testing.T, d *modelDecider, requests func() int) {
		_, err := d.Claims(context.Background(), "I live in Porto")
		if !errors.Is(err, ErrInvalidDecision) || !strings.Contains(err.Error(), "second answer also invalid") {
			t.Errorf("error %v", err)
		}
		if n := requests(); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	}, `{"reasoning":"r","action":"add","target":0,"event_from":null,"grain":null}`)

	t.Run("ollama 500", func(t *testing.T) {
		d, srv := fakeDecider(t, 2*time.Second)
		srv.SetFault(ollamatest.Error500)
		_, err := d.Claims(context.Background(), "I live in Porto")
		var se *StatusError
		if !errors.As(err, &se) || se.Code != 500 || srv.Calls() != 1 {
			t.Errorf("error %v after %d calls", err, srv.Calls())
		}
	})
	t.Run("openai 429", func(t *testing.T) {
		d, srv := fakeOpenAI(t, "", 2*time.Second)
		srv.Chat = func(openaitest.ChatRequest) openaitest.Reply {
			return openaitest.Reply{Status: 429, Body: openaitest.ErrorBody("Rate limit reached", "requests", "rate_limit_exceeded")}
		}
		_, err := d.Claims(context.Background(), "I live in Porto")
		if !errors.Is(err, ErrRateLimited) || srv.Calls() != 1 {
			t.Errorf("error %v after %d calls", err, srv.Calls())
		}
	})
}

// The fake servers answer a claims-only request with no claims by default.
func TestFakeServersAnswerClaimsRequests(t *testing.T) {
	transports(t, func(t *testing.T, d *modelDecider, _ func() int) {
		a, err := d.Claims(context.Background(), "I live in Porto")
		if err != nil || a.Claims == nil || len(a.Claims) != 0 {
			t.Errorf("%+v %v", a, err)
		}
	})
}

// TestRealModelClaims asks a real model, when one is named as for
// TestRealOllama or TestRealOpenAI, for the claims of one clear fact, in a
// decision and in the claims-only call.
func TestRealModelClaims(t *testing.T) {
	model := os.Getenv("MEMCTL_MODEL")
	var ds []*modelDecider
	if host := os.Getenv("OLLAMA_HOST"); host != "" && model != "" {
		d, err := NewOllama(model, &OllamaOptions{Host: host, Timeout: 5 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, &d.modelDecider)
	}
	if base := os.Getenv("OPENAI_BASE_URL"); base != "" && model != "" {
		d, err := NewOpenAI(model, &OpenAIOptions{BaseURL: base, APIKey: os.Getenv("OPENAI_API_KEY"), Timeout: 5 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, &d.modelDecider)
	}
	if len(ds) == 0 {
		t.Skip("set MEMCTL_MODEL and OLLAMA_HOST or OPENAI_BASE_URL to run against a real model")
	}
	const text = "My sister lives in Kazan."
	has := func(cs []claims.Claim) bool {
		for _, c := range cs {
			if c.Relation == claims.LivesIn && claims.Normalize(c.Object) == "kazan" && claims.Normalize(c.Subject) == "sister" {
				return true
			}
		}
		return false
	}
	for _, d := range ds {
		t.Run(d.name, func(t *testing.T) {
			got, err := d.Decide(context.Background(), Input{Text: text, SaidAt: saidAt})
			if err != nil || !got.ClaimsGiven || !has(got.Claims) {
				t.Errorf("decision %+v, %v", got, err)
			}
			a, err := d.Claims(context.Background(), text)
			if err != nil || !has(a.Claims) {
				t.Errorf("claims %+v, %v", a, err)
			}
		})
	}
}
