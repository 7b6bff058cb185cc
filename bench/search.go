package main

// bench search: how well Store.Search finds the facts that answer a
// question, beside SQLite FTS5's BM25 over the same facts in the same run,
// on the question set of bench/searchdata (its README gives the format and
// how each language's store is built), and how fast it is at 1k, 10k and
// 100k facts.

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/palimpsest-mem/memory"
	"github.com/spf13/cobra"
)

// searchFact is a line of searchdata/facts.LANG.jsonl.
type searchFact struct {
	Key       string  `json:"key"`
	Text      string  `json:"text"`
	Said      string  `json:"said"`
	EventFrom *string `json:"event_from"`
	Replaces  *string `json:"replaces"`
	How       *string `json:"how"`
}

// searchQuestion is a line of searchdata/questions.LANG.jsonl.
type searchQuestion struct {
	ID       string   `json:"id"`
	Lang     string   `json:"lang"`
	Category string   `json:"category"`
	Question string   `json:"question"`
	Evidence []string `json:"evidence"`
	History  bool     `json:"history"`
	Event    *string  `json:"event"`
	Known    *string  `json:"known"`
}

// searchCategories are the question categories, in the table's order.
var searchCategories = []string{"single", "multi", "temporal", "paraphrase", "entity", "history"}

// searchAsked is when the questions are asked (the README's date).
var searchAsked = time.Date(2028, 1, 15, 12, 0, 0, 0, time.UTC)

// searchHalf puts a question in "dev" or "held" by a hash of its id, so that no
// one chooses which questions tuning may look at.
func searchHalf(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "dev"
	}
	return "held"
}

func searchCmd() *cobra.Command {
	var dataDir, setDir, mode, scales string
	var k, lookups int
	var verbose bool
	var show, cpuprofile string
	c := &cobra.Command{
		Use:   "search",
		Short: "Search: recall@1/5/10 (any and all evidence) and MRR per category, language and half, beside SQLite FTS5 BM25; latency at scales",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := memory.ParseLookupMode(mode)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			set, err := loadSearchSet(dataDir, setDir)
			if err != nil {
				return err
			}
			res, err := evalSearch(cmd.Context(), set, m, k, verbose, strings.Split(show, ","), w)
			if err != nil {
				return err
			}
			res.print(w)
			if scales != "" {
				texts, err := loadTexts(filepath.Join(dataDir, "distractors.en.jsonl") + "," + filepath.Join(dataDir, "distractors.ru.jsonl"))
				if err != nil {
					return err
				}
				var qs []string
				for _, q := range set.questions {
					qs = append(qs, q.Question)
				}
				fmt.Fprintln(w)
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "facts\tSearch p50\tp99\tfirst of a user\tBM25 (SQLite FTS5) p50\tp99")
				for _, n := range strings.Split(scales, ",") {
					facts, err := strconv.Atoi(strings.TrimSpace(n))
					if err != nil || facts < 1000 {
						return fmt.Errorf("--scales: %q is not a number of facts of 1000 or more", n)
					}
					l, err := searchLatency(cmd.Context(), texts, qs, m, facts, lookups, cpuprofile)
					if err != nil {
						return err
					}
					fmt.Fprintf(tw, "%d\t%v\t%v\t%v\t%v\t%v\n", facts, l.p50, l.p99, l.first, l.bmP50, l.bmP99)
				}
				tw.Flush()
			}
			fmt.Fprintf(w, "search ok: recall@10 any, dev %.3f (BM25 %.3f), held %.3f (BM25 %.3f)\n",
				res.ours.get("dev", "", "").any10(), res.bm25.get("dev", "", "").any10(),
				res.ours.get("held", "", "").any10(), res.bm25.get("held", "", "").any10())
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&dataDir, "data", "../shared/data", "the shared data folder (distractors and update cases)")
	f.StringVar(&setDir, "set", "bench/searchdata", "the question set's folder")
	f.StringVar(&mode, "mode", "topics", "the store's lookup mode")
	f.IntVar(&k, "k", 10, "facts a search returns")
	f.StringVar(&scales, "scales", "1000,10000,100000", "store sizes to time searches at; empty: none")
	f.IntVar(&lookups, "lookups", 1000, "searches to time per scale")
	f.BoolVarP(&verbose, "verbose", "v", false, "list the dev half's questions whose evidence is not all in the top k")
	f.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of the timed searches (ours, at every scale) to this file")
	f.StringVar(&show, "show", "", "print the hits of these questions of the dev half (ids, comma-separated), with their ranks")
	return c
}

// searchSet is the question set with the shared data its stores are built
// from.
type searchSet struct {
	distractors []distractor
	cases       []updateCase
	facts       map[string][]searchFact // by language
	questions   []searchQuestion
}

func loadSearchSet(dataDir, setDir string) (*searchSet, error) {
	if _, err := os.Stat(dataDir); err != nil {
		return nil, fmt.Errorf("the shared data (%s) is needed: %w", dataDir, err)
	}
	set := &searchSet{facts: map[string][]searchFact{}}
	var err error
	if set.cases, err = readJSONL[updateCase](filepath.Join(dataDir, "updates.dev.jsonl")); err != nil {
		return nil, err
	}
	for _, lang := range []string{"en", "ru"} {
		ds, err := readJSONL[distractor](filepath.Join(dataDir, "distractors."+lang+".jsonl"))
		if err != nil {
			return nil, err
		}
		set.distractors = append(set.distractors, ds...)
		if set.facts[lang], err = readJSONL[searchFact](filepath.Join(setDir, "facts."+lang+".jsonl")); err != nil {
			return nil, err
		}
		qs, err := readJSONL[searchQuestion](filepath.Join(setDir, "questions."+lang+".jsonl"))
		if err != nil {
			return nil, err
		}
		set.questions = append(set.questions, qs...)
	}
	return set, nil
}

// searchScore counts one slice of the questions.
type searchScore struct {
	n, at1, at5, at10, all10 int
	rr                       float64
}

func (s searchScore) any10() float64 { return ratio(s.at10, s.n) }

// searchScores are scores by half, language and category ("" for all).
type searchScores map[[3]string]searchScore

func (m searchScores) get(h, lang, cat string) searchScore { return m[[3]string{h, lang, cat}] }

// add counts a question whose evidence ranks are ranks (0: not found).
func (m searchScores) add(q searchQuestion, ranks []int) {
	first, all := 0, true
	for _, r := range ranks {
		if r > 0 && (first == 0 || r < first) {
			first = r
		}
		all = all && r > 0 && r <= 10
	}
	for _, h := range []string{searchHalf(q.ID), ""} {
		for _, lang := range []string{q.Lang, ""} {
			for _, cat := range []string{q.Category, ""} {
				key := [3]string{h, lang, cat}
				s := m[key]
				s.n++
				if first > 0 {
					s.rr += 1 / float64(first)
					s.at1 += boolInt(first <= 1)
					s.at5 += boolInt(first <= 5)
					s.at10 += boolInt(first <= 10)
				}
				s.all10 += boolInt(all)
				m[key] = s
			}
		}
	}
}

type searchResult struct {
	ours, bm25 searchScores
	// without is the scores of the dev and held halves with each ranker
	// left out, and alone with each, overall.
	without, alone map[memory.Ranker]searchScores
	k              int
}

// searchWorld is one language's store, its BM25 twin, and what the
// bench knows of each fact.
type searchWorld struct {
	s     *memory.Store
	db    *sql.DB
	ids   map[string]uint64 // reference -> fact id
	facts map[uint64]*worldFact
}

// worldFact is what the bench knows of a fact from how it built the
// store: when it was told, when it stopped being current, how.
type worldFact struct {
	told, ended time.Time // ended zero: current
	retracted   bool
	start       time.Time // event start
	end         time.Time // event end, zero: open (the successor's start)
}

// visible says whether the bench's own account of fact f lets a question
// see it, as SearchOptions would: told by known; with event, true in the
// world then as known then (a fact superseded since was true until its
// successor began; a retracted one never was); else current then, or any
// version with history.
func (f *worldFact) visible(q searchQuestion, known, event time.Time) bool {
	if f.told.After(known) {
		return false
	}
	endedThen := !f.ended.IsZero() && !f.ended.After(known)
	if !event.IsZero() {
		if f.retracted && endedThen {
			return false
		}
		return !f.start.After(event) && (!endedThen || f.end.IsZero() || event.Before(f.end))
	}
	return q.History || !endedThen
}

func evalSearch(ctx context.Context, set *searchSet, mode memory.LookupMode, k int, verbose bool, show []string, w io.Writer) (*searchResult, error) {
	res := &searchResult{ours: searchScores{}, bm25: searchScores{}, without: map[memory.Ranker]searchScores{}, alone: map[memory.Ranker]searchScores{}, k: k}
	for _, r := range memory.Rankers() {
		res.without[r], res.alone[r] = searchScores{}, searchScores{}
	}
	dir, err := os.MkdirTemp("", "bench-search-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for _, lang := range []string{"en", "ru"} {
		wd, err := buildSearchWorld(ctx, set, lang, mode, dir)
		if err != nil {
			return nil, err
		}
		err = wd.ask(ctx, set, lang, k, verbose, show, w, res)
		wd.s.Close()
		wd.db.Close()
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// ask puts every question of lang to the world and scores the answers.
func (wd *searchWorld) ask(ctx context.Context, set *searchSet, lang string, k int, verbose bool, show []string, w io.Writer, res *searchResult) error {
	for _, q := range set.questions {
		if q.Lang != lang {
			continue
		}
		want := make([]uint64, len(q.Evidence))
		for i, ref := range q.Evidence {
			id, ok := wd.ids[ref]
			if !ok {
				return fmt.Errorf("%s: evidence %q is no fact of the store", q.ID, ref)
			}
			want[i] = id
		}
		opts := &memory.SearchOptions{K: k, History: q.History}
		var err error
		if q.Event != nil {
			if opts.Event, err = day(*q.Event); err != nil {
				return fmt.Errorf("%s: %w", q.ID, err)
			}
		}
		known := searchAsked
		if q.Known != nil {
			if opts.Known, err = day(*q.Known); err != nil {
				return fmt.Errorf("%s: %w", q.ID, err)
			}
			known = opts.Known.Add(24*time.Hour - 1) // the whole day
			opts.Known = known
		}
		for _, id := range want {
			if !wd.facts[id].visible(q, known, opts.Event) {
				return fmt.Errorf("%s: evidence %d is not visible to the question (check the set)", q.ID, id)
			}
		}
		got, err := wd.s.Search(ctx, "", q.Question, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", q.ID, err)
		}
		ranks := ranksOf(want, got)
		res.ours.add(q, ranks)
		if slices.Contains(show, q.ID) && searchHalf(q.ID) == "dev" {
			fmt.Fprintf(w, "%s %q want %v ranks %v entities %v period %v..%v\n", q.ID, q.Question, want, ranks, got.Entities, got.PeriodFrom, got.PeriodUntil)
			for _, h := range got.Hits {
				fmt.Fprintf(w, "  %d %.3f %v %v %v %q\n", h.Fact.ID, h.Score, h.Ranks, h.Entities, h.Terms, h.Fact.Text)
			}
		}
		if verbose && searchHalf(q.ID) == "dev" && slices.ContainsFunc(ranks, func(r int) bool { return r == 0 || r > k }) {
			fmt.Fprintf(w, "miss %s [%s] %q ranks %v\n", q.ID, q.Category, q.Question, ranks)
		}
		for _, r := range memory.Rankers() {
			var others []memory.Ranker
			for _, x := range memory.Rankers() {
				if x != r {
					others = append(others, x)
				}
			}
			for _, c := range []struct {
				m    searchScores
				pick []memory.Ranker
			}{{res.without[r], others}, {res.alone[r], []memory.Ranker{r}}} {
				o := *opts
				o.Rankers = c.pick
				g, err := wd.s.Search(ctx, "", q.Question, &o)
				if err != nil {
					return fmt.Errorf("%s: %w", q.ID, err)
				}
				c.m.add(q, ranksOf(want, g))
			}
		}
		bm, err := wd.bm25(q, known, opts.Event, k)
		if err != nil {
			return fmt.Errorf("%s: BM25: %w", q.ID, err)
		}
		res.bm25.add(q, ranksOfIDs(want, bm))
	}
	return nil
}

func ranksOf(want []uint64, r memory.SearchResult) []int {
	ids := make([]uint64, len(r.Hits))
	for i, h := range r.Hits {
		ids[i] = h.Fact.ID
	}
	return ranksOfIDs(want, ids)
}

// ranksOfIDs is where each wanted id stands in got, from 1; 0 when absent.
func ranksOfIDs(want, got []uint64) []int {
	ranks := make([]int, len(want))
	for i, id := range want {
		ranks[i] = slices.Index(got, id) + 1
	}
	return ranks
}

// bm25 is the baseline: SQLite FTS5's bm25 over every version of the
// language's facts, the question's words ORed, keeping the best k the
// question may see.
func (wd *searchWorld) bm25(q searchQuestion, known, event time.Time, k int) ([]uint64, error) {
	terms := bm25Query(q.Question)
	if terms == "" {
		return nil, nil
	}
	rows, err := wd.db.Query(`SELECT rowid FROM facts_fts WHERE facts_fts MATCH ? ORDER BY bm25(facts_fts) LIMIT 1000`, terms)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []uint64
	for rows.Next() && len(out) < k {
		var id uint64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if f := wd.facts[id]; f != nil && f.visible(q, known, event) {
			out = append(out, id)
		}
	}
	return out, rows.Err()
}

// bm25Query ORs every distinct word of a text (FTS5's unicode61 tokens:
// runs of letters and digits, lowercased), each quoted.
func bm25Query(text string) string {
	seen := map[string]bool{}
	var terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !seen[w] {
			seen[w] = true
			terms = append(terms, `"`+w+`"`)
		}
	}
	return strings.Join(terms, " OR ")
}

// searchOp is one write that builds a world, at its date.
type searchOp struct {
	at       time.Time
	order    int
	ref      string // the reference of the fact it adds
	text     string
	from     *string
	replaces string // a reference, or ""
	how      string // update or invalidate
}

func buildSearchWorld(ctx context.Context, set *searchSet, lang string, mode memory.LookupMode, dir string) (*searchWorld, error) {
	var ops []searchOp
	n := 0
	for _, d := range set.distractors {
		if d.Lang == lang {
			n++
			at, err := day(d.Said)
			if err != nil {
				return nil, err
			}
			ops = append(ops, searchOp{at: at, ref: fmt.Sprintf("d:%s:%d", lang, n), text: d.Text})
		}
	}
	for _, c := range set.cases {
		if c.Lang != lang {
			continue
		}
		oldAt, err := day(c.OldSaid)
		if err != nil {
			return nil, err
		}
		newAt, err := day(c.NewSaid)
		if err != nil {
			return nil, err
		}
		old := "u:" + c.ID + ":old"
		ops = append(ops, searchOp{at: oldAt, ref: old, text: c.Old})
		switch c.Action {
		case "update", "invalidate":
			ops = append(ops, searchOp{at: newAt, ref: "u:" + c.ID + ":new", text: c.New, from: c.EventFrom, replaces: old, how: c.Action})
		case "add":
			ops = append(ops, searchOp{at: newAt, ref: "u:" + c.ID + ":new", text: c.New, from: c.EventFrom})
		}
	}
	for _, f := range set.facts[lang] {
		at, err := day(f.Said)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Key, err)
		}
		op := searchOp{at: at, ref: "f:" + f.Key, text: f.Text, from: f.EventFrom}
		if f.Replaces != nil {
			op.replaces, op.how = *f.Replaces, cmp.Or(deref(f.How), "update")
			if !strings.Contains(op.replaces, ":") {
				op.replaces = "f:" + op.replaces // a key of this file
			}
		}
		ops = append(ops, op)
	}
	for i := range ops {
		ops[i].order = i
	}
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].at.Before(ops[j].at) })

	now := ops[0].at
	s, err := memory.Open(filepath.Join(dir, lang+".db"), 0, &memory.Options{NoSync: true, Lookup: mode, MaxTextRunes: 2000,
		Clock: func() time.Time { return now }})
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, lang+".sqlite"))
	if err != nil {
		s.Close()
		return nil, err
	}
	wd := &searchWorld{s: s, db: db, ids: map[string]uint64{}, facts: map[uint64]*worldFact{}}
	if err := wd.fill(ctx, ops, &now); err != nil {
		s.Close()
		db.Close()
		return nil, fmt.Errorf("%s store: %w", lang, err)
	}
	now = searchAsked
	return wd, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// fill writes ops to the store (moving its clock) and every fact to the
// FTS5 table.
func (wd *searchWorld) fill(ctx context.Context, ops []searchOp, now *time.Time) error {
	if _, err := wd.db.Exec(`CREATE VIRTUAL TABLE facts_fts USING fts5(text, tokenize='unicode61 remove_diacritics 0')`); err != nil {
		return err
	}
	for i, op := range ops {
		// Facts of one day keep their order a second apart.
		*now = op.at.Add(time.Duration(i) * time.Second)
		n := memory.Note{Text: op.text}
		if op.from != nil {
			from, err := day(*op.from)
			if err != nil {
				return fmt.Errorf("%s: %w", op.ref, err)
			}
			n.EventFrom = from
		}
		var f memory.Fact
		var err error
		wf := &worldFact{told: *now}
		switch {
		case op.replaces == "":
			f, err = wd.s.Add(ctx, n)
		case op.how == "invalidate":
			old, ok := wd.ids[op.replaces]
			if !ok {
				return fmt.Errorf("%s replaces %s, not stored before it", op.ref, op.replaces)
			}
			if _, err = wd.s.Invalidate(ctx, "", old, memory.Change{Reason: "corrected by " + op.ref}); err == nil {
				wd.facts[old].ended, wd.facts[old].retracted = *now, true
				f, err = wd.s.Add(ctx, n)
			}
		default:
			old, ok := wd.ids[op.replaces]
			if !ok {
				return fmt.Errorf("%s replaces %s, not stored before it", op.ref, op.replaces)
			}
			if f, err = wd.s.Supersede(ctx, "", old, n); err == nil {
				wd.facts[old].ended = *now
				wd.facts[old].end = f.EventStart
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", op.ref, err)
		}
		wf.start = f.EventStart
		if wf.start.IsZero() {
			wf.start = *now
		}
		wd.ids[op.ref] = f.ID
		wd.facts[f.ID] = wf
		if _, err := wd.db.Exec(`INSERT INTO facts_fts(rowid, text) VALUES(?, ?)`, f.ID, op.text); err != nil {
			return err
		}
	}
	return nil
}

func (r *searchResult) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "half\tlang\tcategory\tn\tR@1\tR@5\tR@10 any\tall@10\tMRR\tBM25 R@1\tR@5\tR@10 any\tall@10\tMRR\tR@10 − BM25\n")
	for _, h := range []string{"dev", "held", ""} {
		for _, lang := range []string{"en", "ru", ""} {
			for _, cat := range append(slices.Clone(searchCategories), "") {
				o, b := r.ours.get(h, lang, cat), r.bm25.get(h, lang, cat)
				if o.n == 0 {
					continue
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%+.3f\n", cmp.Or(h, "both"), cmp.Or(lang, "both"), cmp.Or(cat, "all"), o.n,
					o.figures(), b.figures(), o.any10()-b.any10())
			}
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ranker\tR@10 any without it (dev / held)\tall@10 without\tR@10 any with it alone (dev / held)")
	all := func(m searchScores, h string) searchScore { return m.get(h, "", "") }
	fmt.Fprintf(tw, "(all)\t%.3f / %.3f\t%.3f / %.3f\t\n", all(r.ours, "dev").any10(), all(r.ours, "held").any10(),
		ratio(all(r.ours, "dev").all10, all(r.ours, "dev").n), ratio(all(r.ours, "held").all10, all(r.ours, "held").n))
	for _, rk := range memory.Rankers() {
		wo, al := r.without[rk], r.alone[rk]
		fmt.Fprintf(tw, "%s\t%.3f / %.3f\t%.3f / %.3f\t%.3f / %.3f\n", rk, all(wo, "dev").any10(), all(wo, "held").any10(),
			ratio(all(wo, "dev").all10, all(wo, "dev").n), ratio(all(wo, "held").all10, all(wo, "held").n),
			all(al, "dev").any10(), all(al, "held").any10())
	}
	tw.Flush()
}

func (s searchScore) figures() string {
	return fmt.Sprintf("%.3f\t%.3f\t%.3f\t%.3f\t%.3f", ratio(s.at1, s.n), ratio(s.at5, s.n), s.any10(), ratio(s.all10, s.n), s.rr/float64(max(1, s.n)))
}

// searchActiveUsers is how many users the latency rows search: fewer than
// the users whose decoded facts the store keeps (64).
const searchActiveUsers = 32

// searchLatency times searches of the questions' texts in a store of n
// facts in users of 1,000 (the scale rows' layout), and the same through
// SQLite FTS5 BM25 over the same facts.
type searchLat struct{ p50, p99, first, bmP50, bmP99 time.Duration }

func searchLatency(ctx context.Context, texts, questions []string, mode memory.LookupMode, n, lookups int, cpuprofile string) (searchLat, error) {
	var l searchLat
	dir, err := os.MkdirTemp("", "bench-search-scale-")
	if err != nil {
		return l, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "m.db")
	if err := fillStore(ctx, path, texts, n, 1000); err != nil {
		return l, err
	}
	s, err := memory.Open(path, 0, &memory.Options{Lookup: mode, NoSync: true})
	if err != nil {
		return l, err
	}
	defer s.Close()
	users := max(1, n/1000)
	// The searches go to as many users as the store keeps decoded between
	// writes (a desktop assistant has one); the first search of a user,
	// which reads its facts, is timed apart.
	active := min(users, searchActiveUsers)
	// The first search of a store builds its index; of a user, reads its
	// timeline and graph. Both are timed apart from the rest.
	if _, err := s.Search(ctx, "user-0", questions[0], nil); err != nil {
		return l, err
	}
	start := time.Now()
	if _, err := s.Search(ctx, fmt.Sprintf("user-%d", users-1), questions[1%len(questions)], nil); err != nil {
		return l, err
	}
	l.first = time.Since(start)
	// Warm every active user once, as an assistant's session would.
	for u := range active {
		if _, err := s.Search(ctx, fmt.Sprintf("user-%d", u), questions[u%len(questions)], nil); err != nil {
			return l, err
		}
	}
	stop := func() {}
	if cpuprofile != "" {
		if stop, err = startProfile(fmt.Sprintf("%s.%d", cpuprofile, n)); err != nil {
			return l, err
		}
	}
	lat := timeN(lookups, func(i int) error {
		_, err := s.Search(ctx, fmt.Sprintf("user-%d", i%active), questions[i%len(questions)], nil)
		return err
	})
	stop()
	l.p50, l.p99 = lat[len(lat)/2], lat[len(lat)*99/100]

	sq, err := openSQLite(filepath.Join(dir, "b.sqlite"))
	if err != nil {
		return l, err
	}
	defer sq.Close()
	c := newCorpus(texts, 1)
	all := make([]string, n)
	for i := range all {
		all[i] = c.next()
	}
	if err := sq.bulk(all, 1000); err != nil {
		return l, err
	}
	lat = timeN(lookups, func(i int) error {
		q := bm25Query(questions[i%len(questions)])
		if q == "" {
			return nil
		}
		_, err := scanFacts(sq.lookup.Query(q, fmt.Sprintf("user-%d", i%active), 10))
		return err
	})
	l.bmP50, l.bmP99 = lat[len(lat)/2], lat[len(lat)*99/100]
	return l, nil
}
