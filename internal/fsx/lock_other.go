//go:build !unix

package fsx

import "os"

// lockFile has no flock to call here. Waiting for a lock succeeds at once,
// and a lock tried without waiting is reported as held by someone else, so
// that a sweep never removes what may be in use.
func lockFile(f *os.File, wait bool) (bool, error) { return wait, nil }
