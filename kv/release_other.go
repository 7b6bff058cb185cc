//go:build !linux

package kv

// ReleaseMapped does nothing here: the pages a pass read stay resident
// until the kernel reclaims them.
func (t *Tx) ReleaseMapped() {}
