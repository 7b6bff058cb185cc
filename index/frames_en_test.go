package index

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// testFramesWellFormed checks what the parser leaves to policy: 6 to 25
// words a frame, names in lowercase ASCII letters, digits and hyphens for
// English, no digits in Russian, and at least 700 frames.
func testFramesWellFormed(t *testing.T, lang string) []entry {
	t.Helper()
	frames := testList(t, "frames", lang)
	for _, f := range frames {
		if len(f.words) < 6 || len(f.words) > 25 {
			t.Errorf("line %d: frame %q has %d words, want 6 to 25", f.line, f.name, len(f.words))
		}
		if lang == "ru" {
			for _, w := range append([]string{f.name}, f.words...) {
				if strings.ContainsFunc(w, unicode.IsDigit) {
					t.Errorf("line %d: frame %q: %q has a digit", f.line, f.name, w)
				}
			}
		}
		for _, r := range f.name {
			if lang == "en" && !(r >= 'a' && r <= 'z') && !(r >= '0' && r <= '9') && r != '-' {
				t.Errorf("line %d: frame name %q: want lowercase letters, digits and hyphens", f.line, f.name)
				break
			}
		}
	}
	if len(frames) < 700 {
		t.Errorf("%d frames, want at least 700", len(frames))
	}
	return frames
}

func TestFramesENWellFormed(t *testing.T) {
	frames := testFramesWellFormed(t, "en")
	t.Logf("en: %d frames, %d distinct words", len(frames), distinctWords(frames))
}

// TestFramesENExamples checks that the frames join the examples that
// motivate them: pairs of facts about the same thing that share no word.
func TestFramesENExamples(t *testing.T) {
	byName := map[string][]string{}
	for _, f := range testList(t, "frames", "en") {
		byName[f.name] = f.words
	}
	for _, c := range []struct {
		frame string
		a, b  string
	}{
		{"coffee-order", "black", "oat"},
		{"coffee-order", "sugar", "espresso"},
		{"broken-bone", "broken", "plaster"},
		{"broken-bone", "cast", "fracture"},
		{"landlord", "landlord", "rent"},
	} {
		words, ok := byName[c.frame]
		if !ok {
			t.Errorf("no frame %q", c.frame)
			continue
		}
		if !slices.Contains(words, c.a) || !slices.Contains(words, c.b) {
			t.Errorf("frame %q should hold both %q and %q", c.frame, c.a, c.b)
		}
	}
}
