package memory_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory"
)

// userLogsStore holds users × 100 facts, each claiming to like a thing of
// its own, with 50 open conflicts and 50 merges of entities per user, by
// one Import: what a prompt's notes and a graph's merges are read from.
func userLogsStore(b *testing.B, users int) *memory.Store {
	b.Helper()
	const perUser, logs = 100, 50
	var facts, conflicts, merges bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	enc, cenc, menc := json.NewEncoder(&facts), json.NewEncoder(&conflicts), json.NewEncoder(&merges)
	id, cid, mid := 0, 0, 0
	for u := range users {
		user := fmt.Sprintf("user%03d", u)
		first := id + 1
		for i := range perUser {
			id++
			at := t0.Add(time.Duration(id) * time.Second)
			thing := fmt.Sprintf("thing %d", i)
			must0(b, enc.Encode(map[string]any{"id": id, "user": user, "text": fmt.Sprintf("I like %s.", thing),
				"pinned": false, "origin": "user", "source": map[string]any{}, "recorded_at": at,
				"valid_until": nil, "superseded_by": 0, "supersedes": 0, "event_from": nil, "event_until": nil,
				"claims": []map[string]string{{"subject": "", "relation": string(memory.RelLikes), "object": thing}},
				"log":    []map[string]any{{"kind": "recorded", "at": at, "origin": "user"}}}))
		}
		for j := range logs {
			cid++
			mid++
			at := t0.Add(time.Duration(users*perUser+mid) * time.Second)
			must0(b, cenc.Encode(map[string]any{"conflict": memory.Conflict{ID: uint64(cid), At: at, User: user,
				New: uint64(first + 2*j + 1), Existing: uint64(first + 2*j), Reason: "may replace it"}}))
			must0(b, menc.Encode(map[string]any{"merge": memory.Merge{ID: uint64(mid), At: at, User: user,
				From: fmt.Sprintf("thing %d", 2*j+1), Into: fmt.Sprintf("thing %d", 2*j)}}))
		}
	}
	var in bytes.Buffer
	must0(b, json.NewEncoder(&in).Encode(map[string]any{"format": "palimpsest-memory", "version": 6, "next_id": id + 1,
		"last_conflict": cid, "last_merge": mid}))
	in.Write(facts.Bytes())
	in.Write(conflicts.Bytes())
	in.Write(merges.Bytes())
	s, err := memory.Open(filepath.Join(b.TempDir(), "m.db"), 0, &memory.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if _, err := s.Import(ctx, &in, nil); err != nil {
		b.Fatal(err)
	}
	return s
}

func must0(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPromptConflictsOfManyUsers: a user's prompt, its timeline
// cached, with 50 open conflicts of each of 1 or 100 users stored: the
// notes should cost what the user's own conflicts cost.
func BenchmarkPromptConflictsOfManyUsers(b *testing.B) {
	for _, users := range []int{1, 100} {
		s := userLogsStore(b, users)
		b.Run(fmt.Sprintf("users=%d", users), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, err := s.Prompt(ctx, "user000", nil)
				if err != nil {
					b.Fatal(err)
				}
				if !bytes.Contains([]byte(p), []byte("may replace")) {
					b.Fatalf("no note in:\n%s", p)
				}
			}
		})
	}
}

// BenchmarkGraphMergesOfManyUsers: a user's graph after a write of the
// user's own (patched: its merges read again), with 50 merges of each of 1
// or 100 users stored.
func BenchmarkGraphMergesOfManyUsers(b *testing.B) {
	for _, users := range []int{1, 100} {
		s := userLogsStore(b, users)
		b.Run(fmt.Sprintf("users=%d", users), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if _, err := s.Add(ctx, memory.Note{User: "user000", Text: "a write", Claims: []memory.Claim{}}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				es, err := s.Entities(ctx, "user000")
				if err != nil || len(es) != 50 {
					b.Fatal(len(es), err)
				}
			}
		})
	}
}
