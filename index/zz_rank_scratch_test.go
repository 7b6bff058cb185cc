package index

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZRankScratch(t *testing.T) {
	dir := os.Getenv("RANKDIR")
	if dir == "" {
		t.Skip("RANKDIR not set")
	}
	pairsRaw, err := os.ReadFile(dir + "/pairs.tsv")
	if err != nil {
		t.Fatal(err)
	}
	distRaw, err := os.ReadFile(dir + "/distractors.txt")
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ old, new string }
	var pairs []pair
	for _, l := range strings.Split(strings.TrimSpace(string(pairsRaw)), "\n") {
		o, n, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("bad line %q", l)
		}
		pairs = append(pairs, pair{o, n})
	}
	dists := strings.Split(strings.TrimSpace(string(distRaw)), "\n")
	an, err := NewAnalyzer(Topics)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := New(an, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	const user = "u"
	text := map[uint64]string{}
	terms := map[uint64]Terms{}
	var docs []Doc
	for i, p := range pairs {
		id := uint64(i + 1)
		docs = append(docs, Doc{ID: id, User: user, Text: p.old})
	}
	for i, d := range dists {
		docs = append(docs, Doc{ID: uint64(1001 + i), User: user, Text: d})
	}
	for _, d := range docs {
		text[d.ID] = d.Text
		terms[d.ID] = an.Analyze(d.Text)
	}
	if err := ix.Put(docs...); err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	verbose := os.Getenv("RANKV") != ""
	hit12, hit5, hit1 := 0, 0, 0
	mrr := 0.0
	for i, p := range pairs {
		id := uint64(i + 1)
		q := an.Analyze(p.new)
		// stem overlap check
		var stems []string
		for _, w := range intersect(q.Words, terms[id].Words) {
			if !strings.HasPrefix(w, synonymMark) {
				stems = append(stems, w)
			}
		}
		if len(stems) > 0 {
			fmt.Fprintf(out, "WARN pair %d shares stems %v\n", id, stems)
		}
		hits, err := ix.Search(context.Background(), user, q, 400)
		if err != nil {
			t.Fatal(err)
		}
		rank := 0
		for j, h := range hits {
			if h.ID == id {
				rank = j + 1
				break
			}
		}
		if rank >= 1 && rank <= 12 {
			hit12++
			mrr += 1 / float64(rank)
		}
		if rank >= 1 && rank <= 5 {
			hit5++
		}
		if rank == 1 {
			hit1++
		}
		status := "OK  "
		if rank == 0 || rank > 12 {
			status = "MISS"
		}
		fmt.Fprintf(out, "%s %3d rank=%d  NEW: %s | OLD: %s\n", status, id, rank, p.new, p.old)
		if status == "MISS" || verbose {
			w := Shared(q, terms[id])
			fmt.Fprintf(out, "      old shares: %v %v\n", w.Terms, w.Topics)
			lim := 12
			if rank > 0 && rank-1 < lim {
				lim = rank - 1
			}
			for j := 0; j < lim && j < len(hits); j++ {
				h := hits[j]
				w := Shared(q, terms[h.ID])
				fmt.Fprintf(out, "      #%d %.3f [%d] %s :: %v %v\n", j+1, h.Score, h.ID, text[h.ID], w.Terms, w.Topics)
			}
			if rank > 0 {
				fmt.Fprintf(out, "      old score %.3f\n", hits[rank-1].Score)
			}
			fmt.Fprintf(out, "      q: %v | %v\n", q.Words, q.Topics)
		}
	}
	n := float64(len(pairs))
	fmt.Fprintf(out, "SUMMARY pairs=%d dists=%d recall@1=%.3f recall@5=%.3f recall@12=%.3f (%d) mrr@12=%.3f\n", len(pairs), len(dists), float64(hit1)/n, float64(hit5)/n, float64(hit12)/n, hit12, mrr/n)
	if err := os.WriteFile(os.Getenv("RANKOUT"), []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestZZWords(t *testing.T) {
	ws := os.Getenv("WORDS")
	if ws == "" {
		t.Skip()
	}
	an, _ := NewAnalyzer(Topics)
	for _, w := range strings.Fields(ws) {
		tm := an.Analyze(w)
		fmt.Printf("%-16s %v %v\n", w, tm.Words, tm.Topics)
	}
}

func TestZZTagSources(t *testing.T) {
	dir := os.Getenv("TAGDIR")
	if dir == "" {
		t.Skip()
	}
	an, _ := NewAnalyzer(Topics)
	var lines []string
	for _, f := range []string{"/pairs.tsv", "/distractors.txt"} {
		b, _ := os.ReadFile(dir + f)
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			lines = append(lines, strings.Split(l, "\t")...)
		}
	}
	// tag -> word -> count
	cnt := map[string]map[string]int{}
	for _, l := range lines {
		for _, tok := range tokenize(l, false) {
			if an.stop(tok) {
				continue
			}
			s := an.stem(tok)
			for _, tg := range an.topics[s] {
				if cnt[tg] == nil {
					cnt[tg] = map[string]int{}
				}
				cnt[tg][tok.text]++
			}
		}
	}
	for _, tg := range strings.Fields(os.Getenv("TAGS")) {
		fmt.Printf("%s: %v\n", tg, cnt[tg])
	}
}
