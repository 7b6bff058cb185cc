package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

func (a *app) graphCmd() *cobra.Command {
	var entity, relation string
	var event, known time.Time
	var all bool
	c := &cobra.Command{
		Use:   "graph",
		Short: "Edges of the graph derived from the facts, at event time --event as known at --known",
		Long: `graph shows the edges derived from the facts' claims: subject, relation,
object, the edge's state, its event interval and the facts that support it.
An edge is visible at record time --known when a fact behind it is; its event
interval is the union of theirs. "Where did I work in May?" is
graph --relation works_at --event 2026-05-15; "what did you believe on
1 August about July?" adds --known 2026-08-01. Both default to now.

STATE is current (true at --event), ended, upcoming (begins after --event)
or retracted. --all shows every edge interval as known at --known, ended,
upcoming and retracted ones too; without it, only the current ones.

--entity NAME shows the edges that have that entity as subject or object,
current at --event as known at --known: its neighbours. With --all it shows
the entity's timeline instead: every interval of its edges on both axes,
with KNOWN, the record times during which the store believed it; the
timeline takes no --event or --known.

--relation keeps the edges of one relation (an unknown one is a usage
error that lists them). The subject "(user)" is the user; its JSON
"subject" is "".

An entity merged into another (graph merge) shows its aliases beside its
name, "Yandex (also Яндекс)", as the merges stood at --known; its JSON has
them in "subject_aliases" and "object_aliases". graph merges lists the
merges, graph unmerge undoes one.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if relation != "" {
				if _, err := memory.ParseRelation(relation); err != nil {
					return usageError{err}
				}
			}
			if cmd.Flags().Changed("entity") && strings.TrimSpace(entity) == "" {
				return usagef("--entity takes a name")
			}
			if entity != "" && all && (cmd.Flags().Changed("event") || cmd.Flags().Changed("known")) {
				return usagef("--entity with --all is the entity's whole timeline: it takes no --event or --known")
			}
			return a.withStore(true, func(s *memory.Store) error {
				ctx := cmd.Context()
				var edges []memory.Edge
				var err error
				switch {
				case entity != "" && all:
					edges, err = s.EntityTimeline(ctx, a.user, entity)
				case entity != "":
					edges, err = s.Neighbours(ctx, a.user, entity, event, known)
				default:
					edges, err = s.Edges(ctx, a.user, &memory.EdgeQuery{Relation: memory.Relation(relation), Event: event, Known: known, All: all})
				}
				if err != nil {
					return err
				}
				if entity != "" && relation != "" {
					edges = slices.DeleteFunc(edges, func(e memory.Edge) bool { return string(e.Relation) != relation })
				}
				ms, err := s.Merges(ctx, a.user)
				if err != nil {
					return err
				}
				return a.printEdges(edges, aliasNames(ms, known))
			})
		},
	}
	f := c.Flags()
	f.StringVar(&entity, "entity", "", "the edges of entity `NAME`, as subject or object (its neighbours; with --all its timeline)")
	f.StringVar(&relation, "relation", "", "only edges of relation `R` (works_at, lives_in, …)")
	f.Var(timeFlag{&event}, "event", "when in the world (default: now)")
	f.Var(timeFlag{&known}, "known", "as the store knew it then (default: now)")
	f.BoolVar(&all, "all", false, "every edge interval, ended and retracted ones too (with --entity: its timeline)")
	c.AddCommand(a.graphMergeCommands()...)
	return c
}

// edgeJSON is the edge object of graph --json; like factJSON, its keys are
// a contract with scripts.
type edgeJSON struct {
	Subject  string   `json:"subject"`
	Relation string   `json:"relation"`
	Object   string   `json:"object"`
	Kind     string   `json:"kind"`
	Support  []uint64 `json:"support"`
	State    string   `json:"state"`
	// The edge's event interval as known at the record time asked about:
	// null start when nobody told it, null end while open.
	EventStart *string `json:"event_start"`
	EventEnd   *string `json:"event_end"`
	// The record times during which the store believed this interval:
	// set by the timeline (--entity NAME --all) only, else null; known_until
	// is null while still believed.
	KnownFrom  *string `json:"known_from"`
	KnownUntil *string `json:"known_until"`
	// The names merged into the subject and the object (graph merge), []
	// for none.
	SubjectAliases []string `json:"subject_aliases"`
	ObjectAliases  []string `json:"object_aliases"`
}

func edgeObject(e memory.Edge, aliases map[string][]string) edgeJSON {
	support := e.Support
	if support == nil {
		support = []uint64{} // [] rather than null
	}
	names := func(n string) []string {
		if n == "" {
			return []string{} // the user
		}
		return append([]string{}, aliases[memory.NormalizeName(n)]...)
	}
	return edgeJSON{
		SubjectAliases: names(e.Subject),
		ObjectAliases:  names(e.Object),
		Subject:        e.Subject,
		Relation:       string(e.Relation),
		Object:         e.Object,
		Kind:           string(e.Kind),
		Support:        support,
		State:          string(e.State),
		EventStart:     jsonTimePtr(e.EventStart),
		EventEnd:       jsonTimePtr(e.EventEnd),
		KnownFrom:      jsonTimePtr(e.KnownFrom),
		KnownUntil:     jsonTimePtr(e.KnownUntil),
	}
}

func jsonTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	return jsonTime(*t)
}

// userSubject is how a table shows the subject "", the user.
const userSubject = "(user)"

func showSubject(s string) string {
	if s == "" {
		return userSubject
	}
	return oneLineText(s)
}

// showClaim is a claim for people: "(user) works_at company A (company)".
func showClaim(c memory.Claim) string {
	s := showSubject(c.Subject) + " " + oneLineText(string(c.Relation)) + " " + oneLineText(c.Object)
	if c.Kind != "" {
		s += " (" + oneLineText(string(c.Kind)) + ")"
	}
	return s
}

// printEdges prints edges as a JSON array or a table, each name with the
// names merged into it (aliases, by normalized name).
func (a *app) printEdges(edges []memory.Edge, aliases map[string][]string) error {
	object := func(e memory.Edge) edgeJSON { return edgeObject(e, aliases) }
	return a.printList(len(edges), func() any { return jsonList(edges, object) }, "no edges", func(tw io.Writer) error {
		// The timeline's edges say when the store believed them: a KNOWN column.
		known := slices.ContainsFunc(edges, func(e memory.Edge) bool { return e.KnownFrom != nil })
		fmt.Fprint(tw, "SUBJECT\tRELATION\tOBJECT\tSTATE\tEVENT\tSUPPORT")
		if known {
			fmt.Fprint(tw, "\tKNOWN")
		}
		fmt.Fprintln(tw)
		for _, e := range edges {
			subject := showSubject(e.Subject)
			if e.Subject != "" {
				subject = withAliases(e.Subject, aliases)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s", subject, oneLineText(string(e.Relation)), withAliases(e.Object, aliases),
				e.State, edgeSpan(e), supportList(e.Support))
			if known {
				fmt.Fprintf(tw, "\t%s", knownSpan(e))
			}
			fmt.Fprintln(tw)
		}
		return nil
	})
}

// knownSpan is the record times during which the store believed an edge
// interval; "now" while it still does.
func knownSpan(e memory.Edge) string {
	from, until := "?", "now"
	if e.KnownFrom != nil {
		from = showTime(*e.KnownFrom)
	}
	if e.KnownUntil != nil {
		until = showTime(*e.KnownUntil)
	}
	return from + " → " + until
}

// edgeSpan is an edge's event interval in the facts' notation: "?" for a
// start nobody told, "open" for no end.
func edgeSpan(e memory.Edge) string {
	from, end := "?", "open"
	if e.EventStart != nil {
		from = showTime(*e.EventStart)
	}
	if e.EventEnd != nil {
		end = showTime(*e.EventEnd)
	}
	return from + " → " + end
}

// supportList is the supporting fact ids, "1,3".
func supportList(ids []uint64) string {
	strs := make([]string, len(ids))
	for i, id := range ids {
		strs[i] = strconv.FormatUint(id, 10)
	}
	return strings.Join(strs, ",")
}
