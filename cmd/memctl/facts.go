package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

// sourceKind marks facts written through this command.
const sourceKind = "cli"

func (a *app) factCommands() []*cobra.Command {
	return []*cobra.Command{
		a.addCmd(), a.supersedeCmd(),
		a.changeCmd("invalidate", "Retract a fact that was never true (it stays as history)", "retracted fact %d",
			(*memory.Store).Invalidate),
		a.changeCmd("restore", "Make a superseded or retracted fact current again", "restored fact %d",
			(*memory.Store).Restore),
		a.pinCmd("pin", "Protect a fact from automation", "pinned fact %d", (*memory.Store).Pin),
		a.pinCmd("unpin", "Let automation change a fact again", "unpinned fact %d", (*memory.Store).Unpin),
		a.deleteCmd(), a.getCmd(), a.historyCmd(), a.listCmd(), a.atCmd(), a.searchCmd(), a.promptCmd(),
	}
}

// parseID reads a fact id; ids start at 1.
func parseID(s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, usagef("bad fact id %q: want a positive number", s)
	}
	return id, nil
}

// noteFlags are the flags of commands that write a new fact.
type noteFlags struct {
	from, until time.Time
	source      string
	pin, auto   bool
}

func (n *noteFlags) register(c *cobra.Command) {
	f := c.Flags()
	f.Var(timeFlag{&n.from}, "from", "when the fact became true in the world (default: now)")
	f.Var(timeFlag{&n.until}, "until", "when the fact stops being true (default: open-ended)")
	f.StringVar(&n.source, "source", "", "reference to where the fact came from, e.g. a message id")
	f.BoolVar(&n.pin, "pin", false, "protect the fact from automation")
	f.BoolVar(&n.auto, "auto", false, "write as automation rather than the user")
}

func (n *noteFlags) note(user, text string) memory.Note {
	return memory.Note{
		User:       user,
		Text:       text,
		EventFrom:  n.from,
		EventUntil: n.until,
		Pinned:     n.pin,
		Origin:     origin(n.auto),
		Source:     memory.Source{Kind: sourceKind, Ref: n.source},
	}
}

func origin(auto bool) memory.Origin {
	if auto {
		return memory.OriginAuto
	}
	return memory.OriginUser
}

func (a *app) addCmd() *cobra.Command {
	var nf noteFlags
	c := &cobra.Command{
		Use:   "add TEXT",
		Short: "Record a new fact",
		Args:  exactArgs("TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withStore(false, func(s *memory.Store) error {
				f, err := s.Add(cmd.Context(), nf.note(a.user, args[0]))
				if err != nil {
					return err
				}
				return a.printWritten(cmd.Context(), s, f, "added fact %d")
			})
		},
	}
	nf.register(c)
	return c
}

func (a *app) supersedeCmd() *cobra.Command {
	var nf noteFlags
	c := &cobra.Command{
		Use:   "supersede ID TEXT",
		Short: "Record TEXT as the successor of fact ID: the world changed",
		Args:  exactArgs("ID", "TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseID(args[0])
			if err != nil {
				return err
			}
			return a.withStore(false, func(s *memory.Store) error {
				f, err := s.Supersede(cmd.Context(), a.user, id, nf.note(a.user, args[1]))
				if err != nil {
					return err
				}
				return a.printWritten(cmd.Context(), s, f, fmt.Sprintf("superseded fact %d with fact %%d", id))
			})
		},
	}
	nf.register(c)
	return c
}

// byID builds a command whose one argument is a fact id: it parses the id,
// opens the store and hands both to fn.
func (a *app) byID(name, short string, readOnly bool,
	fn func(ctx context.Context, s *memory.Store, id uint64) error) *cobra.Command {
	return &cobra.Command{
		Use:   name + " ID",
		Short: short,
		Args:  exactArgs("ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseID(args[0])
			if err != nil {
				return err
			}
			return a.withStore(readOnly, func(s *memory.Store) error { return fn(cmd.Context(), s, id) })
		},
	}
}

// changeCmd builds invalidate and restore, which differ only in the call.
func (a *app) changeCmd(name, short, done string,
	call func(*memory.Store, context.Context, string, uint64, memory.Change) (memory.Fact, error)) *cobra.Command {
	var reason string
	c := a.byID(name, short, false, func(ctx context.Context, s *memory.Store, id uint64) error {
		f, err := call(s, ctx, a.user, id, memory.Change{Origin: memory.OriginUser, Reason: reason})
		if err != nil {
			return err
		}
		return a.printFact(f, done)
	})
	c.Flags().StringVar(&reason, "reason", "", "why, kept in the fact's lifecycle log")
	return c
}

func (a *app) pinCmd(name, short, done string,
	call func(*memory.Store, context.Context, string, uint64) (memory.Fact, error)) *cobra.Command {
	return a.byID(name, short, false, func(ctx context.Context, s *memory.Store, id uint64) error {
		f, err := call(s, ctx, a.user, id)
		if err != nil {
			return err
		}
		return a.printFact(f, done)
	})
}

func (a *app) deleteCmd() *cobra.Command {
	var chain bool
	c := a.byID("delete", "Erase a fact for good (with --chain, every version of it)", false,
		func(ctx context.Context, s *memory.Store, id uint64) error {
			ids, err := s.Delete(ctx, a.user, id, &memory.DeleteOptions{Chain: chain})
			if err != nil {
				return err
			}
			if a.json {
				if ids == nil {
					ids = []uint64{}
				}
				return a.printJSON(map[string][]uint64{"deleted": ids})
			}
			strs := make([]string, len(ids))
			for i, id := range ids {
				strs[i] = strconv.FormatUint(id, 10)
			}
			_, err = fmt.Fprintf(a.stdout, "deleted %s %s\n",
				yesNo(len(ids) == 1, "fact", "facts"), strings.Join(strs, ", "))
			return err
		})
	c.Flags().BoolVar(&chain, "chain", false, "delete every version in the fact's history")
	return c
}

func (a *app) getCmd() *cobra.Command {
	return a.byID("get", "Show a fact and its lifecycle log", true,
		func(ctx context.Context, s *memory.Store, id uint64) error {
			f, err := s.Get(ctx, a.user, id)
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(factObject(f))
			}
			return a.printFactDetail(ctx, s, f)
		})
}

func (a *app) historyCmd() *cobra.Command {
	return a.byID("history", "Show every version in the chain of fact ID, oldest first", true,
		func(ctx context.Context, s *memory.Store, id uint64) error {
			facts, err := s.History(ctx, a.user, id)
			if err != nil {
				return err
			}
			return a.printFacts(ctx, s, facts)
		})
}

func (a *app) listCmd() *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "list",
		Short: "List current facts (with --all, superseded and retracted ones too)",
		Args:  exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withStore(true, func(s *memory.Store) error {
				facts, err := s.List(cmd.Context(), a.user, &memory.ListOptions{All: all})
				if err != nil {
					return err
				}
				return a.printFacts(cmd.Context(), s, facts)
			})
		},
	}
	c.Flags().BoolVar(&all, "all", false, "include superseded and retracted facts")
	return c
}

func (a *app) atCmd() *cobra.Command {
	var event, known time.Time
	c := &cobra.Command{
		Use:   "at",
		Short: "Facts true at event time --event, as known at record time --known",
		Long: `at answers bi-temporal questions. "Where did I work in May?" is
at --event 2026-05-15; "what did you believe on 1 August about July?" is
at --event 2026-07-01 --known 2026-08-01. Both default to now.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withStore(true, func(s *memory.Store) error {
				facts, err := s.At(cmd.Context(), a.user, event, known)
				if err != nil {
					return err
				}
				return a.printFacts(cmd.Context(), s, facts)
			})
		},
	}
	c.Flags().Var(timeFlag{&event}, "event", "when in the world (default: now)")
	c.Flags().Var(timeFlag{&known}, "known", "as the store knew it then (default: now)")
	return c
}

func (a *app) promptCmd() *cobra.Command {
	var o memory.PromptOptions
	var explain bool
	c := &cobra.Command{
		Use:   "prompt",
		Short: "Print the block of facts an assistant puts into its context",
		Long: `prompt prints what the assistant is told: the facts true now, then the
upcoming ones. Which facts are in is a ranking: pinned facts first, then
those search finds for --for (the message being answered),
then by freshness, which halves every --half-life since a fact was recorded,
last told again or starts. --budget N keeps the fact lines within N
characters (pinned facts are always in); a fact left out stays current, in
at, list and get. A fact in an open conflict carries a note naming the other
(resolve removes it; --no-notes hides notes). --explain lists every fact
with in or out, its score and why.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Budget < 0 {
				return usagef("--budget %d: want 0 (no limit) or more characters", o.Budget)
			}
			return a.withStore(true, func(s *memory.Store) error {
				if explain {
					es, err := s.ExplainPrompt(cmd.Context(), a.user, &o)
					if err != nil {
						return err
					}
					return a.printExplain(es)
				}
				p, err := s.Prompt(cmd.Context(), a.user, &o)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(map[string]string{"prompt": p})
				}
				_, err = fmt.Fprint(a.stdout, printable(p, true))
				return err
			})
		},
	}
	f := c.Flags()
	f.IntVar(&o.Budget, "budget", 0, "most characters of fact lines (0: no limit; pinned facts are always in)")
	f.StringVar(&o.For, "for", "", "the message being answered: facts it concerns rank first")
	f.Var(halfLifeFlag{&o.HalfLife}, "half-life", fmt.Sprintf("how fast freshness halves, e.g. 30d or 720h (default %s)", halfLifeString(memory.DefaultHalfLife)))
	f.BoolVar(&o.NoNotes, "no-notes", false, "leave out the notes on facts in an open conflict")
	f.BoolVar(&explain, "explain", false, "list every fact with in or out, its score and why")
	return c
}
