package index

import (
	"strings"
	"testing"
	"unicode"
)

// testFrameEN is one parsed line of framesEN.
type testFrameEN struct {
	name  string
	words []string
}

// testParseFramesEN parses framesEN, reporting every malformed line: each
// non-blank line that does not start with # must be "name: words", with a
// unique lowercase hyphenated name and 6 to 25 distinct lowercase words.
func testParseFramesEN(t *testing.T, text string) []testFrameEN {
	t.Helper()
	var frames []testFrameEN
	names := map[string]bool{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			t.Errorf("line %d: want \"name: words\", got %q", n+1, line)
			continue
		}
		if name == "" || strings.Trim(name, "-") != name {
			t.Errorf("line %d: bad frame name %q", n+1, name)
		}
		for _, r := range name {
			if !(r >= 'a' && r <= 'z') && !(r >= '0' && r <= '9') && r != '-' {
				t.Errorf("line %d: frame name %q: want lowercase letters, digits and hyphens", n+1, name)
				break
			}
		}
		if names[name] {
			t.Errorf("line %d: frame %q appears twice", n+1, name)
		}
		names[name] = true
		words := strings.Fields(rest)
		if len(words) < 6 || len(words) > 25 {
			t.Errorf("frame %q: %d words, want 6 to 25", name, len(words))
		}
		seen := map[string]bool{}
		for _, w := range words {
			if w != strings.ToLower(w) {
				t.Errorf("frame %q: word %q is not lowercase", name, w)
			}
			if strings.Trim(w, "-") != w {
				t.Errorf("frame %q: word %q begins or ends with a hyphen", name, w)
			}
			for _, r := range w {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' {
					t.Errorf("frame %q: word %q has %q", name, w, r)
					break
				}
			}
			if seen[w] {
				t.Errorf("frame %q: word %q repeats", name, w)
			}
			seen[w] = true
		}
		frames = append(frames, testFrameEN{name: name, words: words})
	}
	return frames
}

func TestFramesENWellFormed(t *testing.T) {
	frames := testParseFramesEN(t, framesEN)
	if len(frames) < 700 {
		t.Errorf("%d frames, want at least 700", len(frames))
	}
	distinct := map[string]bool{}
	for _, f := range frames {
		for _, w := range f.words {
			distinct[w] = true
		}
	}
	t.Logf("en: %d frames, %d distinct words", len(frames), len(distinct))
}

// TestFramesENExamples checks that the frames join the examples that
// motivate them: pairs of facts about the same thing that share no word.
func TestFramesENExamples(t *testing.T) {
	frames := testParseFramesEN(t, framesEN)
	byName := map[string]map[string]bool{}
	for _, f := range frames {
		set := map[string]bool{}
		for _, w := range f.words {
			set[w] = true
		}
		byName[f.name] = set
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
		set, ok := byName[c.frame]
		if !ok {
			t.Errorf("no frame %q", c.frame)
			continue
		}
		if !set[c.a] || !set[c.b] {
			t.Errorf("frame %q should hold both %q and %q", c.frame, c.a, c.b)
		}
	}
}
