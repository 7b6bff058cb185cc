package main

import (
	"context"
	"os"
	"testing"

	"github.com/palimpsest-mem/memory"
)

const dataDir = "../../shared/data"

// devData loads the dev set, or skips when ../shared/data is not beside the
// project (it is never copied into it).
func devData(t *testing.T) ([]updateCase, []distractor) {
	t.Helper()
	if _, err := os.Stat(dataDir); err != nil {
		t.Skipf("evaluation data not found at %s (../shared/data beside the project): %v", dataDir, err)
	}
	cases, err := readJSONL[updateCase](dataDir + "/updates.dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var ds []distractor
	for _, lang := range []string{"en", "ru"} {
		more, err := readJSONL[distractor](dataDir + "/distractors." + lang + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, more...)
	}
	return cases, ds
}

// The recall targets of each mode on the dev set, per language, by overlap
// class (the topics mode's targets over all cases follow below).
func TestCandidateRecallTargets(t *testing.T) {
	cases, ds := devData(t)
	type target struct {
		overlap  string
		min, max float64
	}
	for mode, targets := range map[memory.LookupMode][]target{
		// The baseline reproduces the original lookup exactly.
		memory.LookupKeywords4: {{"word", 1, 1}, {"root", 0, 0}, {"paraphrase", 0, 0}},
		memory.LookupStems:     {{"word", 0.97, 1}, {"root", 0.85, 1}},
		memory.LookupTopics:    {{"word", 0.97, 1}, {"root", 0.85, 1}},
	} {
		t.Run(string(mode), func(t *testing.T) {
			res, err := evalCandidates(context.Background(), cases, ds, mode, memory.DefaultCandidates, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, lang := range []string{"en", "ru"} {
				for _, tg := range targets {
					sc := res.byClass[[2]string{lang, tg.overlap}]
					if sc.n == 0 || sc.recall() < tg.min || sc.recall() > tg.max {
						t.Errorf("%s %s: recall %.3f (%d/%d), want %.2f..%.2f", lang, tg.overlap, sc.recall(), sc.hit, sc.n, tg.min, tg.max)
					}
				}
			}
		})
	}
}

// The topics mode's targets, per language: 0.85 of all cases and 0.60 of
// paraphrases.
func TestTopicRecallTargets(t *testing.T) {
	cases, ds := devData(t)
	res, err := evalCandidates(context.Background(), cases, ds, memory.LookupTopics, memory.DefaultCandidates, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "ru"} {
		for _, tg := range []struct {
			overlap string
			min     float64
		}{{"", 0.85}, {"paraphrase", 0.60}} {
			if sc := res.byClass[[2]string{lang, tg.overlap}]; sc.n == 0 || sc.recall() < tg.min {
				t.Errorf("%s %q: recall %.3f (%d/%d), want ≥ %.2f", lang, tg.overlap, sc.recall(), sc.hit, sc.n, tg.min)
			}
		}
	}
	// Where the old fact ranks: the rules decider names the first few.
	if r := res.total.recall(); r < 0.89 {
		t.Errorf("recall@12 %.3f, want ≥ 0.89 (0.887 when every topic tag weighed alike)", r)
	}
	if r := res.recallAt(1); r < 0.50 {
		t.Errorf("recall@1 %.3f, want ≥ 0.50 (0.483 when every topic tag weighed alike)", r)
	}
	if m := res.mrr(); m < 0.60 {
		t.Errorf("mean reciprocal rank %.3f, want ≥ 0.60 (0.596 when every topic tag weighed alike)", m)
	}
}

// The ranking figures: recall@n counts the old facts within the first n,
// the mean reciprocal rank counts a miss as 0.
func TestCandidateRankingFigures(t *testing.T) {
	r := &candidateResult{ranks: []int{1, 2, 0, 5}}
	for n, want := range map[int]float64{1: 0.25, 3: 0.5, 12: 0.75} {
		if got := r.recallAt(n); got != want {
			t.Errorf("recall@%d %v, want %v", n, got, want)
		}
	}
	if got, want := r.mrr(), (1+0.5+0+0.2)/4; got != want {
		t.Errorf("mrr %v, want %v", got, want)
	}
	if got := (&candidateResult{}).mrr(); got != 0 {
		t.Errorf("mrr of no cases %v, want 0", got)
	}
}

// --no-claims stores the facts without claims: a case found only by a
// shared single-valued relation is found with claims and missed without,
// and the report counts it either way.
func TestCandidatesByRelationAndWithout(t *testing.T) {
	cases := []updateCase{{ID: "c1", Lang: "en", Old: "I live in Lisbon.", OldSaid: "2025-01-01",
		New: "I live in Porto now.", NewSaid: "2025-06-01", Overlap: "paraphrase"}}
	ds := []distractor{{Lang: "en", Text: "Green tea, always.", Said: "2025-02-01"}}
	for _, withClaims := range []bool{true, false} {
		res, err := evalCandidates(context.Background(), cases, ds, memory.LookupKeywords4, memory.DefaultCandidates, withClaims)
		if err != nil {
			t.Fatal(err)
		}
		if res.related != 1 {
			t.Errorf("claims %v: %d related cases, want 1", withClaims, res.related)
		}
		want := 0
		if withClaims {
			want = 1
		}
		if res.byRelation != want || res.total.hit < want {
			t.Errorf("claims %v: %d found by relation, %d hits; want %d", withClaims, res.byRelation, res.total.hit, want)
		}
	}
}
