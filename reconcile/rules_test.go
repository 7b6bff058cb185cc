package reconcile

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/internal/term"
)

// TestRulesEvidenceTerms checks that the rules read the kind of each shared
// term: a synonym set is no evidence (it may name the marker's meaning),
// nor is a term from the marker's own words, and the reason shows the
// others as people see them.
func TestRulesEvidenceTerms(t *testing.T) {
	in := Input{Text: "My mum moved her piano lessons to Saturday.", Candidates: []Candidate{{
		N: 1, Text: "Mother was a pianist; she moves lessons on Fridays.", Score: 4,
		Terms: []term.Term{{Text: "move"}, {Text: "mother", Kind: term.Synonym}, {Text: "pian", Kind: term.Root}, {Text: "lesson"}},
	}}}
	d, err := Rules{}.Decide(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	want := `change marker "moved"; candidate 1 matches on words pian…, lesson`
	if d.Action != Update || d.Target != 1 || d.Reason != want {
		t.Errorf("got %s %d %q, want update 1 %q", d.Action, d.Target, d.Reason, want)
	}
	// With only a synonym set and the marker's word in common, nothing
	// points at the candidate.
	in.Candidates[0].Terms = in.Candidates[0].Terms[:2]
	if d, err := (Rules{}).Decide(context.Background(), in); err != nil || d.Action != Add || d.Target != 0 {
		t.Errorf("got %+v, %v; want an add", d, err)
	}
}

// word, root and syn build shared terms for the rule tests.
func word(s string) term.Term { return term.Term{Text: s} }
func root(s string) term.Term { return term.Term{Text: s, Kind: term.Root} }
func syn(s string) term.Term  { return term.Term{Text: s, Kind: term.Synonym} }

// TestRulesDecide checks each rule on texts of its own: when the rules act,
// when they restate, and when they are unsure and say so with a conflict
// ("may replace candidate N") rather than adding silently.
func TestRulesDecide(t *testing.T) {
	far := Candidate{N: 2, Text: "I keep a diary in the evenings.", Score: 0.3, Terms: []term.Term{word("even")}}
	for _, c := range []struct {
		name     string
		in       Input
		action   Action
		target   int
		conflict int
		also     []int  // AlsoConflictWith
		reason   string // a part of the reason
	}{{
		name: "a change on two content words of the clearly best candidate updates it",
		in: Input{Text: "I now sing tenor in the cathedral choir.", Candidates: []Candidate{
			{N: 1, Text: "I sing bass in the cathedral choir.", Score: 3, Overlap: 0.6, Terms: []term.Term{word("sing"), word("choir"), word("cathedr")}},
			far}},
		action: Update, target: 1, reason: `change marker "now"; candidate 1 matches on words sing, choir, cathedr`,
	}, {
		name: "a change sharing one word only is a conflict, not an update",
		in: Input{Text: "My course has now moved online.", Candidates: []Candidate{
			{N: 1, Text: "I'd like to take a pottery course one day.", Score: 2, Terms: []term.Term{word("cours")}}, far}},
		action: Add, conflict: 1, also: []int{2}, reason: "may replace candidate 1",
	}, {
		name: "a change whose best candidate leads only a little is a conflict",
		in: Input{Text: "These days I swim at the lido before work.", Candidates: []Candidate{
			{N: 1, Text: "I swim at the leisure centre before work.", Score: 2, Terms: []term.Term{word("swim"), word("work")}},
			{N: 2, Text: "I swim at the lido in summer.", Score: 1.8, Terms: []term.Term{word("swim"), word("lido")}}}},
		action: Add, conflict: 1, also: []int{2}, reason: `change marker "these days": may replace candidate 1, which matches on words swim, work, but not clearly`,
	}, {
		name: "weak words are no evidence: a shared Friday points nowhere",
		in: Input{Text: "The plaster came off on Friday and the wrist has healed.", Candidates: []Candidate{
			{N: 1, Text: "Friday is pizza night.", Score: 0.9, Terms: []term.Term{word("friday"), syn("friday")}},
			{N: 2, Text: "My wrist is in a cast.", Score: 0.4, Terms: []term.Term{word("wrist")}, Topics: []string{"#broken-bone"}}}},
		action: Add, conflict: 2, reason: "may replace candidate 2: no marker, but it concerns the same (words wrist; frame #broken-bone)",
	}, {
		name: "a correction on an unclear target is a conflict with the likeliest",
		in: Input{Text: "Sorry, I misspoke: the kitten is called Pip.", Candidates: []Candidate{
			{N: 1, Text: "Our kitten is called Pop.", Score: 1, Terms: []term.Term{word("kitten"), word("call")}},
			{N: 2, Text: "I call my mum on Sundays.", Score: 0.9, Terms: []term.Term{word("call")}}}},
		action: Add, conflict: 1, also: []int{2}, reason: `correction marker "i misspoke": may replace candidate 1`,
	}, {
		name: "an addition is added beside what it resembles, with no conflict",
		in: Input{Text: "I also play the ukulele.", Candidates: []Candidate{
			{N: 1, Text: "I play the guitar in a band.", Score: 3, Overlap: 0.5, Terms: []term.Term{word("play")}}}},
		action: Add, reason: `addition marker "also"`,
	}, {
		name: "a change beside an addition is never acted on",
		in: Input{Text: "Mark moved to another team, so I report to Ana.", Candidates: []Candidate{
			{N: 1, Text: "My team lead is Mark.", Score: 4, Overlap: 0.3, Terms: []term.Term{word("mark"), word("team")}}}},
		action: Add, conflict: 1, reason: "may replace candidate 1",
	}, {
		name: "a second value of a single-valued relation, with no marker, is a conflict",
		in: Input{Text: "Home is Porto.", Candidates: []Candidate{
			{N: 1, Text: "I live in Lisbon.", Relation: "lives_in", RelationDiffers: true}}},
		action: Add, conflict: 1, reason: "may replace candidate 1: another lives_in of the same subject",
	}, {
		name: "a second value of a single-valued relation with a change marker updates it",
		in: Input{Text: "I've moved to Porto.", Candidates: []Candidate{
			far, {N: 2, Text: "I live in Lisbon.", Relation: "lives_in", RelationDiffers: true}}},
		action: Update, target: 2, reason: "candidate 2 gives another lives_in of the same subject",
	}, {
		name: "two other values of the relation: which one changed is a guess",
		in: Input{Text: "I've moved to Porto.", Candidates: []Candidate{
			{N: 1, Text: "I live in Lisbon.", Relation: "lives_in", RelationDiffers: true},
			{N: 2, Text: "I live in Faro in summer.", Relation: "lives_in", RelationDiffers: true}}},
		action: Add, conflict: 1, also: []int{2}, reason: "may replace candidate 1",
	}, {
		name: "the same value of the relation, no marker, is a restatement",
		in: Input{Text: "Lisbon is where I live.", Candidates: []Candidate{
			{N: 1, Text: "I live in Lisbon.", Relation: "lives_in"}}},
		action: Noop, target: 1, reason: "the same lives_in",
	}, {
		name: "other words for the one fact it clearly concerns, same numbers, no marker: a noop",
		in: Input{Text: "On trains I always book an aisle seat, coach 3.", Candidates: []Candidate{
			{N: 1, Text: "I prefer aisle seats on trains, ideally in coach 3.", Score: 3, Overlap: 0.3, Terms: []term.Term{word("aisl"), word("seat"), word("train")}},
			far}},
		action: Noop, target: 1, reason: "restates candidate 1 in other words",
	}, {
		name: "other words of other claims are no restatement",
		in: Input{Text: "On trains I always book an aisle seat, coach 3.", Candidates: []Candidate{
			{N: 1, Text: "I prefer aisle seats on trains, ideally in coach 3.", Score: 3, Overlap: 0.3, ClaimsDiffer: true, Terms: []term.Term{word("aisl"), word("seat"), word("train")}},
			far}},
		action: Add, conflict: 1, also: []int{2}, reason: "may replace candidate 1: no marker, but it concerns the same",
	}, {
		name: "most of the stems, but other claims, is no restatement",
		in: Input{Text: "My sister lives in Kazan.", Candidates: []Candidate{
			{N: 1, Text: "My brother lives in Kazan.", Score: 3, Overlap: 0.8, ClaimsDiffer: true, Terms: []term.Term{word("live"), word("kazan")}}}},
		action: Add, conflict: 1, reason: "may replace candidate 1: no marker, but it concerns the same",
	}, {
		name: "a change of another subject's is no evidence about this one",
		in: Input{Text: "My cousin Dasha recently moved to Novosibirsk.", Candidates: []Candidate{
			{N: 1, Text: "My cousin Pasha lives in Novosibirsk.", Score: 3, Overlap: 0.4, ClaimsDiffer: true, AboutOther: true,
				Terms: []term.Term{word("cousin"), word("novosibirsk")}}}},
		action: Add, reason: "but no fact it concerns: added",
	}, {
		name: "a word and a frame shared with a fact of one's own relation: a conflict",
		in: Input{Text: "I have a cat named Luna.", Candidates: []Candidate{
			{N: 1, Text: "My cat is called Mia.", Score: 0.5, Terms: []term.Term{word("name")}, Topics: []string{"#pet-name"}}}},
		action: Add, conflict: 1, reason: "frame #pet-name",
	}, {
		name: "a frame shared with a fact that claims none of the new fact's relations is no evidence",
		in: Input{Text: "I have a cat named Luna.", Candidates: []Candidate{
			{N: 1, Text: "My name is Maria Keller.", Score: 0.5, OtherRelations: true, Terms: []term.Term{word("name")}, Topics: []string{"#baby-shower"}}}},
		action: Add, reason: "no restatement, correction or change marker: added",
	}, {
		name: "nor is it a past event's target",
		in: Input{Text: "Last week I had my cat Luna microchipped.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "My name is Maria Keller.", Score: 0.5, OtherRelations: true, Topics: []string{"#baby-shower"}}}},
		action: Add, reason: "no restatement, correction or change marker: added",
	}, {
		name: "a negation the candidate lacks is no restatement",
		in: Input{Text: "On trains I never book an aisle seat, coach 3.", Candidates: []Candidate{
			{N: 1, Text: "I prefer aisle seats on trains, ideally in coach 3.", Score: 3, Overlap: 0.3, Terms: []term.Term{word("aisl"), word("seat"), word("train")}},
			far}},
		action: Add, conflict: 1, also: []int{2}, reason: "may replace candidate 1",
	}, {
		name: "a time of its own is no restatement",
		in: Input{Text: "From March, on trains I book an aisle seat, coach 3.", SaidAt: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "I prefer aisle seats on trains, ideally in coach 3.", Score: 3, Overlap: 0.3, Terms: []term.Term{word("aisl"), word("seat"), word("train")}},
			far}},
		action: Add, conflict: 1, also: []int{2}, reason: "may replace candidate 1",
	}, {
		name: "other numbers are no restatement",
		in: Input{Text: "On trains I always book an aisle seat, coach 5.", Candidates: []Candidate{
			{N: 1, Text: "I prefer aisle seats on trains, ideally in coach 3.", Score: 3, Overlap: 0.3, Terms: []term.Term{word("aisl"), word("seat"), word("train")}},
			far}},
		action: Add, conflict: 1, also: []int{2}, reason: "may replace candidate 1",
	}, {
		name: "a fact near two candidates alike is added silently",
		in: Input{Text: "I like hiking.", Candidates: []Candidate{
			{N: 1, Text: "I go hiking in the Alps.", Score: 1, Overlap: 0.2, Terms: []term.Term{word("hike")}},
			{N: 2, Text: "We hike along the coast.", Score: 0.9, Overlap: 0.2, Terms: []term.Term{word("hike")}}}},
		action: Add, reason: "no restatement, correction or change marker: added",
	}, {
		name: "a pinned candidate is never a target: a conflict",
		in: Input{Text: "I now sing tenor in the cathedral choir.", Candidates: []Candidate{
			{N: 1, Text: "I sing bass in the cathedral choir.", Pinned: true, Score: 3, Terms: []term.Term{word("sing"), word("choir")}}}},
		action: Add, conflict: 1, reason: "may replace candidate 1 (words sing, choir), which is pinned",
	}, {
		name: "an unsure correction also names a candidate of the same specific frame",
		in: Input{Text: "I misspoke, the kitten's name is Tim.", Candidates: []Candidate{
			{N: 1, Text: "The kitten is named Tom.", Score: 2, Terms: []term.Term{word("kitten"), word("name")}, Topics: []string{"#pets"}},
			{N: 2, Text: "Our cat sleeps all day.", Score: 1.9, Topics: []string{"#pet-cat"}},
			{N: 3, Text: "The dog barks.", Score: 1, Topics: []string{"#pets"}}}},
		action: Add, conflict: 1, also: []int{2}, reason: "or candidate 2 (frame #pet-cat)",
	}, {
		name: "a frame other candidates share names no second candidate",
		in: Input{Text: "These days I swim at the pool.", Candidates: []Candidate{
			{N: 1, Text: "I swim in the pool on Mondays.", Score: 2, Terms: []term.Term{word("swim"), word("pool")}, Topics: []string{"#sport"}},
			{N: 2, Text: "I run in the park.", Score: 1.8, Topics: []string{"#sport"}},
			{N: 3, Text: "I cycle to work.", Score: 1, Topics: []string{"#sport"}}}},
		action: Add, conflict: 1, reason: "may replace candidate 1",
	}, {
		name: "a time it begins, with no marker, is a conflict with what it concerns",
		in: Input{Text: "Heads up: my rent goes up from January.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "My share of the rent is £950 a month.", Score: 2, Overlap: 0.2, Terms: []term.Term{word("rent")}},
			{N: 2, Text: "I always hit my head on low beams.", Score: 0.4, Terms: []term.Term{word("head")}}}},
		action: Add, conflict: 1, also: []int{2}, reason: `start marker "from January": may replace candidate 1`,
	}, {
		name: "a time it begins and other numbers on a shared word update it",
		in: Input{Text: "Heads up: my rent goes up to £1,020 a month from January.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "My share of the rent is £950 a month.", Score: 2, Overlap: 0.2, Terms: []term.Term{word("rent")}},
			{N: 2, Text: "I always hit my head on low beams.", Score: 0.4, Terms: []term.Term{word("head")}}}},
		action: Update, target: 1, reason: `start marker "from January"; candidate 1 gives other numbers for words rent`,
	}, {
		name: "the month of a start in any case is the time's word, not evidence",
		in: Input{Text: "I'll be in Rome from 13 to 15 October.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "From 1 October I now work at company C; I am leaving company B.", Score: 0.5, Overlap: 0.1, Terms: []term.Term{word("octob")}}}},
		action: Add, reason: `start marker "from 13 to 15 October" but no fact it concerns: added`,
	}, {
		name: "the numbers of the time it begins are not other numbers",
		in: Input{Text: "I'll be in Rome from 13 to 15 October.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "I was in Rome from 1 to 3 May.", Score: 2, Overlap: 0.3, Terms: []term.Term{word("rome")}}}},
		action: Add, conflict: 1, reason: `start marker "from 13 to 15 October": may replace candidate 1`,
	}, {
		name: "a correction with other numbers on a shared word, not clearly ahead, invalidates it",
		in: Input{Text: "Oops, Leo's birth date is the 21st of May, I swapped the digits.", Candidates: []Candidate{
			{N: 1, Text: "I try to do a digital detox one weekend a month.", Score: 0.62, Terms: []term.Term{word("digit")}},
			{N: 2, Text: "My best friend Leo's birthday is on 12 May.", Score: 0.28, Overlap: 0.2, Terms: []term.Term{word("leo"), word("may"), root("birth")}},
			{N: 3, Text: "Leo and I went to Glastonbury once.", Score: 0.13, Terms: []term.Term{word("leo")}}}},
		action: Invalidate, target: 2, reason: `correction marker "oops"; candidate 2 gives other numbers for words leo, may, birth…`,
	}, {
		name: "other numbers on a shared root only are no target",
		in: Input{Text: "Перешла на новый тариф, теперь связь обходится в 450.", Candidates: []Candidate{
			{N: 1, Text: "Показания счётчиков передаю каждое 20-е число.", Score: 0.4, Terms: []term.Term{root("пере")}},
			{N: 2, Text: "Связь на даче плохая, 2 деления.", Score: 0.1, Terms: []term.Term{root("связ")}}}},
		action: Add, conflict: 1, also: []int{2}, reason: "but not clearly",
	}, {
		name: "other numbers on a shared word, the lookup and specificity pointing elsewhere: a conflict",
		in: Input{Text: "I now pay £70 a month for gas.", Candidates: []Candidate{
			{N: 1, Text: "I pay around £60 a month for electricity.", Score: 0.5, Terms: []term.Term{word("pay")}},
			{N: 2, Text: "Our gas boiler is 12 years old.", Score: 0.9, Terms: []term.Term{syn("gas")}},
			{N: 3, Text: "I pay my credit card off each month.", Score: 0.4, Terms: []term.Term{word("pay")}}}},
		action: Add, conflict: 1, also: []int{2}, reason: "but not clearly",
	}, {
		name: "a Russian time it begins is one too",
		in: Input{Text: "С прошлой недели снимаем уже трёхкомнатную.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "Мы с мужем снимаем двухкомнатную квартиру.", Score: 1.7, Terms: []term.Term{word("снима")}},
			{N: 2, Text: "Люблю снимать архитектуру на плёнку.", Score: 0.9, Terms: []term.Term{word("снима")}}}},
		action: Add, conflict: 1, also: []int{2}, reason: `start marker "С прошлой недели"`,
	}, {
		name: "a time it began and the one other value of a single-valued relation update it",
		in: Input{Text: "с сентября я работаю в Яндексе", SaidAt: time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "Я работаю в Сбербанке.", Score: 1, Terms: []term.Term{word("работа")}, Relation: "works_at", RelationDiffers: true}}},
		action: Update, target: 1, reason: `start marker "с сентября"; candidate 1 gives another works_at of the same subject`,
	}, {
		name: "a time it began and two other values of the relation: a conflict",
		in: Input{Text: "From September I work at Yandex.", SaidAt: time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "I work at Siemens.", Score: 1, Terms: []term.Term{word("work")}, Relation: "works_at", RelationDiffers: true},
			{N: 2, Text: "I work at a café on Sundays.", Score: 0.9, Terms: []term.Term{word("work")}, Relation: "works_at", RelationDiffers: true}}},
		action: Add, conflict: 1, also: []int{2}, reason: `start marker "From September": may replace candidate 1`,
	}, {
		name: "the death of what a fact states is a change of it",
		in: Input{Text: "My cat Luna died last week.", SaidAt: time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "I have a cat named Luna.", Score: 2, Overlap: 0.4, Terms: []term.Term{word("cat"), word("luna")}, Topics: []string{"#pet-cat"}}, far}},
		action: Update, target: 1, reason: `change marker "died"; candidate 1 matches on words cat, luna`,
	}, {
		name: "and in Russian",
		in: Input{Text: "Наш пёс Рекс погиб под машиной.", Candidates: []Candidate{
			{N: 1, Text: "У нас есть пёс Рекс.", Score: 2, Overlap: 0.4, Terms: []term.Term{word("пес"), word("рекс")}}, far}},
		action: Update, target: 1, reason: `change marker "погиб"`,
	}, {
		name: "a hedge takes a change marker back: no change",
		in: Input{Text: "My cat Luna almost died last week.", SaidAt: time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "I have a cat named Luna.", Score: 2, Overlap: 0.4, Terms: []term.Term{word("cat"), word("luna")}, Topics: []string{"#pet-cat"}}, far}},
		action: Add, conflict: 1, also: []int{2}, reason: "no marker, but it concerns the same",
	}, {
		name: "so does a negation, in Russian",
		in: Input{Text: "Кошка Луна чуть не умерла.", Candidates: []Candidate{
			{N: 1, Text: "У меня есть кошка Луна.", Score: 2, Overlap: 0.4, Terms: []term.Term{word("кошк"), word("лун")}}, far}},
		action: Add, conflict: 1, also: []int{2}, reason: "no marker, but it concerns the same",
	}, {
		name: "a time it happened, not began, is no start",
		in: Input{Text: "My brother joined a rowing club last month.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "My brother lives in Leeds.", Score: 1, Terms: []term.Term{word("brother")}},
			{N: 2, Text: "My brother and I share a Netflix account.", Score: 0.9, Terms: []term.Term{word("brother")}}}},
		action: Add, reason: "no restatement, correction or change marker: added",
	}, {
		name: "an unsure decision names next the candidate of the most specific evidence",
		in: Input{Text: "Correction: my watch is the 265 model, not the 255.", Candidates: []Candidate{
			{N: 1, Text: "I watch a lot of TV dramas.", Score: 2.7, Terms: []term.Term{word("watch")}},
			{N: 2, Text: "I've started watching Formula 1 again.", Score: 2.6, Terms: []term.Term{word("watch")}},
			{N: 3, Text: "I never watch horror films.", Score: 2.4, Terms: []term.Term{word("watch")}},
			{N: 4, Text: "My smartwatch is a Garmin Forerunner 255.", Score: 0.3, Terms: []term.Term{word("255")}}}},
		action: Add, conflict: 1, also: []int{4}, reason: "or candidate 4 (words 255)",
	}, {
		name: "a synonym set named by a word shared anyway counts little: the word is not told twice",
		in: Input{Text: "My mother has now closed her bakery shop.", Candidates: []Candidate{
			{N: 1, Text: "I buy bread at the corner shop.", Score: 1, Terms: []term.Term{word("shop"), syn("shop")}},
			{N: 2, Text: "My mum runs a small bakery.", Score: 0.9, Terms: []term.Term{word("bakeri"), syn("mother")}}}},
		action: Add, conflict: 2, also: []int{1}, reason: "may replace candidate 2, which matches on words bakeri",
	}, {
		name: "a word shared with no common topic, when others share one, is weak: the one fact of the frame is named",
		in: Input{Text: "I no longer keep fish; the tank went to a colleague.", Candidates: []Candidate{
			{N: 1, Text: "My colleague Sam sits next to me.", Score: 2, Terms: []term.Term{word("colleagu")}, Topics: []string{"#coworkers"}},
			{N: 2, Text: "The car's fuel tank leaks.", Score: 1, Terms: []term.Term{word("tank")}},
			{N: 3, Text: "I have an aquarium with six neon tetras.", Score: 0.5, Topics: []string{"#pet-fish"}}}},
		action: Add, conflict: 1, also: []int{3}, reason: "or candidate 3 (frame #pet-fish)",
	}, {
		name: "a time it happened, with no marker, is a conflict with the fact of its topic",
		in: Input{Text: "Four days ago my laptop finally broke, so I got a MateBook.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "My personal laptop is an old ASUS.", Score: 1.2, Terms: []term.Term{word("laptop")}, Topics: []string{"#computer"}},
			{N: 2, Text: "I use a laptop stand at work.", Score: 0.8, Terms: []term.Term{word("laptop")}, Topics: []string{"#computer"}}}},
		action: Add, conflict: 1, also: []int{2}, reason: "may replace candidate 1: no marker, but it says when it happened",
	}, {
		name: "a plan, with no marker, ends nothing yet: added silently",
		in: Input{Text: "Next spring I'm travelling to Vietnam with Leo.", SaidAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), Candidates: []Candidate{
			{N: 1, Text: "Last year I travelled around Japan for three weeks.", Score: 1.2, Terms: []term.Term{word("travel")}, Topics: []string{"#travel-hobby"}},
			{N: 2, Text: "I travel light, with hand luggage only.", Score: 0.8, Terms: []term.Term{word("travel")}, Topics: []string{"#travel-hobby"}}}},
		action: Add, reason: "no restatement, correction or change marker: added",
	}} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Rules{}.Decide(context.Background(), c.in)
			if err != nil {
				t.Fatal(err)
			}
			if d.Action != c.action || d.Target != c.target || d.ConflictWith != c.conflict || !strings.Contains(d.Reason, c.reason) {
				t.Errorf("got %s target %d conflict %d %q\nwant %s target %d conflict %d, reason holding %q",
					d.Action, d.Target, d.ConflictWith, d.Reason, c.action, c.target, c.conflict, c.reason)
			}
			if !slices.Equal(d.AlsoConflictWith, c.also) {
				t.Errorf("also conflict with %v, want %v (%q)", d.AlsoConflictWith, c.also, d.Reason)
			}
			if err := Validate(d, c.in); err != nil {
				t.Errorf("invalid decision: %v", err)
			}
		})
	}
}
