package index

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"
)

// vectors holds the unit-length embeddings of current facts, by user, for
// an exact cosine top-k. A user's facts number in the thousands at most, so
// a scan beats any approximate structure here. They are loaded a user at a
// time, at the user's first lookup, from the store that keeps them, and at
// most maxVectorUsers users are held: a store of a million facts would not
// fit in memory, and an index opened from disk answers at once.
type vectors struct {
	mu     sync.Mutex
	byUser map[string]map[uint64][]float32 // user -> the user's id -> vector
	// loading holds, for each user whose vectors are being read, the
	// changes applied meanwhile, which the load then lays over what it
	// read: they may be newer.
	loading map[string]*userLoad
	// used orders the loaded users, least recently looked up first.
	used []string
}

// maxVectorUsers bounds the users whose vectors are held at once.
const maxVectorUsers = 128

// userLoad is a read of one user's vectors under way.
type userLoad struct {
	since map[uint64][]float32 // nil: deleted
	done  chan struct{}
}

func newVectors() *vectors {
	return &vectors{byUser: map[string]map[uint64][]float32{}, loading: map[string]*userLoad{}}
}

// put keeps v for a loaded user; a user not loaded reads it from the store
// at its first lookup.
func (vs *vectors) put(k DocKey, v []float32) {
	u := normalize(v)
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if l := vs.loading[k.User]; l != nil {
		l.since[k.ID] = u
	}
	m := vs.byUser[k.User]
	if m == nil {
		return
	}
	if u == nil {
		delete(m, k.ID)
		return
	}
	m[k.ID] = u
}

func (vs *vectors) delete(k DocKey) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if l := vs.loading[k.User]; l != nil {
		l.since[k.ID] = nil
	}
	delete(vs.byUser[k.User], k.ID)
}

// load makes sure user's vectors are held, reading them with read if not.
func (vs *vectors) load(ctx context.Context, user string, read func(context.Context, string) ([]Doc, error)) error {
	vs.mu.Lock()
	if _, ok := vs.byUser[user]; ok {
		vs.touchLocked(user)
		vs.mu.Unlock()
		return nil
	}
	if l := vs.loading[user]; l != nil {
		vs.mu.Unlock()
		select { // another lookup reads them
		case <-l.done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	l := &userLoad{since: map[uint64][]float32{}, done: make(chan struct{})}
	vs.loading[user] = l
	vs.mu.Unlock()
	defer close(l.done)
	docs, err := read(ctx, user)
	vs.mu.Lock()
	defer vs.mu.Unlock()
	delete(vs.loading, user)
	if err != nil {
		return err
	}
	m := make(map[uint64][]float32, len(docs))
	for _, d := range docs {
		if u := normalize(d.Vector); u != nil {
			m[d.ID] = u
		}
	}
	for id, u := range l.since {
		if u == nil {
			delete(m, id)
		} else {
			m[id] = u
		}
	}
	vs.byUser[user] = m
	vs.touchLocked(user)
	for len(vs.used) > maxVectorUsers {
		vs.evictLocked(vs.used[0])
	}
	return nil
}

func (vs *vectors) touchLocked(user string) {
	vs.used = slices.DeleteFunc(vs.used, func(u string) bool { return u == user })
	vs.used = append(vs.used, user)
}

func (vs *vectors) evictLocked(user string) {
	delete(vs.byUser, user)
	vs.used = slices.DeleteFunc(vs.used, func(u string) bool { return u == user })
}

// nearest returns up to k facts of user most similar to q, with cosine
// similarity as score, best first: none while the user is not loaded.
func (vs *vectors) nearest(user string, q []float32, k int) []Hit {
	u := normalize(q)
	if u == nil {
		return nil
	}
	vs.mu.Lock()
	defer vs.mu.Unlock()
	var hits []Hit
	for id, v := range vs.byUser[user] {
		if len(v) != len(u) {
			continue // embedded by another model; ignore rather than compare apples and pears
		}
		var dot float64
		for i := range v {
			dot += float64(v[i]) * float64(u[i])
		}
		hits = append(hits, Hit{DocKey: DocKey{User: user, ID: id}, Score: dot})
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
		return strings.Compare(a.User, b.User)
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
	score := map[DocKey]float64{}
	for _, l := range lists {
		for rank, h := range l {
			score[h.DocKey] += 1 / float64(rrfK+rank+1)
		}
	}
	out := make([]Hit, 0, len(score))
	for k, s := range score {
		out = append(out, Hit{DocKey: k, Score: s})
	}
	sortHits(out)
	return out
}
