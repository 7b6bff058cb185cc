package memory_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// The candidate index a store keeps beside it answers the next process as
// the store is, whatever happened to the file in between: written on with
// the index closed, restored from a backup, or nothing at all.
func TestKeptIndexFollowsTheStoreAcrossProcesses(t *testing.T) {
	path := filepath.Join(privateDir(t), "memory.db")
	// Durable: Close waits for the kept index to reach its files, so each
	// next Open catches up from its marker instead of, some of the time,
	// building it again (which would pass without the checks it tests).
	opts := &memory.Options{}
	open := func() *memory.Store {
		t.Helper()
		s := must[*memory.Store](t)(memory.Open(path, 0, opts))
		t.Cleanup(func() { s.Close() })
		return s
	}
	closeStore := func(s *memory.Store) {
		t.Helper()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	wantFound := func(s *memory.Store, text string, want ...uint64) {
		t.Helper()
		got := candidateIDs(t, s, "", text)
		for _, id := range want {
			if !slices.Contains(got, id) {
				t.Errorf("lookup of %q: %v, want %d among them", text, got, id)
			}
		}
	}
	wantNot := func(s *memory.Store, text string, not uint64) {
		t.Helper()
		if got := candidateIDs(t, s, "", text); slices.Contains(got, not) {
			t.Errorf("lookup of %q: %v holds fact %d, which the store does not hold as current", text, got, not)
		}
	}
	check := func(s *memory.Store, when string) {
		t.Helper()
		if err := s.Check(ctx); err != nil {
			t.Errorf("%s: Check: %v", when, err)
		}
	}

	s := open()
	tea := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I drink green tea every morning."}))
	wantFound(s, "green tea", tea.ID) // the index is made, and kept
	closeStore(s)

	// Written on while no lookup opened the index: the next one catches up.
	s = open()
	bike := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My bicycle is a red roadster."}))
	must[memory.Fact](t)(s.Invalidate(ctx, "", tea.ID, memory.Change{}))
	closeStore(s)
	s = open()
	wantFound(s, "red bicycle", bike.ID)
	wantNot(s, "green tea", tea.ID)
	check(s, "after catching up")
	closeStore(s)

	// A backup, then writes the index follows, then the backup restored:
	// the index holds what the restored file does not, and must not say so.
	backup, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s = open()
	boat := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I sail a small wooden boat."}))
	wantFound(s, "wooden boat", boat.ID)
	closeStore(s)
	if err := os.WriteFile(path, backup, 0o600); err != nil {
		t.Fatal(err)
	}
	// Written on after the restore, with no lookup, to the commit number
	// the index names: another history all the same, told by its tag.
	s = open()
	kite := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I fly a kite on Sundays."}))
	closeStore(s)
	s = open()
	wantNot(s, "wooden boat", boat.ID)
	wantFound(s, "red bicycle", bike.ID)
	wantFound(s, "kite Sundays", kite.ID)
	check(s, "after writing on a restored file")
	closeStore(s)
}
