package reconcile

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/palimpsest-mem/memory/internal/wordlist"
)

// markerFiles holds the marker phrases of the rules decider; each file's
// opening comment says what belongs in it and its format.
//
//go:embed markers/*.txt
var markerFiles embed.FS

// errMarkers marks a malformed marker file. The files are built in, so it
// means the build is broken: the rules refuse to decide rather than miss
// markers.
var errMarkers = errors.New("malformed marker list")

// The built-in markers, read once when the package is initialised and
// never changed; markersErr says why they could not be read.
var correctionMarkers, changeMarkers, markersErr = loadMarkers(markerFiles)

// additionMarkers and weakWords are the phrases of markers/addition.txt
// and the words of markers/weak.txt, read once and never changed.
var additionMarkers, additionErr = readMarkers(markerFiles, "markers/addition.txt")
var weakWords, weakErr = readWeak(markerFiles)

// negationMarkers are the phrases of markers/negation.txt.
var negationMarkers, negationErr = readMarkers(markerFiles, "markers/negation.txt")

// startMarkers are the phrases of markers/start.txt: a time beginning
// with one is when the fact it is told in began.
var startMarkers, startErr = readMarkers(markerFiles, "markers/start.txt")

// hedgeWords are the words of markers/hedge.txt, read once and never
// changed: before a marker, they take it back.
var hedgeWords, hedgeErr = readWords(markerFiles, "markers/hedge.txt")

// readWeak reads markers/weak.txt: one word a line.
func readWeak(fsys fs.FS) ([]string, error) { return readWords(fsys, "markers/weak.txt") }

// readWords reads a marker file of one word a line.
func readWords(fsys fs.FS, file string) ([]string, error) {
	list, err := readMarkers(fsys, file)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(list))
	for i, m := range list {
		if len(m) != 1 {
			return nil, fmt.Errorf("%w: %s: %q is not one word", errMarkers, file, strings.Join(m, " "))
		}
		out[i] = m[0]
	}
	return out, nil
}

// loadMarkers reads the correction and change markers of fsys.
func loadMarkers(fsys fs.FS) (correction, change [][]string, err error) {
	if correction, err = readMarkers(fsys, "markers/correction.txt"); err != nil {
		return nil, nil, err
	}
	if change, err = readMarkers(fsys, "markers/change.txt"); err != nil {
		return nil, nil, err
	}
	return correction, change, nil
}

func readMarkers(fsys fs.FS, file string) ([][]string, error) {
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("markers: %w", err)
	}
	return parseMarkers(file, string(b))
}

// parseMarkers parses a marker file: one phrase a line, in the words the
// rules compare. It is strict: a phrase the rules could never find (not in
// their words, a duplicate, or holding an earlier phrase, which is found
// first) is an error naming the file and line.
func parseMarkers(file, text string) ([][]string, error) {
	var out [][]string
	var lines []int // the line of each phrase of out
	err := wordlist.Parse(file, text, func(n int, line string) error {
		words := strings.Split(line, " ")
		for _, w := range words {
			if why := wordlist.BadWord(w); why != "" {
				return fmt.Errorf("word %q %s", w, why)
			}
		}
		if got := normalize(line); got != line {
			return fmt.Errorf("the rules read %q as %q: write that", line, got)
		}
		for i, m := range out {
			switch {
			case strings.Join(m, " ") == line:
				return fmt.Errorf("phrase %q already on line %d", line, lines[i])
			case findMarker(words, out[i:i+1]) != "":
				return fmt.Errorf("phrase %q holds %q of line %d, which is found first", line, strings.Join(m, " "), lines[i])
			}
		}
		out, lines = append(out, words), append(lines, n)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errMarkers, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s: the list has no phrases", errMarkers, file)
	}
	return out, nil
}
