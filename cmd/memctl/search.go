package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

type searchHitJSON struct {
	Fact       factJSON         `json:"fact"`
	Score      float64          `json:"score"`
	Ranks      []searchRankJSON `json:"ranks"`
	Terms      []memory.Term    `json:"terms"` // as strings: "pian…", "≈mother"
	Topics     []string         `json:"topics"`
	Entities   []string         `json:"entities"`
	InPeriod   bool             `json:"in_period"`
	Similarity float64          `json:"similarity"`
	Current    bool             `json:"current"`
}

type searchRankJSON struct {
	Ranker string `json:"ranker"`
	Rank   int    `json:"rank"`
}

func (a *app) searchCmd() *cobra.Command {
	var o memory.SearchOptions
	var explain bool
	c := &cobra.Command{
		Use:   "search QUERY",
		Short: "Find the facts that bear on a question or message, and why each was found",
		Long: `search is the read path an assistant uses before it answers: the facts that
bear on QUERY, best first. It drops the words of asking ("remind me what I
told you about"), reaches the facts of the people, places and things QUERY
names through the graph, prefers facts of the period it names ("in May",
"last summer"), and fuses these rankings by reciprocal rank. --event and
--known ask as of a time in the world and as the store knew it then; --all
adds versions no longer current (superseded or retracted). --explain shows
each fact's rank in each ranker.`,
		Args: exactArgs("QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.K < 1 || o.K > memory.MaxCandidates {
				return usagef("--k %d: want 1 to %d facts", o.K, memory.MaxCandidates)
			}
			return a.withStore(true, func(s *memory.Store) error {
				r, err := s.Search(cmd.Context(), a.user, args[0], &o)
				if err != nil {
					return err
				}
				asJSON := func() any {
					out := struct {
						Mode        string          `json:"mode"`
						Fallback    string          `json:"fallback,omitempty"`
						Entities    []string        `json:"entities"`
						PeriodFrom  *time.Time      `json:"period_from,omitempty"`
						PeriodUntil *time.Time      `json:"period_until,omitempty"`
						Hits        []searchHitJSON `json:"hits"`
					}{Mode: string(r.Mode), Fallback: r.Fallback, Entities: nonNil(r.Entities), Hits: jsonList(r.Hits, searchHitObject)}
					if !r.PeriodFrom.IsZero() {
						out.PeriodFrom, out.PeriodUntil = &r.PeriodFrom, &r.PeriodUntil
					}
					return out
				}
				if !a.json && r.Fallback != "" {
					fmt.Fprintf(a.stderr, "memctl: note: %s\n", oneLineText(r.Fallback))
				}
				return a.printList(len(r.Hits), asJSON, "nothing found", func(tw io.Writer) error {
					if explain {
						fmt.Fprintln(tw, "ID\tSTATE\tSCORE\tRANKS\tWHY\tTEXT")
					} else {
						fmt.Fprintln(tw, "ID\tSTATE\tWHY\tTEXT")
					}
					for _, h := range r.Hits {
						if explain {
							fmt.Fprintf(tw, "%d\t%s\t%.4f\t%s\t%s\t%s\n", h.Fact.ID, h.Fact.State(), h.Score, ranksText(h.Ranks), oneLineText(hitWhy(h)), oneLineText(h.Fact.Text))
						} else {
							fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", h.Fact.ID, h.Fact.State(), oneLineText(hitWhy(h)), oneLineText(h.Fact.Text))
						}
					}
					return nil
				})
			})
		},
	}
	f := c.Flags()
	f.IntVar(&o.K, "k", memory.DefaultSearchResults, "how many facts at most (1..100)")
	f.Var(timeFlag{&o.Event}, "event", "only facts true then in the world (default: no filter)")
	f.Var(timeFlag{&o.Known}, "known", "as the store knew it then (default: now)")
	f.BoolVar(&o.History, "all", false, "add versions no longer current: superseded and retracted")
	f.BoolVar(&explain, "explain", false, "show the fused score and each ranker's rank")
	return c
}

func searchHitObject(h memory.SearchHit) searchHitJSON {
	ranks := make([]searchRankJSON, len(h.Ranks))
	for i, r := range h.Ranks {
		ranks[i] = searchRankJSON{string(r.Ranker), r.Rank}
	}
	return searchHitJSON{Fact: factObject(h.Fact), Score: h.Score, Ranks: ranks, Terms: nonNil(h.Terms), Topics: nonNil(h.Topics),
		Entities: nonNil(h.Entities), InPeriod: h.InPeriod, Similarity: h.Similarity, Current: h.Current}
}

// hitWhy says in a few words why a hit was found.
func hitWhy(h memory.SearchHit) string {
	parts := []string{why(memory.Candidate{Terms: h.Terms, Topics: h.Topics, Similarity: h.Similarity})}
	if len(h.Entities) > 0 {
		parts = append(parts, "about "+strings.Join(h.Entities, ","))
	}
	if h.InPeriod {
		parts = append(parts, "in the period")
	}
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

func ranksText(rs []memory.RankOf) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s %d", r.Ranker, r.Rank)
	}
	return strings.Join(parts, ", ")
}
