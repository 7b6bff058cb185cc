//go:build unix

package kv

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only, so a walk of a large
// file reads it from the page cache instead of copying it into the heap.
func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	if size == 0 {
		return nil, func() {}, nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { _ = syscall.Munmap(b) }, nil
}
