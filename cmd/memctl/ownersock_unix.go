//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// ownerDir is the folder of the owners' sockets: $XDG_RUNTIME_DIR/palimpsest
// (the spec's place for a user's sockets, 0700 and on tmpfs), else
// palimpsest-UID in the temporary directory. It is made 0700 and must be a
// real folder of this user's that nobody else can enter: a socket there is
// reachable by this user only, whatever the socket's own mode.
func ownerDir(getenv func(string) string, create bool) (string, error) {
	dir := filepath.Join(os.TempDir(), "palimpsest-"+strconv.Itoa(os.Geteuid()))
	if rd := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rd) {
		dir = filepath.Join(rd, "palimpsest")
	}
	if create {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return "", fmt.Errorf("%s is not a folder", dir)
	case !ok || int(st.Uid) != os.Geteuid():
		return "", fmt.Errorf("%s belongs to another user", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return "", fmt.Errorf("%s is open to other users (mode %v; want 0700)", dir, fi.Mode().Perm())
	}
	return dir, nil
}
