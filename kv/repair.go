package kv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// RepairRecord is what Repair wrote into the file about a commit it could
// not read back. Times are Unix nanoseconds.
type RepairRecord struct {
	At int64
	// Answered is the commit the file read as; Lost the one after it,
	// which may have been lost: a meta page failed its checksum, and if
	// it was the older page, commit Lost never happened.
	Answered, Lost uint64
	// FirstID..LastID are the fact ids the lost commit may have handed
	// out, as far as the file's pages show; both 0 when they show none.
	FirstID, LastID uint64
	// NextID is the next id after the repair: past every id found.
	NextID uint64
}

// keyRepair prefixes the meta bucket's repair records: keyRepair ‖ n.
var keyRepair = []byte("repair")

const repairVersion = 1

// Repair ends the stale state of a file one of whose meta pages failed
// its checksum, and returns what it recorded; nil when the file was not stale.
//
// The lost commit's pages are usually still in the file, free from the
// older commit's point of view: every page is scanned for fact records
// that pass their checksum and for the id counters of the buckets, and
// the next id (and each blob bucket's) is set past the highest found, so
// that no id the lost commit may have handed out is given again. The
// record of the repair, in the meta bucket, goes in the same commit,
// which also rewrites the damaged meta page. A scrub left pending runs
// after it.
func (d *DB) Repair(at int64) (rec *RepairRecord, err error) {
	if d.opts.ReadOnly {
		return nil, ErrReadOnly
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bolt == nil {
		return nil, ErrClosed
	}
	if d.stale == nil {
		return nil, nil
	}
	defer recoverCorrupt(&err, guard())
	// Before the commit, which may overwrite the pages it reads.
	// In format 7 a record's key is its place, not its id (places.go):
	// the counters are the evidence there.
	ev, err := scanEvidence(d.path, d.format < formatVersion)
	if err != nil {
		return nil, fmt.Errorf("repair: %w", err)
	}
	pending := false
	err = d.bolt.Update(func(btx *bolt.Tx) error {
		if _, err := btx.CreateBucketIfNotExists(bucketChanges); err != nil {
			return err
		}
		// A stale file was opened as it was; the first commit that writes
		// to it makes it current, as a writable Open would have.
		if err := d.upgrade(btx); err != nil {
			return err
		}
		tx := newTx(btx, formatVersion)
		pending = tx.meta.Get(keyScrub) != nil
		// The counters are each user's: every one is raised past what the
		// file shows any was at, through the file's floors (tx.floor).
		// next is the lowest id some user would be given next.
		next := tx.PeekNextID()
		err := tx.EachUser(func(string) error { next = min(next, tx.PeekNextID()); return nil })
		if err != nil {
			return err
		}
		high := max(ev.factID, ev.seqs[string(bucketFacts)])
		rec = &RepairRecord{At: at, Answered: d.stale.answered, Lost: d.stale.lost, NextID: next}
		if high >= next {
			rec.FirstID, rec.LastID, rec.NextID = next, high, high+1
			if err := tx.meta.Put(floorKey(bucketFacts), be.AppendUint64(nil, high)); err != nil {
				return err
			}
		}
		for _, name := range blobBuckets {
			if seq := ev.seqs[string(name)]; seq > tx.BlobSeq(name) {
				if err := tx.meta.Put(floorKey(name), be.AppendUint64(nil, seq)); err != nil {
					return err
				}
			}
		}
		n := uint64(1)
		c := tx.meta.Cursor()
		for k, _ := c.Seek(keyRepair); k != nil && bytes.HasPrefix(k, keyRepair); k, _ = c.Next() {
			n++
		}
		return tx.meta.Put(be.AppendUint64(append([]byte(nil), keyRepair...), n), appendRepair(nil, rec))
	})
	if err != nil {
		return nil, fmt.Errorf("repair: %w", err)
	}
	d.stale = nil
	d.logsIndexed, d.format = true, formatVersion
	if pending {
		if err := d.scrubLocked(); err != nil {
			return rec, fmt.Errorf("repaired, but finishing the pending scrub failed: %w", err)
		}
	}
	return rec, nil
}

// Repairs returns the records of every Repair of the file, oldest first.
func (d *DB) Repairs() ([]RepairRecord, error) {
	var out []RepairRecord
	err := d.View(func(tx *Tx) error {
		c := tx.meta.Cursor()
		for k, v := c.Seek(keyRepair); k != nil && bytes.HasPrefix(k, keyRepair); k, v = c.Next() {
			r, err := decodeRepair(v)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

func appendRepair(b []byte, r *RepairRecord) []byte {
	start := len(b)
	b = append(b, repairVersion)
	b = binary.AppendVarint(b, r.At)
	for _, u := range []uint64{r.Answered, r.Lost, r.FirstID, r.LastID, r.NextID} {
		b = binary.AppendUvarint(b, u)
	}
	return sealed(b, start)
}

func decodeRepair(b []byte) (RepairRecord, error) {
	body, err := unseal(b)
	if err != nil {
		return RepairRecord{}, fmt.Errorf("%w: repair record: %v", ErrDecode, err)
	}
	d := decoder{b: body}
	if v := d.byte(); v != repairVersion {
		return RepairRecord{}, fmt.Errorf("%w: repair record version %d", ErrDecode, v)
	}
	r := RepairRecord{At: d.varint()}
	for _, u := range []*uint64{&r.Answered, &r.Lost, &r.FirstID, &r.LastID, &r.NextID} {
		*u = d.uvarint()
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return RepairRecord{}, fmt.Errorf("%w: repair record: %v", ErrDecode, d.err)
	}
	return r, nil
}

// evidence is what a scan of every page found: the highest fact id with a
// record that passes its checksum, and the highest sequence of each
// bucket by name.
type evidence struct {
	factID uint64
	seqs   map[string]uint64
	// records: a record's key is its id (a file before format 7).
	records bool
}

// seqOf says whether k names a bucket whose counter Repair raises: the
// facts' and the logs'.
func seqOf(k []byte) bool {
	return string(k) == string(bucketFacts) || slices.ContainsFunc(blobBuckets, func(b []byte) bool { return string(b) == string(k) })
}

// scanEvidence reads every page of the file, reachable or free, one at a
// time (the file may be larger than memory should hold), and collects
// the evidence of the leaf pages. Nothing in a free page is trusted but
// what passes a checksum or only raises a counter, which is harmless.
func scanEvidence(path string, records bool) (evidence, error) {
	ev := evidence{seqs: map[string]uint64{}, records: records}
	f, err := os.Open(path)
	if err != nil {
		return ev, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ev, err
	}
	head := make([]byte, 2*65536)
	n, _ := f.ReadAt(head, 0)
	_, pageSize, _, err := newestMeta(head[:n])
	if err != nil {
		return ev, err
	}
	ps, size := int64(pageSize), st.Size()
	buf := make([]byte, ps)
	for off := 2 * ps; off+ps <= size; off += ps {
		if _, err := f.ReadAt(buf[:ps], off); err != nil {
			return ev, err
		}
		if le.Uint16(buf[8:]) != leafFlag {
			continue
		}
		p := buf[:ps]
		if overflow := int64(le.Uint32(buf[12:])); overflow > 0 {
			n := min((overflow+1)*ps, size-off)
			p = make([]byte, n)
			if _, err := f.ReadAt(p, off); err != nil {
				return ev, err
			}
		}
		ev.leaf(p, 0)
	}
	return ev, nil
}

// leaf collects the evidence of one leaf page, or of an inline bucket's
// page held in a value.
func (ev *evidence) leaf(p []byte, depth int) {
	if depth > maxWalkDepth || len(p) < pageHeader || le.Uint16(p[8:]) != leafFlag {
		return
	}
	for i := range uint64(le.Uint16(p[10:])) {
		e := pageHeader + i*elementSize
		if e+elementSize > uint64(len(p)) {
			return
		}
		flags := le.Uint32(p[e:])
		pos, ksize, vsize := uint64(le.Uint32(p[e+4:])), uint64(le.Uint32(p[e+8:])), uint64(le.Uint32(p[e+12:]))
		start := e + pos
		if start+ksize+vsize > uint64(len(p)) {
			continue
		}
		k, v := p[start:start+ksize], p[start+ksize:start+ksize+vsize]
		if flags&bucketFlag != 0 {
			if len(v) < bucketHeader {
				continue
			}
			if seq := le.Uint64(v[8:]); seq > ev.seqs[string(k)] {
				ev.seqs[string(k)] = seq
			}
			if le.Uint64(v) == 0 {
				ev.leaf(v[bucketHeader:], depth+1)
			}
			continue
		}
		// In format 7 a counter's key is behind its user's prefix
		// (byuser.go): length ‖ name; a record's is its place (places.go),
		// which raises the counters only past every id, harmlessly.
		bare := k
		if len(k) > 0 && int(k[0]) < len(k) {
			bare = k[1+int(k[0]):]
			if len(bare) > 1 && bare[0] == seqsTag {
				bare = bare[1:] // a counter beside the revision
			}
		}
		for _, name := range [][]byte{k, bare} {
			if len(v) == 8 && seqOf(name) {
				// A counter of a user's (kept as values from format 6).
				if seq := be.Uint64(v); seq > ev.seqs[string(name)] {
					ev.seqs[string(name)] = seq
				}
			}
			if ev.records && len(name) == recordKeyLen {
				if id := be.Uint64(name); id > ev.factID {
					if _, err := decodeRecord(id, v); err == nil {
						ev.factID = id
					}
				}
			}
			if len(k) == len(bare) {
				break
			}
		}
	}
}
