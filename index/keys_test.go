package index

import (
	"cmp"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/palimpsest-mem/memory/internal/indextest"
)

// users whose names a naive document id would confuse: separators, a NUL,
// hex digits, non-ASCII, and the default user.
var awkwardUsers = []string{"", "ada", "bob", "a/b", "a|b", "1/", "/", "|", "\x00", "a\x00b", "61", "Åsa", "名前", "🙂/🙃",
	strings.Repeat("ü", 64)}

func TestDocIDRoundTrip(t *testing.T) {
	seen := map[string]DocKey{}
	for _, user := range awkwardUsers {
		for _, id := range []uint64{0, 1, 10, 1 << 63, ^uint64(0)} {
			k := DocKey{User: user, ID: id}
			s := docID(k)
			got, err := parseDocID(s)
			if err != nil || got != k {
				t.Errorf("%+v: %q reads back as %+v, %v", k, s, got, err)
			}
			if other, ok := seen[s]; ok {
				t.Errorf("%+v and %+v are both %q", k, other, s)
			}
			seen[s] = k
			if !strings.HasPrefix(s, docID(DocKey{ID: id})) {
				t.Errorf("%q is not under its id's prefix %q", s, docID(DocKey{ID: id}))
			}
		}
	}
}

// What docID never writes is refused, not read as some key.
func TestParseDocIDRefusesWhatDocIDDoesNotWrite(t *testing.T) {
	for _, s := range []string{"", "1", "/", "1/6", "1/6G", "1/6A", "01/61", "+1/61", "-1/", "1//", "18446744073709551616/",
		" 1/", "1/61 ", sentinelID} {
		if k, err := parseDocID(s); err == nil {
			t.Errorf("%q reads as %+v", s, k)
		}
	}
}

func FuzzDocID(f *testing.F) {
	for _, u := range awkwardUsers {
		f.Add(u, uint64(1), docID(DocKey{User: u, ID: 1}))
	}
	f.Add("", uint64(0), "0/")
	f.Fuzz(func(t *testing.T, user string, id uint64, s string) {
		k := DocKey{User: user, ID: id}
		if got, err := parseDocID(docID(k)); err != nil || got != k {
			t.Fatalf("%+v reads back as %+v, %v", k, got, err)
		}
		// Any string: a key written back as the same string, or an error.
		if got, err := parseDocID(s); err == nil && docID(got) != s {
			t.Fatalf("%q reads as %+v, written %q", s, got, docID(got))
		}
	})
}

// Users' facts are numbered each on their own: two users' facts of the
// same id are two documents, each found by its user's lookups only, and
// deleting or purging one leaves the other.
func TestUsersFactsOfTheSameID(t *testing.T) {
	ctx := context.Background()
	users := []string{"ada", "bob", "", "a/b", "a|b", "a\x00b", "名前"}
	for _, tc := range []struct {
		name string
		kept bool
		gone func(t *testing.T, ix *Index, k DocKey)
	}{
		{"Delete", false, func(t *testing.T, ix *Index, k DocKey) {
			if err := ix.Delete(k); err != nil {
				t.Fatal(err)
			}
		}},
		{"Apply", true, func(t *testing.T, ix *Index, k DocKey) {
			if err := ix.Apply(nil, []DocKey{k}, []byte("m2")); err != nil {
				t.Fatal(err)
			}
		}},
		{"Purge", true, func(t *testing.T, ix *Index, k DocKey) {
			if err := ix.Apply(nil, []DocKey{k}, []byte("m2")); err != nil {
				t.Fatal(err)
			}
			if err := ix.Purge(ctx, []DocKey{k}); err != nil {
				t.Fatal(err)
			}
			terms, err := indextest.ListTerms(ix.Dir())
			if err != nil {
				t.Fatal(err)
			}
			for _, term := range terms {
				if strings.Contains(term, "zzquokkaada") {
					t.Fatalf("a word of ada's deleted fact is in the files after Purge: %q", term)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ix *Index
			if tc.kept {
				ix, _ = openKept(t, filepath.Join(t.TempDir(), "m.db.index"))
			} else {
				ix = newIndex(t, Keywords4)
			}
			var docs []Doc
			for _, u := range users {
				// Each user's fact 1 shares a word with the others' and
				// has one of its own.
				docs = append(docs, Doc{ID: 1, User: u, Text: "shared zzquokka" + word(u)},
					Doc{ID: 2, User: u, Text: "other words"})
			}
			if err := ix.Apply(docs, nil, []byte("m1")); err != nil {
				t.Fatal(err)
			}
			if n, err := ix.Count(); err != nil || n != uint64(len(docs)) {
				t.Fatalf("the index counts %d, %v; want %d", n, err, len(docs))
			}
			for _, u := range users {
				hits, err := ix.Search(ctx, u, ix.Analyzer().Analyze("shared"), 10)
				if err != nil || len(hits) != 1 || hits[0].DocKey != (DocKey{User: u, ID: 1}) {
					t.Fatalf("user %q: %+v, %v; want the user's fact 1 alone", u, hits, err)
				}
			}
			if got, err := ix.KeysOf([]uint64{1}); err != nil || len(got) != len(users) {
				t.Fatalf("KeysOf(1): %+v, %v; want each user's", got, err)
			}
			tc.gone(t, ix, DocKey{User: "ada", ID: 1})
			for _, u := range users {
				got := find(t, ix, u, "shared")
				want := []uint64{1}
				if u == "ada" {
					want = nil
				}
				if !slices.Equal(got, want) {
					t.Errorf("user %q after ada's fact 1 went: %v, want %v", u, got, want)
				}
			}
			keys, err := ix.DocKeys(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(keys) != len(docs)-1 || keys[DocKey{User: "ada", ID: 1}] || !keys[DocKey{User: "bob", ID: 1}] || !keys[DocKey{User: "ada", ID: 2}] {
				t.Errorf("DocKeys after ada's fact 1 went: %v", keys)
			}
			for _, u := range users {
				got, err := ix.UserKeys(ctx, u)
				if err != nil {
					t.Fatal(err)
				}
				want := []DocKey{{User: u, ID: 1}, {User: u, ID: 2}}
				if u == "ada" {
					want = want[1:]
				}
				slices.SortFunc(got, func(a, b DocKey) int { return cmp.Compare(a.ID, b.ID) })
				if !slices.Equal(got, want) {
					t.Errorf("UserKeys(%q) after ada's fact 1 went: %v, want %v", u, got, want)
				}
			}
			if got, err := ix.UserKeys(ctx, "nobody"); err != nil || len(got) != 0 {
				t.Errorf("UserKeys of a user never indexed: %v, %v", got, err)
			}
		})
	}
}

// word makes a user's name a word the analyzers keep whole: letters only.
func word(user string) string {
	var b strings.Builder
	for _, r := range user {
		if r < utf8.RuneSelf && ('a' <= r && r <= 'z') {
			b.WriteRune(r)
		} else {
			b.WriteString("x")
		}
	}
	return b.String()
}
