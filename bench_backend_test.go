package memory_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/kv"
	"github.com/palimpsest-mem/memory/kv/jetstream"
)

// A lookup on a backend, of a user of 1,000 facts (a tenth superseded):
// while nobody else writes, the check that the candidate index holds the
// user's revision is one read of the revision (Search) or none beyond the
// snapshot Candidates reads anyway; after another process's commit
// ("…AfterOther", the commit untimed), the lookup catches the user up.
func BenchmarkLookupOnBackend(b *testing.B) {
	for _, name := range []string{"peruser", "jetstream"} {
		b.Run("backend="+name, func(b *testing.B) {
			s, other := benchPair(b, name)
			benchFill(b, s, 1000)
			lookups := []struct {
				name string
				run  func() error
			}{
				{"Candidates", func() error {
					_, err := s.Candidates(ctx, "", "These days I play the piano at work.", 12)
					return err
				}},
				{"Search", func() error {
					_, err := s.Search(ctx, "", "the piano at work", nil)
					return err
				}},
			}
			for _, l := range lookups {
				b.Run(l.name, func(b *testing.B) {
					if err := l.run(); err != nil { // the index built, the user in it
						b.Fatal(err)
					}
					for b.Loop() {
						if err := l.run(); err != nil {
							b.Fatal(err)
						}
					}
				})
				b.Run(l.name+"AfterOther", func(b *testing.B) {
					i := 0
					for b.Loop() {
						b.StopTimer()
						i++
						if _, err := other.Add(ctx, memory.Note{Text: fmt.Sprintf("Another process's fact %d about the piano.", i)}); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
						if err := l.run(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// benchPair opens two stores on one new backend, each with an index of
// its own: two processes.
func benchPair(b *testing.B, name string) (*memory.Store, *memory.Store) {
	b.Helper()
	var open func() kv.Backend
	switch name {
	case "peruser":
		db, err := kv.Open(filepath.Join(b.TempDir(), "peruser.db"), 0, &kv.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		open = func() kv.Backend { return sharedBackend{db.PerUser()} }
	case "jetstream":
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := jetstream.StartCluster(ctx, b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		open = func() kv.Backend {
			nc, err := nats.Connect(c.ClientURL(), nats.MaxReconnects(-1))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(nc.Close)
			be, err := jetstream.Open(ctx, nc, &jetstream.Options{Prefix: "bench", Cluster: c})
			if err != nil {
				b.Fatal(err)
			}
			return be
		}
	}
	var out [2]*memory.Store
	for i := range out {
		s, err := memory.OpenBackend(open(), filepath.Join(b.TempDir(), "index"), &memory.Options{Clock: newClock("2026-01-01").Now})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		out[i] = s
	}
	return out[0], out[1]
}

// benchFill writes n facts of the default user, a tenth superseded, as
// benchStore does.
func benchFill(b *testing.B, s *memory.Store, n int) {
	b.Helper()
	topics := []string{"work", "piano", "coffee", "flat", "cat", "bank", "train", "doctor"}
	for i := range n {
		f, err := s.Add(ctx, memory.Note{Text: fmt.Sprintf("Fact %d about my %s and the %s.", i, topics[i%8], topics[(i/8)%8])})
		if err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 {
			if _, err := s.Supersede(ctx, "", f.ID, memory.Note{Text: fmt.Sprintf("Fact %d, revised, about my %s.", i, topics[i%8])}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// sharedBackend is the bbolt file's per-user layout shared by two stores:
// Close leaves it to the test. It reads revisions alone as the layout
// does (kv.RevReader).
type sharedBackend struct{ kv.Backend }

func (sharedBackend) Close() error { return nil }

func (s sharedBackend) Rev(ctx context.Context, user string) (uint64, error) {
	return s.Backend.(interface {
		Rev(context.Context, string) (uint64, error)
	}).Rev(ctx, user)
}
