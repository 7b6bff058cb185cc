package reconcile

import (
	"errors"
	"testing"
)

// A claims-only answer that names a key twice is refused, as a decision's
// is: the last value would otherwise win unseen.
func TestClaimsAnswerRefusesDuplicateKeys(t *testing.T) {
	for _, content := range []string{
		`{"claims":[],"claims":[{"subject":"","relation":"lives_in","object":"Oslo","kind":"city"}]}`,
		`{"claims":[{"subject":"","relation":"lives_in","relation":"works_at","object":"Oslo","kind":"city"}]}`,
	} {
		_, err := parseClaimsAnswer(content)
		var f *Failure
		if !errors.Is(err, ErrInvalidDecision) || !errors.As(err, &f) || f.Reason != ReasonDuplicateKey {
			t.Errorf("%s: %v, want a duplicate key refused", content, err)
		}
	}
	if a, err := parseClaimsAnswer(`{"claims":[{"subject":"","relation":"lives_in","object":"Oslo","kind":"city"}]}`); err != nil || len(a.Claims) != 1 {
		t.Errorf("a plain answer: %+v, %v", a, err)
	}
}
