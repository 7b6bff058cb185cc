package index

import (
	"strings"
	"testing"
	"unicode"
)

// testParseFramesRU parses framesRU, reporting every malformed line, and
// returns the frames by name.
func testParseFramesRU(t *testing.T) map[string][]string {
	t.Helper()
	frames := map[string][]string{}
	for i, line := range strings.Split(framesRU, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n := i + 1
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			t.Errorf("line %d: no colon: %q", n, line)
			continue
		}
		if name == "" || name != strings.TrimSpace(name) || strings.ToLower(name) != name ||
			strings.Trim(name, "-") != name || strings.Contains(name, "--") ||
			strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) >= 0 {
			t.Errorf("line %d: bad frame name %q", n, name)
		}
		if _, dup := frames[name]; dup {
			t.Errorf("line %d: frame %q defined twice", n, name)
		}
		words := strings.Fields(rest)
		if len(words) < 6 || len(words) > 25 {
			t.Errorf("line %d: frame %q has %d words, want 6-25", n, name, len(words))
		}
		seen := map[string]bool{}
		for _, w := range words {
			if strings.ToLower(w) != w || strings.ContainsRune(w, 'ё') {
				t.Errorf("line %d: frame %q: word %q is not lowercase with е for ё", n, name, w)
			}
			if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) >= 0 {
				t.Errorf("line %d: frame %q: word %q has characters other than letters and hyphens", n, name, w)
			}
			if seen[w] {
				t.Errorf("line %d: frame %q: word %q repeated", n, name, w)
			}
			seen[w] = true
		}
		frames[name] = words
	}
	return frames
}

func TestFramesRU(t *testing.T) {
	frames := testParseFramesRU(t)
	if len(frames) < 700 {
		t.Errorf("framesRU has %d frames, want at least 700", len(frames))
	}
}

// TestFramesRUStems checks that every frame keeps at least six distinct
// Russian stems, so no frame is a mere list of inflected forms of one word.
func TestFramesRUStems(t *testing.T) {
	a, err := NewAnalyzer(Stems)
	if err != nil {
		t.Fatal(err)
	}
	for name, words := range testParseFramesRU(t) {
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
