package index

import (
	"errors"
	"io/fs"
	"os"

	"github.com/palimpsest-mem/memory/internal/fsx"
)

// renameNoReplace renames old to new unless something is at new: a plain
// rename would replace an empty directory there.
func renameNoReplace(old, new string) error {
	err := fsx.RenameNoReplace(old, new)
	if errors.Is(err, errors.ErrUnsupported) {
		return renameIfAbsent(old, new)
	}
	return err
}

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
