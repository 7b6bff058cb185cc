//go:build !linux

package fsx

import (
	"errors"
	"os"
)

func renameNoReplace(old, new string) error {
	return &os.LinkError{Op: "rename", Old: old, New: new, Err: errors.ErrUnsupported}
}
