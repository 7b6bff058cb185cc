package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/modelenv"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// reconcileCommands are remember and the commands around its decisions.
func (a *app) reconcileCommands() []*cobra.Command {
	return []*cobra.Command{a.rememberCmd(), a.decisionsCmd(), a.undoCmd(), a.conflictsCmd(), a.resolveCmd(), a.deleteDecisionCmd()}
}

// parseNum reads a positive id of a decision or conflict.
func parseNum(what, s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, usagef("bad %s id %q: want a positive number", what, s)
	}
	return id, nil
}

// rememberFlags are remember's own flags.
type rememberFlags struct {
	said time.Time
	// from and until, when given, are the fact's event interval, over
	// what its words say (Note.EventFrom, Note.EventUntil).
	from, until time.Time
	source      string
	decider     string
	model       string
	fallback    string
}

// rememberOptions resolves the flags and the environment into the store options
// remember needs; a bad value is a usage error.
func (a *app) rememberOptions(rf *rememberFlags) (func(*memory.Options), error) {
	name := rf.decider
	if name == "" {
		name = a.getenv("MEMCTL_DECIDER")
	}
	switch memory.FallbackPolicy(rf.fallback) {
	case memory.FallbackAdd, memory.FallbackError:
	default:
		return nil, usagef("unknown fallback policy %q (add or error)", rf.fallback)
	}
	decider, err := modelenv.Decider(name, rf.model, a.timeout, a.getenv)
	if err != nil {
		return nil, usageError{err}
	}
	switch name {
	case "", "rules":
		a.deciderSpec = "rules"
	case "add":
		a.deciderSpec = "add"
	default: // a model, announced on stderr when slow
		n, err := a.notice(decider, "a decision")
		if err != nil {
			return nil, err
		}
		decider = noticedDecider{decider, n}
		a.deciderSpec = name + " " + a.modelPlace(name, modelenv.Model(rf.model, a.getenv))
	}
	a.deciderSpec += ", fallback " + rf.fallback
	return func(o *memory.Options) { o.Decider, o.Fallback = decider, memory.FallbackPolicy(rf.fallback) }, nil
}

func (a *app) rememberCmd() *cobra.Command {
	rf := rememberFlags{fallback: string(memory.FallbackAdd)}
	c := &cobra.Command{
		Use:   "remember TEXT",
		Short: "Record a fact and reconcile it with what is known: add, update, invalidate or noop",
		Long: fmt.Sprintf(`remember records TEXT as what the user said and decides what it does to the
facts it may update or contradict: add it beside them, update (supersede) one,
invalidate (retract) one that was wrong, or nothing (noop) when it restates one.
It prints the decision, its reason and the fact stored; "memctl undo ID" reverses it.
When the text says when the fact became true ("since May", "from Monday"), it is
stored with that time; --from and --until give the times instead of the words.

Deciders (--decider, default $MEMCTL_DECIDER, else rules):
  rules   no model: acts only on explicit markers ("now", "moved", "I was wrong"),
          else adds
  ollama  asks a local Ollama chat model (--model, default $MEMCTL_MODEL) at
          $OLLAMA_HOST
  openai  asks a chat model (--model, default $MEMCTL_MODEL) of any server
          speaking OpenAI's Chat Completions: $OPENAI_BASE_URL (default
          https://api.openai.com/v1; llama.cpp's llama-server
          http://localhost:8080/v1, LM Studio http://localhost:1234/v1,
          Ollama http://localhost:11434/v1), with the key $OPENAI_API_KEY
          (none when unset)
  add     always adds

A model call waits at most --timeout (default $MEMCTL_TIMEOUT, else %s); once
one takes over a second, memctl says on stderr which model it is asking where.
When the decider fails (a server unreachable, a timeout, an HTTP error, a
refusal, an invalid answer twice),
--fallback add stores the fact anyway and --fallback error stores nothing and
exits 1; either way the decision says "fallback:" and why. A decision that
changed nothing (a refusal, a noop) offers no undo.

A pinned fact is never changed: the new fact is added and a conflict links the
two (see conflicts and resolve).

The claims stored with the fact (what "memctl graph" is made of) are the model's
with a model decider, from its answer (an invalid claim is dropped and listed),
else the rules'; "claims:" (claims_from and claims_note in --json) says which.`, memory.DefaultModelTimeout),
		Args: exactArgs("TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			tune, err := a.rememberOptions(&rf)
			if err != nil {
				return err
			}
			said := rf.said
			if said.IsZero() {
				said = a.now // zero unless --now: the store's clock then
			}
			note := memory.Note{User: a.user, Text: args[0], EventFrom: rf.from, EventUntil: rf.until,
				Source: memory.Source{Kind: sourceKind, Ref: rf.source, SaidAt: said}}
			return a.withTunedStore(false, tune, func(s *memory.Store) error {
				out, err := s.Remember(cmd.Context(), note)
				if err != nil && !errors.Is(err, memory.ErrDecider) {
					return err
				}
				// A refusal by the fallback policy is logged: show it, then fail.
				if perr := a.printOutcome(cmd.Context(), s, out, rf.fallback); perr != nil {
					return perr
				}
				return err
			})
		},
	}
	f := c.Flags()
	f.Var(timeFlag{&rf.said}, "said", "when the user said it (default: --now, else now)")
	f.Var(timeFlag{&rf.from}, "from", "when the fact became true in the world, over what its words say")
	f.Var(timeFlag{&rf.until}, "until", "when the fact stops being true, over what its words say")
	f.StringVar(&rf.source, "source", "", "reference to where the fact came from, e.g. a message id")
	rf.registerDecider(f)
	return c
}

// registerDecider adds the flags that choose how remember decides
// (--decider, --model, --fallback) to f: remember's, and those of the
// commands that serve remember over MCP.
func (rf *rememberFlags) registerDecider(f *pflag.FlagSet) {
	f.StringVar(&rf.decider, "decider", "", "rules, ollama, openai or add (default $MEMCTL_DECIDER, else rules)")
	f.StringVar(&rf.model, "model", "", "chat model of the ollama or openai decider (default $MEMCTL_MODEL)")
	f.StringVar(&rf.fallback, "fallback", string(memory.FallbackAdd), "when the decider fails: add the fact anyway, or error")
}

// outcomeJSON is remember's --json output.
type outcomeJSON struct {
	Decision decisionJSON `json:"decision"`
	Fact     *factJSON    `json:"fact"`
}

// decisionJSON is a decision as memctl prints it: the library's, with the
// action a table shows, "refused" where the library leaves it empty (the
// fallback policy stored nothing).
type decisionJSON struct {
	memory.Decision
	Action string `json:"action"` // shadows Decision.Action
}

func decisionObject(d memory.Decision) decisionJSON {
	return decisionJSON{Decision: d, Action: actionName(d.Action)}
}

// actionName is an action as memctl shows it.
func actionName(a memory.Action) string {
	if a == "" {
		return "refused"
	}
	return string(a)
}

// changedNothing: undoing d would change nothing, as for a refusal or a
// noop, so memctl does not offer it.
func changedNothing(d memory.Decision) bool {
	return d.Added == 0 && !(d.Target != 0 && (d.Action == memory.ActionUpdate || d.Action == memory.ActionInvalidate))
}

// printOutcome prints what remember decided and stored; policy is the
// fallback policy in force, to say what a fallback did. The fact stored
// comes before the conflicts it is in, each with the other fact and the
// command that settles it.
func (a *app) printOutcome(ctx context.Context, s *memory.Store, out memory.Outcome, policy string) error {
	d := out.Decision
	if a.json {
		o := outcomeJSON{Decision: decisionObject(d)}
		if out.Fact.ID != 0 {
			f := factObject(out.Fact)
			o.Fact = &f
		}
		return a.printJSON(o)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "action:\t%s\n", a.actionText(ctx, s, d.Action, d.Target))
	if d.Proposed != d.Action && d.Proposed != "" {
		fmt.Fprintf(tw, "proposed:\t%s\n", a.actionText(ctx, s, d.Proposed, d.Target))
	}
	if d.Reason != "" {
		fmt.Fprintf(tw, "reason:\t%s\n", oneLineText(d.Reason))
	}
	if d.Fallback != "" {
		then := "the fact was added without the decider's judgement (--fallback add)"
		if memory.FallbackPolicy(policy) == memory.FallbackError {
			then = "nothing was stored (--fallback error)"
		}
		fb := d.Fallback
		if out.DeciderError != nil { // the whole cause, which the store does not keep
			fb = d.Decider + " decider failed: " + out.DeciderError.Error()
		}
		fmt.Fprintf(tw, "fallback:\t%s; %s\n", oneLineText(fb), then)
	}
	decider := oneLineText(d.Decider)
	if d.Model != "" {
		decider += " (model " + oneLineText(d.Model) + ")"
	}
	fmt.Fprintf(tw, "decider:\t%s\n", decider)
	if changedNothing(d) {
		fmt.Fprintf(tw, "decision:\t%d (nothing to undo)\n", d.ID)
	} else {
		fmt.Fprintf(tw, "decision:\t%d (undo with: memctl undo %d)\n", d.ID, d.ID)
	}
	if d.ClaimsFrom != "" {
		claims := "from the " + oneLineText(d.ClaimsFrom)
		if d.ClaimsNote != "" {
			claims += "; " + oneLineText(d.ClaimsNote)
		}
		fmt.Fprintf(tw, "claims:\t%s\n", claims)
	}
	switch f := out.Fact; {
	case f.ID == 0:
		fmt.Fprintf(tw, "fact:\tnone stored\n")
	case d.Added == f.ID:
		fmt.Fprintf(tw, "fact:\t%d (%s): %s\n", f.ID, f.State(), oneLineText(f.Text))
		if !f.EventFrom.IsZero() {
			fmt.Fprintf(tw, "true from:\t%s (%s)\n", showTime(f.EventFrom), oneLineText(f.EventSource))
		}
		if !f.EventUntil.IsZero() {
			fmt.Fprintf(tw, "true until:\t%s (%s, not included)\n", showTime(f.EventUntil), oneLineText(f.EventUntilSource))
		}
	default: // a noop: the fact it restates, unchanged but for its log
		fmt.Fprintf(tw, "fact:\t%d (%s, unchanged, told again): %s\n", f.ID, f.State(), oneLineText(f.Text))
	}
	if err := a.printDecisionConflicts(ctx, s, tw, d); err != nil {
		return err
	}
	return tw.Flush()
}

// printDecisionConflicts prints the conflicts a decision recorded, one
// pair of rows each: the fact the new one may replace, and how to settle it.
// The conflicts the store derived for the added fact follow.
func (a *app) printDecisionConflicts(ctx context.Context, s *memory.Store, w io.Writer, d memory.Decision) error {
	if d.Conflict == 0 {
		return a.printDerivedConflicts(ctx, s, w, d.Added)
	}
	ids := append([]uint64{d.Conflict}, d.AlsoConflicts...)
	cs, err := s.Conflicts(ctx, a.user, &memory.ConflictOptions{All: true})
	if err != nil {
		return err
	}
	byID := make(map[uint64]memory.Conflict, len(cs))
	for _, c := range cs {
		byID[c.ID] = c
	}
	for _, id := range ids {
		c, ok := byID[id]
		if !ok {
			fmt.Fprintf(w, "conflict:\t%d\n", id)
			continue
		}
		newF, existing, err := a.conflictFacts(ctx, s, c)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "conflict:\t%d: fact %d may replace %s\n", c.ID, c.New, factLine(c.Existing, existing))
		if settle := a.settleText(c, newF, existing); settle != "" && c.ResolvedAt == nil {
			fmt.Fprintf(w, "settle:\t%s\n", settle)
		}
	}
	return a.printDerivedConflicts(ctx, s, w, d.Added)
}

// printDerivedConflicts prints the open conflicts the store derived for
// fact id (0: none): two current facts that claim two values of a
// relation that holds one, one pair of rows each.
func (a *app) printDerivedConflicts(ctx context.Context, s *memory.Store, w io.Writer, id uint64) error {
	if id == 0 {
		return nil
	}
	cs, err := s.Conflicts(ctx, a.user, nil)
	if err != nil {
		return err
	}
	for i := len(cs) - 1; i >= 0; i-- { // oldest first
		c := cs[i]
		if c.Relation == "" || (c.New != id && c.Existing != id) {
			continue
		}
		newF, existing, err := a.conflictFacts(ctx, s, c)
		if err != nil {
			return err
		}
		other, otherF := c.Existing, existing
		if other == id {
			other, otherF = c.New, newF
		}
		fmt.Fprintf(w, "conflict:\t%d: fact %d contradicts %s (two values of %s)\n", c.ID, id, factLine(other, otherF), c.Relation)
		if settle := a.settleText(c, newF, existing); settle != "" {
			fmt.Fprintf(w, "settle:\t%s\n", settle)
		}
	}
	return nil
}

// actionText is an action with the fact it acts on: "update fact 1: I work
// at A." An add acts on no fact: a fact it is in conflict with is named
// with the conflict.
func (a *app) actionText(ctx context.Context, s *memory.Store, action memory.Action, target uint64) string {
	text := string(action)
	if action == "" {
		text = "none (refused)" // the table says why at "fallback:"
	}
	if target == 0 || action == memory.ActionAdd || action == "" {
		return text
	}
	text += fmt.Sprintf(" fact %d", target)
	if f, err := s.Get(ctx, a.user, target); err == nil {
		text += ": " + oneLineText(f.Text)
	}
	return text
}

func (a *app) decisionsCmd() *cobra.Command {
	var limit int
	c := &cobra.Command{
		Use:   "decisions",
		Short: "List remember's decisions, newest first",
		Args:  exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 0 {
				return usagef("--limit %d: want 0 (all) or more", limit)
			}
			return a.withStore(true, func(s *memory.Store) error {
				ds, err := s.Decisions(cmd.Context(), a.user, limit)
				if err != nil {
					return err
				}
				return a.printList(len(ds), func() any { return jsonList(ds, decisionObject) }, "no decisions", func(tw io.Writer) error {
					fmt.Fprintln(tw, "ID\tAT\tACTION\tTARGET\tADDED\tDECIDER\tFALLBACK\tUNDONE\tTEXT")
					for _, d := range ds {
						action := actionName(d.Action)
						undone := "-"
						if d.UndoneAt != nil {
							undone = showTime(*d.UndoneAt)
						}
						fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d.ID, showTime(d.At), oneLineText(action),
							idOrDash(d.Target), idOrDash(d.Added), oneLineText(d.Decider), yesNo(d.Fallback != "", "yes", "-"),
							undone, oneLineText(d.Text))
					}
					return nil
				})
			})
		},
	}
	c.Flags().IntVar(&limit, "limit", 0, "show at most N decisions (0: all)")
	return c
}

func idOrDash(id uint64) string {
	if id == 0 {
		return "-"
	}
	return strconv.FormatUint(id, 10)
}

func (a *app) undoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "undo DECISION_ID",
		Short: "Reverse a decision of remember: retract the fact it added, restore the one it changed",
		Args:  exactArgs("DECISION_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseNum("decision", args[0])
			if err != nil {
				return err
			}
			return a.withStore(false, func(s *memory.Store) error {
				d, err := s.Undo(cmd.Context(), a.user, id)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(decisionObject(d))
				}
				what := "nothing to change"
				switch restored := d.Target != 0 && (d.Action == memory.ActionUpdate || d.Action == memory.ActionInvalidate); {
				case d.Added != 0 && restored:
					what = fmt.Sprintf("retracted fact %d, restored fact %d", d.Added, d.Target)
				case d.Added != 0:
					what = fmt.Sprintf("retracted fact %d", d.Added)
				case restored:
					what = fmt.Sprintf("restored fact %d", d.Target)
				case d.Action == memory.ActionNoop && d.Target != 0:
					what = fmt.Sprintf("fact %d no longer counts as told again then", d.Target)
				}
				_, err = fmt.Fprintf(a.stdout, "undid decision %d (%s): %s\n", d.ID, actionName(d.Action), what)
				return err
			})
		},
	}
}

// deleteDecisionCmd erases a decision no fact holds (a refusal) for good.
func (a *app) deleteDecisionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "delete-decision DECISION_ID",
		Short: "Erase for good a decision no fact holds (a refused remember), scrubbing the file",
		Long: `delete-decision erases the record of a decision that added or changed no fact
still in the store, such as a remember refused under --fallback error, and
overwrites the file's free pages so that no byte of it is left. A decision that holds a fact
goes with that fact (memctl delete).`,
		Args: exactArgs("DECISION_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseNum("decision", args[0])
			if err != nil {
				return err
			}
			return a.withStore(false, func(s *memory.Store) error {
				if err := s.DeleteDecision(cmd.Context(), a.user, id); err != nil {
					return err
				}
				if a.json {
					return a.printJSON(map[string]uint64{"deleted_decision": id})
				}
				_, err := fmt.Fprintf(a.stdout, "deleted decision %d\n", id)
				return err
			})
		},
	}
}
