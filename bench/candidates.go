package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/claims"
	"github.com/spf13/cobra"
)

func candidatesCmd() *cobra.Command {
	var data, distractors, mode string
	var k int
	var noClaims bool
	c := &cobra.Command{
		Use:   "candidates",
		Short: "Recall@k of the candidate lookup on an updates file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, cases, ds, err := loadEval(mode, data, distractors)
			if err != nil {
				return err
			}
			res, err := evalCandidates(cmd.Context(), cases, ds, m, k, !noClaims)
			if err != nil {
				return err
			}
			res.print(cmd.OutOrStdout())
			return nil
		},
	}
	f := c.Flags()
	dataFlags(f, &data, &distractors)
	f.StringVar(&mode, "mode", string(memory.LookupKeywords4), "lookup mode: keywords4, stems, topics")
	f.IntVar(&k, "k", memory.DefaultCandidates, "candidates per lookup")
	f.BoolVar(&noClaims, "no-claims", false, "store the facts without claims, so that no candidate comes by a shared single-valued relation: the difference from a run without it is what relations add")
	return c
}

// score counts hits among cases.
type score struct{ hit, n int }

func (s score) recall() float64 {
	if s.n == 0 {
		return 0
	}
	return float64(s.hit) / float64(s.n)
}

// candidateResult is the recall per language and overlap class.
type candidateResult struct {
	mode    memory.LookupMode
	k       int
	byClass map[[2]string]score // {lang, overlap}; overlap "" is the language's total
	total   score
	claims  bool // facts stored with their claims
	// related counts the cases whose old and new facts both claim a
	// single-valued relation of the same subject (by rule), and the hits
	// among them whose candidate came with that Relation.
	related, byRelation int
	latency             []time.Duration
	misses              []string
	// ranks holds each case's old fact's place among the candidates (1
	// the first), 0 when it was not one: the rules decider weighs the first
	// few, so where the old fact ranks matters beside whether it is found.
	ranks []int
}

// recallAt is the share of cases whose old fact ranks within the first n.
func (r *candidateResult) recallAt(n int) float64 {
	hit := 0
	for _, k := range r.ranks {
		if k >= 1 && k <= n {
			hit++
		}
	}
	return ratio(hit, len(r.ranks))
}

// mrr is the mean reciprocal rank of the old facts, a miss counting 0.
func (r *candidateResult) mrr() float64 {
	if len(r.ranks) == 0 {
		return 0
	}
	sum := 0.0
	for _, k := range r.ranks {
		if k > 0 {
			sum += 1 / float64(k)
		}
	}
	return sum / float64(len(r.ranks))
}

// evalCandidates scores the lookup as docs/evaluation.md says: per
// language, one user's memory holds every distractor of that language and
// every case's old fact, each recorded at its said date; a case is a hit
// when its old fact is among the k candidates for its new one.
func evalCandidates(ctx context.Context, cases []updateCase, ds []distractor, mode memory.LookupMode, k int, withClaims bool) (*candidateResult, error) {
	res := &candidateResult{mode: mode, k: k, byClass: map[[2]string]score{}, claims: withClaims}
	langs := map[string]bool{}
	for _, c := range cases {
		langs[c.Lang] = true
	}
	for _, lang := range slices.Sorted(maps.Keys(langs)) {
		if err := evalLanguage(ctx, res, lang, cases, ds); err != nil {
			return nil, fmt.Errorf("%s: %w", lang, err)
		}
	}
	return res, nil
}

func evalLanguage(ctx context.Context, res *candidateResult, lang string, cases []updateCase, ds []distractor) error {
	dir, err := os.MkdirTemp("", "bench-candidates-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var now time.Time
	s, err := memory.Open(filepath.Join(dir, "m.db"), 0, &memory.Options{
		NoSync: true, Lookup: res.mode, Clock: func() time.Time { return now }, MaxTextRunes: 2000,
	})
	if err != nil {
		return err
	}
	defer s.Close()

	type item struct {
		text, said string
		caseIdx    int // -1 for a distractor
	}
	var items []item
	for _, d := range ds {
		if d.Lang == lang {
			items = append(items, item{d.Text, d.Said, -1})
		}
	}
	for i, c := range cases {
		if c.Lang == lang {
			items = append(items, item{c.Old, c.OldSaid, i})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].said < items[j].said })
	oldID := map[int]uint64{}
	for _, it := range items {
		if now, err = day(it.said); err != nil {
			return err
		}
		n := memory.Note{Text: it.text}
		if !res.claims {
			n.Claims = []memory.Claim{}
		}
		f, err := s.Add(ctx, n)
		if err != nil {
			return fmt.Errorf("adding %q: %w", it.text, err)
		}
		if it.caseIdx >= 0 {
			oldID[it.caseIdx] = f.ID
		}
	}
	for i, c := range cases {
		if c.Lang != lang {
			continue
		}
		start := time.Now()
		l, err := s.Candidates(ctx, "", c.New, res.k)
		if err != nil {
			return fmt.Errorf("case %s: %w", c.ID, err)
		}
		res.latency = append(res.latency, time.Since(start))
		j := slices.IndexFunc(l.Candidates, func(cd memory.Candidate) bool { return cd.Fact.ID == oldID[i] })
		hit := j >= 0
		res.ranks = append(res.ranks, j+1)
		if sharesSingleValued(claims.Extract(c.Old), claims.Extract(c.New)) {
			res.related++
			if hit && l.Candidates[j].Relation != "" {
				res.byRelation++
			}
		}
		for _, key := range [][2]string{{lang, c.Overlap}, {lang, ""}} {
			sc := res.byClass[key]
			sc.n++
			if hit {
				sc.hit++
			}
			res.byClass[key] = sc
		}
		res.total.n++
		if hit {
			res.total.hit++
		} else {
			res.misses = append(res.misses, c.ID)
		}
	}
	return nil
}

func (r *candidateResult) print(w io.Writer) {
	fmt.Fprintf(w, "candidate recall@%d, mode %s\n\n", r.k, r.mode)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "lang\toverlap\trecall\thits\tn")
	keys := slices.SortedFunc(maps.Keys(r.byClass), func(a, b [2]string) int {
		if a[0] != b[0] {
			return strings.Compare(a[0], b[0])
		}
		if (a[1] == "") != (b[1] == "") {
			return boolInt(a[1] == "") - boolInt(b[1] == "")
		}
		return strings.Compare(a[1], b[1])
	})
	for _, k := range keys {
		sc := r.byClass[k]
		class := k[1]
		if class == "" {
			class = "all"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%d\t%d\n", k[0], class, sc.recall(), sc.hit, sc.n)
	}
	tw.Flush()
	if len(r.latency) > 0 {
		lat := slices.Clone(r.latency)
		slices.Sort(lat)
		fmt.Fprintf(w, "\nlookup latency p50 %v, p99 %v over %d lookups\n", lat[len(lat)/2], lat[len(lat)*99/100], len(lat))
	}
	fmt.Fprintf(w, "%d cases' old and new facts claim one single-valued relation of one subject by rule; %d of them found with that relation\n", r.related, r.byRelation)
	if !r.claims {
		fmt.Fprintln(w, "facts stored without claims (--no-claims): no candidate by relation")
	}
	fmt.Fprintf(w, "ranking: recall@1 %.3f, recall@3 %.3f, mean reciprocal rank %.3f\n", r.recallAt(1), r.recallAt(3), r.mrr())
	fmt.Fprintf(w, "recall@%d %.3f n=%d\n", r.k, r.total.recall(), r.total.n)
}

// sharesSingleValued reports whether a and b claim one single-valued
// relation of one subject.
func sharesSingleValued(a, b []memory.Claim) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Relation == y.Relation && x.Relation.SingleValued() && memory.NormalizeName(x.Subject) == memory.NormalizeName(y.Subject) {
				return true
			}
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
