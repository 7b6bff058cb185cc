package memory

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// A failure between inserting the new fact and marking the old one rolls
// the whole supersede back: never two current, mutually exclusive facts.
func TestSupersedeFailureLeavesNothingChanged(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old, err := s.Add(ctx, Note{Text: "I work at company A."})
	if err != nil {
		t.Fatal(err)
	}
	var before strings.Builder
	if err := s.Export(ctx, &before); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("injected failure")
	ran := false
	s.hookAfterInsert = func() error { ran = true; return boom }
	if _, err := s.Supersede(ctx, "", old.ID, Note{Text: "I work at company B."}); !errors.Is(err, boom) {
		t.Fatalf("supersede: %v", err)
	}
	if !ran {
		t.Fatal("the failure was never injected")
	}
	var after strings.Builder
	if err := s.Export(ctx, &after); err != nil {
		t.Fatal(err)
	}
	if after.String() != before.String() {
		t.Errorf("store changed:\n%s\nwas:\n%s", after.String(), before.String())
	}
	s.hookAfterInsert = nil
	// The id the failed transaction allocated was rolled back with it.
	f, err := s.Supersede(ctx, "", old.ID, Note{Text: "I work at company B."})
	if err != nil || f.ID != old.ID+1 {
		t.Fatalf("supersede after failure: %+v, %v", f, err)
	}
}
