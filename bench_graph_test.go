package memory_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// graphBenchStore holds users × perUser facts, each with one claim of a few
// relations over a few objects, a tenth superseded by the next fact, built
// by one Import (fast) rather than one write per fact.
func graphBenchStore(b *testing.B, users, perUser int) *memory.Store {
	b.Helper()
	rels := []memory.Relation{memory.RelWorksAt, memory.RelLivesIn, memory.RelLikes, memory.RelFriend, memory.RelSpeaks}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	n := users * perUser
	enc.Encode(map[string]any{"format": "palimpsest-memory", "version": 3, "next_id": n + 1})
	id := 0
	for u := range users {
		user := fmt.Sprintf("user%03d", u)
		for i := range perUser {
			id++
			at := t0.Add(time.Duration(i) * time.Hour)
			rel := rels[i%len(rels)]
			obj := fmt.Sprintf("%s object %d", rel, (i/len(rels))%20)
			f := map[string]any{"id": id, "user": user, "text": fmt.Sprintf("Fact %d: %s %s.", i, rel, obj),
				"pinned": false, "origin": "user", "source": map[string]any{}, "recorded_at": at,
				"valid_until": nil, "superseded_by": 0, "supersedes": 0, "event_from": nil, "event_until": nil,
				"claims": []map[string]string{{"subject": "", "relation": string(rel), "object": obj}}}
			log := []map[string]any{{"kind": "recorded", "at": at, "origin": "user"}}
			if i%10 == 0 && i+1 < perUser {
				end := at.Add(time.Hour)
				f["valid_until"], f["superseded_by"] = end, id+1
				log = append(log, map[string]any{"kind": "superseded", "at": end, "origin": "user", "by": id + 1, "event_end": end})
			}
			if i%10 == 1 {
				f["supersedes"] = id - 1
			}
			f["log"] = log
			if err := enc.Encode(f); err != nil {
				b.Fatal(err)
			}
		}
	}
	s, err := memory.Open(filepath.Join(b.TempDir(), "m.db"), 0, &memory.Options{NoSync: true, MaxTextRunes: 2000})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if _, err := s.Import(ctx, &buf, nil); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkEdges: "where does user004 work now", at 10k and 100k facts of
// 1,000 per user; warm is with the graph cached, afterWrite with a write of
// another user before each query (which leaves the user's graph cached),
// afterOwnWrite with a write of the user's own (whose graph is then
// patched: the changed facts read again, the new claims grouped).
func BenchmarkEdges(b *testing.B) {
	for _, users := range []int{10, 100} {
		s := graphBenchStore(b, users, 1000)
		q := &memory.EdgeQuery{Relation: memory.RelWorksAt}
		b.Run(fmt.Sprintf("facts=%dk/warm", users), func(b *testing.B) {
			for b.Loop() {
				if es, err := s.Edges(ctx, "user004", q); err != nil || len(es) == 0 {
					b.Fatal(len(es), err)
				}
			}
		})
		b.Run(fmt.Sprintf("facts=%dk/afterWrite", users), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				if _, err := s.Add(ctx, memory.Note{User: "writer", Text: "a write", Claims: []memory.Claim{}}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.Edges(ctx, "user004", q); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("facts=%dk/afterOwnWrite", users), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				if _, err := s.Add(ctx, memory.Note{User: "user004", Text: "I work at Acme.", Claims: nil}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.Edges(ctx, "user004", q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNeighbours(b *testing.B) {
	for _, users := range []int{10, 100} {
		s := graphBenchStore(b, users, 1000)
		b.Run(fmt.Sprintf("facts=%dk/warm", users), func(b *testing.B) {
			for b.Loop() {
				if es, err := s.Neighbours(ctx, "user004", memory.UserSubject, time.Time{}, time.Time{}); err != nil || len(es) == 0 {
					b.Fatal(len(es), err)
				}
			}
		})
	}
}

// BenchmarkCandidatesByRelation: the lookup of a fact claiming a
// single-valued relation ("I live in Lisbon now"), whose current peers on
// that relation are candidates, each after a write of the user's own, on
// 1,000 facts of the user among 10k.
func BenchmarkCandidatesByRelation(b *testing.B) {
	s := graphBenchStore(b, 10, 1000)
	if _, err := s.Candidates(ctx, "user004", "I live in Lisbon now.", memory.DefaultCandidates); err != nil {
		b.Fatal(err) // the index is built by the first lookup
	}
	for b.Loop() {
		b.StopTimer()
		if _, err := s.Add(ctx, memory.Note{User: "user004", Text: "I like tea."}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		look, err := s.Candidates(ctx, "user004", "I live in Lisbon now.", memory.DefaultCandidates)
		if err != nil || !slices.ContainsFunc(look.Candidates, func(c memory.Candidate) bool { return c.Relation == memory.RelLivesIn }) {
			b.Fatal(look, err)
		}
	}
}
