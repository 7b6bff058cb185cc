package kv

import (
	"bytes"
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// Scrub overwrites with zeros every page of the file that no commit
// reaches: bbolt frees a page when a commit rewrites it elsewhere, and the
// freed page keeps its old bytes until it is reused, so a hard delete's
// text would stay in the file. It works in place (no new file, so hard
// links and the file's owner do not matter) and costs one walk of the
// live pages and a write of the freed ones that are not zero yet, not a
// rewrite of the whole file. It holds every transaction off while it runs.
//
// A delete marks the scrub pending in its own commit (MarkScrubPending);
// Scrub clears the mark once the zeros are on disk, and a writable Open
// finishes a scrub a dead process left pending.
func (d *DB) Scrub() error { return d.exclusive("scrub", d.scrubLocked) }

// scrubLocked is Scrub with d.mu held, so no transaction runs and no page
// is allocated while the free ones are overwritten.
func (d *DB) scrubLocked() error {
	// bbolt keeps two meta pages and falls back to the older one when the
	// newer is torn. Right after a delete the older one still names the
	// tree from before it, whose pages hold the text: one commit more
	// (durable by its own fsync, as every commit of a store that syncs)
	// leaves both naming trees without it.
	if err := d.bolt.Update(func(btx *bolt.Tx) error { return d.newTx(btx).logCommit() }); err != nil {
		return fmt.Errorf("scrub: %w", err)
	}
	f, err := openRegular(d.path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("scrub: %w", err)
	}
	defer f.Close()
	if err := zeroFreePages(f); err != nil {
		return fmt.Errorf("scrub: %w", err)
	}
	if err := d.sync(f.Sync); err != nil {
		return fmt.Errorf("scrub: %w", err)
	}
	// Only now, with the zeros on disk, may the mark go: a crash before
	// leaves it for the next Open to finish.
	if err := d.bolt.Update(func(btx *bolt.Tx) error {
		tx := d.newTx(btx)
		if err := tx.meta.Delete(keyScrub); err != nil {
			return err
		}
		return tx.logCommit()
	}); err != nil {
		return fmt.Errorf("scrub: %w", err)
	}
	return nil
}

// sync runs fn, an fsync, unless the store skips them (tests, benchmarks).
func (d *DB) sync(fn func() error) error {
	if d.opts.NoSync {
		return nil
	}
	return fn()
}

// zeroFreePages overwrites every page of f that neither meta page
// reaches, and that is not zero already, with zeros.
func zeroFreePages(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	head := make([]byte, min(st.Size(), 2*maxPageSize))
	if _, err := f.ReadAt(head, 0); err != nil {
		return err
	}
	_, pageSize, _, err := newestMeta(head)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	ps := uint64(pageSize)
	// Below the higher high-water mark every page has been written once;
	// past it the file may have holes, which a mapping would have to fill
	// (on a full tmpfs a read fault there kills the process), while a read
	// returns their zeros for nothing.
	var hwm uint64
	for id := range uint64(firstDataPage) {
		if validMeta(head, id*ps) {
			hwm = max(hwm, le.Uint64(head[id*ps+pageHeader+40:]))
		}
	}
	pages := uint64(st.Size()) / ps
	hwm = min(hwm, pages)
	data, release, err := mapFile(f, int64(hwm*ps))
	if err != nil {
		return err
	}
	defer release()
	live, _, err := livePages(data)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	z := zeroer{f: f, ps: ps, zero: make([]byte, 256*ps)}
	for id := uint64(firstDataPage); id < hwm; id++ {
		if err := z.page(id, live.has(id) || z.isZero(data[id*ps:(id+1)*ps])); err != nil {
			return err
		}
	}
	buf := make([]byte, len(z.zero))
	for id := hwm; id < pages; {
		n := min(uint64(len(buf))/ps, pages-id)
		if _, err := f.ReadAt(buf[:n*ps], int64(id*ps)); err != nil {
			return err
		}
		for i := range n {
			if err := z.page(id+i, z.isZero(buf[i*ps:(i+1)*ps])); err != nil {
				return err
			}
		}
		id += n
	}
	return z.flush()
}

// maxPageSize is the largest page size a meta page may record.
const maxPageSize = 1 << 16

// zeroer writes zeros over runs of pages, one call per run.
type zeroer struct {
	f       *os.File
	ps      uint64
	zero    []byte
	from, n uint64
}

// page adds page id to the run to clear, or ends the run at a page to keep.
func (z *zeroer) page(id uint64, keep bool) error {
	if keep {
		return z.flush()
	}
	if z.n == 0 {
		z.from = id
	}
	z.n++
	return nil
}

func (z *zeroer) flush() error {
	for z.n > 0 {
		k := min(z.n, uint64(len(z.zero))/z.ps)
		if _, err := z.f.WriteAt(z.zero[:k*z.ps], int64(z.from*z.ps)); err != nil {
			return err
		}
		z.from, z.n = z.from+k, z.n-k
	}
	return nil
}

// isZero reports whether page p holds only zeros (bytes.Equal runs in
// assembly, a page at a time).
func (z *zeroer) isZero(p []byte) bool { return bytes.Equal(p, z.zero[:len(p)]) }

// pageSet is a set of page ids, one bit each.
type pageSet []uint64

func (s *pageSet) add(id uint64) {
	for uint64(len(*s)) <= id/64 {
		*s = append(*s, 0)
	}
	(*s)[id/64] |= 1 << (id % 64)
}

func (s pageSet) has(id uint64) bool { return id/64 < uint64(len(s)) && s[id/64]&(1<<(id%64)) != 0 }

// livePages returns the pages either valid meta page reaches: the meta
// pages, each one's freelist and tree, overflow pages included. Both
// must be valid: a torn one says the file is not as the last commit left
// it, and Repair comes first.
func livePages(data []byte) (pageSet, uint32, error) {
	_, pageSize, valid, err := newestMeta(data)
	if err != nil {
		return nil, 0, err
	}
	if valid < 2 {
		return nil, 0, fmt.Errorf("a meta page fails its checksum")
	}
	ps := uint64(pageSize)
	var live pageSet
	live.add(0)
	live.add(1)
	for id := range uint64(firstDataPage) {
		meta := data[id*ps+pageHeader:]
		w := pageWalk{data: data, pageSize: ps, hwm: le.Uint64(meta[40:]), seen: map[uint64]bool{}, shared: &live}
		if fl := le.Uint64(meta[32:]); fl != noFreelist {
			if fl < firstDataPage || fl >= w.hwm {
				return nil, 0, fmt.Errorf("freelist page id %d outside %d..%d", fl, firstDataPage, w.hwm)
			}
			if err := w.header(fl, freelistFlag); err != nil {
				return nil, 0, err
			}
			if end := fl + uint64(le.Uint32(data[fl*ps+12:])); end >= w.hwm {
				return nil, 0, fmt.Errorf("freelist page %d: overflow runs past page %d", fl, w.hwm)
			}
			w.keep(fl)
		}
		if err := w.visit(le.Uint64(meta[16:]), 0); err != nil {
			return nil, 0, err
		}
	}
	return live, pageSize, nil
}
