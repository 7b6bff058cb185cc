package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/palimpsest-mem/memory/internal/userkey"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/indextest"
	"github.com/spf13/cobra"
)

// The crash test re-executes its own binary as the child that writes. These
// variables tell the child where the store is and what to do; the parent
// sets them, and main (or the bench tests' TestMain) checks them first.
const (
	envCrashDB   = "PALIMPSEST_CRASH_DB"
	envCrashSeed = "PALIMPSEST_CRASH_SEED"
	envCrashRun  = "PALIMPSEST_CRASH_RUN"
)

// keyedAll is facts with their ids as the test names them (keyed).
func keyedAll(fs []memory.Fact) []memory.Fact {
	out := make([]memory.Fact, len(fs))
	for i, f := range fs {
		out[i] = keyed(f)
	}
	return out
}

// crashUsers are the users the child writes for.
var crashUsers = userkey.Users{"", "ana", "boris"}

func crashCmd() *cobra.Command {
	var cfg crashConfig
	var asJSON bool
	c := &cobra.Command{
		Use:   "crash",
		Short: "Kill a writing process with SIGKILL at random moments; check that every acknowledged change survives",
		Long: `crash runs a child process (this binary again) that writes to one store with fsync on:
Remember, Add, Supersede, Invalidate, Restore, Pin, Unpin, Delete (of one version or, with Chain,
of a whole history) and Import (of an export of the store into a fresh store file) over a few users,
reporting each acknowledged change on its stdout. The child is killed with SIGKILL at random
moments, --kills times, on the same store file. After each kill, first, no text of an acknowledged
delete may be left in the raw bytes of any file beside the store, nor among the terms of any index
the child left there (the import's copy is held to the deletes acknowledged before it began). Then
the store is opened in-process and checked: Open succeeds and removes the child's index, Check is
clean, every acknowledged change is there, the change in flight at the kill is wholly there or
wholly absent, no fact has two current successors, the candidate index finds current facts, an
acknowledged import's copy is whole, and Close leaves no index directory.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			cfg.Exe = exe
			w := cmd.OutOrStdout()
			if !asJSON {
				cfg.Log = w
			}
			res, err := runCrash(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			if asJSON {
				if err := json.NewEncoder(w).Encode(res); err != nil {
					return err
				}
			} else {
				printCrash(w, res)
			}
			if !res.ok() {
				return fmt.Errorf("crash: %d of %d kills failed their checks, %d acknowledged changes lost",
					res.Kills-res.Survived, res.Kills, res.Lost)
			}
			if !asJSON {
				fmt.Fprintln(w, "crash ok")
			}
			return nil
		},
	}
	f := c.Flags()
	f.IntVar(&cfg.Kills, "kills", 200, "how many times to kill the child")
	f.Uint64Var(&cfg.Seed, "seed", 0, "seed of the workload and the kill times; 0 picks one from the clock")
	f.DurationVar(&cfg.MaxDelay, "max-delay", 200*time.Millisecond, "the longest the child runs before it is killed")
	f.StringVar(&cfg.Dir, "dir", "", "keep the store in this directory (default: a temporary one, removed afterwards)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.StringSliceVar(&cfg.Moments, "moments", nil, "kill at these moments only, in turn (start-up, after open, writing, catch-up, large import, merge)")
	f.IntVar(&cfg.LargeImport, "large-import", 10000, "facts in the large import")
	f.IntVar(&cfg.CatchUp, "catch-up", 500, "changes the kept index is left behind by, for a kill during its catch-up")
	return c
}

// crashConfig is one run of the crash harness.
type crashConfig struct {
	Kills    int
	Seed     uint64
	MaxDelay time.Duration // 0 means 200 ms
	// Exe is the binary run as the child; it must call crashChildFromEnv
	// before anything else.
	Exe string
	Dir string    // "" means a temporary directory
	Log io.Writer // failures as they happen; nil for none
	// LargeImport is how many facts the large import imports, 0 meaning
	// 10,000; CatchUp, how many changes the kept index is left behind by
	// for a kill during catch-up, 0 meaning 500.
	LargeImport int
	CatchUp     int
	// Moments, if set, are the kill moments, taken in turn; nil means
	// all, drawn at random, mostly "writing".
	Moments []string
}

// crashResult is what runCrash found.
type crashResult struct {
	Seed     uint64 `json:"seed"`
	Kills    int    `json:"kills"`
	Survived int    `json:"survived"`
	// Acked counts acknowledged changes, by operation (Remember by action).
	Acked int            `json:"acknowledged"`
	ByOp  map[string]int `json:"by_op"`
	// Kill moments: during start-up (maybe inside Open), right after Open,
	// or while writing.
	ByMoment map[string]int `json:"by_moment"`
	// InFlight counts kills that interrupted a call; Applied, those whose
	// call had committed all the same (it was not acknowledged yet).
	InFlight int `json:"in_flight"`
	Applied  int `json:"in_flight_applied"`
	// Lost counts acknowledged changes not found as acknowledged.
	Lost int `json:"lost"`
	// Deleted counts facts erased by acknowledged deletes, Imports the
	// acknowledged imports, and Leaked the texts of acknowledged deletes
	// found afterwards in a file beside the store or a term of an index.
	Deleted int `json:"deleted"`
	Imports int `json:"imports"`
	// LargeImport counts what the kills during the large import left of
	// its store: none ("absent"), one with no fact visible ("empty"), or
	// one with every fact ("whole": the import had committed).
	LargeImport map[string]int `json:"large_import,omitempty"`
	Leaked      int            `json:"leaked"`
	// Compared counts the lookups whose candidates were compared with
	// those of an index rebuilt from the records.
	Compared     int      `json:"compared"`
	ChecksFailed int      `json:"checks_failed"`
	Failures     []string `json:"failures,omitempty"`
	Facts        int      `json:"facts"`
	FileBytes    int64    `json:"file_bytes"`
	Seconds      float64  `json:"seconds"`
}

func (r *crashResult) ok() bool {
	return r.Survived == r.Kills && r.Lost == 0 && r.ChecksFailed == 0 && r.Leaked == 0
}

func printCrash(w io.Writer, r *crashResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	kv := func(k string, v any) { fmt.Fprintf(tw, "%s\t%v\n", k, v) }
	kv("seed", r.Seed)
	kv("kills", r.Kills)
	kv("kill moments", joinCounts(r.ByMoment))
	kv("survived", fmt.Sprintf("%d / %d", r.Survived, r.Kills))
	kv("acknowledged changes", r.Acked)
	kv("  by operation", joinCounts(r.ByOp))
	kv("in flight at the kill", fmt.Sprintf("%d (%d had committed, %d had not)", r.InFlight, r.Applied, r.InFlight-r.Applied))
	kv("lost (target 0)", r.Lost)
	kv("facts deleted", r.Deleted)
	kv("imports", r.Imports)
	kv("large import's store after the kill", joinCounts(r.LargeImport))
	kv("deleted texts left (target 0)", r.Leaked)
	kv("lookups compared with a rebuilt index", r.Compared)
	kv("checks failed", r.ChecksFailed)
	kv("facts in the store", r.Facts)
	kv("file size", fmt.Sprintf("%.1f MB", float64(r.FileBytes)/1e6))
	kv("elapsed", time.Duration(r.Seconds*float64(time.Second)).Round(time.Millisecond))
	tw.Flush()
}

func joinCounts(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// modelFact is what the parent expects of a fact, and which
// acknowledgement set it.
type modelFact struct {
	expect
	ack string
}

type crashHarness struct {
	cfg    crashConfig
	dir    string
	path   string
	rng    *rand.Rand
	res    *crashResult
	facts  map[uint64]modelFact
	decs   map[uint64]decisionExpect
	decAck map[uint64]string
	decUsr map[uint64]string
	// deleted maps the tag of each text an acknowledged delete erased to
	// that acknowledgement; impForbidden is what it held when the newest
	// acknowledged import began (its copy may hold what was deleted later).
	deleted      map[string]string
	impForbidden map[string]string
	impCount     int  // facts the newest import acknowledged
	impCheck     bool // its copy is to be checked after this kill
	// phaseTook is how long each aimed phase last took, to aim the next
	// kill within it.
	phaseTook map[string]time.Duration
}

// runCrash kills the child cfg.Kills times and checks the store after each.
// It returns an error only when the harness itself cannot go on; failed
// checks are in the result.
func runCrash(ctx context.Context, cfg crashConfig) (*crashResult, error) {
	if cfg.Kills < 1 {
		return nil, fmt.Errorf("--kills %d: want at least 1", cfg.Kills)
	}
	if cfg.MaxDelay == 0 {
		cfg.MaxDelay = 200 * time.Millisecond
	}
	if cfg.MaxDelay < 2*time.Millisecond {
		return nil, fmt.Errorf("--max-delay %v: want at least 2ms", cfg.MaxDelay)
	}
	if cfg.Seed == 0 {
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	if cfg.LargeImport == 0 {
		cfg.LargeImport = 10000
	}
	if cfg.CatchUp == 0 {
		// Every such kill leaves the store this much larger, and a
		// larger store slows every check and the child's deletes: with
		// 2,000, 200 kills grew it to 25,000 facts, took 8 minutes and
		// acknowledged no delete.
		cfg.CatchUp = 500
	}
	for _, m := range cfg.Moments {
		if !slices.Contains([]string{"start-up", "after open", "writing", aimCatchUp, aimImport, aimMerge}, m) {
			return nil, fmt.Errorf("kill moment %q: want start-up, after open, writing, %s, %s or %s", m, aimCatchUp, aimImport, aimMerge)
		}
	}
	dir := cfg.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "bench-crash-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	h := &crashHarness{cfg: cfg, dir: dir, path: filepath.Join(dir, "crash.db"),
		rng: rand.New(rand.NewPCG(cfg.Seed, 0)), facts: map[uint64]modelFact{},
		decs: map[uint64]decisionExpect{}, decAck: map[uint64]string{}, decUsr: map[uint64]string{},
		deleted: map[string]string{}, impForbidden: map[string]string{}, phaseTook: map[string]time.Duration{},
		res: &crashResult{Seed: cfg.Seed, ByOp: map[string]int{}, ByMoment: map[string]int{}, LargeImport: map[string]int{}}}
	start := time.Now()
	for i := range cfg.Kills {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		problems, err := h.once(ctx, i)
		if err != nil {
			return nil, err
		}
		h.res.Kills++
		if len(problems) == 0 {
			h.res.Survived++
			continue
		}
		h.res.ChecksFailed += len(problems)
		for _, p := range problems {
			msg := fmt.Sprintf("kill %d: %s", i, p)
			h.res.Failures = append(h.res.Failures, msg)
			if cfg.Log != nil {
				fmt.Fprintln(cfg.Log, msg)
			}
		}
	}
	h.res.Seconds = time.Since(start).Seconds()
	h.res.Facts = len(h.facts)
	if st, err := os.Stat(h.path); err == nil {
		h.res.FileBytes = st.Size()
	}
	return h.res, nil
}

// once runs the child, kills it and checks the store; it returns what
// failed.
func (h *crashHarness) once(ctx context.Context, run int) ([]string, error) {
	// When to kill: mostly while writing, sometimes during start-up (which
	// may fall inside Open), right after Open, or at an aimed moment.
	var moment string
	if len(h.cfg.Moments) > 0 {
		moment = h.cfg.Moments[run%len(h.cfg.Moments)]
	} else {
		switch r := h.rng.IntN(20); {
		case r < 2:
			moment = "start-up"
		case r < 4:
			moment = "after open"
		case r == 4:
			moment = aimCatchUp
		case r == 5:
			moment = aimImport
		case r == 6:
			moment = aimMerge
		default:
			moment = "writing"
		}
	}
	aim, behind := "", false
	switch moment {
	case aimImport:
		if err := h.largeExport(ctx); err != nil {
			return nil, err
		}
		aim = moment
	case aimCatchUp:
		var err error
		if behind, err = h.leaveIndexBehind(ctx, run); err != nil {
			return nil, err
		}
		aim = moment
	case aimMerge:
		aim = moment
	}

	cmd := exec.CommandContext(ctx, h.cfg.Exe)
	cmd.Env = append(os.Environ(), envCrashDB+"="+h.path, envCrashAim+"="+aim,
		envCrashSeed+"="+strconv.FormatUint(h.cfg.Seed, 10), envCrashRun+"="+strconv.Itoa(run+1))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	w := watchLines(stdout)
	ready := func() { w.waitFor(func(l crashLine) bool { return l.Kind == "ready" }, time.Minute) }
	kill := func() { _ = cmd.Process.Kill() } // SIGKILL; fails only if the child has exited already
	switch moment {
	case "start-up":
		time.Sleep(time.Duration(h.rng.Int64N(int64(40 * time.Millisecond))))
		kill()
	case "after open":
		ready()
		kill()
	case aimImport:
		moment = h.aimAt(w, moment, kill)
	case aimCatchUp:
		if moment = h.aimAt(w, moment, kill); !behind {
			moment += " (no kept index yet: a build)"
		}
	case aimMerge:
		moment = h.aimAtMerge(w, kill)
	default:
		ready()
		time.Sleep(2*time.Millisecond + time.Duration(h.rng.Int64N(int64(h.cfg.MaxDelay-2*time.Millisecond))))
		kill()
	}
	h.res.ByMoment[moment]++
	lines := w.wait()
	_ = cmd.Wait()
	var problems []string
	if code := cmd.ProcessState.ExitCode(); code != -1 {
		problems = append(problems, fmt.Sprintf("the child exited by itself (status %d): %s", code, strings.TrimSpace(stderr.String())))
	}
	if aim == aimImport {
		problems = append(problems, h.largeImportProblems(ctx, lines)...)
	}
	return append(problems, h.verify(ctx, run, lines)...), nil
}

// verify brings the model up to the acknowledgements in lines and compares
// it with the store.
func (h *crashHarness) verify(ctx context.Context, run int, lines [][]byte) []string {
	var problems []string
	var inflight *crashLine
	var impBegan map[string]string
	for n, b := range lines {
		var l crashLine
		if err := json.Unmarshal(b, &l); err != nil {
			problems = append(problems, fmt.Sprintf("child's line %d: %v: %q", n+1, err, b))
			continue
		}
		switch l.Kind {
		case "intent":
			inflight = &l
			if l.Op == "import" {
				impBegan, h.impCheck = maps.Clone(h.deleted), false // its copy is being replaced
			}
		case "ack":
			if inflight == nil || inflight.Seq != l.Seq {
				problems = append(problems, fmt.Sprintf("ack of call %d without its intent", l.Seq))
			}
			inflight = nil
			h.res.Acked++
			h.res.ByOp[l.Op]++
			ref := fmt.Sprintf("run %d call %d (%s)", run+1, l.Seq, l.Op)
			h.forget(l.Deleted, ref)
			for _, t := range l.Texts {
				if tg := textTag(t); tg != "" {
					h.deleted[tg] = ref
				}
			}
			if l.Op == "import" {
				// Its files are all new now; an import killed midway may
				// have left the previous one's.
				h.impForbidden, h.impCount, h.impCheck = impBegan, l.Imported, true
				h.res.Imports++
			}
			for _, e := range l.Facts {
				h.facts[e.ID] = modelFact{e, ref}
			}
			if d := l.Decision; d != nil {
				h.decs[d.ID], h.decAck[d.ID], h.decUsr[d.ID] = *d, ref, l.User
			}
		}
	}
	if inflight != nil {
		h.res.InFlight++
	}

	// What the killed child left: texts of acknowledged deletes in the
	// raw bytes of any file, or among the terms of any index beside the
	// store. Those a fact in the store still holds are sorted out below.
	leaks, err := h.deletedTexts()
	if err != nil {
		problems = append(problems, err.Error())
	}
	s, err := memory.Open(h.path, 0, nil)
	if err != nil {
		return append(problems, fmt.Sprintf("Open: %v", err))
	}
	closed := false
	defer func() {
		if !closed {
			s.Close()
		}
	}()
	if left := indexLeftovers(h.path + ".index"); len(left) > 0 {
		problems = append(problems, fmt.Sprintf("Open left the index directories of the killed child: %v", left))
	}
	store := map[uint64]memory.Fact{}
	for _, u := range crashUsers {
		all, err := s.List(ctx, u, &memory.ListOptions{All: true})
		if err != nil {
			return append(problems, fmt.Sprintf("List: %v", err))
		}
		cur, err := s.List(ctx, u, nil)
		if err != nil {
			return append(problems, fmt.Sprintf("List: %v", err))
		}
		all, cur = keyedAll(all), keyedAll(cur)
		var want []uint64
		for _, f := range all {
			store[f.ID] = f
			if f.State() == memory.Current {
				want = append(want, f.ID)
			}
		}
		got := make([]uint64, len(cur))
		for i, f := range cur {
			got[i] = f.ID
		}
		if !slices.Equal(got, want) {
			problems = append(problems, fmt.Sprintf("user %q: List gives current facts %v, the records %v", u, got, want))
		}
	}

	// Acknowledged states: every fact as its last ack left it, except what
	// the call in flight may have changed.
	var changed, extra []uint64
	lost := map[string]bool{}
	deleting := inflight != nil && inflight.Op == "delete"
	var missing []uint64
	for id, m := range h.facts {
		f, ok := store[id]
		if ok && expectOf(f) == m.expect {
			continue
		}
		if !ok && deleting && m.User == inflight.User {
			missing = append(missing, id)
			continue
		}
		if ok && inflight != nil && mayTouch(inflight, m.expect) {
			changed = append(changed, id)
			continue
		}
		lost[m.ack] = true
		if !ok {
			problems = append(problems, fmt.Sprintf("fact %d acknowledged by %s is missing", id, m.ack))
		} else {
			problems = append(problems, fmt.Sprintf("fact %d acknowledged by %s as %+v is %+v", id, m.ack, m.expect, expectOf(f)))
		}
	}
	for id := range store {
		if _, ok := h.facts[id]; !ok {
			extra = append(extra, id)
		}
	}
	if inflight == nil && len(extra) > 0 {
		problems = append(problems, fmt.Sprintf("facts %v appeared with no call to write them", extra))
	}
	switch {
	case deleting:
		// All or nothing: the fact named is gone with its neighbours
		// relinked (and its history, with Chain), or nothing changed.
		_, gone := store[inflight.ID]
		gone = !gone
		switch {
		case len(extra) > 0:
			problems = append(problems, fmt.Sprintf("facts %v appeared during a delete", extra))
		case !gone && (len(missing) > 0 || len(changed) > 0):
			problems = append(problems, fmt.Sprintf("call %d in flight (delete fact %d) half-applied: fact %d is there, facts %v missing and %v changed",
				inflight.Seq, inflight.ID, inflight.ID, missing, changed))
		case gone:
			// Committed, not acknowledged: Open has finished its
			// compaction, so from the next kill on its texts are held to
			// what an acknowledged delete's are.
			h.res.Applied++
			ids := append(missing, inflight.ID)
			for _, id := range ids {
				if tg := textTag(h.facts[id].Text); tg != "" {
					h.deleted[tg] = fmt.Sprintf("run %d's delete in flight", run+1)
				}
			}
			h.forget(ids, fmt.Sprintf("run %d's delete in flight", run+1))
		}
	case inflight != nil:
		applied, err := h.inflightOutcome(inflight, store, changed, extra)
		if err != nil {
			problems = append(problems, fmt.Sprintf("call %d in flight (%s %q fact %d) half-applied: %v",
				inflight.Seq, inflight.Op, inflight.User, inflight.ID, err))
		} else if applied {
			h.res.Applied++
		}
	}

	// Remember's acknowledged decisions are logged as acknowledged.
	for _, u := range crashUsers {
		ds, err := s.Decisions(ctx, u, 0)
		if err != nil {
			problems = append(problems, fmt.Sprintf("Decisions: %v", err))
			continue
		}
		have := map[uint64]decisionExpect{}
		for _, d := range ds {
			de := decisionOf(d)
			have[de.ID] = de
		}
		for id, want := range h.decs {
			if h.decUsr[id] != u {
				continue
			}
			got, ok := have[id]
			if deleting && ok && got != want {
				// The delete in flight may have cut its facts from it.
				if _, there := store[want.Added]; !there && slices.Contains(missing, want.Added) {
					want.Added = got.Added
				}
				if _, there := store[want.Target]; !there && slices.Contains(missing, want.Target) {
					want.Target = got.Target
				}
			}
			if !ok || got != want {
				lost[h.decAck[id]] = true
				problems = append(problems, fmt.Sprintf("decision %d acknowledged by %s as %+v is %+v", id, h.decAck[id], want, got))
			}
		}
	}
	h.res.Lost += len(lost)

	problems = append(problems, shapeProblems(store)...)

	held := map[string]bool{}
	for _, f := range store {
		held[textTag(f.Text)] = true
	}
	for _, l := range leaks {
		if !held[l.tag] {
			h.res.Leaked++
			problems = append(problems, fmt.Sprintf("text of a fact deleted by %s is left in %s", l.ack, l.where))
		}
	}
	if h.impCheck {
		problems = append(problems, h.checkImport(ctx)...)
		h.impCheck = false // checked once, after the kill that followed its ack
	}

	// The index is rebuilt from the records: current facts are found by
	// their own text, and Check compares it with the records.
	var cur []memory.Fact
	for _, id := range slices.Sorted(maps.Keys(store)) {
		if store[id].State() == memory.Current {
			cur = append(cur, store[id])
		}
	}
	probe := []memory.Fact{}
	if len(cur) > 0 {
		probe = append(probe, cur[len(cur)-1], cur[h.rng.IntN(len(cur))], cur[h.rng.IntN(len(cur))])
	}
	if _, err := s.Candidates(ctx, "", "warm the index", 1); err != nil {
		problems = append(problems, fmt.Sprintf("Candidates: %v", err))
		probe = nil
	}
	for _, f := range probe {
		look, err := s.Candidates(ctx, f.User, f.Text, memory.MaxCandidates)
		if err != nil {
			problems = append(problems, fmt.Sprintf("Candidates: %v", err))
			continue
		}
		if !slices.ContainsFunc(look.Candidates, func(c memory.Candidate) bool { return crashUsers.Key(c.Fact.User, c.Fact.ID) == f.ID }) {
			problems = append(problems, fmt.Sprintf("the lookup of current fact %d's text does not find it", f.ID))
		}
	}
	// The index as opened, caught up from its marker, must answer as one
	// rebuilt from the records does: compared once the store is closed.
	qs := h.candidateQueries(cur)
	kept, err := lookups(ctx, s, qs)
	if err != nil {
		problems = append(problems, err.Error())
	}
	if err := s.Check(ctx); err != nil {
		problems = append(problems, fmt.Sprintf("Check: %v", err))
	}
	closed = true
	if err := s.Close(); err != nil {
		problems = append(problems, fmt.Sprintf("Close: %v", err))
	}
	if left := indexLeftovers(h.path + ".index"); len(left) > 0 {
		problems = append(problems, fmt.Sprintf("Close left in the index directory: %v", left))
	}
	if kept != nil {
		problems = append(problems, h.rebuiltProblems(ctx, qs, kept)...)
	}

	// The store is now the model: what the call in flight did, or did not
	// do, is what the next child starts from.
	next := make(map[uint64]modelFact, len(store))
	for id, f := range store {
		m, ok := h.facts[id]
		if !ok || expectOf(f) != m.expect {
			m = modelFact{expectOf(f), fmt.Sprintf("run %d's call in flight", run+1)}
		}
		next[id] = m
	}
	h.facts = next
	return problems
}

// mayTouch says whether call in, unacknowledged, may have changed fact e.
func mayTouch(in *crashLine, e expect) bool {
	switch in.Op {
	case "remember":
		return e.User == in.User && e.State == "current"
	case "supersede", "invalidate", "restore", "pin", "unpin":
		return e.ID == in.ID
	case "delete":
		return e.User == in.User
	}
	return false
}

// inflightOutcome says whether the call in flight at the kill was applied,
// given the facts it changed and the new facts found; an error says it was
// applied in part.
func (h *crashHarness) inflightOutcome(in *crashLine, store map[uint64]memory.Fact, changed, extra []uint64) (bool, error) {
	if len(changed) == 0 && len(extra) == 0 {
		return false, nil
	}
	if len(changed) > 1 || len(extra) > 1 {
		return false, fmt.Errorf("facts %v changed and %v appeared", changed, extra)
	}
	var old, now expect
	if len(changed) == 1 {
		old, now = h.facts[changed[0]].expect, expectOf(store[changed[0]])
	}
	var added expect
	if len(extra) == 1 {
		added = expectOf(store[extra[0]])
		want := expect{ID: added.ID, User: in.User, Text: in.Text, State: "current", Pinned: in.Pinned, Supersedes: added.Supersedes}
		if added != want {
			return false, fmt.Errorf("new fact %+v, want %+v", added, want)
		}
	}
	// after returns old as the call leaves it.
	after := func(state string, by uint64, pinned bool) expect {
		e := old
		e.State, e.By, e.Pinned = state, by, pinned
		return e
	}
	switch in.Op {
	case "add":
		if len(changed) == 0 && added.Supersedes == 0 {
			return true, nil
		}
	case "supersede":
		if len(changed) == 1 && len(extra) == 1 && now == after("superseded", added.ID, old.Pinned) && added.Supersedes == old.ID {
			return true, nil
		}
	case "invalidate":
		if len(extra) == 0 && now == after("retracted", 0, old.Pinned) {
			return true, nil
		}
	case "restore":
		if len(extra) == 0 && now == after("current", 0, old.Pinned) {
			return true, nil
		}
	case "pin", "unpin":
		if len(extra) == 0 && now == after(old.State, old.By, in.Op == "pin") {
			return true, nil
		}
	case "remember":
		switch {
		case len(extra) == 0:
		case len(changed) == 0 && added.Supersedes == 0: // add
			return true, nil
		case now == after("superseded", added.ID, old.Pinned) && added.Supersedes == old.ID: // update
			return true, nil
		case now == after("retracted", 0, old.Pinned) && added.Supersedes == 0: // invalidate
			return true, nil
		}
	}
	return false, fmt.Errorf("facts %v changed (to %+v) and %v appeared (%+v)", changed, now, extra, added)
}

// shapeProblems checks the links between versions in the records: a
// superseded fact's successor exists and names it, and no fact is current
// beside a current successor, let alone two (the workload never restores
// its way into either, so only a half-applied supersede could).
func shapeProblems(store map[uint64]memory.Fact) []string {
	var problems []string
	currentSucc := map[uint64][]uint64{}
	for _, id := range slices.Sorted(maps.Keys(store)) {
		f := store[id]
		if f.SupersededBy != 0 {
			succ, ok := store[f.SupersededBy]
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("fact %d is superseded by %d, which is missing", id, f.SupersededBy))
			case succ.Supersedes != id:
				problems = append(problems, fmt.Sprintf("fact %d is superseded by %d, which names %d as its predecessor", id, succ.ID, succ.Supersedes))
			case f.ValidUntil.IsZero():
				problems = append(problems, fmt.Sprintf("fact %d is superseded by %d but has no ValidUntil", id, succ.ID))
			}
		}
		if f.Supersedes != 0 && f.State() == memory.Current {
			currentSucc[f.Supersedes] = append(currentSucc[f.Supersedes], id)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(currentSucc)) {
		succ := currentSucc[p]
		if len(succ) > 1 {
			problems = append(problems, fmt.Sprintf("fact %d has %d current successors %v", p, len(succ), succ))
		}
		if store[p].State() == memory.Current {
			problems = append(problems, fmt.Sprintf("fact %d is current beside its current successor %v: a half-applied supersede", p, succ))
		}
	}
	return problems
}

// forget drops the facts an acknowledged delete erased from the model,
// and their ids from the decisions that named them, as Delete does.
func (h *crashHarness) forget(ids []uint64, ref string) {
	if len(ids) == 0 {
		return
	}
	for _, id := range ids {
		delete(h.facts, id)
		h.res.Deleted++
	}
	for did, d := range h.decs {
		changed := false
		if slices.Contains(ids, d.Added) {
			d.Added, changed = 0, true
		}
		if slices.Contains(ids, d.Target) {
			d.Target, changed = 0, true
		}
		if changed {
			h.decs[did], h.decAck[did] = d, ref
		}
	}
}

// textTag returns the tag that makes a workload text unique ("…, tag
// qzab."), or "".
func textTag(text string) string {
	_, after, ok := strings.Cut(text, "tag qz")
	if !ok {
		return ""
	}
	tag, _, _ := strings.Cut(after, ".")
	return "qz" + tag
}

// leak is the tag of a deleted text found where it should not be.
type leak struct{ tag, ack, where string }

// deletedTexts looks for the tags of acknowledged deletes in the raw bytes
// of every file beside the store and in the terms of every index there.
// The import's copy (its export, its store and its index) is held to the
// deletes acknowledged before it began.
func (h *crashHarness) deletedTexts() ([]leak, error) {
	var out []leak
	forbidden := func(p string) map[string]string {
		rel, _ := filepath.Rel(h.dir, p)
		if rel == crashExport || rel == crashImport || strings.HasPrefix(rel, crashImport+".") {
			return h.impForbidden
		}
		return h.deleted
	}
	err := filepath.WalkDir(h.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		bad := forbidden(p)
		for rest := b; ; {
			i := bytes.Index(rest, []byte("tag qz"))
			if i < 0 {
				break
			}
			rest = rest[i+4:]
			end := bytes.IndexByte(rest, '.')
			if end < 0 || end > 16 {
				continue
			}
			if ack, ok := bad[string(rest[:end])]; ok {
				out = append(out, leak{tag: string(rest[:end]), ack: ack, where: p})
			}
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("reading the files beside the store: %v", err)
	}
	for _, root := range []string{h.path + ".index", filepath.Join(h.dir, crashImport) + ".index"} {
		if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		// A kill while scorch wrote a segment leaves it cut short, and
		// no reader can open it; the raw-byte scan above covers its
		// bytes. The terms of every other segment are still checked.
		terms, err := indextest.ListTerms(root)
		if err != nil && !errors.Is(err, indextest.ErrUnreadable) {
			return out, fmt.Errorf("listing the terms of %s: %v", root, err)
		}
		bad := forbidden(root)
		for _, t := range terms {
			word := t[strings.LastIndexByte(t, '|')+1:]
			if ack, ok := bad[word]; ok {
				out = append(out, leak{tag: word, ack: ack, where: "the terms of " + root})
			}
		}
	}
	return out, nil
}

// checkImport opens the copy the newest import made and checks that it is
// whole: Check is clean and it holds as many facts as were imported.
func (h *crashHarness) checkImport(ctx context.Context) []string {
	n, problems := checkedCount(ctx, filepath.Join(h.dir, crashImport), "the import's copy")
	if n < 0 {
		return problems
	}
	if n != h.impCount {
		problems = append(problems, fmt.Sprintf("the import's copy holds %d facts, the import acknowledged %d", n, h.impCount))
	}
	return problems
}

// indexLeftovers lists what the folder of indexes at root holds besides its
// marker and the kept index (its lock and bleve's folder), which the store
// leaves for the next process: the private index of a process now gone,
// say.
func indexLeftovers(root string) []string {
	var left []string
	es, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []string{err.Error()}
	}
	for _, e := range es {
		if e.Name() != ".palimpsest-index" && e.Name() != "kept" {
			left = append(left, e.Name())
		}
	}
	kept, _ := os.ReadDir(filepath.Join(root, "kept"))
	for _, e := range kept {
		if e.Name() != "lock" && e.Name() != "bleve" {
			left = append(left, filepath.Join("kept", e.Name()))
		}
	}
	return left
}

// checkedCount opens the store at path read-only, runs Check, and counts
// the facts of every crash user, all states; what names the store in the
// problems. n is -1 when the facts could not be counted.
func checkedCount(ctx context.Context, path, what string) (n int, problems []string) {
	d, err := memory.Open(path, 0, &memory.Options{ReadOnly: true})
	if err != nil {
		return -1, []string{fmt.Sprintf("opening %s: %v", what, err)}
	}
	defer d.Close()
	if err := d.Check(ctx); err != nil {
		problems = append(problems, fmt.Sprintf("%s: Check: %v", what, err))
	}
	for _, u := range crashUsers {
		fs, err := d.List(ctx, u, &memory.ListOptions{All: true})
		if err != nil {
			return -1, append(problems, fmt.Sprintf("%s: List: %v", what, err))
		}
		n += len(fs)
	}
	return n, problems
}
