package memory

import (
	"strings"
	"testing"
)

// The fast path of promptText gives what folding gives.
func FuzzPromptText(f *testing.F) {
	for _, s := range []string{"", " ", "a b", "a  b", " a", "a ", "a\nb", "a\tb", "a\u00a0b", "Я живу в Казани.", "a\u2028b", "x\x7fy", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := promptText(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("promptText(%q) = %q, want %q", s, got, want)
		}
	})
}
