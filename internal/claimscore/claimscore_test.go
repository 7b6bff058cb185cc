package claimscore

import (
	"errors"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/claims"
)

func TestRead(t *testing.T) {
	cases, err := Read(strings.NewReader(`{"text":"I live in Kazan","claims":[{"subject":"","relation":"lives_in","object":"Kazan","kind":"place"}]}` + "\n\n" + `{"text":"hi","claims":[]}` + "\n"))
	if err != nil || len(cases) != 2 || cases[0].Claims[0].Object != "Kazan" || len(cases[1].Claims) != 0 {
		t.Fatalf("got %+v, %v", cases, err)
	}
	for _, c := range []struct{ text, want string }{
		{``, "no cases"},
		{`{"text":"x"`, "line 1"},
		{`{"text":"","claims":[]}`, "line 1: no text"},
		{"{\"text\":\"x\",\"claims\":[]}\n{\"text\":\"x\",\"claims\":[{\"relation\":\"employer\",\"object\":\"A\"}]}", "line 2: invalid claim"},
		{`{"text":"x","claims":[],"lang":"en"}`, "unknown field"},
	} {
		_, err := Read(strings.NewReader(c.text))
		if !errors.Is(err, ErrData) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want ErrData saying %q", c.text, err, c.want)
		}
	}
}

// TestScore checks the counting: a claim matches by relation, and subject
// and object after Normalize, one to one; kind is not compared.
func TestScore(t *testing.T) {
	lives := claims.Claim{Relation: claims.LivesIn, Object: "Kazan", Kind: claims.Place}
	cases := []Case{
		{Text: "a", Claims: []claims.Claim{lives, {Subject: "sister", Relation: claims.LivesIn, Object: "Kazan"}}},
		{Text: "b", Claims: nil},
		{Text: "c", Claims: []claims.Claim{{Relation: claims.WorksAt, Object: "Contoso"}}},
	}
	got := map[string][]claims.Claim{
		"a": {{Relation: claims.LivesIn, Object: " the KAZAN.", Kind: claims.City}, {Relation: claims.LivesIn, Object: "Kazan"}},
		"b": {{Relation: claims.Likes, Object: "tea"}},
		"c": nil,
	}
	res := Score(cases, func(s string) []claims.Claim { return got[s] })
	if l := res.ByRelation[claims.LivesIn]; l != (Count{Hit: 1, Extracted: 2, Labelled: 2}) {
		t.Errorf("lives_in: %+v", l)
	}
	if res.All != (Count{Hit: 1, Extracted: 3, Labelled: 3}) || res.Empty != 1 || res.Ok != 0 || res.Cases != 3 {
		t.Errorf("all: %+v", res)
	}
	if len(res.Wrong) != 4 { // the second Kazan and tea extra; sister's Kazan and Contoso missed
		t.Errorf("wrong: %q", res.Wrong)
	}
	if p, r := (Count{}).Precision(), (Count{}).Recall(); p != 1 || r != 1 {
		t.Errorf("empty count: %v %v", p, r)
	}
}
