package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/palimpsest-mem/memory"
)

// The graph rows need facts that state something. The corpus splices
// halves of the distractor texts, whose claims the rules rarely find
// whole, so the graph's store mixes them with sentences of the patterns
// people use to tell an assistant about themselves: claimShare of every
// ten facts, over a few dozen objects per relation, as a user's own facts
// name the same employers, cities and people again and again.
const claimShare = 4

// claimTemplates are sentences whose claim the rules find, each with the
// objects it is said of; %s is the object.
var claimTemplates = []struct {
	text    string
	objects []string
}{
	{"I work at %s.", []string{"Contoso", "Fabrikam", "Globex", "Initech", "Umbrella", "Northwind", "Tailspin", "Wingtip"}},
	{"I live in %s.", []string{"Lisbon", "Porto", "Kazan", "Berlin", "Madrid", "Oslo"}},
	{"I have a dog named %s.", []string{"Rex", "Bella", "Max", "Luna"}},
	{"My cat is called %s.", []string{"Tom", "Murka", "Simba"}},
	{"I speak %s.", []string{"Portuguese", "German", "Spanish", "Russian", "French"}},
	{"I play the %s.", []string{"violin", "guitar", "piano", "cello"}},
	{"I am allergic to %s.", []string{"peanuts", "penicillin", "cats", "pollen"}},
	{"My sister lives in %s.", []string{"Lisbon", "Kazan", "Prague"}},
	{"I drive a %s.", []string{"Toyota", "Volvo", "Skoda"}},
	{"Я работаю в «%s».", []string{"Ромашке", "Векторе", "Граните"}},
	{"Я живу в %s.", []string{"Казани", "Москве", "Твери"}},
	{"Мою собаку зовут %s.", []string{"Шарик", "Жучка", "Бим"}},
}

// claimCorpus gives the graph store's texts: claimShare in ten from the
// templates, the rest from the corpus.
type claimCorpus struct {
	c   *corpus
	rng *rand.Rand
	i   int
}

func newClaimCorpus(texts []string, seed uint64) *claimCorpus {
	return &claimCorpus{c: newCorpus(texts, seed), rng: rand.New(rand.NewPCG(seed, seed^0x51ed))}
}

func (cc *claimCorpus) next() string {
	cc.i++
	if cc.i%10 >= claimShare {
		return cc.c.next()
	}
	t := claimTemplates[cc.rng.IntN(len(claimTemplates))]
	return fmt.Sprintf(t.text, t.objects[cc.rng.IntN(len(t.objects))])
}

// claimStore imports at path a store of n facts of the claim corpus drawn
// with seed, perUser of them user-0's, and opens it; facts are user-0's
// current ones.
func claimStore(ctx context.Context, path string, texts []string, seed uint64, n, perUser int) (*memory.Store, []memory.Fact, error) {
	// Through a pipe: at a million facts the export is hundreds of MB.
	pr, pw := io.Pipe()
	go func() {
		writeImport(pw, newClaimCorpus(texts, seed).next, n, perUser)
		pw.Close()
	}()
	_, err := timeImport(ctx, path, pr)
	pr.Close()
	if err != nil {
		return nil, nil, err
	}
	s, err := memory.Open(path, 0, nil)
	if err != nil {
		return nil, nil, err
	}
	facts, err := s.List(ctx, "user-0", nil)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, facts, nil
}

// graphRows times the graph's reads on a store of n facts whose user-0
// has perUser of them: Edges of one relation, now, Neighbours of an entity
// the user's facts name, and Neighbours of the user, who is the subject of
// nearly every edge. The note says how many facts carry claims,
// so that a figure on a graph the import left empty cannot pass for one.
func graphRows(ctx context.Context, dir string, texts []string, n, perUser int, cfg perfConfig) ([]row, error) {
	s, facts, err := claimStore(ctx, filepath.Join(dir, fmt.Sprintf("graph%d.db", n)), texts, 7, n, perUser)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	withClaims := 0
	seen := map[string]bool{}
	var entities []string
	for _, f := range facts {
		if len(f.Claims) > 0 {
			withClaims++
		}
		for _, c := range f.Claims {
			if !seen[c.Object] {
				seen[c.Object] = true
				entities = append(entities, c.Object)
			}
		}
	}
	if withClaims == 0 || len(entities) == 0 {
		return nil, errors.New("graph rows: none of user-0's facts carries a claim")
	}
	all, err := s.Edges(ctx, "user-0", nil)
	if err != nil {
		return nil, err
	}
	jobs, err := s.Edges(ctx, "user-0", &memory.EdgeQuery{Relation: "works_at"})
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, errors.New("graph rows: user-0 has no works_at edge")
	}
	share := fmt.Sprintf("%d of the user's %d facts carry claims (%d edges now, %d entities)", withClaims, len(facts), len(all), len(entities))
	edges := timeN(cfg.reads, func(int) error {
		_, err := s.Edges(ctx, "user-0", &memory.EdgeQuery{Relation: "works_at"})
		return err
	})
	var found int
	nb := timeN(cfg.reads, func(i int) error {
		es, err := s.Neighbours(ctx, "user-0", entities[i%len(entities)], time.Time{}, time.Time{})
		found += len(es)
		return err
	})
	var mine int
	self := timeN(cfg.reads, func(int) error {
		es, err := s.Neighbours(ctx, "user-0", memory.UserSubject, time.Time{}, time.Time{})
		mine = len(es)
		return err
	})
	er := latRow("Edges of one relation (works_at) of a user, now", edges, 0)
	er.Note = fmt.Sprintf("%d edges returned; %s", len(jobs), share)
	nr := latRow("Neighbours of an entity of a user, now", nb, 0)
	nr.Note = fmt.Sprintf("%.1f edges returned on average, over the user's %d entities; %s", float64(found)/float64(max(1, cfg.reads)), len(entities), share)
	sr := latRow("Neighbours of the user, now", self, 0)
	sr.Note = fmt.Sprintf("%d edges returned: every current edge of the user's own; %s", mine, share)
	return []row{er, nr, sr}, nil
}
