//go:build !unix

package kv

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f where there is no mmap here.
func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, size), b); err != nil {
		return nil, nil, err
	}
	return b, func() {}, nil
}
