package reconcile

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Reason is why a model call, an answer or an embedding failed, from a
// closed set: each is the project's own words, and none holds anything a
// provider or a model sent back.
type Reason string

// The reasons a Failure can give.
const (
	ReasonRequest       Reason = "the request could not be made"
	ReasonCanceled      Reason = "the caller's context ended"
	ReasonTimeout       Reason = "timed out"
	ReasonConnRefused   Reason = "connection refused"
	ReasonUnreachable   Reason = "the server could not be reached"
	ReasonRedirect      Reason = "a redirect, not followed"
	ReasonStatus        Reason = "an HTTP error status"
	ReasonBadReply      Reason = "the reply is not the JSON expected"
	ReasonNoChoices     Reason = "the reply holds no choices"
	ReasonRefused       Reason = "the model refused"
	ReasonTruncated     Reason = "the answer was cut at the token limit"
	ReasonContentFilter Reason = "the provider's content filter stopped the answer"
	ReasonNotObject     Reason = "the answer is not one JSON object"
	ReasonDuplicateKey  Reason = "a key appears twice in the answer"
	ReasonMissingField  Reason = "a field of the schema is missing"
	ReasonUnknownField  Reason = "a field not in the schema"
	ReasonFieldType     Reason = "a field is not of the schema's type"
	ReasonUnknownAction Reason = "unknown action"
	ReasonTarget        Reason = "target out of range for the action"
	ReasonPinned        Reason = "the target is pinned"
	ReasonConflictWith  Reason = "a conflict named out of range or on an action other than add"
	ReasonBadDate       Reason = "event_from is not a date YYYY-MM-DD"
	ReasonDateRange     Reason = "event time out of range"
	ReasonUnknownGrain  Reason = "unknown grain"
	ReasonVectorCount   Reason = "not one vector per text"
	ReasonVectorEmpty   Reason = "an empty vector"
	ReasonVectorLong    Reason = "a vector longer than the bound"
	ReasonVectorValue   Reason = "a vector holding NaN or Inf"
	ReasonVectorUnequal Reason = "vectors of unequal length"
	ReasonVectorDim     Reason = "vectors of another dimension than the store's"
	// ReasonOther is an error that is no Failure: a Decider or Embedder of
	// the caller's own, whose message may hold anything.
	ReasonOther Reason = "an error of its own, not recorded"
)

// Failure is why a model call or a decision failed, in two parts: what a
// log may keep (Text: the reason, the HTTP status, the provider's error
// code when it is a short token, the schema's field, the bound passed),
// and the whole message for the caller (Error: what the provider or the
// model said, the API key cut out), which no store keeps. Every failure of
// the model clients, of the answer parser and of Validate is one, found
// with errors.As under any wrapping.
type Failure struct {
	Reason Reason
	// Status is the HTTP status of the reply, 0 if none came.
	Status int
	// Code is the provider's error code, or else its error type, when it
	// has the shape of a token (lower-case letters, digits, "_.-", at most
	// 40); "" otherwise.
	Code string
	// Field is the schema's field an invalid answer got wrong: only ever
	// one of the schema's own names.
	Field string
	// After is the timeout that passed (ReasonTimeout).
	After time.Duration
	// Retried says the answer was invalid twice, the second time after
	// the error was fed back.
	Retried bool
	// Err is the full cause, for the caller: it may quote what the
	// provider or the model sent back. nil leaves Error to Text.
	Err error
}

// Error is the whole message, for the caller only.
func (f *Failure) Error() string {
	if f.Err != nil {
		return f.Err.Error()
	}
	return f.Text()
}

// Unwrap gives the cause and the sentinel errors the reason stands for.
func (f *Failure) Unwrap() []error {
	var errs []error
	if f.Err != nil {
		errs = append(errs, f.Err)
	}
	switch f.Reason {
	case ReasonTimeout:
		errs = append(errs, ErrModelTimeout)
	case ReasonRefused:
		errs = append(errs, ErrRefusal)
	case ReasonTruncated:
		errs = append(errs, ErrTruncated, ErrInvalidDecision)
	case ReasonNotObject, ReasonDuplicateKey, ReasonMissingField, ReasonUnknownField, ReasonFieldType,
		ReasonUnknownAction, ReasonTarget, ReasonPinned, ReasonConflictWith, ReasonBadDate, ReasonDateRange, ReasonUnknownGrain:
		errs = append(errs, ErrInvalidDecision)
	}
	if f.Status == http.StatusTooManyRequests {
		errs = append(errs, ErrRateLimited)
	}
	return errs
}

// Text is the failure in the project's own words, the one text a decision
// or a log may keep of it: e.g. "HTTP 400 Bad Request
// (invalid_json_schema)", "second answer also invalid: field "target" is
// not of the schema's type", "timed out after 60s".
func (f *Failure) Text() string {
	var s string
	switch f.Reason {
	case ReasonStatus:
		s = "HTTP " + strconv.Itoa(f.Status)
		if t := http.StatusText(f.Status); t != "" {
			s += " " + t
		}
	case ReasonRedirect:
		s = "HTTP " + strconv.Itoa(f.Status) + " redirect, not followed: the client sends the key and the facts to its base URL only"
	case ReasonBadReply:
		s = string(f.Reason)
		if f.Status != 0 {
			s = "HTTP " + strconv.Itoa(f.Status) + " but " + s
		}
	case ReasonTimeout:
		s = string(f.Reason)
		if f.After > 0 {
			s += " after " + seconds(f.After)
		}
	case ReasonTruncated:
		s = fmt.Sprintf("%s (%d tokens)", f.Reason, MaxAnswerTokens)
	case ReasonVectorLong:
		s = fmt.Sprintf("a vector longer than %d values", MaxVectorLen)
	case ReasonMissingField, ReasonFieldType:
		if f.Field != "" {
			s = strings.Replace(string(f.Reason), "a field", "field "+strconv.Quote(f.Field), 1)
		} else {
			s = string(f.Reason)
		}
	case "":
		s = string(ReasonOther)
	default:
		s = string(f.Reason)
	}
	var tags []string
	if f.Status == http.StatusTooManyRequests {
		tags = append(tags, "rate limited")
	}
	if f.Code != "" {
		tags = append(tags, f.Code)
	}
	if len(tags) > 0 {
		s += " (" + strings.Join(tags, ", ") + ")"
	}
	if f.Retried {
		s = "second answer also invalid: " + s
	}
	return s
}

// AsFailure finds the Failure in err. An error that holds none is said in
// the project's words all the same: the caller's context ending, or an
// error of a decider's or embedder's own (ReasonOther), whose message
// stays in Err.
func AsFailure(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Failure{Reason: ReasonCanceled, Err: err}
	}
	return &Failure{Reason: ReasonOther, Err: err}
}

// invalid is a Failure of an answer: it wraps ErrInvalidDecision, and its
// message (for the retry prompt and the caller) says what was wrong.
func invalid(r Reason, field, format string, args ...any) *Failure {
	return &Failure{Reason: r, Field: field, Err: fmt.Errorf("%w: %s", ErrInvalidDecision, fmt.Sprintf(format, args...))}
}

// errorCode is what a Failure may keep of a provider's error code and
// type: the code, or else the type, that has the shape of a token. A
// number alone repeats the status and is dropped.
func errorCode(code, typ string) string {
	for _, c := range []string{code, typ} {
		if isToken(c) && strings.Trim(c, "0123456789") != "" {
			return c
		}
	}
	return ""
}

// isToken reports whether s is 1 to 40 of [a-z0-9_.-].
func isToken(s string) bool {
	if len(s) == 0 || len(s) > 40 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}
