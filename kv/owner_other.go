//go:build !unix

package kv

import (
	"io/fs"
	"os"
)

// keepOwner has nothing to keep where files have no Unix owner.
func (d *DB) keepOwner(*os.File, fs.FileInfo) error { return nil }

// ownerKept: see keepOwner.
func (d *DB) ownerKept() error { return nil }
