package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
)

// bbolt's on-disk layout, as far as a structural walk needs it.
const (
	pageHeader    = 16 // id u64, flags u16, count u16, overflow u32
	elementSize   = 16 // branch: pos, ksize u32, pgid u64; leaf: flags, pos, ksize, vsize u32
	branchFlag    = 0x01
	leafFlag      = 0x02
	metaFlag      = 0x04
	freelistFlag  = 0x10
	noFreelist    = ^uint64(0) // the meta's freelist id when it is not synced
	bucketFlag    = 0x01       // on a leaf element: the value is a bucket
	bucketHeader  = 16         // root pgid u64, sequence u64
	metaMagic     = 0xED0CDAED
	metaSize      = 64 // up to and including the checksum
	maxWalkDepth  = 64
	firstDataPage = 2
)

var le = binary.LittleEndian

// walkPages checks the structure of every page reachable from the newest
// valid meta page in the file's bytes: page ids below the high-water mark,
// and every element, key and value inside its page. bbolt's own check runs
// in a goroutine where a panic cannot be recovered, and some damaged pages
// make it read outside the map; this walk finds them first, safely.
func walkPages(data []byte, stale bool) error {
	meta, pageSize, valid, err := newestMeta(data)
	if err != nil {
		return err
	}
	// Every commit writes one of the two meta pages, in turn, and bbolt
	// falls back to the other when one is damaged: the file then reads as
	// it was a commit earlier, consistent but without the newest commit.
	// After a clean run both are valid; a torn write at a power cut, or
	// damage, leaves one invalid until the next commit rewrites it.
	if valid < 2 && !stale {
		return errors.New("a meta page fails its checksum: the file reads as it was before its newest commit, which may have been lost")
	}
	hwm := le.Uint64(meta[40:])
	root := le.Uint64(meta[16:])
	w := pageWalk{data: data, pageSize: uint64(pageSize), hwm: hwm, seen: map[uint64]bool{}}
	// bbolt's check reads both meta pages and the freelist page and asserts
	// that each header names its own id: a damaged one would crash it.
	for id := range uint64(firstDataPage) {
		if stale && !validMeta(data, id*uint64(pageSize)) {
			continue // the damaged page Stale reports; bbolt reads the other
		}
		if err := w.header(id, metaFlag); err != nil {
			return err
		}
	}
	if fl := le.Uint64(meta[32:]); fl != noFreelist {
		if fl < firstDataPage || fl >= hwm {
			return fmt.Errorf("freelist page id %d outside %d..%d", fl, firstDataPage, hwm)
		}
		if err := w.header(fl, freelistFlag); err != nil {
			return err
		}
	}
	return w.visit(root, 0)
}

// header checks that page id lies in the file and that its header names
// it and has one of the flags in want.
func (w *pageWalk) header(id uint64, want uint16) error {
	off := id * w.pageSize
	if off+pageHeader > uint64(len(w.data)) {
		return fmt.Errorf("page %d beyond the end of the file", id)
	}
	if got := le.Uint64(w.data[off:]); got != id {
		return fmt.Errorf("page %d: header says page %d", id, got)
	}
	if flags := le.Uint16(w.data[off+8:]); flags&want == 0 || flags&^(branchFlag|leafFlag|metaFlag|freelistFlag) != 0 {
		return fmt.Errorf("page %d: flags %#x, want %#x", id, flags, want)
	}
	return nil
}

// newestMeta returns the bytes of the valid meta page with the highest
// transaction id, the page size it records, and how many of the two meta
// pages are valid.
func newestMeta(data []byte) ([]byte, uint32, int, error) {
	var best []byte
	var size uint32
	valid := 0
	// Meta page 0 is at offset 0; meta page 1 one page size further.
	try := func(off uint64) {
		if !validMeta(data, off) {
			return
		}
		m := data[off+pageHeader : off+pageHeader+metaSize]
		valid++
		if best == nil || le.Uint64(m[48:]) > le.Uint64(best[48:]) {
			best, size = m, le.Uint32(m[8:])
		}
	}
	try(0)
	if best != nil {
		try(uint64(size))
	} else {
		for _, ps := range []uint64{4096, 8192, 16384, 65536} {
			try(ps)
		}
	}
	if best == nil || size < 512 || size > 1<<20 {
		return nil, 0, 0, errors.New("no valid meta page")
	}
	return best, size, valid, nil
}

// validMeta reports whether the page at off holds a meta page that passes
// its checksum.
func validMeta(data []byte, off uint64) bool {
	if off+pageHeader+metaSize > uint64(len(data)) {
		return false
	}
	m := data[off+pageHeader : off+pageHeader+metaSize]
	if le.Uint32(m[0:]) != metaMagic {
		return false
	}
	h := fnv.New64a()
	h.Write(m[:56])
	return h.Sum64() == le.Uint64(m[56:])
}

type pageWalk struct {
	data     []byte
	pageSize uint64
	hwm      uint64
	seen     map[uint64]bool
	// shared, when set, collects every page reached, overflow included,
	// across walks: a page an earlier walk reached is not walked again
	// (pages are never changed in place, so all below it was reached too).
	shared *pageSet
}

// keep adds page id and its overflow pages to shared.
func (w *pageWalk) keep(id uint64) {
	overflow := uint64(le.Uint32(w.data[id*w.pageSize+12:]))
	for i := range overflow + 1 {
		w.shared.add(id + i)
	}
}

func (w *pageWalk) visit(id uint64, depth int) error {
	if depth > maxWalkDepth {
		return fmt.Errorf("page %d: tree deeper than %d", id, maxWalkDepth)
	}
	if id < firstDataPage || id >= w.hwm {
		return fmt.Errorf("page id %d outside %d..%d", id, firstDataPage, w.hwm)
	}
	if w.seen[id] {
		return fmt.Errorf("page %d reached twice", id)
	}
	if w.shared != nil && w.shared.has(id) {
		return nil
	}
	w.seen[id] = true
	if err := w.header(id, branchFlag|leafFlag); err != nil {
		return err
	}
	off := id * w.pageSize
	overflow := uint64(le.Uint32(w.data[off+12:]))
	end := off + (overflow+1)*w.pageSize
	if end > uint64(len(w.data)) || id+overflow >= w.hwm {
		return fmt.Errorf("page %d: overflow %d runs past the file", id, overflow)
	}
	if w.shared != nil {
		w.keep(id)
	}
	return w.elements(w.data[off:end], id, depth)
}

// elements checks the elements of one page (or of an inline bucket's
// page, held in a value) and walks down from them.
func (w *pageWalk) elements(p []byte, id uint64, depth int) error {
	flags := le.Uint16(p[8:])
	count := uint64(le.Uint16(p[10:]))
	if pageHeader+count*elementSize > uint64(len(p)) {
		return fmt.Errorf("page %d: %d elements do not fit", id, count)
	}
	for i := range count {
		e := pageHeader + i*elementSize
		switch {
		case flags&branchFlag != 0:
			pos, ksize := uint64(le.Uint32(p[e:])), uint64(le.Uint32(p[e+4:]))
			if e+pos+ksize > uint64(len(p)) {
				return fmt.Errorf("page %d: branch key %d outside the page", id, i)
			}
			if err := w.visit(le.Uint64(p[e+8:]), depth+1); err != nil {
				return err
			}
		case flags&leafFlag != 0:
			eflags := le.Uint32(p[e:])
			pos, ksize, vsize := uint64(le.Uint32(p[e+4:])), uint64(le.Uint32(p[e+8:])), uint64(le.Uint32(p[e+12:]))
			if e+pos+ksize+vsize > uint64(len(p)) {
				return fmt.Errorf("page %d: leaf element %d outside the page", id, i)
			}
			if eflags&bucketFlag == 0 {
				continue
			}
			v := p[e+pos+ksize : e+pos+ksize+vsize]
			if len(v) < bucketHeader {
				return fmt.Errorf("page %d: bucket header %d too short", id, i)
			}
			if root := le.Uint64(v); root != 0 {
				if err := w.visit(root, depth+1); err != nil {
					return err
				}
			} else if len(v) > bucketHeader {
				inline := v[bucketHeader:]
				if len(inline) < pageHeader {
					return fmt.Errorf("page %d: inline bucket %d too short", id, i)
				}
				if err := w.elements(inline, id, depth+1); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("page %d: neither branch nor leaf (flags %#x)", id, flags)
		}
	}
	return nil
}

// metaPageLost reads the head of the file at path and reports whether one of
// its two meta pages fails its checksum.
func metaPageLost(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 2*65536)
	n, _ := f.ReadAt(head, 0)
	_, _, valid, err := newestMeta(head[:n])
	return err == nil && valid < 2
}

// checkPages reads the store file and walks its pages. A stale file, whose
// damaged meta page Stale already reports, is walked from the other one.
func checkPages(path string, stale bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := walkPages(data, stale); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return nil
}
