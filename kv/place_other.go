//go:build !linux

package kv

// placeNew gives the new file at tmp the name path, never replacing what
// is there: an error wrapping fs.ErrExist if something is.
func placeNew(tmp, path string) error { return linkNew(tmp, path) }
