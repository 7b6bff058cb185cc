package main

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// TestSearchBeatsBM25 builds both languages' stores from the shared data
// and the question set, checks the set against how the bench built them
// (every evidence fact is one the question may see: evalSearch fails
// otherwise), and holds Search to a clear margin over SQLite FTS5's BM25
// over the same facts, in both halves. It skips without ../shared/data.
func TestSearchBeatsBM25(t *testing.T) {
	if _, err := os.Stat(dataDir); err != nil {
		t.Skipf("evaluation data not found at %s (../shared/data beside the project): %v", dataDir, err)
	}
	set, err := loadSearchSet(dataDir, "searchdata")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.questions) < 300 {
		t.Fatalf("%d questions, want at least 300", len(set.questions))
	}
	res, err := evalSearch(context.Background(), set, memory.LookupTopics, 10, false, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"dev", "held"} {
		for _, lang := range []string{"en", "ru", ""} {
			ours, bm := res.ours.get(h, lang, ""), res.bm25.get(h, lang, "")
			if ours.n < 80 {
				t.Errorf("%s %q: %d questions, want 80 or more", h, lang, ours.n)
			}
			if d := ours.any10() - bm.any10(); d < 0.10 {
				t.Errorf("%s %q: recall@10 %.3f, BM25 %.3f: %+.3f, want +0.10 or more", h, lang, ours.any10(), bm.any10(), d)
			}
		}
		// Every ranker adds: without the text ranker recall falls apart,
		// and the graph and the time rankers find facts alone.
		if without := res.without[memory.RankText].get(h, "", "").any10(); without > 0.5 {
			t.Errorf("%s: recall@10 without the text ranker %.3f, want far below the fusion's", h, without)
		}
		for _, r := range []memory.Ranker{memory.RankGraph, memory.RankTime} {
			if alone := res.alone[r].get(h, "", "").any10(); alone == 0 {
				t.Errorf("%s: the %s ranker alone finds nothing", h, r)
			}
		}
	}
}
