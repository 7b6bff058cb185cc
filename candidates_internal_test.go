package memory

import (
	"testing"

	"github.com/palimpsest-mem/memory/index"
)

// TestOverlapCountsWholeTerms checks that the overlap counts shared words
// and synonym sets but not shared roots, which are no whole words.
func TestOverlapCountsWholeTerms(t *testing.T) {
	q := index.Terms{Words: []string{"mother", "piano", "saturday"}}
	d := index.Terms{Words: []string{"≈mother", "pianist", "saturday"}}
	why := index.Why{Terms: []Term{{Text: "saturday"}, {Text: "mother", Kind: TermSynonym}, {Text: "pian", Kind: TermRoot}}}
	if got := overlap(q, d, why); got != 0.5 {
		t.Errorf("overlap %v, want 2 shared of 4 = 0.5", got)
	}
}
