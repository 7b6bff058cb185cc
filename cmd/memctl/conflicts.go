package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

// conflictJSON is a conflict of conflicts --json and resolve --json: the
// library's, with both facts as fact objects (null for one deleted since),
// so that a script sees what it is asked to settle.
type conflictJSON struct {
	memory.Conflict
	NewFact      *factJSON `json:"new_fact"`
	ExistingFact *factJSON `json:"existing_fact"`
}

// conflictFacts reads a conflict's two facts as they are now; nil for one
// that is gone (a hard delete).
func (a *app) conflictFacts(ctx context.Context, s *memory.Store, c memory.Conflict) (newF, existing *memory.Fact, err error) {
	get := func(id uint64) (*memory.Fact, error) {
		f, err := s.Get(ctx, c.User, id)
		if errors.Is(err, memory.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return &f, nil
	}
	if newF, err = get(c.New); err != nil {
		return nil, nil, err
	}
	existing, err = get(c.Existing)
	return newF, existing, err
}

func conflictObject(c memory.Conflict, newF, existing *memory.Fact) conflictJSON {
	o := conflictJSON{Conflict: c}
	if newF != nil {
		f := factObject(*newF)
		o.NewFact = &f
	}
	if existing != nil {
		f := factObject(*existing)
		o.ExistingFact = &f
	}
	return o
}

// factLine is a fact of a conflict for people: "fact 3 (current): I work at
// Northwind." — "fact 3 (deleted)" once it is gone.
func factLine(id uint64, f *memory.Fact) string {
	if f == nil {
		return fmt.Sprintf("fact %d (deleted)", id)
	}
	return fmt.Sprintf("fact %d (%s): %s", id, stateText(*f), oneLineText(f.Text))
}

// stateText is a fact's state with its successor: "superseded by fact 24".
func stateText(f memory.Fact) string {
	if f.SupersededBy != 0 {
		return fmt.Sprintf("%s by fact %d", f.State(), f.SupersededBy)
	}
	return f.State().String()
}

// resolveCommand is the command that settles conflict id, for the user
// memctl was run for.
func (a *app) resolveCommand(id uint64) string {
	cmd := "memctl "
	if a.user != "" {
		cmd += "--user " + shellWord(a.user) + " "
	}
	return cmd + fmt.Sprintf("resolve %d", id)
}

// settleText says how to settle an open conflict, and what each choice
// does; "" when one of its facts is no longer current, for then no choice
// would do what it says.
func (a *app) settleText(c memory.Conflict, newF, existing *memory.Fact) string {
	if newF == nil || existing == nil || newF.State() != memory.Current || existing.State() != memory.Current {
		return ""
	}
	return fmt.Sprintf("%s new (fact %d replaces fact %d), existing (fact %d is retracted) or both (both stay)",
		a.resolveCommand(c.ID), c.New, c.Existing, c.New)
}

// shellWord quotes s for a POSIX shell unless it needs none.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// conflictStatus is "open", or how the conflict was settled.
func conflictStatus(c memory.Conflict) string {
	switch {
	case c.ResolvedAt != nil:
		return fmt.Sprintf("kept %s on %s", c.Resolution, showTime(*c.ResolvedAt))
	case c.MootAt != nil:
		return fmt.Sprintf("moot since %s: %s", showTime(*c.MootAt), oneLineText(c.Moot))
	}
	return "open"
}

// printConflict prints one conflict as a block: its facts with their texts,
// why it was raised, and how to settle it while it is open.
func (a *app) printConflict(w io.Writer, c memory.Conflict, newF, existing *memory.Fact) {
	head := fmt.Sprintf("conflict %d: %s, raised %s", c.ID, conflictStatus(c), showTime(c.At))
	if c.Decision != 0 {
		head += fmt.Sprintf(" by decision %d", c.Decision)
	} else if c.Relation != "" {
		head += fmt.Sprintf(" from two values of %s", c.Relation)
	}
	fmt.Fprintln(w, head)
	row := func(label, text string) { fmt.Fprintf(w, "  %-10s%s\n", label+":", text) }
	row("new", factLine(c.New, newF))
	row("existing", factLine(c.Existing, existing))
	if c.Reason != "" {
		row("reason", oneLineText(c.Reason))
	}
	if c.Open() {
		if settle := a.settleText(c, newF, existing); settle != "" {
			row("settle", settle)
		} else {
			row("settle", "nothing to choose: a fact of it is no longer current")
		}
	}
}

func (a *app) conflictsCmd() *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "conflicts",
		Short: "List open conflicts: a new fact beside one it may replace, or two current facts that contradict (--all: resolved and moot too)",
		Long: `conflicts lists the open conflicts, newest first: each names the new fact and
the existing one, with their texts and states, why the two were linked, and the
command that settles it (memctl resolve ID new|existing|both). A conflict is
recorded by a decision, or derived by the store from two current facts that
claim two values of a relation that holds one (where someone lives, works…).
--all adds the resolved ones and the moot ones (a fact of it changed since). --json prints the conflicts with both facts as fact objects
(new_fact, existing_fact; null for a fact deleted since).`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			return a.withStore(true, func(s *memory.Store) error {
				cs, err := s.Conflicts(ctx, a.user, &memory.ConflictOptions{All: all})
				if err != nil {
					return err
				}
				if !a.json && len(cs) == 0 {
					_, err := fmt.Fprintln(a.stdout, yesNo(all, "no conflicts", "no open conflicts"))
					return err
				}
				out := make([]conflictJSON, 0, len(cs))
				var b strings.Builder
				for i, c := range cs {
					newF, existing, err := a.conflictFacts(ctx, s, c)
					if err != nil {
						return err
					}
					if a.json {
						out = append(out, conflictObject(c, newF, existing))
						continue
					}
					if i > 0 {
						b.WriteString("\n")
					}
					a.printConflict(&b, c, newF, existing)
				}
				if a.json {
					return a.printJSON(out)
				}
				_, err = io.WriteString(a.stdout, b.String())
				return err
			})
		},
	}
	c.Flags().BoolVar(&all, "all", false, "include resolved conflicts")
	return c
}

func (a *app) resolveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "resolve CONFLICT_ID new|existing|both",
		Short: "Settle a conflict: the new fact supersedes the existing one, is retracted, or both stay",
		Long: `resolve settles a conflict (see memctl conflicts): new makes the new fact
supersede the existing one, existing retracts the new fact, both keeps both.
It then says what became of each fact, as the store has it after the call.`,
		Args: exactArgs("CONFLICT_ID", "new|existing|both"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseNum("conflict", args[0])
			if err != nil {
				return err
			}
			keep := memory.Keep(args[1])
			switch keep {
			case memory.KeepNew, memory.KeepExisting, memory.KeepBoth:
			default:
				return usagef("unknown choice %q: want new, existing or both", args[1])
			}
			ctx := cmd.Context()
			return a.withStore(false, func(s *memory.Store) error {
				// The facts before and after the call, so that the message
				// says what the store did, not what the choice would mean.
				var before [2]*memory.Fact
				cs, err := s.Conflicts(ctx, a.user, &memory.ConflictOptions{All: true})
				if err != nil {
					return err
				}
				for _, c := range cs {
					if c.ID == id {
						if before[0], before[1], err = a.conflictFacts(ctx, s, c); err != nil {
							return err
						}
					}
				}
				c, err := s.ResolveConflict(ctx, a.user, id, keep)
				if err != nil {
					return err
				}
				newF, existing, err := a.conflictFacts(ctx, s, c)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(conflictObject(c, newF, existing))
				}
				_, err = fmt.Fprintf(a.stdout, "resolved conflict %d, keeping %s: %s\n", c.ID, keepText(keep),
					changes([]uint64{c.New, c.Existing}, before[:], []*memory.Fact{newF, existing}))
				return err
			})
		},
	}
}

func keepText(k memory.Keep) string {
	switch k {
	case memory.KeepNew:
		return "the new fact"
	case memory.KeepExisting:
		return "the existing fact"
	}
	return "both"
}

// changes says what became of each fact between before and after (nil: not
// there), the facts that changed first: "fact 24 is now retracted; fact 3
// stays current".
func changes(ids []uint64, before, after []*memory.Fact) string {
	var changed, kept []string
	for i, id := range ids {
		b, f := before[i], after[i]
		switch {
		case f == nil && b == nil:
			kept = append(kept, fmt.Sprintf("fact %d is deleted", id))
		case f == nil:
			changed = append(changed, fmt.Sprintf("fact %d is now deleted", id))
		case b != nil && stateText(*b) == stateText(*f):
			kept = append(kept, fmt.Sprintf("fact %d stays %s", id, stateText(*f)))
		default:
			changed = append(changed, fmt.Sprintf("fact %d is now %s", id, stateText(*f)))
		}
	}
	if len(changed) == 0 {
		return "nothing changed: " + strings.Join(kept, "; ")
	}
	return strings.Join(append(changed, kept...), "; ")
}
