package kv

import "syscall"

// ReleaseMapped lets go of the pages of the file this process has read
// through bbolt's mapping: they stay in the page cache, and a later read
// maps them again from there (a minor fault), but they no longer count in
// the process's resident memory. A pass over a whole large file (an
// import's checks) would otherwise keep all of it resident. The mapping
// is read-only and shared, so dropping its pages loses nothing, and while
// a transaction is open bbolt cannot move it (a remap waits for every
// transaction to end), so the range is the mapping's.
func (t *Tx) ReleaseMapped() {
	if t.tx == nil {
		return // a Backend's user maps no file
	}
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, t.tx.DB().Info().Data, uintptr(t.tx.Size()), syscall.MADV_DONTNEED)
}
