package fold

import (
	"strings"
	"testing"
)

func TestRune(t *testing.T) {
	if got := strings.Map(Rune, "Ёлка ёж WORK Straße"); got != "елка еж work straße" {
		t.Errorf("got %q", got)
	}
}

func TestPrefix(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{{"работа", 4, "рабо"}, {"job", 4, "job"}, {"", 2, ""}, {"piano", 0, ""}, {"pianist", 5, "piani"}} {
		if got := Prefix(c.s, c.n); got != c.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
