package claims_test

import (
	"os"
	"testing"

	"github.com/palimpsest-mem/memory/claims"
	"github.com/palimpsest-mem/memory/internal/claimscore"
)

// TestExtractDevSet holds the rules to their figures on the labelled dev
// set (`go run ./bench claims` prints them per relation): the thresholds
// sit a little under what the rules reach, so a change that loses claims
// or finds wrong ones fails here.
func TestExtractDevSet(t *testing.T) {
	f, err := os.Open("../testdata/claims.dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := claimscore.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 150 {
		t.Fatalf("the dev set has %d facts, want at least 150", len(cases))
	}
	res := claimscore.Score(cases, claims.Extract)
	t.Logf("precision %.3f, recall %.3f (%d matched of %d extracted, %d labelled)",
		res.All.Precision(), res.All.Recall(), res.All.Hit, res.All.Extracted, res.All.Labelled)
	if p, r := res.All.Precision(), res.All.Recall(); p < 0.95 || r < 0.92 {
		for _, w := range res.Wrong {
			t.Log(w)
		}
		t.Errorf("precision %.3f (want ≥ 0.95), recall %.3f (want ≥ 0.92)", p, r)
	}
	for _, rel := range claims.Relations() {
		c := res.ByRelation[rel]
		if c.Labelled == 0 {
			t.Errorf("%s: no labelled claim in the dev set", rel)
			continue
		}
		if c.Recall() < 0.7 || c.Precision() < 0.7 {
			t.Errorf("%s: precision %.2f, recall %.2f (want ≥ 0.70 each)", rel, c.Precision(), c.Recall())
		}
	}
	if res.Ok < res.Empty-2 {
		t.Errorf("%d of %d facts with no claim got claims", res.Empty-res.Ok, res.Empty)
	}
}
