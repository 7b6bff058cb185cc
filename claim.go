package memory

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/reconcile"
)

// Claim is one (subject, relation, object) statement a fact makes, with the
// kind of its object; Subject "" is the user. It is stored in the fact's own
// record, written in the same transaction and immutable with it.
type Claim = claims.Claim

// Relation is a relation of the closed vocabulary ("works_at", "lives_in",
// …); Relations lists them, ParseRelation checks a name.
type Relation = claims.Relation

// EntityKind is the kind of an entity ("company", "city", "person", …).
type EntityKind = claims.Kind

// The relations of the vocabulary.
const (
	RelWorksAt    = claims.WorksAt
	RelJobTitle   = claims.JobTitle
	RelLivesIn    = claims.LivesIn
	RelStudiesAt  = claims.StudiesAt
	RelPartner    = claims.Partner
	RelChild      = claims.Child
	RelParent     = claims.Parent
	RelSibling    = claims.Sibling
	RelFriend     = claims.Friend
	RelHasPet     = claims.HasPet
	RelOwns       = claims.Owns
	RelDrives     = claims.Drives
	RelSpeaks     = claims.Speaks
	RelAllergicTo = claims.AllergicTo
	RelTakes      = claims.Takes
	RelDiet       = claims.Diet
	RelMemberOf   = claims.MemberOf
	RelPlays      = claims.Plays
	RelLikes      = claims.Likes
	RelDislikes   = claims.Dislikes
)

// Relations returns every relation of the vocabulary.
func Relations() []Relation { return claims.Relations() }

// ParseRelation checks the name of a relation; an unknown one is
// ErrInvalidClaim.
func ParseRelation(s string) (Relation, error) {
	r, err := claims.ParseRelation(s)
	if err != nil {
		return r, fmt.Errorf("%w: %w", ErrInvalidClaim, err)
	}
	return r, nil
}

// NormalizeName is the key by which entities are matched: case-folded,
// spaces collapsed, outer punctuation and a leading article dropped.
func NormalizeName(name string) string { return claims.Normalize(name) }

// MaxClaims bounds the claims of one fact; MaxNameLen a name's bytes.
const (
	MaxClaims  = 32
	MaxNameLen = 256
)

// validClaims checks a note's claims: each must pass the vocabulary's rules,
// and names must be short, valid UTF-8 without control characters.
func validClaims(cs []Claim) error {
	if len(cs) > MaxClaims {
		return fmt.Errorf("%w: %d claims, at most %d", ErrInvalidClaim, len(cs), MaxClaims)
	}
	for i, c := range cs {
		for _, f := range []struct{ what, v string }{{"subject", c.Subject}, {"relation", string(c.Relation)},
			{"object", c.Object}, {"kind", string(c.Kind)}} {
			if len(f.v) > MaxNameLen {
				return fmt.Errorf("%w: claim %d: %s of %d bytes, at most %d", ErrInvalidClaim, i, f.what, len(f.v), MaxNameLen)
			}
			if !utf8.ValidString(f.v) {
				return fmt.Errorf("%w: claim %d: %s is not valid UTF-8", ErrInvalidClaim, i, f.what)
			}
			if strings.IndexFunc(f.v, unicode.IsControl) >= 0 {
				return fmt.Errorf("%w: claim %d: %s holds a control character", ErrInvalidClaim, i, f.what)
			}
		}
		if err := c.Validate(); err != nil {
			return fmt.Errorf("claim %d: %w", i, err) // wraps ErrInvalidClaim
		}
	}
	return nil
}

// claimsOf is how a note's claims are stored: nil extracts them from text.
func claimsOf(n *Note, text string) ([]kv.Claim, error) {
	cs := n.Claims
	if cs == nil {
		cs = claims.Extract(text)
	}
	if err := validClaims(cs); err != nil {
		return nil, err
	}
	return toKVClaims(cs), nil
}

func toKVClaims(cs []Claim) []kv.Claim {
	if len(cs) == 0 {
		return nil
	}
	out := make([]kv.Claim, len(cs))
	for i, c := range cs {
		out[i] = kv.Claim{Subject: c.Subject, Relation: string(c.Relation), Object: c.Object, Kind: string(c.Kind)}
	}
	return out
}

func fromKVClaims(cs []kv.Claim) []Claim {
	if len(cs) == 0 {
		return nil
	}
	out := make([]Claim, len(cs))
	for i, c := range cs {
		out[i] = Claim{Subject: c.Subject, Relation: Relation(c.Relation), Object: c.Object, Kind: EntityKind(c.Kind)}
	}
	return out
}

// Where a fact's claims came from, for Decision.ClaimsFrom.
const (
	// ClaimsFromCaller: the note's own Claims.
	ClaimsFromCaller = "caller"
	// ClaimsFromModel: the model's, from its decision or a claims call.
	ClaimsFromModel = "model"
	// ClaimsFromRules: found in the text by the built-in rules.
	ClaimsFromRules = "rules"
)

// claimChoice is which claims Remember stores with a new fact.
type claimChoice struct {
	// set: claims replace the note's (the model's); else the note's
	// claims — the caller's or the rules' — stay.
	set    bool
	claims []kv.Claim
	from   string
	note   string
}

// modelClaims keeps the model's claims that pass the store's rules for a
// claim, at most MaxClaims, and says which it dropped and why.
func modelClaims(cs []Claim) (kept []kv.Claim, dropped []string) {
	var ok []Claim
	for i, c := range cs {
		switch err := validClaims([]Claim{c}); {
		case err != nil:
			dropped = append(dropped, fmt.Sprintf("model claim %d: %v", i+1, err))
		case len(ok) == MaxClaims:
			dropped = append(dropped, fmt.Sprintf("model claim %d: more than %d claims", i+1, MaxClaims))
		default:
			ok = append(ok, c)
		}
	}
	return toKVClaims(ok), dropped
}

// claimsFor chooses the claims of a new fact: the caller's when the note
// gives them; else the model's when the decision carries them (its invalid
// ones dropped and listed); else, where the decider gave no word on claims
// and a Claimer is configured, those of one claims-only call; else the
// rules'. A failed claims call, or a decision whose claims were unusable,
// leaves the rules' claims and says why. The decider failing (v.fallback)
// means no claims call: the same server would likely fail again, and the
// fallback already says so; nor does a noop, which stores nothing (but for
// a target changed meanwhile, which keeps the rules' claims).
func (s *Store) claimsFor(ctx context.Context, n *Note, text string, d reconcile.Verdict, v *judgement) claimChoice {
	if n.Claims != nil {
		return claimChoice{from: ClaimsFromCaller}
	}
	rules := claimChoice{from: ClaimsFromRules}
	if v.fallback != "" {
		rules.note = "the decider failed: the rules' claims"
		return rules
	}
	if d.ClaimsGiven {
		kept, dropped := modelClaims(d.Claims)
		return claimChoice{set: true, claims: kept, from: ClaimsFromModel,
			note: droppedNote(append(slices.Clone(d.ClaimsDropped), dropped...))}
	}
	if len(d.ClaimsDropped) > 0 {
		rules.note = droppedNote(d.ClaimsDropped) + ": the rules' claims"
		return rules
	}
	if s.claimer == nil || v.d.Action == ActionNoop {
		return rules
	}
	a, err := s.claimer.Claims(ctx, text)
	if err != nil {
		// In the store's own words, as a failed decision's cause is.
		rules.note = fmt.Sprintf("claims call failed: %s: the rules' claims", reconcile.AsFailure(err).Text())
		return rules
	}
	kept, dropped := modelClaims(a.Claims)
	return claimChoice{set: true, claims: kept, from: ClaimsFromModel,
		note: droppedNote(append(slices.Clone(a.Dropped), dropped...))}
}

// droppedNote joins what was dropped of the model's claims, "" for none.
func droppedNote(dropped []string) string {
	if len(dropped) == 0 {
		return ""
	}
	return "dropped " + strings.Join(dropped, "; ")
}
