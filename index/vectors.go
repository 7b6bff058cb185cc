package index

import (
	"math"
	"slices"
	"sync"
)

// vectors holds the unit-length embeddings of current facts, by user, for
// an exact cosine top-k. A user's facts number in the thousands at most, so
// a scan beats any approximate structure here.
type vectors struct {
	mu     sync.RWMutex
	byUser map[string]map[uint64][]float32
	userOf map[uint64]string
}

func newVectors() *vectors {
	return &vectors{byUser: map[string]map[uint64][]float32{}, userOf: map[uint64]string{}}
}

func (vs *vectors) put(id uint64, user string, v []float32) {
	u := normalize(v)
	vs.mu.Lock()
	defer vs.mu.Unlock()
	vs.deleteLocked(id)
	if u == nil {
		return
	}
	m := vs.byUser[user]
	if m == nil {
		m = map[uint64][]float32{}
		vs.byUser[user] = m
	}
	m[id] = u
	vs.userOf[id] = user
}

func (vs *vectors) delete(id uint64) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	vs.deleteLocked(id)
}

func (vs *vectors) deleteLocked(id uint64) {
	if user, ok := vs.userOf[id]; ok {
		delete(vs.byUser[user], id)
		delete(vs.userOf, id)
	}
}

// nearest returns up to k facts of user most similar to q, with cosine
// similarity as score, best first.
func (vs *vectors) nearest(user string, q []float32, k int) []Hit {
	u := normalize(q)
	if u == nil {
		return nil
	}
	vs.mu.RLock()
	defer vs.mu.RUnlock()
	var hits []Hit
	for id, v := range vs.byUser[user] {
		if len(v) != len(u) {
			continue // embedded by another model; ignore rather than compare apples and pears
		}
		var dot float64
		for i := range v {
			dot += float64(v[i]) * float64(u[i])
		}
		hits = append(hits, Hit{ID: id, Score: dot})
	}
	sortHits(hits)
	return hits[:min(k, len(hits))]
}

func sortHits(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
}

func normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return nil
	}
	s := 1 / math.Sqrt(n)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * s)
	}
	return out
}

// rrfK is the constant of reciprocal rank fusion; 60 is the customary value
// and makes the fusion insensitive to the scales of the lists it merges.
const rrfK = 60

// Fuse merges ranked lists by reciprocal rank fusion: each list adds
// 1/(rrfK + rank) to a fact's score.
func Fuse(lists ...[]Hit) []Hit {
	score := map[uint64]float64{}
	for _, l := range lists {
		for rank, h := range l {
			score[h.ID] += 1 / float64(rrfK+rank+1)
		}
	}
	out := make([]Hit, 0, len(score))
	for id, s := range score {
		out = append(out, Hit{ID: id, Score: s})
	}
	sortHits(out)
	return out
}
