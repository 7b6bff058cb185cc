package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/internal/modelenv"
	"github.com/spf13/pflag"
)

// updateCase is one line of updates.*.jsonl (the format is in docs/evaluation.md).
type updateCase struct {
	ID        string  `json:"id"`
	Lang      string  `json:"lang"`
	Old       string  `json:"old"`
	OldSaid   string  `json:"old_said"`
	New       string  `json:"new"`
	NewSaid   string  `json:"new_said"`
	Action    string  `json:"action"`
	EventFrom *string `json:"event_from"`
	Grain     *string `json:"event_grain"`
	Topic     string  `json:"topic"`
	Overlap   string  `json:"overlap"`
}

// distractor is one line of distractors.*.jsonl.
type distractor struct {
	Lang string `json:"lang"`
	Text string `json:"text"`
	Said string `json:"said"`
}

// readJSONL decodes every line of a JSON Lines file.
func readJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

func day(s string) (time.Time, error) { return time.Parse(time.DateOnly, s) }

// dataFlags defines --data and --distractors, defaulting to the dev set
// in ../shared/data.
// evalFlags are the flags of the commands that run Remember over an
// updates file: the data, the decider and the candidate lookup.
type evalFlags struct {
	data, distractors, decider, model, mode string
	timeout                                 time.Duration
	limit                                   int
}

// timeoutUsage is --timeout's help: 0 leaves it to the environment, as
// memctl's --timeout does.
var timeoutUsage = fmt.Sprintf("how long one model call may take (default $MEMCTL_TIMEOUT, else %s)", memory.DefaultModelTimeout)

func (e *evalFlags) add(f *pflag.FlagSet, limitUsage string) {
	dataFlags(f, &e.data, &e.distractors)
	f.StringVar(&e.decider, "decider", "rules", "rules, add, ollama or openai")
	f.StringVar(&e.model, "model", "", "chat model of --decider ollama or openai (default $MEMCTL_MODEL)")
	f.DurationVar(&e.timeout, "timeout", 0, timeoutUsage)
	f.IntVar(&e.limit, "limit", 0, limitUsage)
	f.StringVar(&e.mode, "mode", string(memory.LookupTopics), "candidate lookup mode")
}

// load checks the flags and reads what they name: the lookup mode, the
// cases (spread to --limit), the distractors and the decider.
func (e *evalFlags) load() (memory.LookupMode, []updateCase, []distractor, memory.Decider, error) {
	if e.limit < 0 {
		return "", nil, nil, nil, fmt.Errorf("--limit %d: want 0 (all) or more", e.limit)
	}
	if e.timeout < 0 {
		return "", nil, nil, nil, fmt.Errorf("--timeout %s: want more than zero", e.timeout)
	}
	m, cases, ds, err := loadEval(e.mode, e.data, e.distractors)
	if err != nil {
		return "", nil, nil, nil, err
	}
	d, err := modelenv.Decider(e.decider, e.model, e.timeout, os.Getenv)
	if err != nil {
		return "", nil, nil, nil, err
	}
	return m, spread(cases, e.limit), ds, d, nil
}

func dataFlags(f *pflag.FlagSet, data, distractors *string) {
	f.StringVar(data, "data", "../shared/data/updates.dev.jsonl", "updates file (JSON Lines)")
	f.StringVar(distractors, "distractors", "../shared/data/distractors.en.jsonl,../shared/data/distractors.ru.jsonl", "distractor files, comma-separated")
}

// readDistractors reads comma-separated distractor files.
func readDistractors(paths string) ([]distractor, error) {
	var ds []distractor
	for _, p := range strings.Split(paths, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		more, err := readJSONL[distractor](p)
		if err != nil {
			return nil, err
		}
		ds = append(ds, more...)
	}
	return ds, nil
}

// loadEval reads what an evaluation of the store runs on: the lookup
// mode, the cases and the distractors.
func loadEval(mode, data, distractors string) (memory.LookupMode, []updateCase, []distractor, error) {
	m, err := memory.ParseLookupMode(mode)
	if err != nil {
		return "", nil, nil, err
	}
	cases, err := readJSONL[updateCase](data)
	if err != nil {
		return "", nil, nil, err
	}
	ds, err := readDistractors(distractors)
	return m, cases, ds, err
}
