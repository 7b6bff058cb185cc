//go:build unix

package kv

import (
	"io/fs"
	"syscall"
)

// linkCount is the number of names (hard links) of the file st describes.
func linkCount(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 1
}
