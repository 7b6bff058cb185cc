package memory_test

import (
	"encoding/binary"
	"errors"
	"hash/fnv"
	"os"
	"strings"
	"testing"

	"github.com/palimpsest-mem/memory"
)

// metaTxid returns the commit id in the meta page at off, or 0 if the page
// fails its checksum (bbolt's meta: 16-byte page header, txid at 48, an
// FNV-64a of the first 56 bytes at 56).
func metaTxid(b []byte, off int) uint64 {
	m := b[off+16 : off+16+64]
	h := fnv.New64a()
	h.Write(m[:56])
	if h.Sum64() != binary.LittleEndian.Uint64(m[56:]) {
		return 0
	}
	return binary.LittleEndian.Uint64(m[48:])
}

// The reproduction: facts added one commit each until the newest
// commit's meta is page 0, then `dd if=/dev/zero of=m.db bs=4096 count=1
// conv=notrunc`. Reads go on from the commit before and say so; writes
// are refused until Repair; Repair records the lost commit and the ids it
// may have handed out, and no id is given twice.
func TestALostNewestCommitIsNeverSilent(t *testing.T) {
	c := newClock("2026-01-01")
	s, path := open(t, c, nil)
	var lost memory.Fact
	for {
		lost = must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I moved to Lisbon."}))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if lost.ID >= 2 && metaTxid(b, 0) > metaTxid(b, 4096) {
			break
		}
	}
	s.Close()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 4096), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()

	c.set("2026-02-01")
	s = must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{NoSync: true, Clock: c.Now}))
	defer s.Close()
	stale := s.Stale()
	if !errors.Is(stale, memory.ErrStale) || !strings.Contains(stale.Error(), "commit") {
		t.Fatalf("Stale: %v, want ErrStale naming the commit", stale)
	}
	facts := must[[]memory.Fact](t)(s.List(ctx, "", &memory.ListOptions{All: true}))
	if len(facts) != int(lost.ID)-1 {
		t.Fatalf("the stale store lists %d facts, want the %d before the lost one", len(facts), lost.ID-1)
	}
	if _, err := s.Add(ctx, memory.Note{Text: "I like tea."}); !errors.Is(err, memory.ErrStale) {
		t.Errorf("Add on a stale store: %v, want ErrStale", err)
	}
	if _, err := s.Invalidate(ctx, "", 1, memory.Change{}); !errors.Is(err, memory.ErrStale) {
		t.Errorf("Invalidate on a stale store: %v, want ErrStale", err)
	}
	if err := s.Check(ctx); !errors.Is(err, memory.ErrStale) {
		t.Errorf("Check of a stale store: %v, want ErrStale", err)
	}

	rep := must[*memory.Repair](t)(s.Repair(ctx))
	if rep == nil || rep.Lost != rep.Answered+1 || !rep.At.Equal(date("2026-02-01")) {
		t.Fatalf("repair %+v", rep)
	}
	if rep.FirstID > lost.ID || rep.LastID < lost.ID || rep.NextID != rep.LastID+1 {
		t.Errorf("repair %+v: the lost fact's id %d is not in the range it skips", rep, lost.ID)
	}
	if err := s.Stale(); err != nil {
		t.Errorf("Stale after Repair: %v", err)
	}
	g := must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I like tea."}))
	if g.ID <= lost.ID {
		t.Errorf("the next fact got id %d, which the lost commit handed out (%d)", g.ID, lost.ID)
	}
	if err := s.Check(ctx); err != nil {
		t.Errorf("Check after Repair: %v", err)
	}
	s.Close()
	r := must[*memory.Store](t)(memory.Open(path, 0, &memory.Options{ReadOnly: true}))
	defer r.Close()
	if reps := must[[]memory.Repair](t)(r.Repairs(ctx)); len(reps) != 1 || reps[0] != *rep {
		t.Errorf("Repairs after reopening: %+v, want [%+v]", reps, *rep)
	}
}

// Repair of a store that is not stale does nothing.
func TestRepairOfAGoodStoreDoesNothing(t *testing.T) {
	s, _ := open(t, newClock("2026-01-01"), nil)
	must[memory.Fact](t)(s.Add(ctx, memory.Note{Text: "I like tea."}))
	if rep, err := s.Repair(ctx); rep != nil || err != nil {
		t.Errorf("Repair: %+v, %v", rep, err)
	}
	if reps := must[[]memory.Repair](t)(s.Repairs(ctx)); len(reps) != 0 {
		t.Errorf("Repairs: %+v", reps)
	}
}
