package kv

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// The change log says what each commit touched, so that derived data kept
// beside the file (the candidate index) can catch up from the commit it
// reflects instead of being rebuilt from every fact. Every write
// transaction that DB.Update commits appends one entry:
//
//	seq (8 bytes, from 1) -> bbolt txid (8) ‖ tag (8) ‖ flags (1) ‖ ids
//
// The ids are those of the records the commit wrote, deleted or whose log
// it changed, ascending, as uvarint deltas. The tag is random: a commit is
// named by its sequence and its tag, so that a file restored from a backup
// and written on to the same sequence is not taken for the one a reader saw.
// The txid tells a gap: a write by a program that keeps no log (an older
// version, a repair, bbolt's own tools) moves the file's txid past the last
// entry's, and from then on nothing can be proved about what changed.
var bucketChanges = []byte("changes")

// Bounds of the log: an entry holds up to maxChangeIDs ids (a larger
// commit, an import, is marked whole instead: a reader rebuilds), and the
// log keeps the newest maxChanges entries. A reader further behind rebuilds,
// which costs about what catching up from that far would.
// The oldest entries go changeTrim at a time, once that many more are
// kept: dropping one per commit would have every commit rewrite the
// log's first leaf page as well as its last.
const (
	maxChangeIDs = 1 << 16
	maxChanges   = 1 << 14
	changeTrim   = 512
)

// Flags of an entry.
const (
	changeWhole byte = 1 << iota // the commit touched more ids than an entry lists
	// changeGap: the file was written by a program that keeps no log
	// between the entry before and this one, so what changed then is unknown.
	changeGap
	// changeUsers: the ids are grouped by user (format 6 on); an entry
	// without it lists ids alone, which were the store's then.
	changeUsers
)

const changeHeadLen = 8 + 8 + 8 + 1

// Commit names one commit of the change log.
type Commit struct {
	Seq uint64
	Tag uint64
}

func (c Commit) String() string { return fmt.Sprintf("commit %d (tag %016x)", c.Seq, c.Tag) }

// logCommit appends the transaction's entry to the change log. Called by
// Update once the caller's function has returned nil.
func (t *Tx) logCommit() error {
	if t.tx == nil {
		return nil // a user's commit over a Backend: the backend orders them
	}
	return t.appendChange(false)
}

// appendChange appends the entry; compacted says the file was just made
// by a compaction, whose txids begin again without a gap in what changed.
func (t *Tx) appendChange(compacted bool) error {
	b, err := t.tx.CreateBucketIfNotExists(bucketChanges)
	if err != nil {
		return err
	}
	var flags byte
	if _, last := b.Cursor().Last(); last != nil && !compacted &&
		(len(last) < changeHeadLen || be.Uint64(last) != uint64(t.tx.ID())-1) {
		flags |= changeGap
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	// The ids of each user, users in order: from format 6 ids are each
	// user's own, and an entry must say whose.
	byUser := map[string][]uint64{}
	for k, f := range t.touched {
		byUser[f.user] = append(byUser[f.user], k.id)
	}
	c := Commit{Seq: seq, Tag: rand.Uint64()}
	v := make([]byte, changeHeadLen, changeHeadLen+2*len(t.touched))
	be.PutUint64(v[0:], uint64(t.tx.ID()))
	be.PutUint64(v[8:], c.Tag)
	flags |= changeUsers
	if len(t.touched) > maxChangeIDs {
		flags |= changeWhole
	} else {
		for _, user := range slices.Sorted(maps.Keys(byUser)) {
			ids := byUser[user]
			slices.Sort(ids)
			v = binary.AppendUvarint(v, uint64(len(user)))
			v = append(v, user...)
			v = binary.AppendUvarint(v, uint64(len(ids)))
			prev := uint64(0)
			for _, id := range ids {
				v = binary.AppendUvarint(v, id-prev)
				prev = id
			}
		}
	}
	v[24] = flags
	if err := b.Put(idKey(seq), v); err != nil {
		return err
	}
	// Keep the newest maxChanges, and up to changeTrim more.
	if k, _ := b.Cursor().First(); k != nil && seq-be.Uint64(k) >= maxChanges+changeTrim {
		for {
			k, _ := b.Cursor().First()
			if k == nil || seq-be.Uint64(k) < maxChanges {
				break
			}
			if err := b.Delete(k); err != nil {
				return err
			}
		}
	}
	t.commit = c
	return nil
}

// Commit returns the commit this transaction wrote to the change log, once
// Update has committed it; the zero Commit before.
func (t *Tx) Commit() Commit { return t.commit }

// Head returns the newest commit of the change log, and whether the log
// covers the file up to now: false when the file has no log, or was
// written since its last entry by a program that keeps none.
func (t *Tx) Head() (Commit, bool) {
	if t.tx == nil {
		return Commit{}, false // a Backend keeps no file's change log
	}
	b := t.tx.Bucket(bucketChanges)
	if b == nil {
		return Commit{}, false
	}
	k, v := b.Cursor().Last()
	if k == nil || len(v) < changeHeadLen {
		return Commit{}, false
	}
	txid := be.Uint64(v)
	// In a write transaction the txid is the one it will commit as.
	now := uint64(t.tx.ID())
	if t.tx.Writable() {
		now--
	}
	if txid != now {
		return Commit{}, false
	}
	return Commit{Seq: be.Uint64(k), Tag: be.Uint64(v[8:])}, true
}

// Changed is a fact a commit touched: its id, and its user where the entry
// says (every entry since format 6; before, ids were the store's).
type Changed struct {
	User      string
	UserKnown bool
	ID        uint64
}

// ChangedSince calls fn with every fact the commits after from touched (one
// may come more than once), and returns the head it read up to. ok is
// false when the log cannot tell: from is not in it (never was, trimmed
// away, or of another file's history), an entry lists no ids because its
// commit touched too many, a program that keeps no log wrote the file
// since from, or the log does not cover the file (see Head).
func (t *Tx) ChangedSince(from Commit, fn func(Changed)) (head Commit, ok bool, err error) {
	head, ok = t.Head()
	if !ok {
		return Commit{}, false, nil
	}
	b := t.tx.Bucket(bucketChanges)
	c := b.Cursor()
	k, v := c.Seek(idKey(from.Seq))
	if k == nil || be.Uint64(k) != from.Seq || len(v) < changeHeadLen || be.Uint64(v[8:]) != from.Tag {
		return Commit{}, false, nil
	}
	next := from.Seq + 1
	for k, v = c.Next(); k != nil; k, v = c.Next() {
		if be.Uint64(k) != next || len(v) < changeHeadLen {
			return Commit{}, false, fmt.Errorf("%w: change log entry %d out of order or short", ErrCorrupt, be.Uint64(k))
		}
		next++
		if v[24]&(changeWhole|changeGap) != 0 {
			return Commit{}, false, nil
		}
		if err := eachChanged(v[changeHeadLen:], v[24]&changeUsers != 0, fn); err != nil {
			return Commit{}, false, fmt.Errorf("%w: change log entry %d: %w", ErrCorrupt, be.Uint64(k), err)
		}
	}
	return head, true, nil
}

func eachChanged(b []byte, byUser bool, fn func(Changed)) error {
	uvarint := func() (uint64, error) {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, fmt.Errorf("bad varint")
		}
		b = b[n:]
		return d, nil
	}
	for len(b) > 0 {
		c, count := Changed{}, uint64(math.MaxUint64)
		if byUser {
			n, err := uvarint()
			if err != nil || n > uint64(len(b)) {
				return fmt.Errorf("bad user name")
			}
			c.User, c.UserKnown, b = string(b[:n]), true, b[n:]
			if count, err = uvarint(); err != nil {
				return err
			}
		}
		id := uint64(0)
		for ; count > 0 && len(b) > 0; count-- {
			d, err := uvarint()
			if err != nil {
				return fmt.Errorf("bad id delta")
			}
			id += d
			c.ID = id
			fn(c)
		}
		if byUser && count > 0 {
			return fmt.Errorf("short id list")
		}
	}
	return nil
}

// loggedNoRecord says whether no entry of the change log b names a record.
func loggedNoRecord(b *bolt.Bucket) bool {
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(v) != changeHeadLen || v[24]&^changeUsers != 0 {
			return false
		}
	}
	return true
}

// logCompaction appends the entry of the commit that finishes a
// compaction, in the new file: the txids begin again there, and without
// it the log would not cover the file (the compacted file holds the old
// log, with the txids of the old file). It touches no id: a compaction
// changes no record.
func logCompaction(tx *bolt.Tx) error {
	return (&Tx{tx: tx}).appendChange(true)
}
