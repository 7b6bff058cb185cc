package claims_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/claims"
)

func TestRelations(t *testing.T) {
	rs := claims.Relations()
	if len(rs) != 20 || rs[0] != claims.WorksAt || rs[19] != claims.Dislikes {
		t.Fatalf("Relations() = %v", rs)
	}
	rs[0] = "changed"
	if claims.Relations()[0] != claims.WorksAt {
		t.Error("Relations shares its slice with the caller")
	}
	seen := map[claims.Relation]bool{}
	for _, r := range claims.Relations() {
		if seen[r] {
			t.Errorf("%s twice", r)
		}
		seen[r] = true
		if got, err := claims.ParseRelation(string(r)); err != nil || got != r {
			t.Errorf("ParseRelation(%q) = %q, %v", r, got, err)
		}
	}
	for _, s := range []string{"", "Works_at", "works at", "employer", " lives_in"} {
		if _, err := claims.ParseRelation(s); !errors.Is(err, claims.ErrUnknownRelation) {
			t.Errorf("ParseRelation(%q) = %v, want ErrUnknownRelation", s, err)
		}
	}
}

func TestSingleValued(t *testing.T) {
	var single []claims.Relation
	for _, r := range claims.Relations() {
		if r.SingleValued() {
			single = append(single, r)
		}
	}
	want := []claims.Relation{claims.WorksAt, claims.JobTitle, claims.LivesIn, claims.Partner, claims.Diet}
	if !slices.Equal(single, want) {
		t.Errorf("single-valued: %v, want %v", single, want)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"Contoso":             "contoso",
		"  New   York ":       "new york",
		"\"Rex\"":             "rex",
		"«Северсталь»":        "северсталь",
		"Ёлкино":              "елкино",
		"the Louvre":          "louvre",
		"The 'Chess Club'.":   "chess club",
		"an apple":            "apple",
		"the":                 "the",
		"AT&T":                "at&t",
		"Ростов-на-Дону!":     "ростов-на-дону",
		"...":                 "",
		"":                    "",
		"Theatre":             "theatre",
		"A":                   "a",
		"bad\xffutf8":         "badutf8",
		"Mail.ru":             "mail.ru",
		"St Mary's Hospital,": "st mary's hospital",
	} {
		if got := claims.Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := claims.Claim{Relation: claims.WorksAt, Object: "Contoso", Kind: claims.Company}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid claim: %v", err)
	}
	for _, c := range []struct {
		name string
		c    claims.Claim
		want string
	}{
		{"unknown relation", claims.Claim{Relation: "employer", Object: "Contoso"}, "unknown relation"},
		{"empty object", claims.Claim{Relation: claims.WorksAt}, "empty object"},
		{"object of punctuation", claims.Claim{Relation: claims.WorksAt, Object: " «» "}, "empty object"},
		{"long object", claims.Claim{Relation: claims.Likes, Object: strings.Repeat("я", 201)}, "object longer than 200"},
		{"long subject", claims.Claim{Subject: strings.Repeat("a", 201), Relation: claims.Likes, Object: "x"}, "subject longer than 200"},
		{"bad utf-8", claims.Claim{Relation: claims.Likes, Object: "caf\xe9"}, "not valid UTF-8"},
		{"subject of nothing", claims.Claim{Subject: "!", Relation: claims.Likes, Object: "tea"}, "subject"},
		{"unknown kind", claims.Claim{Relation: claims.Likes, Object: "tea", Kind: "beverage"}, "unknown kind"},
	} {
		err := c.c.Validate()
		if !errors.Is(err, claims.ErrInvalidClaim) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrInvalidClaim saying %q", c.name, err, c.want)
		}
	}
	if err := (claims.Claim{Relation: "x", Object: "y"}).Validate(); !errors.Is(err, claims.ErrUnknownRelation) {
		t.Errorf("unknown relation does not wrap ErrUnknownRelation: %v", err)
	}
	edge := claims.Claim{Subject: "сестра", Relation: claims.LivesIn, Object: strings.Repeat("я", 200)}
	if err := edge.Validate(); err != nil {
		t.Errorf("200 runes: %v", err)
	}
}

// TestRolesAndCues checks the words a search reads from the rules: role
// nouns by the relation whose object they name, and cue words by the
// relation they say, without the function words every pattern holds.
func TestRolesAndCues(t *testing.T) {
	roles := claims.Roles()
	for rel, word := range map[claims.Relation]string{claims.Sibling: "sister", claims.HasPet: "собака", claims.Partner: "wife"} {
		if !slices.Contains(roles[rel], word) {
			t.Errorf("Roles()[%s] = %v, want %q among them", rel, roles[rel], word)
		}
	}
	cues := claims.Cues()
	for rel, word := range map[claims.Relation]string{claims.LivesIn: "lived", claims.WorksAt: "работаю", claims.HasPet: "dog"} {
		if !slices.Contains(cues[rel], word) {
			t.Errorf("Cues()[%s] = %v, want %q among them", rel, cues[rel], word)
		}
	}
	for rel, ws := range cues {
		for _, w := range []string{"i", "my", "at", "in", "the", "я", "в"} {
			if slices.Contains(ws, w) {
				t.Errorf("Cues()[%s] holds the function word %q", rel, w)
			}
		}
	}
	// The maps are the caller's.
	roles[claims.Sibling][0] = "changed"
	if claims.Roles()[claims.Sibling][0] == "changed" {
		t.Error("Roles shares its slices")
	}
}
