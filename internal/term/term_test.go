package term

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestTermString(t *testing.T) {
	for _, c := range []struct {
		t    Term
		want string
	}{
		{Term{"saturday", Word}, "saturday"},
		{Term{"pian", Root}, "pian…"},
		{Term{"mother", Synonym}, "≈mother"},
		{Term{"работ", Root}, "работ…"},
	} {
		if got := c.t.String(); got != c.want {
			t.Errorf("%#v: got %q, want %q", c.t, got, c.want)
		}
	}
	if got := Root.String() + " " + Synonym.String() + " " + Word.String() + " " + Kind(9).String(); got != "root synonym word Kind(9)" {
		t.Errorf("kinds: %q", got)
	}
}

// TestTermJSON checks that JSON holds a term as the string people see, and
// reads it back to the same term.
func TestTermJSON(t *testing.T) {
	in := []Term{{"saturday", Word}, {"pian", Root}, {"mother", Synonym}}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `["saturday","pian…","≈mother"]` {
		t.Fatalf("got %s, %v", b, err)
	}
	var out []Term
	if err := json.Unmarshal(b, &out); err != nil || len(out) != 3 || out[0] != in[0] || out[1] != in[1] || out[2] != in[2] {
		t.Errorf("got %#v, %v", out, err)
	}
}

func TestTermTextRefused(t *testing.T) {
	for _, s := range []string{"", "…", "≈", "≈pian…", "pi…an…", "≈≈mother"} {
		var got Term
		if err := got.UnmarshalText([]byte(s)); !errors.Is(err, ErrBadTerm) || got != (Term{}) {
			t.Errorf("%q: got %#v, %v", s, got, err)
		}
	}
	for _, bad := range []Term{{}, {"x", Kind(3)}, {"", Root}} {
		if _, err := json.Marshal(bad); !errors.Is(err, ErrBadTerm) {
			t.Errorf("%#v: %v", bad, err)
		}
	}
}
