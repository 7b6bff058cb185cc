package memory_test

import (
	"os"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// Import reads whatever Export writes, however long a line: here one fact
// whose log of 1,800 retractions and restores, each with a reason of 600
// three-byte runes, makes its line about 6.7 MB.
func TestImportReadsLinesPastFourMiB(t *testing.T) {
	c := newClock("2026-01-01")
	src, _ := open(t, c, nil)
	f := must[memory.Fact](t)(src.Add(ctx, memory.Note{Text: "I keep changing my mind."}))
	reason := strings.Repeat("語", memory.DefaultMaxTextRunes)
	for range 1800 {
		must[memory.Fact](t)(src.Invalidate(ctx, "", f.ID, memory.Change{Reason: reason}))
		must[memory.Fact](t)(src.Restore(ctx, "", f.ID, memory.Change{Reason: reason}))
	}
	must[memory.Fact](t)(src.Add(ctx, memory.Note{Text: "A short fact after the long line."}))
	exported := snapshot(t, src)
	if lines := strings.Split(exported, "\n"); len(lines[1]) <= 4<<20 {
		t.Fatalf("the fact's line is %d bytes, the test needs more than 4 MiB", len(lines[1]))
	}
	dst, _ := open(t, c, nil)
	var last int64
	n, err := dst.Import(ctx, strings.NewReader(exported), &memory.ImportOptions{Progress: func(_ int, b int64) { last = b }})
	if err != nil {
		t.Fatalf("import of the store's own export: %v", err)
	}
	if n != 2 || last != int64(len(exported)) {
		t.Errorf("imported %d facts, progress at %d of %d bytes", n, last, len(exported))
	}
	if again := snapshot(t, dst); again != exported {
		t.Error("export after import differs")
	}
	// A bad line after the long one is still named.
	bad := strings.Replace(exported, `"text":"A short fact`, `"text":" A short fact`, 1)
	other, _ := open(t, c, nil)
	if _, err := other.Import(ctx, strings.NewReader(bad), nil); err == nil || !strings.Contains(err.Error(), "line 3:") {
		t.Errorf("a bad third line: %v", err)
	}
}

// testdata/export-v1.jsonl was written by version 1 of the format, before
// any later change: every later version imports it and exports it again
// byte for byte (a new field would have to leave an old line's export as it
// was, or this file gets a sibling with the new version's expected export).
func TestImportReadsVersion1Export(t *testing.T) {
	old, err := os.ReadFile("testdata/export-v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := open(t, newClock("2026-06-01"), nil)
	n, err := s.Import(ctx, strings.NewReader(string(old)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != 14 {
		t.Errorf("imported %d facts, want 14", n)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if again := snapshot(t, s); again != string(old) {
		t.Errorf("export after import differs:\n%s\nwant:\n%s", again, old)
	}
	// The imported history answers as it did.
	wantAt(t, s, "", "2025-12-01", "", 1, 9)
	wantAt(t, s, "", "2026-01-20", "", 4, 9)
	wantAt(t, s, "bob", "2026-06-01", "", 2, 10, 12)
}
