package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/palimpsest-mem/memory"
)

// search asks the memory questions, as an assistant does before it
// answers: the words of asking dropped, a relation's words and the graph
// reaching a fact in another language, history on request, and a question
// of only function words finding nothing.
func (d *demo) search() error {
	d.printf("\n18. Asking the memory a question: Search\n")
	type ask struct {
		q    string
		opts *memory.SearchOptions
		want []string // texts that must be among the hits
		not  []string // texts that must not
	}
	for _, a := range []ask{
		{"Where do I live?", nil, []string{"I live in Munich.", "Я живу в Мюнхене."}, []string{"I live in Berlin."}},
		{"Where did I work before company C?", &memory.SearchOptions{History: true}, []string{"I work at company A.", "I work at company B."}, nil},
		{"Remind me of anything you know", nil, nil, nil},
	} {
		r, err := d.s.Search(d.ctx, "", a.q, a.opts)
		if err != nil {
			return err
		}
		how := "Search"
		if a.opts != nil && a.opts.History {
			how += " (History: superseded and retracted versions too)"
		}
		d.printf("\n    Q: %s\n    %s returns:\n", a.q, how)
		if len(r.Hits) == 0 {
			d.printf("      nothing: a question of only function words finds nothing, rather than everything\n")
		}
		var texts []string
		for _, h := range r.Hits {
			texts = append(texts, h.Fact.Text)
			var ranks []string
			for _, x := range h.Ranks {
				ranks = append(ranks, fmt.Sprintf("%s %d", x.Ranker, x.Rank))
			}
			d.printf("      %s  [%s; %s]\n", show(h.Fact), h.Fact.State(), strings.Join(ranks, ", "))
		}
		for _, w := range a.want {
			if !slices.Contains(texts, w) {
				return fmt.Errorf("demo: Search(%q) did not find %q", a.q, w)
			}
		}
		for _, n := range a.not {
			if slices.Contains(texts, n) {
				return fmt.Errorf("demo: Search(%q) found %q, which is not current", a.q, n)
			}
		}
		if a.want == nil && len(r.Hits) > 0 {
			return fmt.Errorf("demo: Search(%q) found %d facts, want none", a.q, len(r.Hits))
		}
	}
	d.printf("    (The Russian fact shares no word with the question: its topic, residence, and its claim,\n    lives_in, which \"живу\" and \"live\" both say, find it.)\n")
	return nil
}
