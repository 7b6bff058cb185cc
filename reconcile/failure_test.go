package reconcile

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/ollamatest"
)

// allReasons is every Reason, for the closed-set checks below.
var allReasons = []Reason{
	ReasonRequest, ReasonCanceled, ReasonTimeout, ReasonConnRefused, ReasonUnreachable, ReasonRedirect,
	ReasonStatus, ReasonBadReply, ReasonNoChoices, ReasonRefused, ReasonTruncated, ReasonContentFilter,
	ReasonNotObject, ReasonDuplicateKey, ReasonMissingField, ReasonUnknownField, ReasonFieldType,
	ReasonUnknownAction, ReasonTarget, ReasonPinned, ReasonConflictWith, ReasonBadDate, ReasonDateRange,
	ReasonUnknownGrain, ReasonVectorCount, ReasonVectorEmpty, ReasonVectorLong, ReasonVectorValue,
	ReasonVectorUnequal, ReasonVectorDim, ReasonOther,
}

// answerTexts is every text a Failure of an answer can have: the closed
// set a decision's fallback is made of when the model's answer was wrong.
func answerTexts() map[string]bool {
	out := map[string]bool{}
	fields := append([]string{""}, replyFields...)
	for _, r := range allReasons {
		for _, f := range fields {
			for _, retried := range []bool{false, true} {
				out[(&Failure{Reason: r, Field: f, Retried: retried}).Text()] = true
			}
		}
	}
	return out
}

// Whatever a model answers, a refused answer's Text is one of the closed
// set, and its error wraps ErrInvalidDecision.
func TestInvalidAnswersHaveClosedTexts(t *testing.T) {
	texts := answerTexts()
	in := deciderInput()
	replies := []string{"", "null", "[]", `{"a":1}`, "My door code is 7781"}
	for _, b := range badReplies {
		replies = append(replies, b.reply)
	}
	for _, d := range dupAnswers {
		replies = append(replies, d.reply)
	}
	for _, reply := range replies {
		_, err := parseAnswer(reply, in)
		f := AsFailure(err)
		if err == nil || !errors.Is(err, ErrInvalidDecision) || !texts[f.Text()] || f.Reason == ReasonOther {
			t.Errorf("%q: error %v, text %q", reply, err, f.Text())
		}
	}
	if err := Validate(Verdict{Action: "My door code is 7781"}, in); AsFailure(err).Text() != "unknown action" {
		t.Errorf("Validate: %v", err)
	}
}

func TestFailureText(t *testing.T) {
	for _, tc := range []struct {
		f    Failure
		want string
	}{
		{Failure{Reason: ReasonStatus, Status: 400, Code: "invalid_json_schema"}, "HTTP 400 Bad Request (invalid_json_schema)"},
		{Failure{Reason: ReasonStatus, Status: 429}, "HTTP 429 Too Many Requests (rate limited)"},
		{Failure{Reason: ReasonStatus, Status: 599}, "HTTP 599"},
		{Failure{Reason: ReasonRedirect, Status: 307}, "HTTP 307 redirect, not followed: the client sends the key and the facts to its base URL only"},
		{Failure{Reason: ReasonTimeout, After: time.Minute}, "timed out after 60s"},
		{Failure{Reason: ReasonMissingField, Field: "grain", Retried: true}, `second answer also invalid: field "grain" of the schema is missing`},
		{Failure{Reason: ReasonVectorLong}, "a vector longer than 16384 values"},
		{Failure{}, string(ReasonOther)},
		{Failure{Reason: ReasonOther, Err: errors.New("my PIN is 4321")}, string(ReasonOther)},
	} {
		if got := tc.f.Text(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.f, got, tc.want)
		}
	}
	// The full message is the cause's; with none, the text.
	f := &Failure{Reason: ReasonRefused, Err: fmt.Errorf("%w: I will not", ErrRefusal)}
	if f.Error() != "the model refused: I will not" || !errors.Is(f, ErrRefusal) || (&Failure{Reason: ReasonTimeout}).Error() != "timed out" {
		t.Errorf("%q", f.Error())
	}
	if !errors.Is(&Failure{Reason: ReasonStatus, Status: 429}, ErrRateLimited) || !errors.Is(&Failure{Reason: ReasonTruncated}, ErrInvalidDecision) {
		t.Error("sentinels")
	}
}

func TestAsFailure(t *testing.T) {
	inner := &Failure{Reason: ReasonStatus, Status: 500}
	if f := AsFailure(fmt.Errorf("wrapped: %w", inner)); f != inner {
		t.Errorf("%+v", f)
	}
	if f := AsFailure(fmt.Errorf("x: %w", context.Canceled)); f.Reason != ReasonCanceled || !errors.Is(f, context.Canceled) {
		t.Errorf("%+v", f)
	}
	own := errors.New("custom decider: the text was My door code is 7781")
	if f := AsFailure(own); f.Reason != ReasonOther || strings.Contains(f.Text(), "7781") || !errors.Is(f, own) {
		t.Errorf("%+v %q", f, f.Text())
	}
}

func TestErrorCode(t *testing.T) {
	for _, tc := range []struct{ code, typ, want string }{
		{"invalid_api_key", "invalid_request_error", "invalid_api_key"},
		{"", "server_error", "server_error"},
		{"400", "exceed_context_size_error", "exceed_context_size_error"},
		{"400", "", ""},
		{"Invalid Key", "", ""},
		{"my pin is 4321", "QQPIN-4321", ""},
		{strings.Repeat("a", 41), "model.not-found_2", "model.not-found_2"},
	} {
		if got := errorCode(tc.code, tc.typ); got != tc.want {
			t.Errorf("%q %q: %q, want %q", tc.code, tc.typ, got, tc.want)
		}
	}
}

// The transport failures of the Ollama client, in the store's words.
func TestOllamaFailureTexts(t *testing.T) {
	for _, tc := range []struct {
		fault ollamatest.Fault
		want  string
	}{
		{ollamatest.Error500, "HTTP 500 Internal Server Error"},
		{ollamatest.Garbage, "HTTP 200 but the reply is not the JSON expected"},
		{ollamatest.Hang, "timed out after 200ms"},
		{ollamatest.NotFound, "HTTP 404 Not Found"},
	} {
		d, srv := fakeDecider(t, 200*time.Millisecond, goodUpdate)
		srv.SetFault(tc.fault)
		_, err := d.Decide(context.Background(), deciderInput())
		if got := AsFailure(err).Text(); got != tc.want {
			t.Errorf("fault %d: %q, want %q (%v)", tc.fault, got, tc.want, err)
		}
	}
	d, srv := fakeDecider(t, 200*time.Millisecond, goodUpdate)
	srv.Close()
	if _, err := d.Decide(context.Background(), deciderInput()); AsFailure(err).Text() != "connection refused" {
		t.Errorf("closed: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Decide(ctx, deciderInput()); AsFailure(err).Reason != ReasonCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestCheckVectors(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(-1))
	for _, tc := range []struct {
		name string
		vs   [][]float32
		n    int
		want Reason
	}{
		{"fine", [][]float32{{1, 2}, {3, 4}}, 2, ""},
		{"at the bound", [][]float32{make([]float32, MaxVectorLen)}, 1, ""},
		{"too few", [][]float32{{1}}, 2, ReasonVectorCount},
		{"empty", [][]float32{{}}, 1, ReasonVectorEmpty},
		{"nil", [][]float32{nil}, 1, ReasonVectorEmpty},
		{"too long", [][]float32{make([]float32, MaxVectorLen+1)}, 1, ReasonVectorLong},
		{"NaN", [][]float32{{1, nan}}, 1, ReasonVectorValue},
		{"Inf", [][]float32{{1, 2}, {inf, 2}}, 2, ReasonVectorValue},
		{"unequal", [][]float32{{1, 2}, {1, 2, 3}}, 2, ReasonVectorUnequal},
	} {
		err := CheckVectors(tc.vs, tc.n)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if f := AsFailure(err); err == nil || f.Reason != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
}
