package main

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// peerIsUs refuses a connection from a process of another user, by the
// kernel's word (SO_PEERCRED), besides the folder's 0700 that keeps
// others from reaching the socket at all.
func peerIsUs(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if int(cred.Uid) != os.Geteuid() {
		return fmt.Errorf("peer uid %d is not this user's (%d)", cred.Uid, os.Geteuid())
	}
	return nil
}
