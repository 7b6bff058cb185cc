package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// A decision or conflict naming a fact that is gone, or another user's, is
// reported: it may hold a copy of text a hard delete should have removed.
func TestCheckFindsDanglingLogReferences(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct {
		bucket []byte
		id     uint64
		v      any
		want   string
	}{
		"decision target missing": {kv.BucketDecisions, 7, Decision{ID: 7, Target: 99}, "decision 7: names a fact"},
		"decision candidate of another user": {kv.BucketDecisions, 7, Decision{ID: 7, User: "bob", Candidates: []uint64{1}},
			"decision 7: names a fact"},
		"conflict existing missing": {kv.BucketConflicts, 3, Conflict{ID: 3, New: 1, Existing: 42}, "conflict 3: names a fact"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Add(ctx, Note{Text: "I work at company A."}); err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx); err != nil {
				t.Fatalf("clean store: %v", err)
			}
			if err := s.db.Update(func(tx *kv.Tx) error { return putJSON(tx, tc.bucket, tc.id, tc.v) }); err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check: %v, want %q", err, tc.want)
			}
		})
	}
}

// A supersession cycle planted in the records, links agreeing in both
// directions, is reported by Check.
func TestCheckFindsSupersessionCycle(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := s.Add(ctx, Note{Text: "I work at A."})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Supersede(ctx, "", a.ID, Note{Text: "I work at B."})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("clean store: %v", err)
	}
	// B now also replaces A's successor... itself: A↔B, no current version.
	err = s.db.Update(func(tx *kv.Tx) error {
		ra, err := tx.Get(a.ID)
		if err != nil {
			return err
		}
		rb, err := tx.Get(b.ID)
		if err != nil {
			return err
		}
		ra.Supersedes = b.ID
		rb.ValidUntil, rb.SupersededBy = rb.RecordedAt+1, a.ID
		if err := tx.Put(&ra); err != nil {
			return err
		}
		if err := tx.Put(&rb); err != nil {
			return err
		}
		return tx.Append(b.ID, &kv.Event{Kind: kv.Superseded, At: rb.RecordedAt + 1, By: a.ID, End: rb.RecordedAt})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("fact %d: supersession cycle %d → %d → %d", a.ID, a.ID, b.ID, a.ID)
	if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
		t.Errorf("Check: %v, want %q", err, want)
	}
}

// A Check beside a Delete waits for the delete's scrub: between its
// commit and its scrub the deleted text is still in free pages, and
// Check must neither report that passing moment as pending nor say ok
// before the bytes are gone.
func TestCheckWaitsForADeleteInProgress(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f, err := s.Add(ctx, Note{Text: "My PIN is 4711."})
	if err != nil {
		t.Fatal(err)
	}
	reached, release := make(chan struct{}), make(chan struct{})
	s.hookBeforeScrub = func() { close(reached); <-release }
	deleted := make(chan error, 1)
	go func() { _, err := s.Delete(ctx, "", f.ID, nil); deleted <- err }()
	<-reached
	checked := make(chan error, 1)
	go func() { checked <- s.Check(ctx) }()
	select {
	case err := <-checked:
		close(release)
		t.Fatalf("Check returned while the delete's scrub had not run: %v", err)
	case <-time.After(200 * time.Millisecond): // Check is waiting, as it should
	}
	close(release)
	if err := <-deleted; err != nil {
		t.Fatal(err)
	}
	if err := <-checked; err != nil {
		t.Fatalf("Check after the delete: %v", err)
	}
}

// Check is not ok while a hard delete's scrub is pending: the deleted text
// may still be in the file. Here the process "dies" between the delete's
// commit and its scrub (the hook panics out of Delete); Check says so in
// the process and after reopening read-only, and a read-write open
// finishes the scrub.
func TestCheckReportsAPendingScrub(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	secret := "My PIN is 4917-SECRET-PIN."
	f, err := s.Add(ctx, Note{Text: secret})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, Note{Text: "I like tea."}); err != nil {
		t.Fatal(err)
	}
	type died struct{}
	s.hookBeforeScrub = func() { panic(died{}) }
	func() {
		defer func() {
			if _, ok := recover().(died); !ok {
				t.Fatal("test is void: the delete did not reach its scrub")
			}
		}()
		_, _ = s.Delete(ctx, "", f.ID, nil)
	}()
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte(secret)) {
		t.Fatal("test is void: the deleted text is not in the file")
	}
	if err := s.Check(ctx); !errors.Is(err, ErrScrubPending) {
		t.Errorf("Check with the scrub pending: %v, want ErrScrubPending", err)
	}
	s.Close()
	r, err := Open(path, 0, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check(ctx); !errors.Is(err, ErrScrubPending) {
		t.Errorf("Check after reopening read-only: %v, want ErrScrubPending", err)
	}
	r.Close()
	w, err := Open(path, 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Check(ctx); err != nil {
		t.Errorf("Check after the scrub finished: %v", err)
	}
	if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(secret)) {
		t.Error("the deleted text is still in the file after a read-write open")
	}
}

// A record whose claims do not validate (written by something other than
// the store's writes, which refuse them) is reported by Check.
func TestCheckFindsInvalidClaims(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]kv.Claim{
		"unknown relation": {Relation: "hates", Object: "Mondays"},
		"empty object":     {Relation: "lives_in", Object: " "},
		"unknown kind":     {Relation: "lives_in", Object: "Oslo", Kind: "planet"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			f, err := s.Add(ctx, Note{Text: "I live in Oslo."})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx); err != nil {
				t.Fatalf("clean store: %v", err)
			}
			err = s.db.Update(func(tx *kv.Tx) error {
				r, err := tx.Get(f.ID)
				if err != nil {
					return err
				}
				r.Claims = append(r.Claims, c)
				return tx.Put(&r)
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "invalid claim") {
				t.Errorf("Check: %v, want a report of the invalid claim", err)
			}
		})
	}
}
