package memory

import (
	"strings"
	"unicode"
)

// The rules below stand in for the claims package until it is merged:
// extraction finds nothing, normalization folds case and spaces.

func extractClaims(text string) []Claim { return nil }

func normalizeName(name string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(name), unicode.IsSpace), " ")
}

func singleValued(r Relation) bool {
	switch r {
	case "lives_in", "partner", "job_title", "works_at":
		return true
	}
	return false
}

func validateClaimRules(c Claim) error {
	if c.Subject == "" || c.Relation == "" || c.Object == "" {
		return errEmptyClaimField
	}
	return nil
}
