package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

// lookupMode is --lookup, else $MEMCTL_LOOKUP, else the library's default.
func (a *app) lookupMode() (memory.LookupMode, error) {
	name := a.lookup
	if name == "" {
		name = a.getenv("MEMCTL_LOOKUP")
	}
	if name == "" {
		return "", nil // the library's default
	}
	m, err := memory.ParseLookupMode(name)
	if err != nil {
		return "", usageError{err}
	}
	return m, nil
}

type candidateJSON struct {
	Fact       factJSON      `json:"fact"`
	Score      float64       `json:"score"`
	Terms      []memory.Term `json:"terms"` // as strings: "pian…", "≈mother"
	Topics     []string      `json:"topics"`
	Similarity float64       `json:"similarity"`
}

func (a *app) candidatesCmd() *cobra.Command {
	var k int
	c := &cobra.Command{
		Use:   "candidates TEXT",
		Short: "Show the current facts TEXT may update or contradict, and why each was found",
		Args:  exactArgs("TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withStore(true, func(s *memory.Store) error {
				l, err := s.Candidates(cmd.Context(), a.user, args[0], k)
				if err != nil {
					return err
				}
				asJSON := func() any {
					return struct {
						Mode       string          `json:"mode"`
						Fallback   string          `json:"fallback,omitempty"`
						Candidates []candidateJSON `json:"candidates"`
					}{Mode: string(l.Mode), Fallback: l.Fallback, Candidates: jsonList(l.Candidates, candidateObject)}
				}
				if !a.json && l.Fallback != "" {
					fmt.Fprintf(a.stderr, "memctl: note: %s\n", oneLineText(l.Fallback))
				}
				none := fmt.Sprintf("no candidates (lookup %s)", l.Mode)
				return a.printList(len(l.Candidates), asJSON, none, func(tw io.Writer) error {
					fmt.Fprintln(tw, "ID\tSCORE\tWHY\tTEXT")
					for _, c := range l.Candidates {
						fmt.Fprintf(tw, "%d\t%.3f\t%s\t%s\n", c.Fact.ID, c.Score, oneLineText(why(c)), oneLineText(c.Fact.Text))
					}
					return nil
				})
			})
		},
	}
	c.Flags().IntVar(&k, "k", memory.DefaultCandidates, "how many candidates at most (1..100)")
	return c
}

func candidateObject(c memory.Candidate) candidateJSON {
	return candidateJSON{Fact: factObject(c.Fact), Score: c.Score,
		Terms: nonNil(c.Terms), Topics: nonNil(c.Topics), Similarity: c.Similarity}
}

func why(c memory.Candidate) string {
	var parts []string
	if len(c.Terms) > 0 {
		terms := make([]string, len(c.Terms))
		for i, t := range c.Terms {
			terms[i] = t.String()
		}
		parts = append(parts, strings.Join(terms, ","))
	}
	if len(c.Topics) > 0 {
		parts = append(parts, "topic "+strings.Join(c.Topics, ","))
	}
	if c.Similarity != 0 {
		parts = append(parts, fmt.Sprintf("similarity %.2f", c.Similarity))
	}
	return strings.Join(parts, "; ")
}

// nonNil makes an empty list print as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
