package memory_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

func TestUsers(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t, nil, nil)
	got, err := s.Users(ctx)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty store: %q, %v", got, err)
	}
	// "ab" shares its first byte with "a": the length byte keeps them apart.
	for _, u := range []string{"bob", "", "a", "ab", "bob", "a"} {
		if _, err := s.Add(ctx, memory.Note{User: u, Text: "I like tea " + u}); err != nil {
			t.Fatal(err)
		}
	}
	got, err = s.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"", "a", "ab", "bob"}; !slices.Equal(got, want) {
		t.Fatalf("users %q, want %q", got, want)
	}
	// A retracted fact still belongs to its user; a deleted one does not.
	facts, _ := s.List(ctx, "ab", nil)
	if _, err := s.Invalidate(ctx, "ab", facts[0].ID, memory.Change{}); err != nil {
		t.Fatal(err)
	}
	if got, _ = s.Users(ctx); !slices.Contains(got, "ab") {
		t.Fatalf("retracted: %q lacks ab", got)
	}
	if _, err := s.Delete(ctx, "ab", facts[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ = s.Users(ctx); slices.Contains(got, "ab") {
		t.Fatalf("deleted: %q still has ab", got)
	}
}

func TestValidUser(t *testing.T) {
	for user, ok := range map[string]bool{"": true, "ada": true, "Ада": true, "a\x00b": false, "a\nb": false, "\xff": false, strings.Repeat("a", memory.MaxUserLen+1): false} {
		err := memory.ValidUser(user)
		if (err == nil) != ok || (err != nil && !errors.Is(err, memory.ErrInvalidUser)) {
			t.Errorf("ValidUser(%q) = %v", user, err)
		}
	}
}
