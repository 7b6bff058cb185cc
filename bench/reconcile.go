package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

func reconcileCmd() *cobra.Command {
	var e evalFlags
	var casesPath string
	c := &cobra.Command{
		Use:   "reconcile",
		Short: "Decision accuracy and collateral rate of Remember on an updates file",
		Long: `reconcile runs Remember on each case of an updates file (default: the dev
set) with the decider named, and scores its decisions.

Deciders: rules, add, ollama (Ollama at $OLLAMA_HOST) or openai (any
OpenAI-compatible server at $OPENAI_BASE_URL, else OpenAI, with the key
$OPENAI_API_KEY); ollama and openai need --model (default $MEMCTL_MODEL).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, cases, ds, d, err := e.load()
			if err != nil {
				return err
			}
			var progress func(done int)
			if e.decider == "ollama" || e.decider == "openai" {
				// A model takes seconds a case: say how far the run is, on
				// stderr, so the table on stdout stays clean.
				progress = func(done int) {
					if done%10 == 0 || done == len(cases) {
						fmt.Fprintf(cmd.ErrOrStderr(), "bench: %d/%d cases decided\n", done, len(cases))
					}
				}
			}
			var record func(caseOutcome)
			var out []caseOutcome
			if casesPath != "" {
				record = func(o caseOutcome) { out = append(out, o) }
			}
			res, err := evalReconcile(cmd.Context(), cases, ds, memory.Options{Decider: d, Lookup: m}, progress, record)
			if err != nil {
				return err
			}
			if casesPath != "" {
				if err := writeOutcomes(casesPath, out); err != nil {
					return err
				}
			}
			res.print(cmd.OutOrStdout())
			if res.n > 0 && res.fallbacks == res.n {
				// A wrong address, key or model name: the figures above
				// measure the fallback, not the model.
				return fmt.Errorf("every decision fell back, the first because %s", res.fallback)
			}
			return nil
		},
	}
	e.add(c.Flags(), "score N cases spread evenly over the file (0: all), for a quick look at a slow model")
	c.Flags().StringVar(&casesPath, "cases", "", "write each case's decision, as JSON Lines, to this file")
	return c
}

// writeOutcomes writes the outcomes to path, one JSON object a line.
func writeOutcomes(path string, out []caseOutcome) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, o := range out {
		if err := enc.Encode(o); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// caseOutcome is one case as --cases writes it: what was decided, whether
// it was right and surfaced the old fact, and the decider's reason.
type caseOutcome struct {
	ID       string `json:"id"`
	Gold     string `json:"gold"`
	Got      string `json:"got"`
	Right    bool   `json:"right"`
	Surfaced bool   `json:"surfaced"`
	// OldRank is the old fact's place among the candidates (1 the first),
	// 0 when it was not one.
	OldRank   int    `json:"old_rank"`
	Conflicts int    `json:"conflicts"`
	Old       string `json:"old"`
	New       string `json:"new"`
	Reason    string `json:"reason"`
}

// spread picks n cases at even intervals, so that a short run still sees
// each language and action of a file grouped by them; n 0 keeps all.
func spread(cases []updateCase, n int) []updateCase {
	if n == 0 || n >= len(cases) {
		return cases
	}
	out := make([]updateCase, n)
	for i := range out {
		out[i] = cases[i*len(cases)/n]
	}
	return out
}

// reconcileResult counts decisions per gold action.
type reconcileResult struct {
	decider    string
	model      string
	n, right   int
	collateral int
	gold, got  map[memory.Action]int // cases per gold action, decisions per action
	hit        map[memory.Action]int // right decisions per action
	fallbacks  int
	fallback   string // the first fallback's reason, which names the cause
	// raised is how many decisions raised a conflict, conflicts how many
	// conflicts they raised: what the user is asked to settle.
	raised, conflicts int
	confusion         map[[2]memory.Action]int
	// groups scores the cases by language, by gold action and by the
	// parity of the case's number (two halves, one to tune rules on and
	// one to watch), keyed "lang en", "action add", "half odd".
	groups map[string]*tally
	total  tally
}

// tally is the scores of a group of cases.
type tally struct {
	n, right, collateral int
	// changed: update, invalidate and noop cases; surfaced: those whose
	// old fact was acted on rightly or linked to the new one by a
	// conflict. adds: add cases; alarms: those where a conflict was
	// raised.
	changed, surfaced int
	adds, alarms      int
}

func (t *tally) accuracy() float64     { return ratio(t.right, t.n) }
func (t *tally) surfacedRate() float64 { return ratio(t.surfaced, t.changed) }
func (t *tally) collateralRate() float64 {
	return ratio(t.collateral, t.n)
}
func (t *tally) falseAlarms() float64 { return ratio(t.alarms, t.adds) }

// outcome is how one case was decided.
type outcome struct {
	gold, got memory.Action
	// target is the fact the decision changed or restated; old is the
	// case's old fact; linked says a conflict raised by the decision names
	// the old fact; conflict says the decision raised one.
	target, old      uint64
	linked, conflict bool
}

// score adds one case to t.
func (t *tally) score(o outcome) (right, collateral bool) {
	changes := o.got == memory.ActionUpdate || o.got == memory.ActionInvalidate
	right = o.got == o.gold && (!changes || o.target == o.old)
	shouldChange := o.gold == memory.ActionUpdate || o.gold == memory.ActionInvalidate
	collateral = changes && (o.target != o.old || !shouldChange)
	t.n++
	if right {
		t.right++
	}
	if collateral {
		t.collateral++
	}
	if o.gold == memory.ActionAdd {
		t.adds++
		if o.conflict {
			t.alarms++
		}
		return right, collateral
	}
	t.changed++
	if o.surfaces() {
		t.surfaced++
	}
	return right, collateral
}

// surfaces reports whether the decision acted on the old fact rightly or
// linked it to the new one by a conflict (counted on update, invalidate
// and noop cases only). A noop must restate the old fact itself to count.
func (o outcome) surfaces() bool {
	return (o.got == o.gold && o.target == o.old) || o.linked
}

// half is "odd" or "even" by the last number in a case id ("dev-en-007"
// is odd), "" when the id holds none.
func half(id string) string {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	if i == len(id) {
		return ""
	}
	if (id[len(id)-1]-'0')%2 == 1 {
		return "odd"
	}
	return "even"
}

// evalReconcile scores Remember as docs/evaluation.md says: for each
// case, a store holding that language's distractors and the old fact
// receives the new one; the decision is right when its action is the gold
// action and, for update and invalidate, its target is the old fact.
// Collateral is a case where a fact that should have stayed current was
// superseded or retracted. Surfaced is the share of update, invalidate and
// noop cases whose old fact was acted on rightly or linked to the new one
// by a conflict; false alarms the share of add cases that raised one.
//
// progress, if not nil, is told after each case how many are done.
//
// record, if not nil, is given each case's outcome.
func evalReconcile(ctx context.Context, cases []updateCase, ds []distractor, opts memory.Options, progress func(done int), record func(caseOutcome)) (*reconcileResult, error) {
	res := &reconcileResult{decider: memory.RulesDecider().Name(), gold: map[memory.Action]int{}, got: map[memory.Action]int{},
		hit: map[memory.Action]int{}, confusion: map[[2]memory.Action]int{}, groups: map[string]*tally{}}
	if opts.Decider != nil {
		res.decider = opts.Decider.Name()
	}
	bases := map[string][]byte{}
	for _, c := range cases {
		if bases[c.Lang] == nil {
			b, err := baseStore(ctx, c.Lang, ds)
			if err != nil {
				return nil, err
			}
			bases[c.Lang] = b
		}
		d, oldID, linked, err := decideCase(ctx, c, bases[c.Lang], opts)
		if err != nil {
			return nil, fmt.Errorf("case %s: %w", c.ID, err)
		}
		if res.model == "" {
			res.model = d.Model
		}
		gold, got := memory.Action(c.Action), d.Action
		res.n++
		res.gold[gold]++
		res.got[got]++
		res.confusion[[2]memory.Action{gold, got}]++
		if d.Fallback != "" {
			if res.fallbacks == 0 {
				res.fallback = d.Fallback
			}
			res.fallbacks++
		}
		if d.Conflict != 0 {
			res.raised++
			res.conflicts += 1 + len(d.AlsoConflicts)
		}
		o := outcome{gold: gold, got: got, target: d.Target, old: oldID, linked: linked, conflict: d.Conflict != 0}
		right, collateral := res.total.score(o)
		if record != nil {
			rank := slices.Index(d.Candidates, oldID) + 1
			conflicts := 0
			if d.Conflict != 0 {
				conflicts = 1 + len(d.AlsoConflicts)
			}
			record(caseOutcome{ID: c.ID, Gold: c.Action, Got: string(got), Right: right, Surfaced: gold != memory.ActionAdd && o.surfaces(),
				OldRank: rank, Conflicts: conflicts, Old: c.Old, New: c.New, Reason: d.Reason})
		}
		if right {
			res.right++
			res.hit[got]++
		}
		if collateral {
			res.collateral++
		}
		for _, g := range []string{"lang " + c.Lang, "action " + c.Action, "half " + half(c.ID)} {
			if res.groups[g] == nil {
				res.groups[g] = &tally{}
			}
			res.groups[g].score(o)
		}
		if progress != nil {
			progress(res.n)
		}
	}
	return res, nil
}

// baseStore exports a store holding one language's distractors, each
// recorded at its said date: every case starts from a copy of it.
func baseStore(ctx context.Context, lang string, ds []distractor) ([]byte, error) {
	dir, err := os.MkdirTemp("", "bench-reconcile-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var now time.Time
	s, err := memory.Open(filepath.Join(dir, "m.db"), 0, &memory.Options{NoSync: true, Clock: func() time.Time { return now }})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var mine []distractor
	for _, d := range ds {
		if d.Lang == lang {
			mine = append(mine, d)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].Said < mine[j].Said })
	for _, d := range mine {
		if now, err = day(d.Said); err != nil {
			return nil, err
		}
		if _, err := s.Add(ctx, memory.Note{Text: d.Text, Source: memory.Source{SaidAt: now}}); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	err = s.Export(ctx, &b)
	return b.Bytes(), err
}

// decideCase runs one case and returns the decision, the old fact's id and
// whether a conflict the decision raised (any of them) names the old fact.
func decideCase(ctx context.Context, c updateCase, base []byte, opts memory.Options) (memory.Decision, uint64, bool, error) {
	dir, err := os.MkdirTemp("", "bench-reconcile-")
	if err != nil {
		return memory.Decision{}, 0, false, err
	}
	defer os.RemoveAll(dir)
	var now time.Time
	opts.NoSync, opts.Clock = true, func() time.Time { return now }
	s, err := memory.Open(filepath.Join(dir, "m.db"), 0, &opts)
	if err != nil {
		return memory.Decision{}, 0, false, err
	}
	defer s.Close()
	if _, err := s.Import(ctx, bytes.NewReader(base), nil); err != nil {
		return memory.Decision{}, 0, false, err
	}
	if now, err = day(c.OldSaid); err != nil {
		return memory.Decision{}, 0, false, err
	}
	old, err := s.Add(ctx, memory.Note{Text: c.Old, Source: memory.Source{SaidAt: now}})
	if err != nil {
		return memory.Decision{}, 0, false, err
	}
	said, err := day(c.NewSaid)
	if err != nil {
		return memory.Decision{}, 0, false, err
	}
	// Record time runs on past every fact; the words were said on new_said.
	now = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	out, err := s.Remember(ctx, memory.Note{Text: c.New, Source: memory.Source{SaidAt: said}})
	if err != nil {
		return out.Decision, old.ID, false, err
	}
	linked := false
	if out.Decision.Conflict != 0 {
		cs, err := s.Conflicts(ctx, out.Decision.User, nil)
		if err != nil {
			return out.Decision, old.ID, false, err
		}
		// A decision unsure which fact the new one replaces records a
		// conflict with each: any of them naming the old fact surfaces it.
		for _, k := range cs {
			if k.Decision == out.Decision.ID && k.Existing == old.ID {
				linked = true
			}
		}
	}
	return out.Decision, old.ID, linked, nil
}

func (r *reconcileResult) print(w io.Writer) {
	model := ""
	if r.model != "" {
		model = " (model " + r.model + ")"
	}
	fmt.Fprintf(w, "decisions of the %s decider%s\n\n", r.decider, model)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "action\tgold\tdecided\tright\tprecision\trecall")
	for _, a := range []memory.Action{memory.ActionAdd, memory.ActionUpdate, memory.ActionInvalidate, memory.ActionNoop} {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.3f\t%.3f\n", a, r.gold[a], r.got[a], r.hit[a], ratio(r.hit[a], r.got[a]), ratio(r.hit[a], r.gold[a]))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nconfusion (gold → decided):")
	keys := make([]string, 0, len(r.confusion))
	for k, n := range r.confusion {
		keys = append(keys, fmt.Sprintf("%s→%s %d", k[0], k[1], n))
	}
	sort.Strings(keys)
	fmt.Fprintf(w, " %s\n", strings.Join(keys, ", "))
	if r.fallbacks > 0 {
		fmt.Fprintf(w, "fallbacks: %d (the decider failed; the first: %s)\n", r.fallbacks, r.fallback)
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "cases\tn\taccuracy\tsurfaced\tcollateral\tfalse alarms")
	row := func(name string, t *tally) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%s\t%.3f\t%s\n", name, t.n, t.accuracy(), orDash(t.changed, t.surfacedRate()),
			t.collateralRate(), orDash(t.adds, t.falseAlarms()))
	}
	row("all", &r.total)
	names := make([]string, 0, len(r.groups))
	for g := range r.groups {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		row(g, r.groups[g])
	}
	tw.Flush()
	fmt.Fprintf(w, "conflicts raised: %d, by %d decisions\n", r.conflicts, r.raised)
	fmt.Fprintf(w, "surfaced %.3f false alarms %.3f\n", r.total.surfacedRate(), r.total.falseAlarms())
	fmt.Fprintf(w, "accuracy %.3f collateral %.3f n=%d\n", r.total.accuracy(), r.total.collateralRate(), r.n)
}

// orDash formats a share of n cases, "-" when there are none.
func orDash(n int, v float64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", v)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
