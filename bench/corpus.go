package main

import (
	"math/rand/v2"
	"strings"
)

// corpus makes any number of distinct, realistic fact texts by splicing the
// first half of one sentence onto the second half of another, so that the
// vocabulary and lengths match real facts and posting lists grow as they
// would in a real store.
type corpus struct {
	heads, tails []string
	rng          *rand.Rand
}

func newCorpus(texts []string, seed uint64) *corpus {
	c := &corpus{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for _, t := range texts {
		w := strings.Fields(t)
		if len(w) < 4 {
			continue
		}
		c.heads = append(c.heads, strings.Join(w[:len(w)/2], " "))
		c.tails = append(c.tails, strings.Join(w[len(w)/2:], " "))
	}
	return c
}

func (c *corpus) next() string {
	return c.heads[c.rng.IntN(len(c.heads))] + " " + c.tails[c.rng.IntN(len(c.tails))]
}
