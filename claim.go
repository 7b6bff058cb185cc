package memory

// Claim is one (subject, relation, object) statement a fact makes, with the
// kind of its object. It is stored in the fact's own record, written in the
// same transaction and immutable with it.
//
// These types are defined here until the claims package (rule-based
// extraction, the closed vocabulary of relations) is merged; they then become
// aliases of its types with the same fields and names.
type Claim struct {
	Subject  string
	Relation Relation
	Object   string
	Kind     EntityKind
}

// Relation is a relation of the closed vocabulary ("works_at", "lives_in", …).
type Relation string

// EntityKind is the kind of an entity ("company", "city", "person", …).
type EntityKind string
