package inspect

import (
	"strings"
	"testing"
)

// fitText gives back s when it fits, else a prefix of s and an ellipsis
// that fits, else "", at both weights.
func TestFitText(t *testing.T) {
	for _, s := range []string{"", "Lyon", "I work at Acme Corp in Lyon since March", "Я работаю в Казани с марта", "東京で働いています", "x"} {
		for _, bold := range []bool{false, true} {
			for _, maxW := range []float64{0, 5, 12, 40, 120, 1000} {
				got := fitText(s, 11.5, bold, maxW)
				switch {
				case textWidth(s, 11.5, bold) <= maxW:
					if got != s {
						t.Errorf("fitText(%q, %v, %v) = %q; it fits whole", s, bold, maxW, got)
					}
				case got == "":
				case !strings.HasSuffix(got, "…") || !strings.HasPrefix(s, strings.TrimSuffix(got, "…")):
					t.Errorf("fitText(%q, %v, %v) = %q, not a prefix and an ellipsis", s, bold, maxW, got)
				case textWidth(got, 11.5, bold) > maxW:
					t.Errorf("fitText(%q, %v, %v) = %q is %.1f wide", s, bold, maxW, got, textWidth(got, 11.5, bold))
				}
			}
		}
	}
	if textWidth("Lyon", 10, true) <= textWidth("Lyon", 10, false) {
		t.Error("bold is not wider")
	}
}
