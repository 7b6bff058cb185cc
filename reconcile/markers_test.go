package reconcile

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/palimpsest-mem/memory/eventtime"
)

// TestMarkerFiles reads the built-in marker files with the parser the rules
// use, and checks that each phrase is found in a text holding it and is
// the marker named for it.
func TestMarkerFiles(t *testing.T) {
	if markersErr != nil {
		t.Fatal(markersErr)
	}
	correction, change, err := loadMarkers(markerFiles)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		got, loaded  [][]string
		first, later string
	}{
		{"correction", correctionMarkers, correction, "i was wrong", "на самом деле"},
		{"change", changeMarkers, change, "now", "больше не"},
		{"addition", additionMarkers, additionMarkers, "also", "кроме того"},
	} {
		if len(c.got) < 15 || len(c.loaded) != len(c.got) || strings.Join(c.got[0], " ") != c.first {
			t.Errorf("%s: %d phrases, first %q", c.name, len(c.got), c.got[0])
		}
		for _, m := range c.got {
			phrase := strings.Join(m, " ")
			if got := findMarker(tokens("So, "+strings.ToUpper(phrase)+"!"), c.got); got != phrase {
				t.Errorf("%s: a text holding %q finds %q", c.name, phrase, got)
			}
		}
		if findMarker(tokens("and "+c.later+" too"), c.got) != c.later {
			t.Errorf("%s: %q not found", c.name, c.later)
		}
	}
	entries, err := fs.ReadDir(markerFiles, "markers")
	if err != nil || len(entries) != 7 {
		t.Errorf("marker files %v, %v: want correction.txt, change.txt, addition.txt, negation.txt, start.txt, weak.txt and hedge.txt alone", entries, err)
	}
	if hedgeErr != nil || len(hedgeWords) < 6 || !slices.Contains(hedgeWords, "almost") || !slices.Contains(hedgeWords, "чуть") {
		t.Errorf("hedge: %v, %q", hedgeErr, hedgeWords)
	}
	if negationErr != nil || len(negationMarkers) < 10 || !negated("I never drink coffee") || !negated("Кофе не пью") || negated("I drink coffee") {
		t.Errorf("negation: %v, %d phrases", negationErr, len(negationMarkers))
	}
	if startErr != nil || len(startMarkers) < 8 || startTime(eventtime.Parse("From March I work from home", time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC), "")) != "From March" {
		t.Errorf("start: %v, %d phrases", startErr, len(startMarkers))
	}
	if additionErr != nil || weakErr != nil || len(weakWords) < 40 || weakWords[0] != "monday" {
		t.Errorf("addition: %v; weak: %v, %d words, first %q", additionErr, weakErr, len(weakWords), weakWords)
	}
}

// TestParseMarkersRejects checks that a phrase the rules could never find
// is refused with its file and line, as is a list with none.
func TestParseMarkersRejects(t *testing.T) {
	for _, c := range []struct{ text, at, why string }{
		{"now\nthen", "t.txt:2:", "no newline"},
		{"# c\n now\n", "t.txt:2:", "space at the start"},
		{"now\nno  longer\n", "t.txt:2:", "empty"},
		{"Now\n", "t.txt:1:", "not lowercase"},
		{"ещё\n", "t.txt:1:", "ё"},
		{"sorry, i\n", "t.txt:1:", `has ','`},
		{"e-mail\n", "t.txt:1:", `read "e-mail" as "e mail"`},
		{"x\n\n# c\nnow\nnow\n", "t.txt:5:", "already on line 4"},
		{"moved\nmoved to\n", "t.txt:2:", `holds "moved" of line 1`},
		{"# only a comment\n\n", "t.txt:", "no phrases"},
		{"", "t.txt:", "no phrases"},
	} {
		got, err := parseMarkers("t.txt", c.text)
		if got != nil || !errors.Is(err, errMarkers) || !strings.Contains(err.Error(), c.at) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%q: got %q, %v; want an error at %s saying %s", c.text, got, err, c.at, c.why)
		}
	}
	// A later phrase that an earlier one holds is found in its own right.
	if got, err := parseMarkers("t.txt", "moved to\nmoved\n"); err != nil || len(got) != 2 {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestLoadMarkersRefusesBrokenFile checks that a broken marker file is an
// error naming its file and line, not a list short of a phrase.
func TestLoadMarkersRefusesBrokenFile(t *testing.T) {
	fsys := fstest.MapFS{
		"markers/correction.txt": {Data: []byte("i was wrong\n")},
		"markers/change.txt":     {Data: []byte("now\nNow\n")},
	}
	if _, _, err := loadMarkers(fsys); !errors.Is(err, errMarkers) || !strings.Contains(err.Error(), "markers/change.txt:2:") {
		t.Errorf("got %v", err)
	}
	delete(fsys, "markers/correction.txt")
	if _, _, err := loadMarkers(fsys); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v", err)
	}
}
