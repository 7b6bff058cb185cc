package index

import (
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory/internal/term"
)

func TestKeywords4(t *testing.T) {
	a, err := NewAnalyzer(Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	got := a.Analyze("I WORK at Company-A; я работаю в компании «Ёлка», 2026 year!").Words
	want := []string{"company", "work", "year", "елка", "компании", "работаю"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestStemsJoinForms(t *testing.T) {
	a, err := NewAnalyzer(Stems)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		a, b  string
		share bool // share a stem (Words) rather than only a root
	}{
		{"I moved to Lyon", "we move often", true},
		{"я работаю в компании", "работа в компанию", true},
		{"My e-mail address", "email me", false},
		{"piano lessons", "the pianist", false},
		{"физиотерапевт", "физиотерапия", false},
		{"у меня подработка", "работа в офисе", false},
		{"mixed: работа and job", "работу", true},
	} {
		w := Shared(a.Analyze(tc.a), a.Analyze(tc.b))
		if len(w.Terms) == 0 {
			t.Errorf("%q and %q share nothing", tc.a, tc.b)
			continue
		}
		exact := slices.ContainsFunc(w.Terms, func(t term.Term) bool { return t.Kind != term.Root })
		if tc.share && !exact {
			t.Errorf("%q and %q share only roots %q", tc.a, tc.b, w.Terms)
		}
	}
}

// TestSharedTermKinds checks that Shared says what each shared term is: a
// word or stem, a root (unmarked: the mark is only for display), or a
// synonym set by its name. A root that begins a synonym set's name is still
// listed: the set is not the word.
func TestSharedTermKinds(t *testing.T) {
	a, err := NewAnalyzer(Topics)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		want []term.Term
	}{
		{"My mum gave me piano lessons every Saturday", "Mother was a pianist; Saturdays were hers",
			[]term.Term{{Text: "saturday"}, {Text: "mother", Kind: term.Synonym}, {Text: "piano", Kind: term.Synonym}, {Text: "pian", Kind: term.Root}}},
		{"I studied physics", "she is a physicist", []term.Term{{Text: "physi", Kind: term.Root}}},
	} {
		if got := Shared(a.Analyze(c.a), a.Analyze(c.b)).Terms; !slices.Equal(got, c.want) {
			t.Errorf("%q and %q: got %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestStopWordsAndNoise(t *testing.T) {
	a, _ := NewAnalyzer(Stems)
	for _, text := range []string{"", "   ", "!!! ??? 42", "I am the", "и в на с"} {
		if tr := a.Analyze(text); !tr.Empty() {
			t.Errorf("%q gave terms %+v", text, tr)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"I work at A.", "Я переехала в Москву", "e-mail: x@y.z", "\xff\xfe", "ёЁ-ё"} {
		f.Add(s)
	}
	an, _ := NewAnalyzer(Stems)
	f.Fuzz(func(t *testing.T, s string) {
		tr := an.Analyze(s)
		for _, w := range tr.Words {
			if w == "" {
				t.Fatalf("empty term from %q", s)
			}
		}
	})
}

// TestNoEvidenceWords checks that words saying how much or how sure, and
// numbers in words, are no terms, and that two Russian words sharing only
// a verbal prefix share no root: each joined facts on nothing they are about.
func TestNoEvidenceWords(t *testing.T) {
	a, err := NewAnalyzer(Topics)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"completely", "basically pretty much", "the first of six", "совсем окончательно", "сто двадцать"} {
		if tr := a.Analyze(text); !tr.Empty() {
			t.Errorf("%q gave terms %+v", text, tr)
		}
	}
	if w := Shared(a.Analyze("перевожу деньги"), a.Analyze("переживаю")); len(w.Terms) != 0 {
		t.Errorf("переводить and переживать share %v", w.Terms)
	}
}

// TestQuestionDropsTheWordsOfAsking checks that a question keeps what it
// is about and loses how it asks, in every mode, and that a statement keeps
// its words.
func TestQuestionDropsTheWordsOfAsking(t *testing.T) {
	for _, mode := range []Mode{Keywords4, Stems, Topics} {
		an, err := NewAnalyzer(mode)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			text string
			want []string // the words' first terms, in order
		}{
			{"Remind me what I told you about my knee", []string{"knee"}},
			{"When did I start at Northwind?", []string{"start", "northwind"}},
			{"Напомни, какие книги я тебе советовала", []string{"книг", "советова"}},
			{"what do you know about", nil},
		} {
			var got []string
			for _, w := range an.Question(c.text) {
				got = append(got, w.Words[0])
			}
			if mode == Keywords4 {
				// Unstemmed words of four letters or more.
				want := map[string][]string{
					"Remind me what I told you about my knee": {"knee"},
					"When did I start at Northwind?":          {"start", "northwind"},
					"Напомни, какие книги я тебе советовала":  {"книги", "советовала"},
				}[c.text]
				if !slices.Equal(got, want) {
					t.Errorf("%s: Question(%q) = %q, want %q", mode, c.text, got, want)
				}
				continue
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: Question(%q) = %q, want %q", mode, c.text, got, c.want)
			}
		}
		// A statement's words of asking stay: Words is for facts.
		if ws, qs := an.Words("My boss mentioned a bonus"), an.Question("My boss mentioned a bonus"); len(ws) != 3 || len(qs) != 2 {
			t.Errorf("%s: Words of a statement = %v, Question %v: want mentioned kept by Words only", mode, ws, qs)
		}
	}
}
