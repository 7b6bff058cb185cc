//go:build linux

package kv

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// placeNew gives the new file at tmp the name path, never replacing what
// is there: an error wrapping fs.ErrExist if something is. renameat2 with
// RENAME_NOREPLACE does it in one step, so the store never has a second
// name; a file system without the flag falls back to a hard link.
func placeNew(tmp, path string) error {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return linkNew(tmp, path)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: err}
	}
	return nil
}
