package claims_test

import (
	"testing"

	"github.com/palimpsest-mem/memory/claims"
)

// BenchmarkExtract times Extract on short chat facts, English and Russian,
// with and without claims: every write pays it.
func BenchmarkExtract(b *testing.B) {
	texts := []string{"I play the violin every Sunday evening, note 12", "my sister lives in Lisbon with her husband", "я работаю учителем в школе, запись 3", "We keep two cats and an old parrot named Kesha.", "Last spring I started learning to make sourdough bread at home and it mostly works."}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		claims.Extract(texts[i%len(texts)])
	}
}
