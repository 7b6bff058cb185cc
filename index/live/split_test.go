package live

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory/index"
)

// A batch of changes names records by user and id: two users' facts of
// one id are two records. A deletion whose user the store cannot tell
// goes for every document of the id, held or put earlier in the batch, but
// not for one put after it.
func TestSplitNamesRecordsByUserAndID(t *testing.T) {
	an, err := index.NewAnalyzer(index.Keywords4)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.New(an, filepath.Join(t.TempDir(), "ix"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Put(index.Doc{ID: 1, User: "ada", Text: "held"}, index.Doc{ID: 1, User: "bob", Text: "held"},
		index.Doc{ID: 2, User: "ada", Text: "held"}); err != nil {
		t.Fatal(err)
	}
	key := func(user string, id uint64) index.DocKey { return index.DocKey{User: user, ID: id} }
	for _, tc := range []struct {
		name      string
		changes   []Change
		put       []index.DocKey
		del, gone []index.DocKey
	}{
		{"users apart", []Change{{ID: 1, User: "ada", Deleted: true}, {ID: 1, User: "bob", Text: "new", Current: true}},
			[]index.DocKey{key("bob", 1)}, []index.DocKey{key("ada", 1)}, []index.DocKey{key("ada", 1)}},
		{"the latest change of a record wins", []Change{{ID: 3, User: "ada", Text: "a", Current: true}, {ID: 3, User: "ada", Text: "a"}},
			nil, []index.DocKey{key("ada", 3)}, nil},
		{"user unknown: every document of the id", []Change{{ID: 1, Deleted: true, UserUnknown: true}},
			nil, []index.DocKey{key("ada", 1), key("bob", 1)}, []index.DocKey{key("ada", 1), key("bob", 1)}},
		{"user unknown, after a put of the id", []Change{{ID: 4, User: "cy", Text: "c", Current: true}, {ID: 4, Deleted: true, UserUnknown: true}},
			nil, []index.DocKey{key("cy", 4)}, []index.DocKey{key("cy", 4)}},
		{"user unknown, before a put of the id", []Change{{ID: 2, Deleted: true, UserUnknown: true}, {ID: 2, User: "ada", Text: "again", Current: true}},
			[]index.DocKey{key("ada", 2)}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			put, del, gone, err := split(ix, tc.changes)
			if err != nil {
				t.Fatal(err)
			}
			var putKeys []index.DocKey
			for _, d := range put {
				putKeys = append(putKeys, d.Key())
			}
			for _, l := range [][]index.DocKey{putKeys, del, gone} {
				slices.SortFunc(l, func(a, b index.DocKey) int {
					return cmp.Or(strings.Compare(a.User, b.User), cmp.Compare(a.ID, b.ID))
				})
			}
			if !slices.Equal(putKeys, tc.put) || !slices.Equal(del, tc.del) || !slices.Equal(gone, tc.gone) {
				t.Errorf("put %v, del %v, gone %v; want %v, %v, %v", putKeys, del, gone, tc.put, tc.del, tc.gone)
			}
		})
	}
}
