package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestShapeOf(t *testing.T) {
	const old, new = "I live in Berlin.", "I live in Munich."
	for _, c := range []struct {
		p    string
		want promptShape
	}{
		{"Facts:\n- I live in Berlin.\n- I live in Munich.\n", shapeSilent},
		{"Facts:\n- I live in Berlin.\n- I live in Munich. (unconfirmed: may replace \"I live in Berlin.\", told 2026-08-21 — ask)\n", shapeNoted},
		{"Facts:\n- I live in Berlin.\n- I live in Munich. (unconfirmed: may replace \"I live in Bonn.\", told 2026-08-21 — ask)\n", shapeSilent},
		{"Facts:\n- I live in Munich. (since 2026-06-01)\n", shapeNewOnly},
		{"Facts:\n- I live in Berlin.\n", shapeOldOnly},
		{"Facts:\n- I live in Berlin. Really.\n", shapeNeither},
	} {
		if got := shapeOf(c.p, old, new); got != c.want {
			t.Errorf("shapeOf(%q) = %s, want %s", c.p, shapeNames[got], shapeNames[c.want])
		}
	}
}

// bench prompt runs end to end on a small file and prints its summary.
func TestPromptBench(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...any) string { return writeJSONL(t, filepath.Join(dir, name), lines...) }
	data := write("updates.jsonl",
		updateCase{ID: "t-1", Lang: "en", Old: "I work at Contoso.", OldSaid: "2025-01-10", New: "I now work at Fabrikam.", NewSaid: "2025-06-01", Action: "update"},
		updateCase{ID: "t-2", Lang: "en", Old: "I have a dog named Rex.", OldSaid: "2025-01-10", New: "I play the cello.", NewSaid: "2025-06-01", Action: "add"},
	)
	ds := write("distractors.jsonl", distractor{Lang: "en", Text: "I like green tea in the morning.", Said: "2024-12-01"})
	c := promptCmd()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetArgs([]string{"--data", data, "--distractors", ds, "--decider", "add"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	// The add decider keeps both facts, but the store sees two employers
	// claimed at once and notes them.
	if !strings.Contains(out.String(), "old beside new with no note (update and invalidate cases) 0.000 n=1 of 2 cases") {
		t.Fatalf("output:\n%s", out.String())
	}
}
