//go:build unix

package kv

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// owner is the owner and group of the file st describes; ok is false where
// a stat does not say.
func owner(st fs.FileInfo) (uid, gid int, ok bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(s.Uid), int(s.Gid), true
}

// keepOwner gives f, a new file about to replace the store, the owner and
// group of old, the store file, where they differ: a compaction run by
// another user (root, through sudo) would otherwise hand the store to that
// user, and its owner could no longer open it. An error (no permission to
// chown) means the new file must not replace the old one.
func (d *DB) keepOwner(f *os.File, old fs.FileInfo) error {
	uid, gid, ok := owner(old)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if u, g, ok := owner(st); ok && u == uid && g == gid {
		return nil
	}
	chown := (*os.File).Chown
	if d.chown != nil {
		chown = d.chown
	}
	if err := chown(f, uid, gid); err != nil {
		return fmt.Errorf("a new file cannot be given the store's owner and group (uid %d, gid %d), so it cannot replace the store; run it as the store's owner: %w",
			uid, gid, err)
	}
	return nil
}

// ownerKept returns nil when a file made beside the store can be given
// the store's owner and group (keepOwner), else keepOwner's error. The
// common case, a process of the file's owner and group, costs a stat;
// any other tries it on a file made and removed at once.
func (d *DB) ownerKept() error {
	st, err := os.Stat(d.path)
	if err != nil {
		return err
	}
	uid, gid, ok := owner(st)
	if !ok {
		return nil
	}
	if uid == os.Geteuid() && (gid == os.Getegid() || inGroups(gid)) {
		return nil // an owner may give its file any group of its own
	}
	f, err := os.CreateTemp(filepath.Dir(d.path), "."+filepath.Base(d.path)+".owner-*")
	if err != nil {
		return err
	}
	defer func() {
		_ = f.Close()
		_ = os.Remove(f.Name())
	}()
	return d.keepOwner(f, st)
}

func inGroups(gid int) bool {
	gs, err := os.Getgroups()
	return err == nil && slices.Contains(gs, gid)
}
