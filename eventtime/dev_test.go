package eventtime

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// devDir is ../shared/data relative to the project root.
var devDir = filepath.Join("..", "..", "shared", "data")

// TestDevDates scores Parse on the development dates as the benchmark does:
// a prediction is right when it falls inside the gold period.
func TestDevDates(t *testing.T) {
	path := filepath.Join(devDir, "dates.dev.jsonl")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("%s is absent: the evaluation data lives outside the project; skipping", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type row struct {
		ID, Lang, Text, Said, Start, Grain string
	}
	right, n := map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		said, err1 := time.Parse(time.DateOnly, r.Said)
		start, err2 := time.Parse(time.DateOnly, r.Start)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad dates", r.ID)
		}
		end := period{start, Grain(r.Grain)}.end()
		res := Parse(r.Text, said, r.Lang)
		n[r.Lang]++
		if res.Found && !res.Start.Before(start) && res.Start.Before(end) {
			right[r.Lang]++
		} else {
			t.Logf("miss %s: %q said %s, gold %s %s, got %v %s %s", r.ID, r.Text, r.Said, r.Start, r.Grain, res.Found, res.Start.Format(time.DateOnly), res.Grain)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "ru"} {
		if n[lang] == 0 {
			t.Errorf("no %s cases in %s", lang, path)
			continue
		}
		acc := float64(right[lang]) / float64(n[lang])
		t.Logf("%s: %d/%d = %.3f", lang, right[lang], n[lang], acc)
		if acc < 0.95 {
			t.Errorf("%s accuracy %.3f < 0.95", lang, acc)
		}
	}
}
