package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/palimpsest-mem/memory"
)

// crashQuery is a lookup whose candidates the store as opened after a kill
// (its kept index caught up) must give as an index rebuilt from the
// records would.
type crashQuery struct{ user, text string }

// hit is a candidate as compared: its fact and score.
type hit struct {
	ID    uint64
	Score float64
}

// candidateQueries picks the lookups to compare, per user: the texts of
// two current facts, and the workload's words without a tag, which many
// facts match in part, so that ranks tie and MaxCandidates cuts them.
func (h *crashHarness) candidateQueries(cur []memory.Fact) []crashQuery {
	var qs []crashQuery
	for _, u := range crashUsers {
		var mine []memory.Fact
		for _, f := range cur {
			if f.User == u {
				mine = append(mine, f)
			}
		}
		for range min(2, len(mine)) {
			qs = append(qs, crashQuery{u, mine[h.rng.IntN(len(mine))].Text})
		}
		qs = append(qs, crashQuery{u, fmt.Sprintf("My %s is in %s.", crashSubjects[h.rng.IntN(len(crashSubjects))],
			crashPlaces[h.rng.IntN(len(crashPlaces))])})
	}
	return qs
}

// lookups returns the candidates of each query, as many as may be asked.
func lookups(ctx context.Context, s *memory.Store, qs []crashQuery) ([][]hit, error) {
	out := make([][]hit, len(qs))
	for i, q := range qs {
		look, err := s.Candidates(ctx, q.user, q.text, memory.MaxCandidates)
		if err != nil {
			return nil, fmt.Errorf("Candidates(%q, %q): %w", q.user, q.text, err)
		}
		for _, c := range look.Candidates {
			out[i] = append(out[i], hit{crashUsers.Key(c.Fact.User, c.Fact.ID), c.Score})
		}
	}
	return out, nil
}

// rebuiltProblems compares the candidates got from the store as opened
// with those of a copy of its file in a directory of its own, where no
// index is: the copy's first lookup builds its index from the records.
// See sameCandidates for what equal means.
func (h *crashHarness) rebuiltProblems(ctx context.Context, qs []crashQuery, got [][]hit) []string {
	// A kill before the child wrote anything leaves no store once it is
	// closed (a new store nothing was written to is removed): there is
	// nothing to rebuild, and nothing may have been found.
	if _, err := os.Stat(h.path); errors.Is(err, fs.ErrNotExist) {
		for i, g := range got {
			if len(g) > 0 {
				return []string{fmt.Sprintf("the store is gone after Close, yet the lookup of %q found %v", qs[i].text, g)}
			}
		}
		return nil
	}
	dir, err := os.MkdirTemp("", "bench-crash-rebuilt-")
	if err != nil {
		return []string{err.Error()}
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "crash.db")
	if err := copyFile(path, h.path); err != nil {
		return []string{fmt.Sprintf("copying the store to rebuild its index: %v", err)}
	}
	s, err := memory.Open(path, 0, &memory.Options{NoSync: true})
	if err != nil {
		return []string{fmt.Sprintf("opening the store's copy to rebuild its index: %v", err)}
	}
	want, err := lookups(ctx, s, qs)
	err = errors.Join(err, s.Close())
	if err != nil {
		return []string{fmt.Sprintf("the store's copy, with its index rebuilt: %v", err)}
	}
	h.res.Compared += len(qs)
	var problems []string
	for i, q := range qs {
		if sameCandidates(got[i], want[i], memory.MaxCandidates) {
			continue
		}
		n := 0
		for n < min(len(got[i]), len(want[i])) && got[i][n] == want[i][n] {
			n++
		}
		problems = append(problems, fmt.Sprintf("user %q, lookup of %q: the kept index gives %d candidates, a rebuilt one %d; first difference at rank %d: %v, rebuilt %v",
			q.user, q.text, len(got[i]), len(want[i]), n+1, at(got[i], n), at(want[i], n)))
	}
	return problems
}

// at returns hits[n:n+3], or what of it there is.
func at(hits []hit, n int) []hit {
	if n >= len(hits) {
		return nil
	}
	return hits[n:min(n+3, len(hits))]
}

// copyFile copies the file src to dst, a new file.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// sameCandidates says whether two lookups, of at most k candidates each,
// found the same. Candidates come best first, ties in id order
// (index.search sorts by score, then id), but bleve adds up a score's
// parts in an order that depends on the index's segments, so the same
// score may differ in its last bits from one index to another. Scores must
// match rank by rank within that rounding, and each run of scores equal
// within it must hold the same facts, in any order. A full list is cut:
// bleve's hits, sorted by score, end inside their lowest scored run, whose
// facts may then differ (ties a bit apart are cut at other facts), and so
// may the facts of a relation appended with no score (those not among the
// hits); their scores still match. Facts sharing only a topic are listed
// last, whatever their score, so that run need not be last.
func sameCandidates(got, want []hit, k int) bool {
	if len(got) != len(want) {
		return false
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b)) }
	for i := range got {
		if !near(got[i].Score, want[i].Score) {
			return false
		}
	}
	cut := math.Inf(1) // no run is cut
	if len(got) == k {
		for _, h := range got {
			if h.Score > 0 {
				cut = min(cut, h.Score) // bleve's hits are cut at their lowest score
			}
		}
	}
	ids := func(hs []hit) []uint64 {
		out := make([]uint64, len(hs))
		for n, h := range hs {
			out[n] = h.ID
		}
		slices.Sort(out)
		return out
	}
	for i := 0; i < len(got); {
		j := i + 1
		for j < len(got) && near(got[j].Score, got[i].Score) {
			j++
		}
		mayBeCut := len(got) == k && (near(got[i].Score, cut) || got[i].Score == 0)
		if !mayBeCut && !slices.Equal(ids(got[i:j]), ids(want[i:j])) {
			return false
		}
		i = j
	}
	return true
}
