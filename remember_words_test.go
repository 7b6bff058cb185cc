package memory_test

import (
	"slices"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// TestRememberWords tells the rules decider, through Remember with the
// default lookup, the words it once misread, in English and Russian: each
// case is a story of facts remembered in order, the last one judged.
func TestRememberWords(t *testing.T) {
	for _, c := range []struct {
		name  string
		told  []string // remembered first, on 2026-03-01
		text  string   // remembered on 2026-10-05
		act   memory.Action
		on    int  // the fact of told the decision targets (1-based), 0 for none
		quiet bool // an add must record no conflict
	}{{
		name: "a topic frame shared by facts of other relations is no conflict",
		told: []string{"My name is Maria Keller."}, text: "I have a cat named Luna.",
		act: memory.ActionAdd, quiet: true,
	}, {
		name: "a Russian time it began and another employer update the job",
		told: []string{"Я работаю в Сбербанке."}, text: "с сентября я работаю в Яндексе",
		act: memory.ActionUpdate, on: 1,
	}, {
		name: "an English time it began and another employer update the job",
		told: []string{"I work at Siemens."}, text: "Since September I work at Yandex.",
		act: memory.ActionUpdate, on: 1,
	}, {
		name: "a Russian negated change finds what it ends",
		told: []string{"Я живу в Берлине.", "Я играю на пианино."}, text: "Я больше не играю на пианино.",
		act: memory.ActionUpdate, on: 2,
	}, {
		name: "the death of a pet ends it",
		told: []string{"I have a cat named Luna.", "I live in Berlin."}, text: "My cat Luna died last week.",
		act: memory.ActionUpdate, on: 1,
	}, {
		name: "the death of a pet ends it, in Russian",
		told: []string{"У меня есть кошка Луна.", "Я живу в Берлине."}, text: "Моя кошка Луна умерла на прошлой неделе.",
		act: memory.ActionUpdate, on: 1,
	}, {
		name: "a pet that died, in Russian, with погиб",
		told: []string{"У нас есть пёс Рекс.", "Я работаю в Сбербанке."}, text: "Наш пёс Рекс погиб под машиной.",
		act: memory.ActionUpdate, on: 1,
	}} {
		t.Run(c.name, func(t *testing.T) {
			clk := newClock("2026-03-01")
			s, _ := open(t, clk, nil)
			var told []uint64
			for _, text := range c.told {
				o := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: text}))
				told = append(told, o.Fact.ID)
			}
			clk.set("2026-10-05")
			o := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: c.text}))
			d := o.Decision
			var want uint64
			if c.on > 0 {
				want = told[c.on-1]
			}
			if d.Action != c.act || (c.on > 0 && d.Target != want) || (c.quiet && (d.Conflict != 0 || d.Target != 0)) {
				t.Errorf("%q: got %s target %d conflict %d (%s), want %s of fact %d", c.text, d.Action, d.Target, d.Conflict, d.Reason, c.act, want)
			}
			checkClean(t, s)
		})
	}
}

// TestRememberEndsPet checks that a pet's death leaves no edge of the pet
// current: neither the old fact's claim nor one read in the news of it.
func TestRememberEndsPet(t *testing.T) {
	for _, c := range []struct{ told, text, pet string }{
		{"I have a cat named Luna.", "My cat Luna died last week.", "Luna"},
		{"У меня есть кошка Луна.", "Моя кошка Луна умерла.", "Луна"},
	} {
		t.Run(c.text, func(t *testing.T) {
			clk := newClock("2026-03-01")
			s, _ := open(t, clk, nil)
			must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: c.told}))
			clk.set("2026-10-05")
			must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: c.text}))
			edges := must[[]memory.Edge](t)(s.Edges(ctx, "", &memory.EdgeQuery{Relation: memory.RelHasPet}))
			if i := slices.IndexFunc(edges, func(e memory.Edge) bool { return e.Object == c.pet }); i >= 0 {
				t.Errorf("has_pet %s still current after %q: %+v", c.pet, c.text, edges[i])
			}
		})
	}
}

// TestRememberRecurringDate checks that a date that recurs (a birthday)
// gives the fact no start: it is true from when it was told, not upcoming.
func TestRememberRecurringDate(t *testing.T) {
	for _, text := range []string{"My birthday is on 14 May.", "Мой день рождения 14 мая.", "Our anniversary is in June."} {
		t.Run(text, func(t *testing.T) {
			s, _ := open(t, newClock("2026-03-01"), nil)
			o := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: text}))
			if !o.Fact.EventFrom.IsZero() || o.Decision.EventFrom != nil {
				t.Errorf("%q: stored from %s (decision %v), want no start of its own", text, o.Fact.EventFrom, o.Decision.EventFrom)
			}
			es := must[[]memory.PromptEntry](t)(s.ExplainPrompt(ctx, "", nil))
			if len(es) != 1 || es[0].Upcoming {
				t.Errorf("%q: prompt entries %+v, want one, not upcoming", text, es)
			}
		})
	}
}

// TestRememberPartnerClaims checks the "is" and dash forms of a partner.
func TestRememberPartnerClaims(t *testing.T) {
	for text, who := range map[string]string{
		"My partner is Tom.": "Tom", "My wife is Olga.": "Olga", "Моя жена — Ольга.": "Ольга", "Мой партнёр — Тимур.": "Тимур",
	} {
		s, _ := open(t, newClock("2026-03-01"), nil)
		o := must[memory.Outcome](t)(s.Remember(ctx, memory.Note{Text: text}))
		if !slices.ContainsFunc(o.Fact.Claims, func(c memory.Claim) bool {
			return c.Subject == "" && c.Relation == memory.RelPartner && c.Object == who
		}) {
			t.Errorf("%q: claims %+v, want partner %s", text, o.Fact.Claims, who)
		}
	}
}

// TestCandidatesOtherRelations checks the lookup's OtherRelations: set for
// a fact claiming none of the relations the text claims, never for one
// claiming one of them, nor when the text claims none.
func TestCandidatesOtherRelations(t *testing.T) {
	s, _ := open(t, newClock("2026-03-01"), nil)
	name := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "My name is Maria Keller."}))
	dog := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I have a dog named Rex."}))
	for _, c := range []struct {
		text  string
		other map[uint64]bool
	}{
		{"I have a cat named Luna.", map[uint64]bool{name.ID: true, dog.ID: false}},
		{"What a name!", map[uint64]bool{name.ID: false}},
	} {
		look := must[memory.Lookup](t)(s.Candidates(ctx, "", c.text, memory.DefaultCandidates))
		for id, want := range c.other {
			i := slices.IndexFunc(look.Candidates, func(k memory.Candidate) bool { return k.Fact.ID == id })
			if i < 0 {
				t.Fatalf("%q: fact %d is no candidate: %+v", c.text, id, look.Candidates)
			}
			if got := look.Candidates[i].OtherRelations; got != want {
				t.Errorf("%q: fact %d OtherRelations %v, want %v", c.text, id, got, want)
			}
		}
	}
}
