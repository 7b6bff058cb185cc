package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

// graphMergeCommands are graph's subcommands for merges of entities.
func (a *app) graphMergeCommands() []*cobra.Command {
	return []*cobra.Command{a.mergeCmd(), a.unmergeCmd(), a.mergesCmd()}
}

func (a *app) mergeCmd() *cobra.Command {
	var reason string
	c := &cobra.Command{
		Use:   "merge FROM INTO",
		Short: "Make entity FROM an alias of entity INTO: their edges become one",
		Long: `graph merge makes entity FROM an alias of entity INTO, as the user says they
are one ("Яндекс" is "Yandex"): the claims naming FROM, as subject or object,
join INTO's edges, shown with INTO's name. The merge is logged (graph merges)
and graph unmerge ID undoes it; the graph as known before the merge (--known)
still shows them apart. Names match as the graph matches them (case and outer
punctuation aside). Refused, changing nothing: the user, a name no fact's claim
gives, one entity twice, FROM already an alias, a cycle (INTO merged into FROM),
and two different known kinds (a company and a city).`,
		Args: exactArgs("FROM", "INTO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withStore(false, func(s *memory.Store) error {
				m, err := s.MergeEntities(cmd.Context(), a.user, args[0], args[1], reason)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(mergeObject(m))
				}
				_, err = fmt.Fprintf(a.stdout, "merge %d: %s is now an alias of %s (graph unmerge %d undoes it)\n",
					m.ID, oneLineText(m.From), oneLineText(m.Into), m.ID)
				return err
			})
		},
	}
	c.Flags().StringVar(&reason, "reason", "", "why they are one entity, kept in the log")
	return c
}

func (a *app) unmergeCmd() *cobra.Command {
	var reason string
	c := &cobra.Command{
		Use:   "unmerge MERGE_ID",
		Short: "Undo a merge of entities: the alias is its own entity again",
		Long: `graph unmerge undoes merge MERGE_ID (see graph merges): from now on, FROM is its
own entity again. The merge stays in the log, marked undone, and the graph as
known while it held (--known) still shows it.`,
		Args: exactArgs("MERGE_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseNum("merge", args[0])
			if err != nil {
				return err
			}
			return a.withStore(false, func(s *memory.Store) error {
				m, err := s.UndoMerge(cmd.Context(), a.user, id, reason)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(mergeObject(m))
				}
				_, err = fmt.Fprintf(a.stdout, "undid merge %d: %s is its own entity again, apart from %s\n",
					m.ID, oneLineText(m.From), oneLineText(m.Into))
				return err
			})
		},
	}
	c.Flags().StringVar(&reason, "reason", "", "why, kept in the log")
	return c
}

func (a *app) mergesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "merges",
		Short: "List the merges of entities, oldest first, undone ones too",
		Args:  exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withStore(true, func(s *memory.Store) error {
				ms, err := s.Merges(cmd.Context(), a.user)
				if err != nil {
					return err
				}
				return a.printList(len(ms), func() any { return jsonList(ms, mergeObject) }, "no merges", func(tw io.Writer) error {
					fmt.Fprintln(tw, "ID\tAT\tSTATE\tFROM\tINTO\tUNDONE\tREASON")
					for _, m := range ms {
						undone, reason := "-", m.Reason
						if m.UndoneAt != nil {
							undone = showTime(*m.UndoneAt)
							if m.UndoReason != "" {
								reason += " / undone: " + m.UndoReason
							}
						}
						fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", m.ID, showTime(m.At), mergeState(m),
							oneLineText(m.From), oneLineText(m.Into), undone, oneLineText(reason))
					}
					return nil
				})
			})
		},
	}
}

// mergeJSON is a merge of graph merges --json; its keys are a contract
// with scripts, like factJSON's.
type mergeJSON struct {
	ID         uint64  `json:"id"`
	At         *string `json:"at"`
	From       string  `json:"from"`
	Into       string  `json:"into"`
	State      string  `json:"state"` // active or undone
	Reason     string  `json:"reason"`
	UndoneAt   *string `json:"undone_at"`
	UndoReason string  `json:"undo_reason"`
}

func mergeObject(m memory.Merge) mergeJSON {
	return mergeJSON{ID: m.ID, At: jsonTime(m.At), From: m.From, Into: m.Into, State: mergeState(m), Reason: m.Reason,
		UndoneAt: jsonTimePtr(m.UndoneAt), UndoReason: m.UndoReason}
}

func mergeState(m memory.Merge) string {
	if m.UndoneAt != nil {
		return "undone"
	}
	return "active"
}

// aliasNames maps an entity's normalized name to the names merged into it
// (directly or by a chain), as the merges stood at record time known (zero:
// the current ones), for graph to show beside it.
func aliasNames(ms []memory.Merge, known time.Time) map[string][]string {
	to := map[string]string{}
	from := map[string]string{} // a normalized alias → its name as the merge gave it
	for _, m := range ms {
		applied := m.UndoneAt == nil
		if !known.IsZero() {
			applied = !m.At.After(known) && (m.UndoneAt == nil || m.UndoneAt.After(known))
		}
		if applied {
			k := memory.NormalizeName(m.From)
			to[k], from[k] = memory.NormalizeName(m.Into), m.From
		}
	}
	out := map[string][]string{}
	for k := range to {
		r := k
		for range len(to) { // bounded: the library refuses cycles, and this must not loop on one
			next, ok := to[r]
			if !ok {
				break
			}
			r = next
		}
		out[r] = append(out[r], oneLineText(from[k]))
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}

// withAliases is a name for a table, with the names merged into it.
func withAliases(name string, aliases map[string][]string) string {
	if as := aliases[memory.NormalizeName(name)]; len(as) > 0 {
		return oneLineText(name) + " (also " + strings.Join(as, ", ") + ")" // aliases are folded already
	}
	return oneLineText(name)
}
