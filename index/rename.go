package index

import (
	"errors"
	"io/fs"
	"os"
)

// renameIfAbsent renames old to new if nothing is at new. Between the look
// and the rename another process may make an empty directory at new, which
// the rename would replace: where the system has no rename that refuses
// to replace, that window is left open.
func renameIfAbsent(old, new string) error {
	if _, err := os.Lstat(new); !errors.Is(err, fs.ErrNotExist) {
		if err == nil {
			err = &os.LinkError{Op: "rename", Old: old, New: new, Err: fs.ErrExist}
		}
		return err
	}
	return os.Rename(old, new)
}
