package memory_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Random byte flips in copies of a real store file: Open or Check may
// report corruption, or find the flips harmless (free pages, padding), but
// the process never dies. bbolt's own page check runs in a goroutine where
// a panic cannot be recovered; a structural walk of the pages guards it.
func TestRandomByteFlipsNeverCrash(t *testing.T) {
	dir := t.TempDir()
	c := newClock("2026-01-01")
	s, path := open(t, c, nil)
	for i := range 300 {
		f := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: fmt.Sprint(i % 4), Text: fmt.Sprintf("fact %d about my piano lessons", i)}))
		if i%3 == 0 {
			must[memory.Fact](t)(s.Supersede(ctx, f.ID, memory.Note{User: fmt.Sprint(i % 4), Text: "a newer version"}))
		}
	}
	s.Close()
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	detected := 0
	const tries = 150
	for i := range tries {
		b := append([]byte(nil), orig...)
		for range 1 + rng.IntN(4) {
			b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
		}
		p := filepath.Join(dir, fmt.Sprintf("flip%d.db", i))
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := memory.Open(p, 0, &memory.Options{NoSync: true})
		if err != nil {
			detected++
			continue
		}
		if st.Check(ctx) != nil {
			detected++
		}
		st.Close()
		os.Remove(p)
	}
	if detected == 0 {
		t.Error("no flip was ever detected: the test is not reaching the data")
	}
	t.Logf("%d of %d damaged copies reported", detected, tries)
}
