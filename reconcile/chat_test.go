package reconcile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// checkStrictSchema walks a JSON schema and asserts OpenAI's strict
// subset at every level, array items included: an object lists every property in required and
// has additionalProperties false; no maxLength or minLength; null is a
// second type, never anyOf; an enum that allows null has a type that
// allows it too, and every other value is of a type listed.
func checkStrictSchema(t *testing.T, path string, raw json.RawMessage) {
	t.Helper()
	var node map[string]json.RawMessage
	if err := json.Unmarshal(raw, &node); err != nil {
		t.Fatalf("%s: not an object: %s", path, raw)
	}
	for _, banned := range []string{"maxLength", "minLength", "anyOf", "oneOf", "allOf", "format", "default"} {
		if _, ok := node[banned]; ok {
			t.Errorf("%s: %q is outside the strict subset: %s", path, banned, raw)
		}
	}
	var types []string
	if err := json.Unmarshal(node["type"], &types); err != nil {
		var one string
		if err := json.Unmarshal(node["type"], &one); err != nil || one == "" {
			t.Errorf("%s: no type: %s", path, raw)
		}
		types = []string{one}
	}
	if enum, ok := node["enum"]; ok {
		var values []any
		if err := json.Unmarshal(enum, &values); err != nil || len(values) == 0 {
			t.Errorf("%s: enum %s", path, enum)
		}
		for _, v := range values {
			want := "null"
			switch v.(type) {
			case string:
				want = "string"
			case float64:
				want = "number"
			case bool:
				want = "boolean"
			}
			if !slices.Contains(types, want) && !(want == "number" && slices.Contains(types, "integer")) {
				t.Errorf("%s: enum value %v of type %s, but type is %v", path, v, want, types)
			}
		}
	}
	if slices.Contains(types, "array") {
		// An array names the schema of its items, which is held to the
		// same subset.
		items, ok := node["items"]
		if !ok {
			t.Errorf("%s: array without items", path)
			return
		}
		checkStrictSchema(t, path+"[]", items)
	}
	if !slices.Contains(types, "object") {
		return
	}
	var props map[string]json.RawMessage
	if err := json.Unmarshal(node["properties"], &props); err != nil || len(props) == 0 {
		t.Errorf("%s: object without properties", path)
	}
	var required []string
	_ = json.Unmarshal(node["required"], &required)
	keys := objectKeys(t, node["properties"])
	if !slices.Equal(required, keys) {
		t.Errorf("%s: required %v, want every property %v", path, required, keys)
	}
	if string(node["additionalProperties"]) != "false" {
		t.Errorf("%s: additionalProperties %s, want false", path, node["additionalProperties"])
	}
	for _, k := range keys {
		checkStrictSchema(t, path+"."+k, props[k])
	}
}

func TestDecisionSchemaIsStrict(t *testing.T) {
	for _, n := range []int{0, 1, 4, 10} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			checkStrictSchema(t, "schema", decisionSchema(n))
		})
	}
}

// pinnedAnswers name the pinned candidate 2 of deciderInput.
var pinnedAnswers = []struct {
	reply string
	want  Action
}{
	{`{"reasoning":"the birthday moved","action":"update","target":2,"event_from":null,"grain":null}`, Update},
	{`{"reasoning":"the birthday was wrong","action":"invalidate","target":2,"event_from":"2025-08-01","grain":"day"}`, Invalidate},
}

// A model that judges a pinned fact changed gives a valid answer, not one
// to retry: the store keeps the pinned fact and records the conflict.
func TestPinnedTargetIsAnAnswer(t *testing.T) {
	for _, p := range pinnedAnswers {
		t.Run("ollama/"+string(p.want), func(t *testing.T) {
			d, srv := fakeDecider(t, 2*time.Second, p.reply)
			got, err := d.Decide(context.Background(), deciderInput())
			if err != nil || got.Action != p.want || got.Target != 2 || got.Raw != p.reply {
				t.Errorf("%+v %v", got, err)
			}
			if n := len(srv.ChatRequests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
		t.Run("openai/"+string(p.want), func(t *testing.T) {
			d, srv := fakeOpenAI(t, "", 2*time.Second, p.reply)
			got, err := d.Decide(context.Background(), deciderInput())
			if err != nil || got.Action != p.want || got.Target != 2 || got.Raw != p.reply {
				t.Errorf("%+v %v", got, err)
			}
			if n := len(srv.ChatRequests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
	// Validate, the store's rule, still refuses it as a change.
	if err := Validate(Verdict{Action: Update, Target: 2}, deciderInput()); !errors.Is(err, ErrInvalidDecision) {
		t.Errorf("Validate of an update of a pinned fact: %v", err)
	}
}

// The Ollama decider reports an HTTP status as such, once, without taking
// an empty body for an invalid answer.
func TestOllamaHTTPStatus(t *testing.T) {
	d, srv := fakeDecider(t, 2*time.Second, goodUpdate)
	srv.SetFault(ollamatest.NotFound)
	got, err := d.Decide(context.Background(), deciderInput())
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 404 || errors.Is(err, ErrInvalidDecision) {
		t.Fatalf("error %v, want an HTTP 404", err)
	}
	if !strings.Contains(err.Error(), "HTTP 404 Not Found with an empty body") || strings.Contains(err.Error(), "invalid") {
		t.Errorf("error %q", err)
	}
	if n := srv.Calls(); n != 1 || got.Action != "" {
		t.Errorf("%d calls, decision %+v", n, got)
	}
	srv.SetFault(ollamatest.Error500)
	if _, err := d.Decide(context.Background(), deciderInput()); err == nil ||
		!strings.Contains(err.Error(), "HTTP 500 Internal Server Error: model runner has unexpectedly stopped") {
		t.Errorf("500: %v", err)
	}
}

// A client timeout says so, with its bound.
func TestOllamaTimeoutSaysSo(t *testing.T) {
	d, srv := fakeDecider(t, 150*time.Millisecond, goodUpdate)
	srv.SetFault(ollamatest.Hang)
	_, err := d.Decide(context.Background(), deciderInput())
	if !errors.Is(err, ErrModelTimeout) || !strings.Contains(err.Error(), "timed out after 150ms") {
		t.Errorf("error %v, want a timeout after 150ms", err)
	}
}

// An answer cut at num_predict is invalid: retried once with the error
// fed back, then an error that says so.
func TestOllamaLengthRetried(t *testing.T) {
	d, srv := fakeDecider(t, 2*time.Second, goodUpdate)
	srv.DoneReason = "length"
	_, err := d.Decide(context.Background(), deciderInput())
	if !errors.Is(err, ErrTruncated) || !errors.Is(err, ErrInvalidDecision) || !strings.Contains(err.Error(), `finish_reason "length"`) {
		t.Errorf("error %v", err)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[3].Content, "cut at the token limit") {
		t.Fatalf("%d requests", len(reqs))
	}
	if np := reqs[0].Options["num_predict"]; np != float64(MaxAnswerTokens) {
		t.Errorf("num_predict %v, want %d", np, MaxAnswerTokens)
	}
}

func TestProviderMessage(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"Invalid schema for response_format 'memory_decision'.","type":"invalid_request_error","param":"response_format","code":"invalid_json_schema"}}`: "Invalid schema for response_format 'memory_decision'. (type invalid_request_error, code invalid_json_schema)",
		`{"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}}`:                                                "the request exceeds the available context size (type exceed_context_size_error, code 400)",
		`{"error":"model \"x\" not found, try pulling it first"}`:                                                                                                             `model "x" not found, try pulling it first`,
		"<html>\n<body>Bad Gateway</body>\n</html>":                                                                                                                           "<html> <body>Bad Gateway</body> </html>",
		"": "",
	} {
		if got := oneLine(providerError([]byte(body)).message()); got != want {
			t.Errorf("%s:\n got %q\nwant %q", body, got, want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{60 * time.Second: "60s", 300 * time.Millisecond: "300ms", 90 * time.Second: "90s", 1500 * time.Millisecond: "1.5s"} {
		if got := seconds(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}
