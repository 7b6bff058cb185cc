//go:build linux

package fsx

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

func renameNoReplace(old, new string) error {
	err := unix.Renameat2(unix.AT_FDCWD, old, unix.AT_FDCWD, new, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) { // a file system without the flag
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: errors.ErrUnsupported}
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
	}
	return nil
}
