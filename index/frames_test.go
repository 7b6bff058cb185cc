package index

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestFramesWellFormed checks what the parser leaves to policy: 6 to 25
// words a frame, names in lowercase ASCII letters, digits and hyphens for
// English, no digits in Russian.
func TestFramesWellFormed(t *testing.T) {
	for _, lang := range lexiconLangs {
		testFramesWellFormed(t, lang)
	}
}

func testFramesWellFormed(t *testing.T, lang string) {
	t.Helper()
	for _, f := range testList(t, "frames", lang) {
		if len(f.words) < 6 || len(f.words) > 25 {
			t.Errorf("line %d: frame %q has %d words, want 6 to 25", f.line, f.name, len(f.words))
		}
		if lang == "ru" {
			for _, w := range append([]string{f.name}, f.words...) {
				if strings.ContainsFunc(w, unicode.IsDigit) {
					t.Errorf("line %d: frame %q: %q has a digit", f.line, f.name, w)
				}
			}
		}
		for _, r := range f.name {
			if lang == "en" && !(r >= 'a' && r <= 'z') && !(r >= '0' && r <= '9') && r != '-' {
				t.Errorf("line %d: frame name %q: want lowercase letters, digits and hyphens", f.line, f.name)
				break
			}
		}
	}
}

// TestFramesENExamples checks that the frames join the examples that
// motivate them: pairs of facts about the same thing that share no word.
func TestFramesENExamples(t *testing.T) {
	byName := map[string][]string{}
	for _, f := range testList(t, "frames", "en") {
		byName[f.name] = f.words
	}
	for _, c := range []struct {
		frame string
		a, b  string
	}{
		{"coffee-order", "black", "oat"},
		{"coffee-order", "sugar", "espresso"},
		{"broken-bone", "broken", "plaster"},
		{"broken-bone", "cast", "fracture"},
		{"landlord", "landlord", "rent"},
	} {
		words, ok := byName[c.frame]
		if !ok {
			t.Errorf("no frame %q", c.frame)
			continue
		}
		if !slices.Contains(words, c.a) || !slices.Contains(words, c.b) {
			t.Errorf("frame %q should hold both %q and %q", c.frame, c.a, c.b)
		}
	}
}

// TestFramesRUStems checks that every frame keeps at least six distinct
// Russian stems, so no frame is a mere list of inflected forms of one word.
func TestFramesRUStems(t *testing.T) {
	a, err := NewAnalyzer(Stems)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range testList(t, "frames", "ru") {
		name, words := f.name, f.words
		stems := map[string]bool{}
		for _, w := range words {
			for _, s := range a.Analyze(w).Words {
				stems[s] = true
			}
		}
		if len(stems) < 6 {
			t.Errorf("frame %q has %d distinct stems, want at least 6", name, len(stems))
		}
	}
}

// TestFramesRUJoin checks that facts about the same frame meet on it even
// when they share no word.
func TestFramesRUJoin(t *testing.T) {
	a, err := NewAnalyzer(Topics)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ a, b, frame string }{
		{"По утрам я делаю зарядку", "Каждый день начинаю с лёгкой гимнастики", "#утренняя-зарядка"},
		{"Для кошки у меня автоматическая кормушка", "Дозатор еды для питомицы я убрала", "#корм-питомца"},
		{"Хозяйка квартиры живёт в соседнем подъезде", "Владелица жилья уехала к дочери", "#хозяйка-квартиры"},
		{"Снимаю однушку у метро", "Арендодатель поднял плату", "#аренда-квартиры"},
		{"Свекровь живёт с нами", "Мама мужа переехала к золовке", "#свекровь"},
		{"Сломала запястье, хожу в гипсе", "Перелом уже сросся", "#перелом"},
		{"Играю на гитаре", "Выучил новые аккорды", "#гитара"},
		{"Пишите мне в телеграм", "Мой тг сменился", "#телеграм"},
	} {
		w := Shared(a.Analyze(tc.a), a.Analyze(tc.b))
		if !strings.Contains(strings.Join(w.Topics, " "), tc.frame) {
			t.Errorf("%q and %q do not meet on %s: %v", tc.a, tc.b, tc.frame, w.Topics)
		}
	}
}
