package memory_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

var flips = flag.Int("flips", 150, "damaged copies TestRandomByteFlipsNeverCrash tries")

// Random byte flips in copies of a real store file: Open or Check reports
// corruption, or the flips are harmless (free pages, padding) and every
// answer is what the undamaged file gives: never a crash, never a silently
// wrong answer. bbolt's own page check runs in a goroutine where a panic
// cannot be recovered; a structural walk of the pages guards it.
func TestRandomByteFlipsNeverCrash(t *testing.T) {
	dir := t.TempDir()
	c := newClock("2026-01-01")
	s, path := open(t, c, nil)
	for i := range 300 {
		f := must[memory.Fact](t)(s.Add(ctx, memory.Note{User: fmt.Sprint(i % 4), Text: fmt.Sprintf("fact %d about my piano lessons", i)}))
		if i%3 == 0 {
			must[memory.Fact](t)(s.Supersede(ctx, fmt.Sprint(i%4), f.ID, memory.Note{Text: "a newer version"}))
		}
	}
	want, err := answers(s)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	detected, harmless := 0, 0
	for i := range *flips {
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
		} else if got, err := answers(st); err != nil {
			detected++ // an answer refused with an error is not a wrong one
		} else if got != want {
			t.Errorf("copy %d: Check passed, but the answers differ from the undamaged file's", i)
		} else {
			harmless++
		}
		st.Close()
		os.Remove(p)
	}
	if detected == 0 {
		t.Error("no flip was ever detected: the test is not reaching the data")
	}
	t.Logf("%d damaged copies: %d reported, %d harmless (every answer unchanged)", *flips, detected, harmless)
}

// answers is everything a store can tell: its export (facts, logs,
// decisions) and each id read on its own through the index of ids.
func answers(s *memory.Store) (string, error) {
	var b strings.Builder
	if err := s.Export(ctx, &b); err != nil {
		return "", err
	}
	for id := uint64(1); id <= 420; id++ {
		for u := range 4 {
			f, err := s.Get(ctx, fmt.Sprint(u), id)
			fmt.Fprintf(&b, "%d %d %v %v %v\n", id, u, f.Text, f.State(), err)
		}
	}
	for u := range 4 {
		cur, err := s.List(ctx, fmt.Sprint(u), nil)
		fmt.Fprintf(&b, "%d %v %v\n", u, ids(cur), err)
	}
	return b.String(), nil
}
