package live

import (
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/palimpsest-mem/memory/index"
)

// liveness bounds a wait for something that should come at once.
const liveness = 20 * time.Second

// store is a store of facts in memory, for the tests: the index reads it
// through its Source, and each write syncs the index under the write lock
// right after its commit, as package memory's writes do.
type store struct {
	path string // the store file, empty: the index lives beside it
	l    *Index

	mu    sync.Mutex // the write lock; it guards facts, next and log
	facts map[uint64]Change
	next  uint64
	// log holds the ids each commit touched, the commit of sequence i+1
	// at i; a commit is named by its sequence and the log's tag (as the
	// store's change log names them). lost says the log cannot tell the
	// changes since before the commit of that sequence (a gap).
	log  [][]uint64
	tag  uint64
	lost uint64
	// pages counts the pages a build read: a kept index that catches up
	// reads none.
	pages int
}

// newStore opens the index of a store of no facts, in a fresh temporary
// directory, closed at the end of the test.
func newStore(t testing.TB) *store { return newStoreKept(t, false) }

// newStoreKept is newStore, with the kept index if keep is set.
func newStoreKept(t testing.TB, keep bool) *store {
	t.Helper()
	s := &store{path: filepath.Join(t.TempDir(), "m.db"), facts: map[uint64]Change{}, tag: 7}
	if err := os.WriteFile(s.path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s.open(t, keep, index.Topics)
	return s
}

// open opens the store's index anew, in mode, as a new process would;
// the index open before is left as it is.
func (s *store) open(t testing.TB, keep bool, mode index.Mode) {
	t.Helper()
	l, err := Open(s.path, Options{Mode: mode, Writes: &s.mu, Keep: keep,
		Source: Source{Page: s.page, Vectors: func([]index.Doc) error { return nil }, Head: s.head, Since: s.since}})
	if err != nil {
		t.Fatal(err)
	}
	s.l = l
	t.Cleanup(l.Close)
}

// commitName names the commit of sequence seq.
func (s *store) commitName(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, seq), s.tag)
}

// head is the Source's Head.
func (s *store) head(context.Context) ([]byte, bool, error) {
	return s.commitName(uint64(len(s.log))), true, nil
}

// since is the Source's Since.
func (s *store) since(_ context.Context, commit []byte) ([]Change, []byte, bool, error) {
	if len(commit) != 16 || binary.BigEndian.Uint64(commit[8:]) != s.tag {
		return nil, nil, false, nil
	}
	seq := binary.BigEndian.Uint64(commit)
	if seq > uint64(len(s.log)) || seq < s.lost {
		return nil, nil, false, nil
	}
	var out []Change
	for _, ids := range s.log[seq:] {
		for _, id := range ids {
			c, ok := s.facts[id]
			if !ok {
				// As the store's change log: ids alone.
				c = Change{ID: id, Deleted: true, UserUnknown: true}
			}
			out = append(out, c)
		}
	}
	h, _, _ := s.head(nil)
	return out, h, true, nil
}

// page is the Source's Page: ids as 8-byte big-endian keys.
func (s *store) page(_ context.Context, after []byte, n int) ([]index.Doc, []byte, error) {
	s.pages++
	var from uint64
	if after != nil {
		from = binary.BigEndian.Uint64(after)
	}
	var docs []index.Doc
	for _, id := range slices.Sorted(maps.Keys(s.facts)) {
		c := s.facts[id]
		if id <= from || !c.Current {
			continue
		}
		if len(docs) == n {
			return docs, binary.BigEndian.AppendUint64(nil, docs[n-1].ID), nil
		}
		docs = append(docs, index.Doc{ID: id, User: c.User, Text: c.Text})
	}
	return docs, nil, nil
}

// commit writes cs in one commit and syncs the index.
func (s *store) commit(cs ...Change) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.write(cs)
}

// write applies cs and syncs the index; the caller holds mu.
func (s *store) write(cs []Change) {
	s.apply(cs)
	s.l.Sync(slices.Values(cs), s.commitName(uint64(len(s.log))))
}

// apply applies cs in one commit, and logs it, without syncing the index:
// as a process that dies before its index has the commit.
func (s *store) apply(cs []Change) {
	var ids []uint64
	for _, c := range cs {
		if c.Deleted {
			delete(s.facts, c.ID)
		} else {
			s.facts[c.ID] = c
		}
		ids = append(ids, c.ID)
	}
	s.log = append(s.log, ids)
}

// add writes one current fact of user's for each text, in one commit, and
// returns the id of the last.
func (s *store) add(user string, texts ...string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var cs []Change
	for _, text := range texts {
		s.next++
		cs = append(cs, Change{ID: s.next, User: user, Text: text, Current: true})
	}
	s.write(cs)
	return s.next
}

// supersede replaces fact old by a new one of text, in one commit of two
// records.
func (s *store) supersede(old uint64, text string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	was := s.facts[old]
	was.Current = false
	s.next++
	s.write([]Change{was, {ID: s.next, User: was.User, Text: text, Current: true}})
	return s.next
}

// delete removes fact id and purges its words from the index, as a hard
// Delete does.
func (s *store) delete(t testing.TB, id uint64) {
	t.Helper()
	k := index.DocKey{User: s.facts[id].User, ID: id}
	s.commit(Change{ID: id, User: k.User, Deleted: true})
	if err := s.l.Purge(context.Background(), []index.DocKey{k}); err != nil {
		t.Fatal(err)
	}
}

// find looks up user's facts sharing words with text, up to k, through
// the index.
func (s *store) find(ctx context.Context, user, text string, k int) ([]uint64, error) {
	an, err := s.l.Analyzer()
	if err != nil {
		return nil, err
	}
	var ids []uint64
	err = s.l.Search(ctx, user, func(ix *index.Index) error {
		hits, err := ix.SearchWords(ctx, user, an.Words(text), k)
		for _, h := range hits {
			ids = append(ids, h.ID)
		}
		return err
	})
	return ids, err
}

// mustFind is find that wants exactly the fact want.
func (s *store) mustFind(t *testing.T, ctx context.Context, user, text string, want uint64) {
	t.Helper()
	got, err := s.find(ctx, user, text, 1)
	if err != nil || len(got) != 1 || got[0] != want {
		t.Fatalf("lookup of %q for %q: %v, %v; want fact %d", text, user, got, err, want)
	}
}

// dir returns the directory of the index in use, "" when none is built.
func (s *store) dir() string {
	s.l.mu.RLock()
	defer s.l.mu.RUnlock()
	if s.l.ix == nil {
		return ""
	}
	return s.l.ix.Dir()
}

// wantNoRoot wants no folder of indexes beside the store.
func (s *store) wantNoRoot(t *testing.T, when string) {
	t.Helper()
	if _, err := os.Lstat(s.path + ".index"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: the index directory is there (%v)", when, err)
	}
}

// delayedStore opens the index of a store whose indexer waits an hour for
// company, so that only a lookup, a full batch or an urgent change applies
// queued changes; pending reports whether some are still queued.
func delayedStore(t *testing.T) (s *store, ctx context.Context, pending func() bool) {
	t.Helper()
	s = newStore(t)
	s.l.q.delay = time.Hour
	// A lookup stays "lately" for the whole test: on a loaded machine the
	// second between a lookup and the change it should speed up may pass.
	s.l.q.askedFor = liveness
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	t.Cleanup(cancel)
	return s, ctx, func() bool {
		s.l.q.mu.Lock()
		defer s.l.q.mu.Unlock()
		return s.l.q.applied < s.l.q.queued
	}
}
