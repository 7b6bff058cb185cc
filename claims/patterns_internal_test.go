package claims

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestBuiltinRules(t *testing.T) {
	if rulesErr != nil {
		t.Fatal(rulesErr)
	}
	rels := map[Relation]bool{}
	for _, p := range builtin.patterns {
		rels[p.rel] = true
	}
	for _, r := range Relations() {
		if !rels[r] {
			t.Errorf("no pattern for %s", r)
		}
	}
}

// validFiles is a set of pattern files that loads; each case of
// TestLoadRulesRejects spoils one file.
func validFiles() fstest.MapFS {
	fs := fstest.MapFS{}
	for name, text := range map[string]string{
		"stop.txt": "and\n", "lead.txt": "a\n", "subjects.txt": "sister\n", "negation.txt": "not\n",
		"adverbs.txt": "just\n", "indeclinable.txt": "кофе\n", "cases.txt": "prep и ь\n", "designators.txt": "company company\n", "nonobjects.txt": "school year\n", "jobs.txt": "-er\n", "medications.txt": "-in\n", "describers.txt": "old\n",
		"firstperson.txt": "я\n", "subordinators.txt": "что\n", "possessives.txt": "her\n", "my.txt": "my\n", "interjections.txt": "sorry\n", "endings.txt": "died\n!almost\n", "roles.txt": "sibling sister\n",
		"en.txt": "# English\nworks_at company: i work at NAME\nlives_in place: S lives in NAME\n",
		"ru.txt": "lives_in place: живу в NAME.prep\n",
	} {
		fs["patterns/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fs
}

func TestLoadRules(t *testing.T) {
	r, err := loadRules(validFiles())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.patterns) != 3 || r.patterns[1].where != "en.txt:3" {
		t.Errorf("patterns: %+v", r.patterns)
	}
	got := r.extract("I work at Contoso. My sister lives in Kazan. Живу в Казани. I work at company B. My sister lives in company C")
	want := []Claim{{"", WorksAt, "Contoso", Company}, {"sister", LivesIn, "Kazan", Place}, {"", LivesIn, "Казань", Place}, {"", WorksAt, "company B", Company}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("got %+v, want %+v", got[i], want[i])
		}
	}
}

// TestLoadRulesRejects checks that a malformed line of any file stops the
// loading with an error naming the file and line, so a list is never half
// read.
func TestLoadRulesRejects(t *testing.T) {
	for _, c := range []struct{ file, text, want string }{
		{"en.txt", "works_at company: i work at NAME", "en.txt:1: no newline"},
		{"en.txt", "works_at company i work at NAME\n", "en.txt:1: want \"relation kind: elements\""},
		{"en.txt", "employer company: i work at NAME\n", "en.txt:1: unknown relation \"employer\""},
		{"en.txt", "works_at firm: i work at NAME\n", "en.txt:1: unknown kind \"firm\""},
		{"en.txt", "works_at company: i work at\n", "exactly one object"},
		{"en.txt", "works_at company: i work at NAME X\n", "exactly one object"},
		{"en.txt", "works_at company: X at work\n", "must begin with a word"},
		{"en.txt", "works_at company: the? work at NAME\n", "must begin with a word"},
		{"en.txt", "works_at company: i S work at NAME\n", "S must come first"},
		{"en.txt", "works_at company: i Work at NAME\n", "not lowercase"},
		{"en.txt", "works_at company: i work at|at NAME\n", "\"at\" twice"},
		{"en.txt", "works_at company: i work at  NAME\n", "is empty"},
		{"en.txt", "works_at company: i work at [big\n", "no closing ]"},
		{"en.txt", "works_at company: i work+ at NAME\n", "must follow the object"},
		{"en.txt", "works_at company: i work at NAME.gen\n", "unknown case \"gen\""},
		{"en.txt", "works_at company: i speak poX\n", "prefixed slot"},
		{"ru.txt", "diet diet: стал [веганом=Веган]\n", "word \"Веган\" is not lowercase"},
		{"en.txt", "works_at company: i work at NAME\nworks_at company: i work at NAME\n", "en.txt:2: pattern already on line 1"},
		{"ru.txt", "lives_in place: живу в NAME.prep \n", "ru.txt:1: space at the start or end"},
		{"stop.txt", "and\nand\n", "stop.txt:2: word \"and\" twice"},
		{"stop.txt", "# nothing\n", "stop.txt: the list has no words"},
		{"lead.txt", "ёж\n", "lead.txt:1: word \"ёж\" has ё"},
		{"interjections.txt", "Sorry\n", "interjections.txt:1: word \"Sorry\" is not lowercase"},
		{"designators.txt", "company\n", "designators.txt:1: want \"kind noun ...\""},
		{"designators.txt", "firm company\n", "designators.txt:1: unknown kind \"firm\""},
		{"designators.txt", "company team team\n", "designators.txt:1: company \"team\" twice"},
		{"endings.txt", "died\ndied\n", "endings.txt:2: phrase \"died\" twice"},
		{"endings.txt", "!almost\n", "endings.txt: the list has no phrases"},
		{"endings.txt", "passed  away\n", "endings.txt:1: word \"\" is empty"},
		{"cases.txt", "prep и\n", "cases.txt:1: want \"case from to\""},
		{"cases.txt", "prep и ь\nprep ни нь\n", "cases.txt:2: suffix \"ни\" ends in the earlier \"и\""},
		{"roles.txt", "sister\n", "roles.txt:1: want \"relation noun ...\""},
		{"roles.txt", "kin sister\n", "unknown relation"},
		{"roles.txt", "sibling sister\nsibling brother\n", "roles.txt:2: relation \"sibling\" twice"},
		{"roles.txt", "sibling Sister\n", "is not lowercase"},
	} {
		fs := validFiles()
		fs["patterns/"+c.file] = &fstest.MapFile{Data: []byte(c.text)}
		_, err := loadRules(fs)
		if !errors.Is(err, errPatterns) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: %v, want errPatterns saying %q", c.file, c.text, err, c.want)
		}
	}
	fs := validFiles()
	delete(fs, "patterns/ru.txt")
	if _, err := loadRules(fs); !errors.Is(err, errPatterns) {
		t.Errorf("missing file: %v", err)
	}
}
