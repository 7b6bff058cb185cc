//go:build unix

package main

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// dupDescriptor returns a copy of this process's descriptor fd, so that
// closing it leaves fd open for whoever else uses it. The copy shares fd's
// offset, as a shell's redirection means it to.
func dupDescriptor(fd int, name string) (*os.File, error) {
	syscall.ForkLock.RLock()
	n, err := syscall.Dup(fd)
	if err == nil {
		syscall.CloseOnExec(n)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, &fs.PathError{Op: "dup", Path: name, Err: err}
	}
	return os.NewFile(uintptr(n), name), nil
}

// keepOwner gives f old's owner and group, where the process may: root
// may, others only their own uid and groups, and an export that cannot is
// still written, under the process's owner.
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if err := f.Chown(int(st.Uid), int(st.Gid)); errors.Is(err, fs.ErrPermission) {
		_ = f.Chown(-1, int(st.Gid))
	}
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
