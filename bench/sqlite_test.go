package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/index"
)

// sqliteTexts are 300 distinct fact texts, English and Russian; fact i+1
// is texts[i].
func sqliteTexts() []string {
	en := []string{"I work as a nurse at the city hospital", "my sister lives in Lisbon with her husband",
		"we keep two cats and an old parrot", "I play the violin every Sunday evening",
		"my favourite food is spicy ramen noodles", "I drive a blue bicycle to the office"}
	ru := []string{"я работаю учителем в школе", "моя дочь учится играть на гитаре",
		"мы живём в квартире у парка", "по утрам я бегаю вдоль реки"}
	out := make([]string, 300)
	for i := range out {
		if i%3 == 2 {
			out[i] = fmt.Sprintf("%s, запись %d", ru[i%len(ru)], i)
		} else {
			out[i] = fmt.Sprintf("%s, note %d", en[i%len(en)], i)
		}
	}
	out[6] = "I am moving to Zanzibar in spring"           // fact 7, user-0
	out[4] = "we once thought about Zanzibar for holidays" // fact 5, user-0, superseded below
	out[149] = "my brother visited Zanzibar last year"     // fact 150, user-1
	return out
}

func openTestSQLite(t *testing.T) *sqliteStore {
	t.Helper()
	b, err := openSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func nullInt(v int64) sql.NullInt64 { return sql.NullInt64{Int64: v, Valid: true} }

func ids(fs []sqlFact) []int64 {
	out := make([]int64, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

func TestSQLiteBaselineAnswers(t *testing.T) {
	b := openTestSQLite(t)
	texts := sqliteTexts()
	if err := b.bulk(texts, 100); err != nil {
		t.Fatal(err)
	}
	cur, err := b.current("user-0")
	if err != nil {
		t.Fatal(err)
	}
	if len(cur) != 100 || cur[0].ID != 1 || cur[99].ID != 100 || cur[6].Text != texts[6] || cur[0].User != "user-0" {
		t.Fatalf("current of user-0: %d facts %v", len(cur), ids(cur))
	}

	now := time.Now().UnixNano()
	added, err := b.add("user-0", "I started learning Portuguese", now)
	if err != nil || added != 301 {
		t.Fatalf("add: id %d, %v", added, err)
	}
	next, err := b.supersede(5, "user-0", "we are going to Madeira for holidays", now+1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.supersede(5, "user-0", "again", now+2); err == nil {
		t.Error("superseding a superseded fact succeeded")
	}
	if _, err := b.supersede(150, "user-0", "not mine", now+2); err == nil {
		t.Error("superseding another user's fact succeeded")
	}
	var until, by int64
	if err := b.db.QueryRow(`SELECT valid_until, superseded_by FROM facts WHERE id = 5`).Scan(&until, &by); err != nil {
		t.Fatal(err)
	}
	if until != now+1 || by != next {
		t.Errorf("fact 5: valid_until %d superseded_by %d, want %d, %d", until, by, now+1, next)
	}
	cur, err = b.current("user-0")
	if err != nil {
		t.Fatal(err)
	}
	got := ids(cur)
	if len(cur) != 101 || slices.Contains(got, 5) || !slices.Contains(got, next) || !slices.Contains(got, added) {
		t.Errorf("current of user-0 after add and supersede: %d facts %v", len(cur), got)
	}
	for _, f := range cur {
		if f.ValidUntil.Valid || f.User != "user-0" {
			t.Errorf("listed %+v", f)
		}
	}

	// True now: a fact that starts later and one that has ended are current
	// but not true now.
	err = b.inTx(func(tx *sql.Tx) error {
		future := nullInt(now + int64(time.Hour))
		if _, err := b.insert(tx, "user-0", "I will retire next spring", now, future, sql.NullInt64{}); err != nil {
			return err
		}
		_, err := b.insert(tx, "user-0", "I lived in Porto until last year", now, nullInt(1), nullInt(now-int64(time.Hour)))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cur, _ = b.current("user-0")
	trueNow, err := b.trueAt("user-0", now+2)
	if err != nil {
		t.Fatal(err)
	}
	if len(cur) != 103 || len(trueNow) != 101 {
		t.Errorf("current %d, true now %d: want 103, 101", len(cur), len(trueNow))
	}

	// The keyword lookup finds the current fact of the user that shares a
	// 4+-letter word, not the superseded one nor another user's.
	hits, err := b.keywords("user-0", "So when do we go to ZANZIBAR?", 12)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(hits); !slices.Equal(got, []int64{7}) {
		t.Errorf("lookup of zanzibar: %v, want [7]", got)
	}
	if hits, err := b.keywords("user-0", "so do we go to it", 12); err != nil || len(hits) != 0 {
		t.Errorf("lookup without 4+-letter words: %v, %v", ids(hits), err)
	}
	hits, err = b.keywords("user-0", "my sister plays the violin in the hospital", 12)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 12 {
		t.Errorf("lookup of common words: %d hits, want 12", len(hits))
	}
	for _, h := range hits {
		if h.User != "user-0" || h.ValidUntil.Valid ||
			!(strings.Contains(h.Text, "sister") || strings.Contains(h.Text, "violin") || strings.Contains(h.Text, "hospital")) {
			t.Errorf("lookup hit %+v", h)
		}
	}
}

// The query ORs exactly the words our keywords4 lookup matches.
func TestSQLiteQueryWords(t *testing.T) {
	an, err := index.NewAnalyzer(index.Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range append(sqliteTexts()[:20], "Hello, WORLD! x-ray 2024abcd, мой Дом-музей; моё") {
		var want []string
		for _, w := range an.Analyze(strings.ReplaceAll(text, "ё", "е")).Words {
			want = append(want, `"`+w+`"`)
		}
		got := strings.Split(ftsQuery(strings.ReplaceAll(text, "ё", "е")), " OR ")
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q: query words %v, want %v", text, got, want)
		}
	}
}

// The measured runs time real work: every operation succeeds, the import
// loads the export file our store imports (each fact its user's, in
// order), and the lookups with the corpus's queries find facts.
func TestSQLiteMeasures(t *testing.T) {
	dir := t.TempDir()
	texts := sqliteTexts()
	l := perfLayout{perUser: 100, big: 50}
	export := filepath.Join(dir, "export.jsonl")
	if err := writeExportFile(export, texts, 300, l); err != nil {
		t.Fatal(err)
	}
	r, err := measureSQLiteScale(context.Background(), dir, export, texts, 300, l, 10, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.add) != 5 || len(r.sup) != 5 || r.add[0] < 0 || r.sup[0] < 0 {
		t.Fatalf("writes: %v %v", r.add, r.sup)
	}
	for _, lat := range [][]time.Duration{r.list, r.now, r.look} {
		if len(lat) != 10 || lat[0] < 0 {
			t.Fatalf("scale run failed: %v", lat)
		}
	}
	for _, lat := range [][]time.Duration{r.bigList, r.bigNow} {
		if len(lat) != 3 || lat[0] < 0 {
			t.Fatalf("the big user's reads failed: %v", lat)
		}
	}
	if r.imp.Facts != 300 || r.imp.Took <= 0 || r.imp.PeakRSS == 0 || r.imp.File == 0 || vsSQLite("x", r.list, r.list).Ratio != 1 {
		t.Errorf("import %+v, row %+v", r.imp, vsSQLite("x", r.list, r.list))
	}
	b, err := openSQLite(filepath.Join(dir, "sqlite300.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// 100 loaded, 5 added, each of those superseded once.
	if cur, err := b.current("user-0"); err != nil || len(cur) != 105 {
		t.Fatalf("current after the scale run: %d, %v", len(cur), err)
	}
	c := newCorpus(texts, 1)
	for user, want := range map[string]int{bigUser: 50, "user-1": 100, "user-2": 50} {
		cur, err := b.current(user)
		if err != nil || len(cur) != want {
			t.Fatalf("%s: %d current facts, want %d (%v)", user, len(cur), want, err)
		}
	}
	first, err := b.current("user-0")
	if err != nil || first[0].ID != 1 || first[0].Text != c.next() {
		t.Fatalf("the first fact is not the export's: %+v, %v", first[0], err)
	}
	c = newCorpus(texts, 2)
	found := 0
	for range 10 {
		hits, err := b.keywords("user-0", c.next(), 12)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) > 0 {
			found++
		}
	}
	if found < 8 {
		t.Errorf("only %d of 10 corpus queries found a fact", found)
	}
}
