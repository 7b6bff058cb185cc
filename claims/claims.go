// Package claims finds in a fact's text the claims it states — (subject,
// relation, object) over a closed vocabulary of relations, the same in
// English and Russian — by rules read from built-in pattern files
// (patterns/*.txt), so that a memory without a model still builds a graph.
//
// It is for package memory, reconcile (the relations a model answers with),
// internal/claimscore and the bench. It is self-contained: it imports nothing of this module but
// the internal helpers (internal/wordlist for the pattern files' line format,
// internal/fold for case folding), so the store and reconcile can both
// depend on it without a cycle.
//
// Stable: what package memory re-exports as aliases (Claim with its JSON
// keys, Relation and its values, Kind, ErrInvalidClaim); every other
// identifier changes with package memory. The imports test (imports_test.go
// in the module root) enforces that claims imports of this module only
// internal packages.
package claims

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/internal/fold"
)

// Relation is one of a closed vocabulary, the same in English and Russian.
type Relation string

// The relations, named as they are stored and shown.
const (
	WorksAt    Relation = "works_at"
	JobTitle   Relation = "job_title"
	LivesIn    Relation = "lives_in"
	StudiesAt  Relation = "studies_at"
	Partner    Relation = "partner"
	Child      Relation = "child"
	Parent     Relation = "parent"
	Sibling    Relation = "sibling"
	Friend     Relation = "friend"
	HasPet     Relation = "has_pet"
	Owns       Relation = "owns"
	Drives     Relation = "drives"
	Speaks     Relation = "speaks"
	AllergicTo Relation = "allergic_to"
	Takes      Relation = "takes" // a medication
	Diet       Relation = "diet"
	MemberOf   Relation = "member_of"
	Plays      Relation = "plays" // an instrument or a sport
	Likes      Relation = "likes"
	Dislikes   Relation = "dislikes"
)

// Relations returns every relation, in a fixed order (the order above);
// the slice is the caller's.
func Relations() []Relation {
	return []Relation{WorksAt, JobTitle, LivesIn, StudiesAt, Partner, Child, Parent, Sibling, Friend,
		HasPet, Owns, Drives, Speaks, AllergicTo, Takes, Diet, MemberOf, Plays, Likes, Dislikes}
}

// ErrUnknownRelation is returned (wrapped) for a relation outside the
// vocabulary.
var ErrUnknownRelation = errors.New("unknown relation")

// ErrInvalidClaim is returned (wrapped) by Validate for a malformed claim.
var ErrInvalidClaim = errors.New("invalid claim")

// ParseRelation returns the relation named s exactly as Relations spells
// it ("works_at"), or an error wrapping ErrUnknownRelation.
func ParseRelation(s string) (Relation, error) {
	if r := Relation(s); slices.Contains(Relations(), r) {
		return r, nil
	}
	return "", fmt.Errorf("%w %q (known: %s)", ErrUnknownRelation, s, relationList())
}

func relationList() string {
	var b strings.Builder
	for i, r := range Relations() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(r))
	}
	return b.String()
}

// SingleValued reports whether a subject holds at most one object of r at
// one moment: lives_in, partner, job_title, works_at and diet. A second
// current claim of such a relation on the same subject is a signal for
// reconciliation to judge, never a replacement by itself. works_at is one
// of them although people hold two jobs: "works at B" after "works at A"
// is far more often a change of job, and the signal only asks the
// question. studies_at, speaks, likes and the rest commonly hold many.
func (r Relation) SingleValued() bool {
	switch r {
	case LivesIn, Partner, JobTitle, WorksAt, Diet:
		return true
	}
	return false
}

// Kind is what an entity is.
type Kind string

// The kinds of entity.
const (
	Person       Kind = "person"
	Company      Kind = "company"
	Organization Kind = "organization"
	School       Kind = "school"
	City         Kind = "city"
	Country      Kind = "country"
	Place        Kind = "place" // a city, country or region, when the rules cannot tell which
	Pet          Kind = "pet"
	Language     Kind = "language"
	Medication   Kind = "medication"
	Food         Kind = "food"
	Instrument   Kind = "instrument"
	Vehicle      Kind = "vehicle"
	Sport        Kind = "sport"
	Job          Kind = "job"      // the object of job_title
	DietKind     Kind = "diet"     // the object of diet: "vegetarian"
	Activity     Kind = "activity" // "hiking", "chess"
	Thing        Kind = "thing"    // anything else
)

// Kinds returns every kind, in a fixed order; the slice is the caller's.
func Kinds() []Kind {
	return []Kind{Person, Company, Organization, School, City, Country, Place, Pet, Language,
		Medication, Food, Instrument, Vehicle, Sport, Job, DietKind, Activity, Thing}
}

// Claim is one (subject, relation, object) a fact states. Its JSON keys
// are a contract: memctl's --json and the MCP tools print claims with them.
type Claim struct {
	// Subject is "" for the user; else whom the fact is about, as written:
	// a relative or friend by the noun that names them ("sister" for "my
	// sister", "сестра" for "моя сестра"), or a name ("Anna"); a Russian
	// noun after "у" is put back in the nominative ("у сына" gives "сын"),
	// so only its last two letters may differ from the text.
	Subject  string   `json:"subject"`
	Relation Relation `json:"relation"`
	// Object is as written in the text, trimmed of articles and quotes
	// ("Contoso", "Kazan", "Rex"); a Russian name after a preposition or
	// verb is put back in the nominative by a few suffix rules ("в Казани"
	// gives "Казань"), so only its last two letters may differ from the text.
	Object string `json:"object"`
	Kind   Kind   `json:"kind"` // the object's kind; "" when unknown
}

// MaxObjectRunes bounds a claim's subject and object.
const MaxObjectRunes = 200

// Validate checks a claim given by a caller or a model: a known relation,
// an object with a non-empty Normalize key within MaxObjectRunes runes, a
// subject within the same bound, both valid UTF-8, and a known or empty
// kind. Its errors wrap ErrInvalidClaim (and ErrUnknownRelation).
func (c Claim) Validate() error {
	if _, err := ParseRelation(string(c.Relation)); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidClaim, err)
	}
	for _, f := range []struct{ name, v string }{{"subject", c.Subject}, {"object", c.Object}} {
		switch {
		case !utf8.ValidString(f.v):
			return fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalidClaim, f.name)
		case utf8.RuneCountInString(f.v) > MaxObjectRunes:
			return fmt.Errorf("%w: %s longer than %d runes", ErrInvalidClaim, f.name, MaxObjectRunes)
		}
	}
	if Normalize(c.Object) == "" {
		return fmt.Errorf("%w: empty object %q", ErrInvalidClaim, c.Object)
	}
	if c.Subject != "" && Normalize(c.Subject) == "" {
		return fmt.Errorf("%w: subject %q has no name (\"\" is the user)", ErrInvalidClaim, c.Subject)
	}
	if c.Kind != "" && !slices.Contains(Kinds(), c.Kind) {
		return fmt.Errorf("%w: unknown kind %q", ErrInvalidClaim, c.Kind)
	}
	return nil
}

// articles are the leading words Normalize drops: "the Louvre" is the
// Louvre.
var articles = []string{"the", "a", "an"}

// Normalize returns the key by which entities are matched: name case-folded
// with ё as е, runs of space made one space, punctuation, symbols and
// quotes at either end dropped, and a leading English article dropped. Inner
// punctuation stays ("at&t", "ростов-на-дону"). It does not stem: "Казани"
// and "Казань" are different keys (Extract writes the nominative).
func Normalize(name string) string {
	name = strings.ToValidUTF8(name, "")
	f := strings.Fields(strings.Map(fold.Rune, name))
	for {
		s := strings.Join(f, " ")
		s = strings.TrimFunc(s, func(r rune) bool {
			return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
		})
		f = strings.Fields(s)
		if len(f) > 1 && slices.Contains(articles, f[0]) {
			f = f[1:]
			continue
		}
		return s
	}
}
