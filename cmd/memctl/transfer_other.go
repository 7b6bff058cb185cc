//go:build !unix

package main

import (
	"errors"
	"io/fs"
	"os"
)

func dupDescriptor(_ int, name string) (*os.File, error) {
	return nil, &fs.PathError{Op: "dup", Path: name, Err: errors.ErrUnsupported}
}

func keepOwner(*os.File, fs.FileInfo) {}

// syncDir does nothing: a directory cannot be synced here.
func syncDir(string) error { return nil }
