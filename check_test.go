package memory_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Check beside a stream of writes never reports false corruption or
// crashes: it holds writes off while bbolt's page check runs.
func TestCheckBesideWrites(t *testing.T) {
	s, _ := open(t, nil, nil)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 300 {
			if _, err := s.Add(ctx, memory.Note{Text: strings.Repeat("word ", 20) + string(rune('a'+i%26))}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 30 {
		if err := s.Check(ctx); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
}
