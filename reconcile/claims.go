package reconcile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/internal/clip"
)

// MaxClaims bounds the claims kept from one answer; the rest are dropped
// and said so.
const MaxClaims = 32

// claimFields are the fields of one claim in the schema, in its order.
var claimFields = []string{"subject", "relation", "object", "kind"}

// claimsProperty is the schema of the claims list: every item an object
// with all four fields required and no other, relation and kind closed
// enums of the vocabulary. No minItems or maxItems: strict mode allows
// neither everywhere, and the list is bounded locally (MaxClaims).
func claimsProperty() string {
	enum := func(vs []string) string {
		b, err := json.Marshal(vs)
		if err != nil { // cannot happen for strings
			return "[]"
		}
		return string(b)
	}
	var rels, kinds []string
	for _, r := range claims.Relations() {
		rels = append(rels, string(r))
	}
	for _, k := range claims.Kinds() {
		kinds = append(kinds, string(k))
	}
	return `{"type":"array","items":{"type":"object","properties":{` +
		`"subject":{"type":"string"},` +
		`"relation":{"type":"string","enum":` + enum(rels) + `},` +
		`"object":{"type":"string"},` +
		`"kind":{"type":"string","enum":` + enum(kinds) + `}},` +
		`"required":["subject","relation","object","kind"],` +
		`"additionalProperties":false}}`
}

// claimsSchema is the schema of a claims-only answer: {"claims":[...]}.
func claimsSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"claims":` + claimsProperty() +
		`},"required":["claims"],"additionalProperties":false}`)
}

// claimsSchemaName names the claims-only schema in OpenAI's
// response_format.
const claimsSchemaName = "memory_claims"

// userWords are subjects a model may write for the user instead of "".
var userWords = []string{"i", "me", "user", "the user", "myself", "я", "пользователь"}

// parseClaims reads the claims field of an answer: a list of objects, each
// with exactly subject, relation, object and kind as strings. A list that
// is not one is an error; an item that is invalid is dropped, and dropped
// says which and why, so that a bad claim never costs the decision it came
// with. The claims kept pass claims.Validate, each once, at most MaxClaims.
func parseClaims(raw json.RawMessage) (kept []claims.Claim, dropped []string, err error) {
	var items []json.RawMessage
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || json.Unmarshal(raw, &items) != nil {
		return nil, nil, fmt.Errorf("field \"claims\" is %s, want a list", clip.Bytes(oneLine(string(raw)), 40))
	}
	// Claims are kept empty, not nil, so that a list of none reads as a
	// list given.
	kept = []claims.Claim{}
	type key struct{ s, r, o string }
	seen := map[key]bool{}
	for i, it := range items {
		c, why := parseClaim(it)
		if why == "" {
			k := key{claims.Normalize(c.Subject), string(c.Relation), claims.Normalize(c.Object)}
			switch {
			case seen[k]:
				why = "a repeat of an earlier claim"
			case len(kept) == MaxClaims:
				why = fmt.Sprintf("more than %d claims", MaxClaims)
			default:
				seen[k] = true
				kept = append(kept, c)
				continue
			}
		}
		dropped = append(dropped, fmt.Sprintf("claim %d of %d: %s", i+1, len(items), why))
	}
	return kept, dropped, nil
}

// parseClaim reads one item of the list, or says why it is not a claim.
func parseClaim(raw json.RawMessage) (claims.Claim, string) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return claims.Claim{}, "not an object"
	}
	v := map[string]string{}
	for _, f := range claimFields {
		r, ok := fields[f]
		if !ok {
			return claims.Claim{}, fmt.Sprintf("field %q is missing", f)
		}
		var s string
		if bytes.Equal(bytes.TrimSpace(r), []byte("null")) || json.Unmarshal(r, &s) != nil {
			return claims.Claim{}, fmt.Sprintf("field %q is %s, want a string", f, clip.Bytes(oneLine(string(r)), 40))
		}
		v[f] = s
	}
	for k := range fields {
		if !slices.Contains(claimFields, k) {
			return claims.Claim{}, fmt.Sprintf("unknown field %q", clip.Bytes(k, 40))
		}
	}
	rel, err := claims.ParseRelation(v["relation"])
	if err != nil {
		return claims.Claim{}, fmt.Sprintf("unknown relation %q", clip.Bytes(v["relation"], 40))
	}
	kind := claims.Kind(v["kind"])
	if !slices.Contains(claims.Kinds(), kind) {
		return claims.Claim{}, fmt.Sprintf("unknown kind %q", clip.Bytes(v["kind"], 40))
	}
	c := claims.Claim{Subject: strings.TrimSpace(v["subject"]), Relation: rel, Object: strings.TrimSpace(v["object"]), Kind: kind}
	if slices.Contains(userWords, claims.Normalize(c.Subject)) {
		c.Subject = "" // the user, however the model named them
	}
	switch {
	case !utf8.ValidString(c.Subject) || !utf8.ValidString(c.Object):
		return claims.Claim{}, "not valid UTF-8"
	case claims.Normalize(c.Object) == "":
		return claims.Claim{}, "an empty object"
	}
	if err := c.Validate(); err != nil {
		return claims.Claim{}, clip.Bytes(err.Error(), 200)
	}
	return c, ""
}

// decisionClaims reads the claims field of a decision answer into d. A
// missing or malformed field leaves ClaimsGiven false and says why in
// ClaimsDropped: the decision itself stands.
func decisionClaims(d *Verdict, fields map[string]json.RawMessage) {
	raw, ok := fields["claims"]
	if !ok {
		d.ClaimsDropped = []string{"the answer has no claims field"}
		return
	}
	kept, dropped, err := parseClaims(raw)
	if err != nil {
		d.ClaimsDropped = []string{err.Error()}
		return
	}
	d.Claims, d.ClaimsGiven, d.ClaimsDropped = kept, true, dropped
}

// ClaimsAnswer is a Claimer's answer: the claims a fact states, each valid,
// and what of the model's answer was dropped and why.
type ClaimsAnswer struct {
	Claims  []claims.Claim
	Dropped []string
	// Raw is the model's answer as received (bounded).
	Raw   string
	Model string
}

// Claimer states the claims of a fact on its own, without deciding
// anything: the store asks it where no decider's answer carried them.
// The model deciders are Claimers.
type Claimer interface {
	Claims(ctx context.Context, text string) (ClaimsAnswer, error)
}

// Claims asks the model for the claims text states, in one small call
// with its own schema, and once more with the error fed back when the
// answer is not the schema's object. Invalid claims are dropped and
// listed, never an error.
func (m *modelDecider) Claims(ctx context.Context, text string) (ClaimsAnswer, error) {
	base := ClaimsAnswer{Model: m.model}
	if err := ctx.Err(); err != nil {
		return base, err
	}
	msgs := []chatMessage{
		{Role: "system", Content: claimsSystemPrompt},
		{Role: "user", Content: claimsUserPrompt(text)},
	}
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		r, err := m.t.chat(ctx, msgs, claimsSchemaName, claimsSchema())
		if err != nil {
			return base, fmt.Errorf("%s claims at %s with %s: %w", m.name, m.base, m.model, err)
		}
		base.Raw = clip.Bytes(r.content, MaxRaw)
		if r.refusal != "" {
			return base, fmt.Errorf("%s claims at %s with %s: %w: %s", m.name, m.base, m.model, ErrRefusal, clip.Bytes(oneLine(r.refusal), 500))
		}
		if r.finish == "content_filter" {
			return base, fmt.Errorf("%s claims at %s with %s: the provider's content filter stopped the answer (finish_reason \"content_filter\")", m.name, m.base, m.model)
		}
		if r.finish == "length" {
			err = fmt.Errorf("%w: %w (%d tokens, finish_reason \"length\")", ErrInvalidDecision, ErrTruncated, MaxAnswerTokens)
		} else {
			var a ClaimsAnswer
			if a, err = parseClaimsAnswer(r.content); err == nil {
				a.Raw, a.Model = base.Raw, base.Model
				return a, nil
			}
		}
		lastErr = err
		msgs = append(msgs,
			chatMessage{Role: "assistant", Content: r.content},
			chatMessage{Role: "user", Content: fmt.Sprintf("Your answer was invalid: %v. Answer again with one JSON object {\"claims\": [...]} in the schema.", err)})
	}
	return base, fmt.Errorf("%s claims with %s at %s: second answer also invalid: %w", m.name, m.model, m.base, lastErr)
}

// parseClaimsAnswer reads a claims-only answer: one object with exactly
// the field claims. Its errors wrap ErrInvalidDecision.
func parseClaimsAnswer(content string) (ClaimsAnswer, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(content), &fields); err != nil || fields == nil {
		return ClaimsAnswer{}, fmt.Errorf("%w: the answer is not one JSON object", ErrInvalidDecision)
	}
	if err := uniqueKeys(content); err != nil {
		return ClaimsAnswer{}, err
	}
	for k := range fields {
		if k != "claims" {
			return ClaimsAnswer{}, fmt.Errorf("%w: unknown field %q", ErrInvalidDecision, clip.Bytes(k, 40))
		}
	}
	raw, ok := fields["claims"]
	if !ok {
		return ClaimsAnswer{}, fmt.Errorf("%w: field \"claims\" is missing", ErrInvalidDecision)
	}
	kept, dropped, err := parseClaims(raw)
	if err != nil {
		return ClaimsAnswer{}, fmt.Errorf("%w: %v", ErrInvalidDecision, err)
	}
	return ClaimsAnswer{Claims: kept, Dropped: dropped}, nil
}
