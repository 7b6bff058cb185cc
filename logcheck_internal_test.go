package memory

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/kv"
)

// Check reports what Import refuses, in the same words, when it is in a
// store by any other way (damage, a program before these checks): log
// entries no write makes, and counters that would give a taken id or none.
func TestCheckFindsWhatNoWriteMakes(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	for name, tc := range map[string]struct {
		plant func(tx *kv.Tx) error
		want  string
	}{
		"a conflict of a fact with itself": {func(tx *kv.Tx) error {
			return putJSON(tx, kv.BucketConflicts, 1, Conflict{ID: 1, At: at, New: 2, Existing: 2, Decision: 1, Reason: "r"})
		}, "conflict 1: a conflict of fact 2 with itself"},
		"an unknown action": {func(tx *kv.Tx) error {
			return putJSON(tx, kv.BucketDecisions, 1, Decision{ID: 1, At: at, Action: "erase", Added: 2})
		}, `decision 1: unknown action "erase"`},
		"a decision after its counter": {func(tx *kv.Tx) error {
			if err := putJSON(tx, kv.BucketDecisions, 3, Decision{ID: 3, At: at, Action: ActionNoop, Target: 1}); err != nil {
				return err
			}
			return tx.SetBlobSeq(kv.BucketDecisions, 2)
		}, "decision 3: after the log's last id 2"},
		"a decision's conflict that is not there": {func(tx *kv.Tx) error {
			if err := tx.SetBlobSeq(kv.BucketConflicts, 4); err != nil {
				return err
			}
			return putJSON(tx, kv.BucketDecisions, 1, Decision{ID: 1, At: at, Action: ActionAdd, Added: 2, Target: 1, Conflict: 4})
		}, "decision 1: names conflict 4, which is not in the log"},
		"a control character in a reason": {func(tx *kv.Tx) error {
			return putJSON(tx, kv.BucketDecisions, 1, Decision{ID: 1, At: at, Action: ActionAdd, Added: 2, Reason: "\x1b[2J"})
		}, "decision 1: reason: text holds a control character"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, text := range []string{"I work at company A.", "I work at company B."} {
				if _, err := s.Add(ctx, Note{Text: text}); err != nil {
					t.Fatal(err)
				}
			}
			err = s.db.Update(func(tx *kv.Tx) error {
				for _, b := range [][]byte{kv.BucketDecisions, kv.BucketConflicts} {
					if err := tx.SetBlobSeq(b, 1); err != nil {
						return err
					}
				}
				return tc.plant(tx)
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check: %v, want %q", err, tc.want)
			}
		})
	}
}

// logText makes what validLogText accepts, whatever a decider sends.
func FuzzLogText(f *testing.F) {
	for _, s := range []string{"", "plain", "a\nb\tc", "\x1b]52;c;aGk=\x07", "\x00", "\xff\xfe", strings.Repeat("я", MaxDecisionText)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := logText(s)
		if err := validLogText("text", out); err != nil {
			t.Fatalf("logText(%q) = %q: %v", s, out, err)
		}
		if validLogText("text", s) == nil && out != s {
			t.Fatalf("logText changed a valid text %q to %q", s, out)
		}
	})
}
