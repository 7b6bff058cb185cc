package index

import (
	"strings"
	"testing"
)

func TestFramesRU(t *testing.T) {
	testFramesWellFormed(t, "ru")
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
